//! Chunk spans, ordinals, anchors and section boundaries.
#![allow(missing_docs, clippy::unwrap_used)]

use std::path::Path;

use almirah_extract::{ChunkOptions, chunk, extract};

fn long_text() -> String {
    let mut text = String::from("\n  Leave policy\n\n");
    for i in 0..40 {
        text.push_str(&format!("Paragraph {i}: employees accrue leave every pay period and may carry it over. "));
        text.push_str("Requests go to the supervisor in advance.\n\n");
    }
    text
}

#[test]
fn plain_text_chunk_text_equals_source_slice() {
    let src = long_text();
    let doc = extract(Path::new("leave.txt"), src.as_bytes()).unwrap();
    let chunks = chunk(&doc, &ChunkOptions { min_chars: 200, max_chars: 500 });
    assert!(chunks.len() > 5, "{}", chunks.len());
    for (i, c) in chunks.iter().enumerate() {
        let (start, end) = (c.byte_span.0 as usize, c.byte_span.1 as usize);
        assert_eq!(&src[start..end], c.text, "chunk {i}");
        assert!(c.text.chars().count() <= 500);
        assert_eq!(c.ordinal, i as u32);
        assert_eq!(c.anchor, "text");
        assert_eq!(c.pages, None);
    }
    assert!(chunks[0].text.starts_with("Leave policy"));
    assert_eq!(chunks[0].byte_span.0, 3);
}

#[test]
fn chunks_never_cross_headings() {
    let src = "# Pay cap\n\nShort one.\n\n## Comp time\n\nAnother short one.\n";
    let doc = extract(Path::new("p.md"), src.as_bytes()).unwrap();
    let chunks = chunk(&doc, &ChunkOptions::default());
    let got: Vec<(&str, &str, Vec<String>)> =
        chunks.iter().map(|c| (c.anchor.as_str(), c.text.as_str(), c.heading_path.clone())).collect();
    assert_eq!(
        got,
        vec![
            ("pay-cap", "Short one.", vec!["Pay cap".to_string()]),
            ("comp-time", "Another short one.", vec!["Pay cap".to_string(), "Comp time".to_string()]),
        ]
    );
    assert_eq!(&src[chunks[1].byte_span.0 as usize..chunks[1].byte_span.1 as usize], "Another short one.");
}

#[test]
fn csv_rows_are_chunks_with_stem_anchor() {
    let src = "Grade,Rate\nGS-12,54.2\nGS-13,64.5\n";
    let doc = extract(Path::new("data/Pay Rates.CSV"), src.as_bytes()).unwrap();
    let chunks = chunk(&doc, &ChunkOptions::default());
    let texts: Vec<&str> = chunks.iter().map(|c| c.text.as_str()).collect();
    assert_eq!(texts, ["Grade: GS-12; Rate: 54.2", "Grade: GS-13; Rate: 64.5"]);
    assert_eq!(chunks[1].anchor, "pay-rates");
    assert_eq!(chunks[1].byte_span.0, 22);
}

#[test]
fn kinds_by_extension() {
    use almirah_extract::{FileKind, kind_of};
    assert_eq!(kind_of(Path::new("a/B.MD")), FileKind::Markdown);
    assert_eq!(kind_of(Path::new("a.markdown")), FileKind::Markdown);
    assert_eq!(kind_of(Path::new("README")), FileKind::Text);
    assert_eq!(kind_of(Path::new("notes.Text")), FileKind::Text);
    assert_eq!(kind_of(Path::new("x.PDF")), FileKind::Pdf);
    assert_eq!(kind_of(Path::new("x.csv")), FileKind::Csv);
    assert_eq!(kind_of(Path::new("x.DOCX")), FileKind::Docx);
    assert_eq!(kind_of(Path::new("x.htm")), FileKind::Html);
    assert_eq!(kind_of(Path::new("x.ods")), FileKind::Ods);
    assert_eq!(kind_of(Path::new("x.doc")), FileKind::Doc);
    assert_eq!(kind_of(Path::new("x.pptx")), FileKind::Unsupported);
    assert_eq!(extract(Path::new("x.pptx"), b"PK"), Err(almirah_extract::ExtractError::Unsupported));
}
