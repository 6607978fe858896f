//! Every write goes through the library's one writer, and the writer counts
//! the transactions it runs. That nothing outside the core can write is the
//! compiler's to check, not this file's: `Store::write` and the LMDB
//! environment are private to `almirah-core` (see the `compile_fail`
//! examples in the docs of `almirah-answer` and `almirah-server`).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

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
