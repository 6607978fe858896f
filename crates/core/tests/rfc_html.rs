//! The HTTP RFCs as the IETF's HTML pages (`versions_rfc_http/raw_html`)
//! index as HTML and get the supersession statuses of their plain-text
//! versions (issue 20): `dct.replaces` and the header block's
//! `Obsoletes:` line say what each RFC obsoletes; `Updates:` is not
//! supersession.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use almirah_core::freshness::Provenance;
use almirah_core::store::FileStatus;

/// RFC number → (status labels, RFC numbers superseding it, supersedes field source).
type Statuses = BTreeMap<u32, (Vec<String>, Vec<u32>, Option<Provenance>)>;

/// The RFC number in a file's name (`/tmp/.tmpX1/rfc7230.html` → 7230).
fn rfc_number(path: &str) -> u32 {
    let name = path.rsplit('/').next().unwrap_or(path);
    let digits: String = name.chars().skip_while(|c| !c.is_ascii_digit()).take_while(char::is_ascii_digit).collect();
    digits.parse().unwrap_or_else(|_| panic!("no RFC number in {path}"))
}

/// Index the files of `dir` named `rfc*.<ext>` and read every RFC's status.
fn statuses(dir: &Path, ext: &str) -> Statuses {
    let docs = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        if entry.path().extension().is_some_and(|e| e == ext) {
            std::fs::copy(entry.path(), docs.path().join(entry.file_name())).unwrap();
        }
    }
    let data = tempfile::tempdir().unwrap();
    let engine = common::hash_engine(data.path());
    let report = common::index(&engine, &[docs.path()]);
    let bad: Vec<_> = report.outcomes.iter().filter(|o| o.status != Some(FileStatus::Indexed)).collect();
    assert!(bad.is_empty(), "{bad:?}");
    let as_of = engine.as_of(chrono::NaiveDate::from_ymd_opt(2026, 11, 29), None);
    let by_key: BTreeMap<String, u32> =
        engine.documents(as_of).unwrap().iter().map(|d| (d.key.clone(), rfc_number(&d.path))).collect();
    engine
        .documents(as_of)
        .unwrap()
        .into_iter()
        .map(|d| {
            let labels = d.statuses.iter().map(|s| s.as_str().to_string()).collect();
            let by = d.superseded_by.iter().map(|k| by_key[k]).collect();
            (rfc_number(&d.path), (labels, by, d.meta.supersedes.map(|f| f.source)))
        })
        .collect()
}

#[test]
fn each_rfc_page_gets_the_supersession_statuses_of_its_text_version() {
    let root = common::corpora().join("versions_rfc_http");
    let html = statuses(&root.join("raw_html"), "html");
    let text = statuses(&root.join("text"), "txt");
    assert_eq!(html.len(), 23);
    for (rfc, (labels, by, source)) in &html {
        let (want_labels, want_by, _) = &text[rfc];
        assert_eq!((labels, by), (want_labels, want_by), "RFC {rfc}: HTML vs text");
        if let Some(source) = source {
            assert_eq!(*source, Provenance::Properties, "RFC {rfc}: dct.replaces is read first");
        }
    }
    // The chains the SOURCE.txt names: 7230 by 9110 and 9112, 7234 by 9111,
    // 7540 by 9113, 5988 by 8288, 8941 by 9651; 9110 and later are current.
    assert_eq!(html[&7230].1, [9110, 9112]);
    assert_eq!(html[&7234].1, [9111]);
    assert_eq!(html[&7540].1, [9113]);
    assert_eq!(html[&5988].1, [8288]);
    assert_eq!(html[&8941].1, [9651]);
    assert_eq!(html[&9110].0, ["current"]);
    assert_eq!(html[&7231].0, ["superseded"]);
    assert!(html.values().filter(|(l, _, _)| l == &["superseded"]).count() >= 10);
    assert_eq!(html[&9110].2, Some(Provenance::Properties), "9110's dct.replaces");
}

