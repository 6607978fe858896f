//! The gate's inputs kept by the writer (issue 16): after every kind of
//! writer operation (index, edit, sidecar change, override, move, delete,
//! a newer version that fails to read, a folder removed), on real
//! documents, the stored per-document gate records and the failed-files
//! set equal what recomputing them from the full metadata gives, and the
//! gate built from them equals the gate built from the full metadata, for
//! several as-of dates and audiences.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::path::Path;
use std::sync::Arc;

use almirah_core::Engine;
use almirah_core::freshness::gate::{Gate, GateInputs};
use almirah_core::store::gate_records;

/// Stored records agree with the metadata, and both gates agree.
fn check(engine: &Engine, step: &str) {
    let store = engine.store();
    let dbs = store.dbs();
    let rtxn = store.read_txn().unwrap();
    let off = gate_records::disagreements(dbs, &rtxn).unwrap();
    assert!(off.is_empty(), "after {step}: stored gate records disagree with the metadata:\n{}", off.join("\n"));
    let docs = dbs.doc_meta.len(&rtxn).unwrap();
    assert_eq!(dbs.gate_docs.len(&rtxn).unwrap(), docs, "after {step}: one record per document");
    let folders = engine.folders();
    let stored = Arc::new(GateInputs::load(dbs, &rtxn, &folders).unwrap());
    let recomputed = Arc::new(GateInputs::recompute(dbs, &rtxn, &folders).unwrap());
    let dates = [(2022, 12, 1), (2023, 7, 1), (2024, 12, 1), (2026, 11, 29)];
    let audiences: [&[&str]; 4] = [&[], &["all-staff"], &["hr-only", "all-staff"], &["Students"]];
    for (y, m, d) in dates {
        let as_of = engine.as_of(chrono::NaiveDate::from_ymd_opt(y, m, d), None);
        for audience in audiences {
            let audience: Vec<String> = audience.iter().map(|a| a.to_string()).collect();
            let a = Gate::from_inputs(Arc::clone(&stored), as_of, &audience);
            let b = Gate::from_inputs(Arc::clone(&recomputed), as_of, &audience);
            let at = format!("after {step}, as of {y}-{m}-{d}, audience {audience:?}");
            assert_eq!(a.admissible(), b.admissible(), "{at}: admissible chunks");
            assert_eq!(a.withheld(), b.withheld(), "{at}: withheld chunks");
            let statuses = |g: &Gate| g.visible_documents().map(|(id, s)| (id, s.clone())).collect::<Vec<_>>();
            assert_eq!(statuses(&a), statuses(&b), "{at}: statuses");
            for (id, _) in a.visible_documents() {
                assert_eq!(a.unreadable_mark(id), b.unreadable_mark(id), "{at}: unreadable mark of {id}");
                assert_eq!(a.amendment_mark(id), b.amendment_mark(id), "{at}: amendment mark of {id}");
                assert_eq!(a.chunks_of(id), b.chunks_of(id), "{at}: chunks of {id}");
                assert_eq!((a.series(id), a.session(id)), (b.series(id), b.session(id)), "{at}: filters of {id}");
            }
        }
    }
}

fn failed_files(engine: &Engine) -> Vec<String> {
    let rtxn = engine.store().read_txn().unwrap();
    let failed = engine.store().dbs().gate_failed;
    failed.iter(&rtxn).unwrap().map(|e| e.unwrap().0.to_string()).collect()
}

/// Three series of the 18F travel-and-leave versions and the sample docs'
/// university and company folders (circular PDFs with supersession
/// statements, a session handbook, a fee table).
fn lay_out(docs: &Path) {
    let versions = common::corpora().join("versions_18f_travel_leave");
    let mut picked: Vec<String> = Vec::new();
    for series in ["overtime", "voluntary-leave-transfer-program", "travel-guide-table-of-contents"] {
        let dir = versions.join("travel-and-leave").join(series);
        let mut files: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|f| f.ends_with(".md"))
            .map(|f| format!("travel-and-leave/{series}/{f}"))
            .collect();
        files.sort();
        picked.extend(files.into_iter().take(5));
    }
    let picked: Vec<&str> = picked.iter().map(String::as_str).collect();
    common::copy_files(&versions, &docs.join("18f"), &picked);
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../sample-docs");
    for folder in ["university", "company"] {
        let status = std::process::Command::new("cp")
            .arg("-r")
            .arg(sample.join(folder))
            .arg(docs.join(folder))
            .status()
            .unwrap();
        assert!(status.success());
    }
}

