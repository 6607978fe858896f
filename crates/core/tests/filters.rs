//! Tool filters narrow the admissible set and never widen it (issue 14):
//! a session filter keeps that session's current documents, a series filter
//! that series' current version, and neither ever returns a withheld chunk.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::path::Path;

use almirah_core::SearchOptions;
use almirah_core::freshness::Session;
use almirah_core::read::DocFilter;
use common::{corpora, hash_engine, index};

fn as_of(engine: &almirah_core::Engine) -> almirah_core::freshness::AsOf {
    engine.as_of(chrono::NaiveDate::from_ymd_opt(2026, 11, 29), None)
}

#[test]
fn a_session_filter_returns_circular_14_first_and_a_series_filter_only_its_series() {
    let data = tempfile::tempdir().unwrap();
    let engine = hash_engine(data.path());
    index(&engine, &[&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../sample-docs/university")]);
    let snapshot = engine.snapshot(as_of(&engine)).unwrap();
    let opts = SearchOptions { k: 8, ..SearchOptions::default() };
    let session = DocFilter { session: Session::parse("2026-27"), ..DocFilter::default() };
    let hits = snapshot.search("hostel fee scholarship", &opts, 3, &session).unwrap();
    assert!(!hits.results.hits.is_empty(), "a 2026-27 filter found nothing");
    assert!(hits.results.hits[0].key.starts_with("circular-14@2026-27"), "{:?}", hits.results.hits[0].key);
    assert!(hits.results.hits.iter().all(|h| h.verdict.is_admissible() && !h.key.starts_with("circular-09")));
    let old = DocFilter { session: Session::parse("2024-25"), ..DocFilter::default() };
    let none = snapshot.search("hostel fee scholarship", &opts, 3, &old).unwrap();
    assert!(none.results.hits.is_empty(), "a past session's filter admitted {:?}", none.results.hits[0].key);
    let docs = snapshot.documents().unwrap();
    for d in docs.iter().filter(|d| d.meta.series.is_some()) {
        let series = d.meta.series.as_ref().unwrap().value.clone();
        let filter = DocFilter { series: Some(series.clone()), ..DocFilter::default() };
        for h in snapshot.search(&d.title, &opts, 0, &filter).unwrap().results.hits {
            let doc = docs.iter().find(|x| x.id == h.doc_id).unwrap();
            assert_eq!(doc.meta.series.as_ref().map(|f| f.value.clone()), Some(series.clone()), "{}", h.key);
            assert!(doc.is_current(), "series filter returned withheld {}", h.key);
        }
    }
}

#[test]
fn a_series_filter_on_the_18f_versions_returns_the_current_version_only() {
    let data = tempfile::tempdir().unwrap();
    let engine = hash_engine(data.path());
    let overtime = corpora().join("versions_18f_travel_leave/travel-and-leave/overtime");
    let tmp = tempfile::tempdir().unwrap();
    let dest = tmp.path().join("travel-and-leave/overtime");
    std::fs::create_dir_all(&dest).unwrap();
    let mut files: Vec<String> = std::fs::read_dir(&overtime)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".md"))
        .collect();
    files.sort();
    assert!(files.len() > 2, "the overtime page has versions");
    for f in &files {
        std::fs::copy(overtime.join(f), dest.join(f)).unwrap();
    }
    index(&engine, &[tmp.path()]);
    let snapshot = engine.snapshot(as_of(&engine)).unwrap();
    let docs = snapshot.documents().unwrap();
    let newest = docs.iter().find(|d| d.path.ends_with(files.last().unwrap())).unwrap();
    let series = newest.meta.series.as_ref().expect("the versions form a series").value.clone();
    let key_base = newest.key.split('@').next().unwrap().to_string();
    for wanted in [series, key_base] {
        let filter = DocFilter { series: Some(wanted.clone()), ..DocFilter::default() };
        let hits = snapshot.search("overtime pay cap salary", &SearchOptions::default(), 3, &filter).unwrap();
        assert!(!hits.results.hits.is_empty(), "series filter {wanted:?} found nothing");
        assert!(hits.results.hits.iter().all(|h| h.doc_id == newest.id), "{wanted:?} returned an old version");
        assert!(!hits.withheld.is_empty(), "the older versions are noted, not returned");
    }
}