/// Both renderings of each RFC in one folder are two documents with the
/// same statuses: a page and its text are not one series (neither
/// supersedes the other), and an old RFC is superseded by the new one in
/// both renderings.
#[test]
fn a_folder_holding_both_renderings_indexes_each_with_the_same_statuses() {
    let root = common::corpora().join("versions_rfc_http");
    let both = tempfile::tempdir().unwrap();
    for dir in ["raw_html", "text"] {
        for entry in std::fs::read_dir(root.join(dir)).unwrap().flatten() {
            std::fs::copy(entry.path(), both.path().join(entry.file_name())).unwrap();
        }
    }
    let mixed = statuses_by_file(both.path());
    assert_eq!(mixed.len(), 47, "23 pages and 24 texts");
    let html = statuses(&root.join("raw_html"), "html");
    for (name, (labels, by)) in &mixed {
        let rfc = rfc_number(name);
        if let Some((want_labels, want_by, _)) = html.get(&rfc) {
            assert_eq!(labels, want_labels, "{name}");
            let mut by: Vec<u32> = by.iter().map(|f| rfc_number(f)).collect();
            by.sort_unstable();
            by.dedup();
            assert_eq!(&by, want_by, "{name}: superseded by");
        }
    }
}

/// File name → (status labels, file names of the documents superseding it).
fn statuses_by_file(dir: &Path) -> BTreeMap<String, (Vec<String>, Vec<String>)> {
    let data = tempfile::tempdir().unwrap();
    let engine = common::hash_engine(data.path());
    common::index(&engine, &[dir]);
    let as_of = engine.as_of(chrono::NaiveDate::from_ymd_opt(2026, 11, 29), None);
    let docs = engine.documents(as_of).unwrap();
    let name = |p: &str| p.rsplit('/').next().unwrap().to_string();
    let by_key: BTreeMap<String, String> = docs.iter().map(|d| (d.key.clone(), name(&d.path))).collect();
    docs.iter()
        .map(|d| {
            let labels = d.statuses.iter().map(|s| s.as_str().to_string()).collect();
            let by = d.superseded_by.iter().map(|k| by_key[k].clone()).collect();
            (name(&d.path), (labels, by))
        })
        .collect()
}

/// A query that hinges on a number ("status code 413"): the keyword list's
/// best hit holds it, the vector list (which cannot tell 413 from 414)
/// does not rank it, and the fused list still puts it first instead of
/// under the chunks both lists rank mid-way.
#[test]
fn a_keyword_hit_holding_the_query_number_is_not_buried_by_fusion() {
    let docs = tempfile::tempdir().unwrap();
    let text = common::corpora().join("versions_rfc_http/text");
    common::copy_files(&text, docs.path(), &["rfc2616.txt"]);
    let data = tempfile::tempdir().unwrap();
    let engine = common::hash_engine(data.path());
    common::index(&engine, &[docs.path()]);
    let as_of = engine.as_of(chrono::NaiveDate::from_ymd_opt(2012, 1, 1), None);
    let q = "What is status code 413 called?";
    let run = |mode| {
        let opts = almirah_core::SearchOptions { mode, depth: 8, ..Default::default() };
        engine.search(q, &opts, as_of, 0).unwrap().results.hits
    };
    let keyword = run(almirah_core::SearchMode::Bm25);
    assert!(keyword[0].text.contains(" 413 "), "{}", keyword[0].text);
    let vector = run(almirah_core::SearchMode::Vector);
    assert!(vector.iter().all(|h| h.chunk_id != keyword[0].chunk_id), "the vector list ranks it: no test");
    let hybrid = run(almirah_core::SearchMode::Hybrid);
    let both = hybrid.iter().filter(|h| vector.iter().any(|v| v.chunk_id == h.chunk_id)).count();
    assert!(both >= 1, "no hit is in both lists: plain RRF would not bury it either");
    assert_eq!(hybrid[0].chunk_id, keyword[0].chunk_id, "{:?}", hybrid.iter().map(|h| &h.key).collect::<Vec<_>>());
}
