//! OCR of the real scanned circulars (needs poppler-utils and tesseract-ocr;
//! `scripts/ocr-deps.sh` installs them).
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::path::Path;

use almirah_extract::ocr::{NoCache, OcrOptions, PageOutcome};
use almirah_extract::{ExtractError, extract_with_ocr};

#[test]
fn a_scanned_circular_is_read_with_its_table() {
    let file = common::corpora().join("pdfs_mixed/nhai_circulars_scanned/2.2.14.pdf");
    let bytes = std::fs::read(&file).unwrap();
    let doc = extract_with_ocr(&file, &bytes, &OcrOptions::default(), &NoCache).unwrap();
    let report = doc.ocr.as_ref().expect("read by OCR");
    assert_eq!(report.pages.len(), 1);
    assert!(matches!(report.pages[0].outcome, PageOutcome::Read { cached: false, .. }), "{:?}", report.pages[0]);
    assert!(report.mean_confidence() > 80.0, "{}", report.mean_confidence());
    let text = &doc.sections[0].text;
    assert!(text.contains("Maximum 72 years"), "{text}");
    assert!(text.contains("राजमार्ग"), "{text}");
    assert_eq!(doc.sections[0].page, Some(1));
}

#[test]
fn missing_programs_name_the_packages() {
    let file = common::corpora().join("pdfs_mixed/nhai_circulars_scanned/2.2.14.pdf");
    let bytes = std::fs::read(&file).unwrap();
    let opts = OcrOptions { tesseract: "/nonexistent/tesseract".into(), ..OcrOptions::default() };
    let err = extract_with_ocr(Path::new("x.pdf"), &bytes, &opts, &NoCache).unwrap_err();
    assert_eq!(err.status_error(), &ExtractError::NoTextLayer);
    let text = err.to_string();
    assert!(text.starts_with("no-text-layer; OCR needs"), "{text}");
    assert!(text.contains("tesseract-ocr-hin"), "{text}");
}
