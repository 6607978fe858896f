//! Real handbook pages: front matter and template tags never reach chunks.
#![allow(missing_docs, clippy::unwrap_used, clippy::panic)]

mod common;

use std::path::Path;

use almirah_extract::{ChunkOptions, chunk, extract};

const PAGES: &[&str] = &[
    "handbook_18f/pages/travel-and-leave/overtime.md",
    "handbook_18f/pages/travel-and-leave/paid-parental-leave.md",
    "handbook_18f/pages/about-us/tts-consulting/engagements/index.md",
    "handbook_18f/pages/tools/docker-hub.md",
    "handbook_sourcegraph/content/company-info-and-process/community/code_of_conduct.md",
    "handbook_sourcegraph/content/departments/finance/index.md",
];

#[test]
fn handbook_pages_chunk_cleanly() {
    let root = common::corpora();
    for rel in PAGES {
        let bytes = std::fs::read(root.join(rel)).unwrap();
        let doc = extract(Path::new(rel), &bytes).unwrap();
        assert!(doc.title.is_some(), "{rel}: no title");
        let chunks = chunk(&doc, &ChunkOptions::default());
        assert!(!chunks.is_empty(), "{rel}");
        for c in &chunks {
            assert!(!c.text.contains("{%") && !c.text.contains("{{"), "{rel}: template tag in {:?}", c.text);
            assert!(!c.text.starts_with("---") && !c.text.contains("title:"), "{rel}: front matter in {:?}", c.text);
            assert!(c.text.chars().count() <= 1200, "{rel}: oversized chunk");
            assert!(c.byte_span.0 < bytes.len() as u64, "{rel}: span outside file");
        }
        let ordinals: Vec<u32> = chunks.iter().map(|c| c.ordinal).collect();
        assert_eq!(ordinals, (0..chunks.len() as u32).collect::<Vec<_>>());
    }
}

#[test]
fn whole_18f_handbook_has_no_template_tags_or_front_matter_in_chunks() {
    let dir = common::corpora().join("handbook_18f/pages");
    let mut files = Vec::new();
    collect_md(&dir, &mut files);
    assert!(files.len() > 200, "only {} pages found", files.len());
    for path in files {
        let bytes = std::fs::read(&path).unwrap();
        let Ok(doc) = extract(&path, &bytes) else {
            continue;
        };
        for key in doc.front_matter.keys() {
            let needle = format!("{key}:");
            assert!(doc.sections.iter().all(|s| !s.text.starts_with(&needle)), "{}: {key}", path.display());
        }
        for c in chunk(&doc, &ChunkOptions::default()) {
            assert!(!c.text.contains("{%") && !c.text.contains("%}"), "{}: {:?}", path.display(), c.text);
        }
    }
}

fn collect_md(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            collect_md(&path, out);
        } else if path.extension().is_some_and(|e| e == "md") {
            out.push(path);
        }
    }
}

#[test]
fn sourcegraph_generator_tags_are_stripped() {
    let rel = "handbook_sourcegraph/content/departments/finance/index.md";
    let bytes = std::fs::read(common::corpora().join(rel)).unwrap();
    let src = String::from_utf8(bytes.clone()).unwrap();
    assert!(src.contains("{{generator:"), "fixture changed");
    let doc = extract(Path::new(rel), &bytes).unwrap();
    assert!(doc.sections.iter().all(|s| !s.text.contains("generator:")));
}
