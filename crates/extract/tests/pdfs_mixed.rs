//! Every PDF of `shared/corpora/pdfs_mixed` gets the status in
//! `expected-status.tsv` (derived from the corpus MANIFEST), except the
//! documented gaps in `pdf-known-gaps.tsv` where pdf-extract/lopdf cannot yet
//! do what poppler does.
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

use almirah_extract::{ChunkOptions, ExtractError, Extracted, chunk, extract};

fn status(result: &Result<Extracted, ExtractError>) -> &'static str {
    match result {
        Ok(_) => "indexed",
        Err(ExtractError::NeedsPassword) => "needs-password",
        Err(ExtractError::NeedsConversion(_)) => "needs-conversion",
        Err(ExtractError::NoTextLayer) => "no-text-layer",
        Err(ExtractError::LowQualityText(_)) => "low-quality-text",
        Err(ExtractError::Unsupported) => "unsupported",
        Err(ExtractError::Binary) => "binary",
        Err(ExtractError::Empty) => "empty",
        Err(ExtractError::Failed(_) | ExtractError::Unread { .. } | ExtractError::OcrUnavailable { .. }) => "failed",
    }
}

fn check_indexed(file: &str, doc: &Extracted) {
    assert!(!doc.sections.is_empty(), "{file}: no sections");
    assert!(doc.sections.iter().all(|s| s.page.is_some() && !s.text.trim().is_empty()), "{file}: bad section");
    let chunks = chunk(doc, &ChunkOptions::default());
    assert!(!chunks.is_empty(), "{file}: no chunks");
    for c in &chunks {
        let (first, last) = c.pages.expect("pdf chunk has pages");
        assert_eq!(first, last, "{file}: chunk crosses pages");
        assert_eq!(c.anchor, format!("p{first}"));
    }
}

#[test]
fn every_pdf_gets_its_expected_status() {
    let root = common::corpora().join("pdfs_mixed");
    let expected = common::tsv("expected-status.tsv");
    let gaps: BTreeMap<String, String> =
        common::tsv("pdf-known-gaps.tsv").into_iter().map(|r| (r[0].clone(), r[1].clone())).collect();
    assert_eq!(expected.len(), 50, "expected-status.tsv should list the 50 PDFs");
    let mut mismatches = Vec::new();
    let mut timings: Vec<(Duration, String)> = Vec::new();
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for row in &expected {
        let (file, want) = (&row[0], &row[1]);
        if let Some(gap) = gaps.get(file) {
            assert_ne!(gap, want, "{file}: known gap equals the expected status; remove it");
        }
        let want = gaps.get(file).unwrap_or(want);
        let bytes = std::fs::read(root.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        let start = Instant::now();
        let result = extract(Path::new(file), &bytes);
        timings.push((start.elapsed(), file.clone()));
        let got = status(&result);
        *counts.entry(got).or_default() += 1;
        if got != want {
            mismatches.push(format!("{file}: expected {want}, got {result:?}"));
        } else if let Ok(doc) = &result {
            check_indexed(file, doc);
        }
    }
    timings.sort_by(|a, b| b.cmp(a));
    eprintln!("status counts: {counts:?}");
    for (t, f) in timings.iter().take(5) {
        eprintln!("slowest: {f} {} ms", t.as_millis());
    }
    assert!(mismatches.is_empty(), "status mismatches:\n{}", mismatches.join("\n"));
}

#[test]
fn panicking_page_is_skipped_and_noted() {
    // pdf-extract 0.12.1 panics with "missing unicode map and encoding" on one
    // page of this file; the other 116 pages must still be indexed.
    let bytes = std::fs::read(common::corpora().join("pdfs_mixed/pypdf_sample_files/GeoTopo-komprimiert.pdf")).unwrap();
    let doc = extract(Path::new("GeoTopo-komprimiert.pdf"), &bytes).unwrap();
    assert_eq!(doc.pages, Some(117));
    assert!(
        doc.notes.iter().any(|n| n.contains("parser panicked: missing unicode map and encoding")),
        "{:?}",
        doc.notes
    );
    assert!(doc.sections.len() >= 100);
}

#[test]
fn encrypted_with_empty_password_opens() {
    let bytes = std::fs::read(common::corpora().join("pdfs_mixed/pdfjs_test/issue9972-1.pdf")).unwrap();
    let doc = extract(Path::new("issue9972-1.pdf"), &bytes).unwrap();
    assert!(doc.notes.contains(&"opened with empty password".to_string()));
}

#[test]
fn devanagari_is_flagged_low_quality() {
    let bytes =
        std::fs::read(common::corpora().join("pdfs_mixed/udhr_devanagari_and_french/udhr_Deva.HIN_Serif_12.pdf"))
            .unwrap();
    match extract(Path::new("udhr.pdf"), &bytes) {
        Err(ExtractError::LowQualityText(score)) => assert!(score < 0.2, "{score}"),
        other => panic!("expected low-quality-text, got {other:?}"),
    }
}

#[test]
fn title_from_info_dictionary() {
    let bytes = std::fs::read(common::corpora().join("pdfs_mixed/pdfjs_test/freeculture.pdf")).unwrap();
    let doc = extract(Path::new("freeculture.pdf"), &bytes).unwrap();
    assert_eq!(doc.title.as_deref(), Some("Free Culture"));
    assert_eq!(doc.pages, Some(352));
}
