//! The 50 real PDFs of `pdfs_mixed`: indexing through the real binary (child
//! process extraction) ends with no crash and the expected status for every
//! file (`crates/extract/tests/expected-status.tsv`, derived from the MANIFEST).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::collections::BTreeMap;

#[test]
fn every_pdf_gets_its_expected_status_and_the_run_exits_2() {
    let docs = tempfile::tempdir().unwrap();
    common::copy_tree(&common::corpora().join("pdfs_mixed"), docs.path());
    let lib = common::Library::hash(500);
    let out = lib.run(&["index", "--quiet", docs.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "stderr: {}", String::from_utf8_lossy(&out.stderr));

    let expected_text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../extract/tests/expected-status.tsv")).unwrap();
    let expected: BTreeMap<String, String> = expected_text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("file\t") && !l.trim().is_empty())
        .map(|l| {
            let mut parts = l.split('\t');
            (parts.next().unwrap().to_string(), parts.next().unwrap().trim().to_string())
        })
        .collect();
    assert_eq!(expected.len(), 50);
    // Known gaps: files where pdf-extract cannot do what the MANIFEST implies;
    // the test holds us to what we report today, and fails if a gap closes.
    let gaps_text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../extract/tests/pdf-known-gaps.tsv")).unwrap();
    let gaps: BTreeMap<String, String> = gaps_text
        .lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let mut parts = l.split('\t');
            (parts.next().unwrap().to_string(), parts.next().unwrap().trim().to_string())
        })
        .collect();

    let status = lib.json(&["status"]);
    let mut actual: BTreeMap<String, String> = BTreeMap::new();
    for p in status["problems"].as_array().unwrap() {
        let rel = p["path"]
            .as_str()
            .unwrap()
            .strip_prefix(&format!("{}/", docs.path().canonicalize().unwrap().display()))
            .unwrap()
            .to_string();
        actual.insert(rel, p["status"].as_str().unwrap().to_string());
    }
    let mut mismatches = Vec::new();
    for (file, manifest_status) in &expected {
        let want = gaps.get(file).unwrap_or(manifest_status);
        let got = actual.get(file).map_or("indexed", String::as_str);
        if got != want {
            mismatches.push(format!("{file}: expected {want}, got {got}"));
        }
    }
    assert!(mismatches.is_empty(), "status mismatches:\n{}", mismatches.join("\n"));
    let total: u64 = status["files_by_status"].as_object().unwrap().values().map(|v| v.as_u64().unwrap()).sum();
    // 50 PDFs plus the corpus's SOURCE.txt (indexed) and MANIFEST.tsv (unsupported).
    assert_eq!(total, 52, "every file has a status");
    assert_eq!(actual.get("MANIFEST.tsv").map(String::as_str), Some("unsupported"));
}
