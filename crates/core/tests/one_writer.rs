//! Every write goes through the library's one writer: no source file of the
//! product opens a write transaction except the writer itself (and the
//! database creation when a library is opened), and the writer counts the
//! transactions it runs.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::path::{Path, PathBuf};

/// Rust sources under `dir`, recursively.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let p = entry.path();
        if p.is_dir() && p.file_name().is_some_and(|n| n != "tests" && n != "target") {
            sources(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn no_product_code_opens_a_write_transaction_outside_the_writer() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = Vec::new();
    for dir in [
        "crates/core/src",
        "crates/answer/src",
        "crates/cli/src",
        "crates/settings/src",
        "crates/bench/src",
        "src-tauri/src",
    ] {
        sources(&root.join(dir), &mut files);
    }
    assert!(files.len() > 50, "sources found: {}", files.len());
    // The vector blocks' own test and the benchmark write in LMDB environments
    // of their own, not a library's.
    let allowed = ["store/writer.rs", "store/mod.rs", "vectors/tests.rs", "bench/src/vector_store.rs"];
    let mut offenders = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let hits = text.matches("write_txn(").count();
        let rel = file.to_string_lossy().replace('\\', "/");
        if hits > 0 && !allowed.iter().any(|a| rel.ends_with(a)) {
            offenders.push(format!("{rel}: {hits}"));
        }
    }
    assert!(offenders.is_empty(), "write transactions opened outside the writer: {offenders:?}");
    let store_mod = std::fs::read_to_string(root.join("crates/core/src/store/mod.rs")).unwrap();
    assert_eq!(store_mod.matches("write_txn(").count(), 1, "store/mod.rs only creates the databases");
}

#[test]
fn index_runs_its_writes_on_the_writer() {
    let docs = tempfile::tempdir().unwrap();
    std::fs::write(docs.path().join("a.md"), "# A\n\nThe canteen opens at 8.\n").unwrap();
    let data = tempfile::tempdir().unwrap();
    let engine = common::hash_engine(data.path());
    let before = engine.store().write_transactions();
    common::index(&engine, &[docs.path()]);
    let after = engine.store().write_transactions();
    assert!(after > before, "the batch, the roots and the backfill are writer operations");
}