#[test]
fn stored_gate_records_always_equal_the_metadata_they_derive_from() {
    let docs = tempfile::tempdir().unwrap();
    lay_out(docs.path());
    let data = tempfile::tempdir().unwrap();
    let engine = common::hash_engine(data.path());
    let reindex = || common::index(&engine, &[docs.path()]);
    reindex();
    check(&engine, "the first index");
    // By path, whatever the audience (the handbook is for students only).
    let doc = |path: &str| {
        let path = Path::new(path).canonicalize().unwrap();
        let rtxn = engine.store().read_txn().unwrap();
        let record = engine.store().dbs().files.get(&rtxn, &path.to_string_lossy()).unwrap();
        record.and_then(|r| r.doc_id).unwrap_or_else(|| panic!("no document for {}", path.display()))
    };

    // Edit: a new version of a page's text.
    let overtime = docs.path().join("18f/travel-and-leave/overtime");
    let mut pages: Vec<_> = std::fs::read_dir(&overtime).unwrap().map(|e| e.unwrap().path()).collect();
    pages.sort();
    let newest = pages.last().unwrap().clone();
    let mut text = std::fs::read_to_string(&newest).unwrap();
    text.push_str("\n\n## Added section\n\nOvertime must be approved in advance by the supervisor.\n");
    std::fs::write(&newest, text).unwrap();
    reindex();
    check(&engine, "an edit");

    // Overrides: session, supersession, audience, effective dates; then removed.
    let handbook = doc(docs.path().join("university/handbook-2026-27.md").to_str().unwrap());
    let leave = doc(docs.path().join("company/leave-policy.md").to_str().unwrap());
    engine.set_override(handbook, "session", Some("2024-25")).unwrap();
    check(&engine, "a session override");
    engine.set_override(leave, "supersedes", Some("Circular-09-2024-25.pdf")).unwrap();
    engine.set_override(leave, "effective_from", Some("2025-01-01")).unwrap();
    check(&engine, "a supersedes override");
    engine.set_override(leave, "audience", Some("hr-only")).unwrap();
    check(&engine, "an audience override");
    engine.set_override(handbook, "session", None).unwrap();
    engine.set_override(leave, "audience", None).unwrap();
    check(&engine, "removed overrides");

    // Sidecar: an audience and an expiry for the expense policy.
    std::fs::write(
        docs.path().join("company/travel-and-expense-policy.md.meta.toml"),
        "audience = [\"hr-only\"]\neffective_until = \"2025-03-31\"\n",
    )
    .unwrap();
    reindex();
    check(&engine, "a new sidecar");
    std::fs::remove_file(docs.path().join("company/travel-and-expense-policy.md.meta.toml")).unwrap();
    reindex();
    check(&engine, "a removed sidecar");

    // Move: the same content at a new path keeps its document.
    let moved_from = docs.path().join("company/it-security-policy.md");
    let id = doc(moved_from.to_str().unwrap());
    std::fs::create_dir_all(docs.path().join("company/archive")).unwrap();
    let moved_to = docs.path().join("company/archive/it-security-policy.md");
    std::fs::rename(&moved_from, &moved_to).unwrap();
    reindex();
    assert_eq!(doc(moved_to.to_str().unwrap()), id, "a move keeps the document");
    check(&engine, "a move");

    // A newer version that cannot be read: in the failed-files set, marking the series.
    let broken = overtime.join("2025-06-30_abc1234.pdf");
    std::fs::write(&broken, b"%PDF-1.7\nnot really a pdf\n").unwrap();
    reindex();
    let broken_path = broken.canonicalize().unwrap().to_string_lossy().into_owned();
    assert_eq!(failed_files(&engine), vec![broken_path], "the broken PDF is in the failed-files set");
    check(&engine, "a newer version that fails to read");
    let marked = engine.documents(engine.as_of(chrono::NaiveDate::from_ymd_opt(2026, 11, 29), None)).unwrap();
    assert!(marked.iter().any(|d| d.stale_reason.as_deref().is_some_and(|r| r.contains("2025-06-30_abc1234"))));

    // Delete: the broken file and a circular leave the records and the set.
    std::fs::remove_file(&broken).unwrap();
    std::fs::remove_file(docs.path().join("university/Circular-09-2024-25.pdf")).unwrap();
    reindex();
    assert!(failed_files(&engine).is_empty());
    check(&engine, "deletes");

    // A folder removed from the library.
    engine.remove_folder(&docs.path().join("company").canonicalize().unwrap()).unwrap();
    check(&engine, "a removed folder");
}
