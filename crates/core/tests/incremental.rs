//! Incremental indexing on real handbook pages: unchanged files cost nothing,
//! an edit re-embeds only the changed chunks, a delete leaves no trace.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

#[test]
fn reindexing_an_unchanged_folder_extracts_and_embeds_nothing() {
    let docs = tempfile::tempdir().unwrap();
    let src = common::corpora().join("handbook_18f/pages");
    let files = common::first_markdown(&src, 25);
    common::copy_files(&src, docs.path(), &files.iter().map(String::as_str).collect::<Vec<_>>());
    let data = tempfile::tempdir().unwrap();
    let engine = common::hash_engine(data.path());
    let first = common::index(&engine, &[docs.path()]);
    assert_eq!(first.extract_calls, 25);
    assert!(first.chunks_added > 25, "chunks: {}", first.chunks_added);
    let again = common::index(&engine, &[docs.path()]);
    assert_eq!(again.extract_calls, 0);
    assert_eq!(again.embed_calls, 0);
    assert_eq!(again.unchanged, 25);
    assert_eq!(again.chunks_added, 0);
}

#[test]
fn editing_one_section_embeds_only_the_changed_chunks() {
    let docs = tempfile::tempdir().unwrap();
    let src = common::corpora().join("handbook_18f/pages");
    let files = common::first_markdown(&src, 10);
    common::copy_files(&src, docs.path(), &files.iter().map(String::as_str).collect::<Vec<_>>());
    // The largest file has several sections; edit the text of its last one.
    let target = files.iter().map(|f| docs.path().join(f)).max_by_key(|p| std::fs::metadata(p).unwrap().len()).unwrap();
    let data = tempfile::tempdir().unwrap();
    let engine = common::hash_engine(data.path());
    common::index(&engine, &[docs.path()]);
    let before = engine.dump().unwrap();
    let text = std::fs::read_to_string(&target).unwrap();
    std::fs::write(&target, format!("{text}\n\nZanzibar quokka clause: a brand new paragraph.\n")).unwrap();
    let report = common::index(&engine, &[docs.path()]);
    assert_eq!(report.extract_calls, 1);
    let file_chunks = report.outcomes[0].chunks;
    assert!(file_chunks >= 2, "the edited file should have several chunks, has {file_chunks}");
    assert!(
        report.embedded_texts >= 1 && report.embedded_texts < file_chunks,
        "embedded {} of {file_chunks}",
        report.embedded_texts
    );
    assert_eq!(report.cache_hits + report.embedded_texts, file_chunks);
    let after = engine.dump().unwrap();
    assert_eq!(after.counts["documents"], before.counts["documents"]);
    let hits = common::search(&engine, "zanzibar quokka");
    assert_eq!(hits.hits[0].path, target.to_string_lossy());
}

#[test]
fn deleting_a_file_removes_it_from_every_database() {
    let docs = tempfile::tempdir().unwrap();
    let src = common::corpora().join("handbook_sourcegraph/content");
    let files = common::first_markdown(&src, 12);
    let rel: Vec<&str> = files.iter().map(String::as_str).collect();
    common::copy_files(&src, docs.path(), &rel);
    let data = tempfile::tempdir().unwrap();
    let engine = common::hash_engine(data.path());
    common::index(&engine, &[docs.path()]);
    std::fs::remove_file(docs.path().join(rel[0])).unwrap();
    let report = common::index(&engine, &[docs.path()]);
    assert!(report.chunks_removed > 0);
    let after = engine.dump().unwrap();

    // A clean library of the 11 remaining files holds exactly the same counts.
    let clean_docs = tempfile::tempdir().unwrap();
    common::copy_files(&src, clean_docs.path(), &rel[1..]);
    let clean_data = tempfile::tempdir().unwrap();
    let clean = common::hash_engine(clean_data.path());
    common::index(&clean, &[clean_docs.path()]);
    let expected = clean.dump().unwrap();
    for db in
        ["files", "documents", "chunks", "chunk-keys", "postings", "term-impacts", "chunk-terms", "facets", "vectors"]
    {
        assert_eq!(after.counts[db], expected.counts[db], "database {db}");
    }
    let deleted_path = docs.path().join(rel[0]).to_string_lossy().into_owned();
    let status = engine.status().unwrap();
    assert_eq!(status.documents, 11);
    assert!(status.problems.iter().all(|p| p.path != deleted_path));
}

#[test]
fn a_moved_file_keeps_its_document_id_and_is_not_re_embedded() {
    let docs = tempfile::tempdir().unwrap();
    let src = common::corpora().join("handbook_18f/pages");
    let files = common::first_markdown(&src, 6);
    common::copy_files(&src, docs.path(), &files.iter().map(String::as_str).collect::<Vec<_>>());
    let data = tempfile::tempdir().unwrap();
    let engine = common::hash_engine(data.path());
    common::index(&engine, &[docs.path()]);
    let from = docs.path().join(&files[0]);
    let doc_id_of = |path: &std::path::Path| {
        let rtxn = engine.store().read_txn().unwrap();
        let key = path.canonicalize().unwrap().to_string_lossy().into_owned();
        engine.store().dbs().files.get(&rtxn, &key).unwrap().unwrap().doc_id.unwrap()
    };
    let id = doc_id_of(&from);
    let before = engine.dump().unwrap();
    std::fs::create_dir_all(docs.path().join("archive")).unwrap();
    let to = docs.path().join("archive/renamed.md");
    std::fs::rename(&from, &to).unwrap();
    let report = common::index(&engine, &[docs.path()]);
    assert_eq!(report.extract_calls, 0);
    assert_eq!(report.embed_calls, 0);
    assert!(report.outcomes.iter().any(|o| o.action.starts_with("moved from")));
    assert_eq!(doc_id_of(&to), id);
    let after = engine.dump().unwrap();
    assert_eq!(after.counts, before.counts);
    let rtxn = engine.store().read_txn().unwrap();
    let doc = engine.store().dbs().documents.get(&rtxn, &id).unwrap().unwrap();
    assert!(doc.path.ends_with("archive/renamed.md"));
}
