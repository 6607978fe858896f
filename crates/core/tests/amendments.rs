//! An amending circular ("… is hereby amended as under", as the scanned
//! NHAI circular 2.2.14 says of 2.2.13) leaves the amended circular current
//! and marks it in every read path; a superseding one withholds it; an
//! amendment the user may not see marks nothing.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use almirah_core::read::{Audience, ChunkRead, CitationCheck, DocFilter};

const AMENDED: &str = "NHAI/Policy Guidelines/Dispute Resolution Board/2024\n\
Policy Circular No.2.2.13/2024 dated 28.11.2024\n\n\
Sub: SOP for Empanelment of DRB members.\n\n\
Age Limit: Maximum 70 years (At the time of Empanelment). Site visits: four in twelve months.\n";

const AMENDING: &str = "NHAI/Policy Guidelines/Dispute Resolution Board/2025\n\
Policy Circular No.2.2.14/ 2025 dated 28% February, 2025\n\n\
Sub: Age Criteria for Empanelment of DRB Members - reg.\n\n\
The SOP issued vide Policy Circular No.2.2.13/2024 dated 2870 Nov, 2024 is hereby amended as under:\n\
Age Limit: Maximum 72 years (At the time of Empanelment).\n";

const SUPERSEDING: &str = "Policy Circular No.2.2.16/2025 dated 01.04.2025\n\n\
In supersession of Policy Circular No. 2.2.15/2025, site visits are now two in twelve months.\n";

const SUPERSEDED: &str = "Policy Circular No.2.2.15/2025 dated 01.03.2025\n\nSite visits: four in twelve months.\n";

fn as_of(engine: &almirah_core::Engine) -> almirah_core::freshness::AsOf {
    engine.as_of(chrono::NaiveDate::from_ymd_opt(2026, 11, 29), None)
}

fn library(files: &[(&str, &str)]) -> (tempfile::TempDir, tempfile::TempDir, almirah_core::Engine) {
    let docs = tempfile::tempdir().unwrap();
    for (name, text) in files {
        std::fs::write(docs.path().join(name), text).unwrap();
    }
    let data = tempfile::tempdir().unwrap();
    let engine = common::hash_engine(data.path());
    common::index(&engine, &[docs.path()]);
    (docs, data, engine)
}

#[test]
fn an_amended_circular_stays_current_and_says_it_is_amended() {
    let (_docs, _data, engine) = library(&[
        ("2.2.13.txt", AMENDED),
        ("2.2.14.txt", AMENDING),
        ("2.2.15.txt", SUPERSEDED),
        ("2.2.16.txt", SUPERSEDING),
    ]);
    let reader = engine.reader();
    let snapshot = reader.snapshot(as_of(&engine)).unwrap();
    let docs = snapshot.documents().unwrap();
    let by_stem = |stem: &str| docs.iter().find(|d| d.path.ends_with(&format!("{stem}.txt"))).unwrap();
    let amended = by_stem("2.2.13");
    assert!(amended.is_current(), "an amendment changes part of a circular; the rest stays in force");
    let mark = amended.amended.as_deref().unwrap();
    assert_eq!(mark, "amended by circular 2.2.14 (issued 2025-02-28): where they differ, the amendment applies");
    assert!(by_stem("2.2.14").is_current() && by_stem("2.2.14").amended.is_none());
    assert!(!by_stem("2.2.15").is_current(), "supersession withholds the whole circular");
    assert!(by_stem("2.2.15").amended.is_none());

    let opts = almirah_core::SearchOptions::default();
    let results = snapshot.search("maximum age empanelment", &opts, 0, &DocFilter::default()).unwrap();
    let hits = &results.results.hits;
    let hit = hits.iter().find(|h| h.path.ends_with("2.2.13.txt")).expect("the amended text is searchable");
    assert_eq!(hit.verdict.mark(), Some(mark), "search hits carry the mark");
    let ChunkRead::Admitted { hit } = snapshot.read_chunk(&hit.key).unwrap() else { panic!("read_chunk refused") };
    assert_eq!(hit.verdict.mark(), Some(mark));
    let CitationCheck::Admitted { mark: cited } = snapshot.check_citation(&hit.key).unwrap() else { panic!() };
    assert_eq!(cited.as_deref(), Some(mark), "citations carry the mark");
}

#[test]
fn an_amendment_the_user_may_not_see_marks_nothing() {
    let hidden = format!("---\naudience: [hr-only]\n---\n{AMENDING}");
    let (_docs, _data, engine) = library(&[("2.2.13.txt", AMENDED), ("2.2.14.md", hidden.as_str())]);
    let students = Audience::new(["students"]);
    let reader = engine.reader_as(&students);
    let docs = reader.snapshot(as_of(&engine)).unwrap().documents().unwrap();
    assert_eq!(docs.len(), 1, "the hr-only amendment is hidden");
    assert_eq!(docs[0].amended, None, "its mark would reveal it");
    let hr_only = Audience::new(["hr-only"]);
    let hr = engine.reader_as(&hr_only);
    let docs = hr.snapshot(as_of(&engine)).unwrap().documents().unwrap();
    assert!(docs.iter().any(|d| d.amended.is_some()), "hr sees both and the mark");
}
