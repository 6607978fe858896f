//! Shared test fixtures: the real corpora, temporary libraries, a fast
//! deterministic embedder.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use almirah_core::embed::EmbedderConfig;
use almirah_core::{Engine, EngineConfig, IngestReport, NoProgress};

/// `../shared/corpora` (or `$ALMIRAH_CORPORA`); panics — failing the test —
/// when it is missing, so a missing corpus never passes silently.
pub fn corpora() -> PathBuf {
    let path = std::env::var_os("ALMIRAH_CORPORA")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpora"));
    assert!(path.is_dir(), "test corpora missing at {} (set ALMIRAH_CORPORA)", path.display());
    path
}

/// Copy `files` (relative to `from`) into `to`, keeping relative paths.
pub fn copy_files(from: &Path, to: &Path, files: &[&str]) {
    for f in files {
        let dest = to.join(f);
        std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
        std::fs::copy(from.join(f), &dest).unwrap();
    }
}

/// The first `n` Markdown files (sorted) of a folder, relative paths.
pub fn first_markdown(dir: &Path, n: usize) -> Vec<String> {
    let mut all: Vec<String> = walk(dir)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .map(|p| p.strip_prefix(dir).unwrap().to_string_lossy().into_owned())
        .collect();
    all.sort();
    all.truncate(n);
    all
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let p = entry.path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

/// An engine over a fresh library in `data`, with the deterministic hash
/// embedder (64 dims) and in-process extraction.
pub fn hash_engine(data: &Path) -> Engine {
    let mut cfg = EngineConfig::new(data);
    cfg.embedder = EmbedderConfig::Hash { dimensions: 64 };
    cfg.map_size = 1 << 30;
    Engine::open(cfg).unwrap()
}

/// Index `roots` with no progress output.
pub fn index(engine: &Engine, roots: &[&Path]) -> IngestReport {
    let roots: Vec<PathBuf> = roots.iter().map(|p| p.to_path_buf()).collect();
    engine.index(&roots, &NoProgress, &AtomicBool::new(false)).unwrap()
}

/// Gated search as of 2026-11-29 with default options; admissible hits only.
pub fn try_search(engine: &Engine, query: &str) -> almirah_core::Result<almirah_core::SearchResults> {
    let as_of = engine.as_of(chrono::NaiveDate::from_ymd_opt(2026, 11, 29), None);
    Ok(engine.search(query, &almirah_core::SearchOptions::default(), as_of, 0)?.results)
}

/// [`try_search`], unwrapped.
pub fn search(engine: &Engine, query: &str) -> almirah_core::SearchResults {
    try_search(engine, query).unwrap()
}

pub mod watching;
