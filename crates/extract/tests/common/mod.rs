//! Shared helpers for the integration tests.
#![allow(dead_code, clippy::panic)]

use std::path::PathBuf;

/// The shared corpora folder: `$ALMIRAH_CORPORA`, else
/// `<CARGO_MANIFEST_DIR>/../../../shared/corpora`. Panics (failing the test)
/// with a clear message when it is missing: these tests must not skip.
pub fn corpora() -> PathBuf {
    let dir = std::env::var_os("ALMIRAH_CORPORA")
        .map_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpora"), PathBuf::from);
    assert!(
        dir.is_dir(),
        "corpus folder {} not found: set ALMIRAH_CORPORA or clone shared/ beside the repository",
        dir.display()
    );
    dir
}

/// Rows of a tab-separated file under `tests/`, header skipped.
pub fn tsv(name: &str) -> Vec<Vec<String>> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines().skip(1).filter(|l| !l.trim().is_empty()).map(|l| l.split('\t').map(String::from).collect()).collect()
}
