//! A real 40-page scan indexes completely by OCR within its time limits,
//! every page with text. The scan is built by `scripts/make-scan-pdf.py`
//! from the real scanned pages of the NHAI circulars (12 page images,
//! cycled; each page has its own OCR cache key). Prints the time it took.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::time::Instant;

#[test]
fn a_forty_page_scan_is_read_completely() {
    let docs = tempfile::tempdir().unwrap();
    let pdf = docs.path().join("scan-40.pdf");
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scripts/make-scan-pdf.py");
    let source = common::corpora().join("pdfs_mixed/nhai_circulars_scanned");
    let made = std::process::Command::new("python3")
        .arg(script)
        .arg(&pdf)
        .args(["--pages", "40", "--source"])
        .arg(&source)
        .output()
        .unwrap();
    assert!(made.status.success(), "{}", String::from_utf8_lossy(&made.stderr));
    let lib = common::Library::hash(500);
    let started = Instant::now();
    let report = lib.json(&["index", "--quiet", docs.path().to_str().unwrap()]);
    let secs = started.elapsed().as_secs_f64();
    let outcome = &report["outcomes"][0];
    assert_eq!(outcome["action"], "indexed (ocr)", "{report}");
    assert_eq!(outcome["ocr"]["pages"], 40, "{outcome}");
    assert_eq!(outcome["ocr"]["pages_read"], 40, "every page has text: {outcome}");
    assert_eq!(outcome["ocr"]["unread_pages"], serde_json::json!([]), "{outcome}");
    assert_eq!(report["ocr_pages_recognised"], 40, "no page came from a cache: {report}");
    let chunks = outcome["chunks"].as_u64().unwrap();
    assert!(chunks >= 40, "at least one chunk per page, got {chunks}");
    eprintln!(
        "40-page scan: {secs:.1} s ({:.2} s a page, {} parallel jobs), {chunks} chunks",
        secs / 40.0,
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );
}
