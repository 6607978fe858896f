//! OCR through the real binary (extraction in a child process, OCR
//! programs as its children): the nine scanned NHAI circulars of
//! `pdfs_mixed` are read, dated from their OCR text and searchable; touching
//! them or editing their metadata never recognises a page again; a page
//! whose OCR times out is marked and the others kept; missing programs give
//! a status naming the packages. Needs poppler-utils and tesseract-ocr
//! (`scripts/ocr-deps.sh`).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, SystemTime};

use serde_json::Value;

/// Issue dates (day.month.2025) of the nine circulars, read on the scans.
const ISSUED: [(&str, &str); 9] = [
    ("2.1.80", "2025-02-13"),
    ("2.1.82", "2025-02-26"),
    ("2.1.83", "2025-05-02"),
    ("2.1.85", "2025-06-13"),
    ("2.1.86", "2025-07-10"),
    ("2.1.87", "2025-09-22"),
    ("2.2.14", "2025-02-28"),
    ("2.2.15", "2025-03-01"),
    ("2.5.17", "2025-03-13"),
];

/// OCR uses every core; the tests of this file take turns, so a page's time
/// limit is never spent waiting for another test's recognisers.
static OCR_TURN: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn turn() -> std::sync::MutexGuard<'static, ()> {
    OCR_TURN.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn nhai(into: &Path) -> std::path::PathBuf {
    let dir = into.join("nhai");
    common::copy_tree(&common::corpora().join("pdfs_mixed/nhai_circulars_scanned"), &dir);
    dir
}

fn stem(path: &str) -> String {
    Path::new(path).file_stem().unwrap().to_string_lossy().into_owned()
}

fn outcomes_by_stem(report: &Value) -> BTreeMap<String, Value> {
    report["outcomes"].as_array().unwrap().iter().map(|o| (stem(o["path"].as_str().unwrap()), o.clone())).collect()
}

