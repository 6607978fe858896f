//! The embedder identity is stored; a different embedder is refused with the
//! command that fixes it, and `reindex --re-embed` switches over.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use almirah_core::embed::EmbedderConfig;
use almirah_core::{Engine, EngineConfig, Error, NoProgress};

fn engine(data: &std::path::Path, dimensions: usize) -> Engine {
    let mut cfg = EngineConfig::new(data);
    cfg.embedder = EmbedderConfig::Hash { dimensions };
    cfg.map_size = 1 << 30;
    Engine::open(cfg).unwrap()
}

#[test]
fn a_changed_embedder_is_refused_until_re_embedded() {
    let docs = tempfile::tempdir().unwrap();
    let src = common::corpora().join("handbook_sourcegraph/content");
    let files = common::first_markdown(&src, 8);
    common::copy_files(&src, docs.path(), &files.iter().map(String::as_str).collect::<Vec<_>>());
    let data = tempfile::tempdir().unwrap();
    {
        let e = engine(data.path(), 64);
        common::index(&e, &[docs.path()]);
    }
    let e = engine(data.path(), 32);
    let err = common::try_search(&e, "handbook").unwrap_err();
    assert!(matches!(err, Error::EmbedderMismatch { .. }));
    assert!(err.to_string().contains("almirah reindex --re-embed"), "{err}");
    let chunks = e.status().unwrap().chunks;
    let report = e.reindex_re_embed(&NoProgress).unwrap();
    assert_eq!(report.chunks, chunks);
    assert_eq!(report.vector_index, 1);
    let hits = common::search(&e, "handbook");
    assert!(!hits.hits.is_empty());
    assert_eq!(e.status().unwrap().embedder.unwrap().dimensions, 32);
    assert_eq!(e.dump().unwrap().counts["vectors"], chunks);
}