#[test]
fn scanned_circulars_are_read_dated_searchable_and_never_recognised_twice() {
    let _turn = turn();
    let docs = tempfile::tempdir().unwrap();
    let dir = nhai(docs.path());
    let lib = common::Library::hash(500);
    let report = lib.json(&["index", "--quiet", dir.to_str().unwrap()]);
    let outcomes = outcomes_by_stem(&report);
    assert_eq!(outcomes.len(), 9, "{report}");
    for (name, o) in &outcomes {
        assert_eq!(o["action"], "indexed (ocr)", "{name}: {o}");
        let ocr = &o["ocr"];
        assert_eq!(ocr["pages_read"], ocr["pages"], "{name}: every page has text: {ocr}");
        assert!(ocr["mean_confidence"].as_f64().unwrap() > 80.0, "{name}: {ocr}");
        assert!(o["chunks"].as_u64().unwrap() > 0, "{name}");
    }
    assert_eq!(report["ocr_files"], 9);
    assert_eq!(report["ocr_pages_recognised"], 12, "3+1+1+1+1+2+1+1+1 pages");

    let listed = lib.json(&["docs"]);
    let issued: BTreeMap<String, String> = listed["documents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| (stem(d["path"].as_str().unwrap()), d["meta"]["issued"]["value"].as_str().unwrap_or("").to_string()))
        .collect();
    for (name, date) in ISSUED {
        assert_eq!(issued.get(name).map(String::as_str), Some(date), "issue date of {name}");
    }
    let refs = &listed["documents"].as_array().unwrap().iter().find(|d| stem(d["path"].as_str().unwrap()) == "2.2.14");
    assert!(refs.unwrap()["meta"]["references"].to_string().contains("circular:2.2.14"));

    let found = lib.json(&["search", "maximum age for empanelment of DRB members"]);
    let first = &found["results"]["hits"][0];
    assert_eq!(stem(first["path"].as_str().unwrap()), "2.2.14", "{found}");
    assert_eq!(first["pages"], serde_json::json!([1, 1]));
    assert!(first["source_note"].as_str().unwrap().starts_with("read by OCR (eng+hin), page 1, confidence"), "{first}");

    let answer = lib.json(&["ask", "What is the maximum age for empanelment of DRB members?"]);
    let citations = answer["citations"].as_array().unwrap();
    assert!(!citations.is_empty(), "{answer}");
    for c in citations {
        assert!(
            c["note"].as_str().unwrap_or("").contains("read by OCR (eng+hin)"),
            "citations of OCR text say so: {c}"
        );
    }

    let later = SystemTime::now() + Duration::from_secs(5);
    for entry in std::fs::read_dir(&dir).unwrap().flatten() {
        std::fs::File::options().write(true).open(entry.path()).unwrap().set_modified(later).unwrap();
    }
    let touched = lib.json(&["index", "--quiet", dir.to_str().unwrap()]);
    assert_eq!(touched["extract_calls"], 0, "{touched}");
    assert_eq!(touched["ocr_pages_recognised"], 0, "{touched}");

    std::fs::write(dir.join("2.1.80.pdf.meta.toml"), "title = \"Conciliation through CCIE\"\n").unwrap();
    let edited = lib.json(&["index", "--quiet", dir.to_str().unwrap()]);
    assert_eq!(edited["outcomes"].as_array().unwrap().len(), 1, "the sidecar changes one file's hash: {edited}");
    assert_eq!(edited["extract_calls"], 2, "its text layer, then its OCR pass: {edited}");
    assert_eq!(edited["ocr_files"], 1, "{edited}");
    assert_eq!(edited["ocr_pages_recognised"], 0, "a metadata edit never re-runs OCR: {edited}");
    assert_eq!(edited["ocr_pages_cached"], 3, "{edited}");
}

/// A `tesseract` that hangs on page 2 of any file (its image is named
/// `img-2-…` or `page-2.png`) and is the real one otherwise.
fn hanging_tesseract(dir: &Path) -> std::path::PathBuf {
    let real = which("tesseract");
    let script = dir.join("tesseract");
    let body = format!(
        "#!/bin/sh\ncase \"$1\" in\n  */img-2-*|*/page-2.png) exec sleep 47.25 ;;\nesac\nexec {} \"$@\"\n",
        real.display()
    );
    std::fs::write(&script, body).unwrap();
    std::process::Command::new("chmod").arg("+x").arg(&script).status().unwrap();
    script
}

fn which(program: &str) -> std::path::PathBuf {
    let out = std::process::Command::new("sh").arg("-c").arg(format!("command -v {program}")).output().unwrap();
    let path = String::from_utf8_lossy(&out.stdout).trim().to_string();
    assert!(!path.is_empty(), "{program} is not installed (scripts/ocr-deps.sh)");
    path.into()
}

#[test]
fn a_page_whose_ocr_times_out_is_marked_and_the_rest_of_the_batch_indexes() {
    let _turn = turn();
    let docs = tempfile::tempdir().unwrap();
    let dir = docs.path().join("in");
    std::fs::create_dir_all(&dir).unwrap();
    let scans = common::corpora().join("pdfs_mixed/nhai_circulars_scanned");
    std::fs::copy(scans.join("2.1.87.pdf"), dir.join("2.1.87.pdf")).unwrap();
    std::fs::write(dir.join("note.md"), "# Canteen\n\nThe canteen opens at 8.\n").unwrap();
    let bin = tempfile::tempdir().unwrap();
    let tesseract = hanging_tesseract(bin.path());
    let config = format!(
        "[embedder]\nprovider = \"hash\"\ndimensions = 64\n[ocr]\npage_timeout_ms = 20000\ntesseract = \"{}\"\n",
        tesseract.display()
    );
    let lib = common::Library::with_config(&config);
    let report = lib.json(&["index", "--quiet", dir.to_str().unwrap()]);
    let outcomes = outcomes_by_stem(&report);
    assert_eq!(outcomes["note"]["action"], "indexed", "{report}");
    let scan = &outcomes["2.1.87"];
    assert_eq!(scan["action"], "indexed (ocr)", "{scan}");
    assert_eq!(scan["ocr"]["pages_read"], 1, "{scan}");
    assert_eq!(scan["ocr"]["unread_pages"], serde_json::json!([[2, "timed out after 20 s"]]), "{scan}");
    let left = std::process::Command::new("pgrep").args(["-f", "sleep 47.25"]).output().unwrap();
    assert!(
        left.stdout.is_empty(),
        "a timed-out recogniser is still running: {}",
        String::from_utf8_lossy(&left.stdout)
    );
    let found = lib.json(&["search", "Conciliation through CCIE"]);
    let pages: Vec<&Value> = found["results"]["hits"].as_array().unwrap().iter().map(|h| &h["pages"]).collect();
    assert!(pages.contains(&&serde_json::json!([1, 1])), "page 1 is searchable: {found}");
    assert!(!pages.contains(&&serde_json::json!([2, 2])), "page 2 was not read: {found}");
}

#[test]
fn without_the_ocr_programs_a_scan_names_the_packages_to_install() {
    let _turn = turn();
    let docs = tempfile::tempdir().unwrap();
    let dir = docs.path().join("in");
    std::fs::create_dir_all(&dir).unwrap();
    let scans = common::corpora().join("pdfs_mixed/nhai_circulars_scanned");
    std::fs::copy(scans.join("2.2.14.pdf"), dir.join("2.2.14.pdf")).unwrap();
    let config = "[embedder]\nprovider = \"hash\"\ndimensions = 64\n[ocr]\ntesseract = \"/nonexistent/tesseract\"\n";
    let lib = common::Library::with_config(config);
    let out = lib.run(&["index", "--quiet", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "a scan that cannot be read is a failure to report");
    let status = lib.json(&["status"]);
    let problem = &status["problems"][0];
    assert_eq!(problem["status"], "no-text-layer", "{status}");
    let reason = problem["reason"].as_str().unwrap();
    assert!(reason.contains("poppler-utils tesseract-ocr tesseract-ocr-eng tesseract-ocr-hin"), "{reason}");

    // Once the programs are there, the next run reads the scan: it was not
    // recorded as unchanged.
    let fixed = "[embedder]\nprovider = \"hash\"\ndimensions = 64\n";
    std::fs::write(lib.dir.path().join("config.toml"), fixed).unwrap();
    let report = lib.json(&["index", "--quiet", dir.to_str().unwrap()]);
    assert_eq!(report["outcomes"][0]["action"], "indexed (ocr)", "{report}");
}
