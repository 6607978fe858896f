//! Bad input never loses data: a file that turns unreadable keeps its last
//! good version searchable and marked; one bad file never stops a batch;
//! odd encodings are searchable.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use almirah_core::store::FileStatus;

fn first_chunk_of(engine: &almirah_core::Engine, path: &std::path::Path) -> (String, String) {
    let rtxn = engine.store().read_txn().unwrap();
    let dbs = engine.store().dbs();
    let key = path.canonicalize().unwrap().to_string_lossy().into_owned();
    let doc_id = dbs.files.get(&rtxn, &key).unwrap().unwrap().doc_id.unwrap();
    let doc = dbs.documents.get(&rtxn, &doc_id).unwrap().unwrap();
    let chunk = dbs.chunks.get(&rtxn, &doc.chunks[0]).unwrap().unwrap();
    (chunk.key, chunk.text)
}

#[test]
fn a_pdf_that_turns_unreadable_keeps_its_last_good_version() {
    let docs = tempfile::tempdir().unwrap();
    let pdf = common::corpora().join("pdfs_mixed/pypdf_sample_files/multicolumn.pdf");
    let target = docs.path().join("circular.pdf");
    std::fs::copy(&pdf, &target).unwrap();
    std::fs::write(docs.path().join("leave.md"), "# Leave\n\nEarned leave is 18 days a year.\n").unwrap();
    let data = tempfile::tempdir().unwrap();
    let engine = common::hash_engine(data.path());
    common::index(&engine, &[docs.path()]);
    let (good_key, good_text) = first_chunk_of(&engine, &target);
    let query: String = good_text.split_whitespace().take(8).collect::<Vec<_>>().join(" ");
    let before = common::search(&engine, &query);
    assert!(before.hits.iter().any(|h| h.key == good_key), "the PDF must be searchable first");

    // Overwrite the PDF with garbage, and add a second broken file to the same batch.
    std::fs::write(&target, b"%PDF-1.4\n garbage that is not a pdf").unwrap();
    std::fs::write(docs.path().join("broken.pdf"), b"not a pdf at all").unwrap();
    std::fs::write(docs.path().join("travel.md"), "# Travel\n\nThe daily allowance is INR 2,500.\n").unwrap();
    let report = common::index(&engine, &[docs.path()]);
    let circular = report.outcomes.iter().find(|o| o.path.ends_with("circular.pdf")).unwrap();
    assert_eq!(circular.status, Some(FileStatus::Failed));
    assert!(circular.kept_previous);
    assert!(report.outcomes.iter().any(|o| o.path.ends_with("travel.md") && o.status == Some(FileStatus::Indexed)));
    assert_eq!(report.failures(), 2);

    let after = common::search(&engine, &query);
    assert!(after.hits.iter().any(|h| h.key == good_key), "the last good version must stay searchable");
    let status = engine.status().unwrap();
    let problem = status.problems.iter().find(|p| p.path.ends_with("circular.pdf")).unwrap();
    assert!(problem.kept_previous);
    assert!(problem.reason.as_deref().unwrap().starts_with("failed"));
    let rtxn = engine.store().read_txn().unwrap();
    let doc_id = engine.store().dbs().files.get(&rtxn, &problem.path).unwrap().unwrap().doc_id.unwrap();
    let doc = engine.store().dbs().documents.get(&rtxn, &doc_id).unwrap().unwrap();
    assert!(doc.stale_reason.unwrap().contains("a newer version exists but could not be read"));
}

#[test]
fn text_in_legacy_encodings_utf16_and_with_nul_bytes_is_searchable() {
    let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../extract/tests/fixtures/encodings");
    let docs = tempfile::tempdir().unwrap();
    let mut names = Vec::new();
    for entry in std::fs::read_dir(&fixtures).unwrap().flatten() {
        std::fs::copy(entry.path(), docs.path().join(entry.file_name())).unwrap();
        names.push(entry.file_name().to_string_lossy().into_owned());
    }
    let data = tempfile::tempdir().unwrap();
    let engine = common::hash_engine(data.path());
    let report = common::index(&engine, &[docs.path()]);
    let failed: Vec<_> = report.outcomes.iter().filter(|o| o.status != Some(FileStatus::Indexed)).collect();
    assert!(failed.is_empty(), "not indexed: {failed:?}");
    // A word each file holds, written here in UTF-8 (the fixtures are not).
    let words = [
        ("latin1-cp1252.txt", "congés"),
        ("nul-bytes.txt", "diem"),
        ("shift-jis.txt", "休暇"),
        ("utf16be-bom.txt", "Urlaubsrichtlinie"),
        ("utf16le-bom.txt", "Urlaubsrichtlinie"),
        ("utf8-bom.txt", "अवकाश"),
        ("windows-1251.txt", "Положение"),
    ];
    for (name, word) in words {
        assert!(names.iter().any(|n| n == name), "fixture {name} missing");
        let hits = common::search(&engine, word);
        let hit = hits.hits.iter().find(|h| h.path.ends_with(name));
        let hit = hit.unwrap_or_else(|| panic!("{name}: no hit for {word:?}"));
        assert!(hit.bm25.is_some(), "{name}: {word:?} must match as a keyword");
        assert!(!hit.text.contains('\0') && !hit.text.contains('\u{7}'), "control bytes leaked into {name}");
    }
}

/// Issue 15: bytes that are not text get `binary` and no chunks, whatever
/// their name; an empty file and a heading-only page get `empty`, not
/// `failed`; the rest of the batch indexes and the batch has no failure.
#[test]
fn random_bytes_are_binary_and_empty_files_are_empty_not_failed() {
    let docs = tempfile::tempdir().unwrap();
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let noise: Vec<u8> = (0..200 * 1024)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 24) as u8
        })
        .collect();
    for name in ["noise.md", "noise.txt", "noise"] {
        std::fs::write(docs.path().join(name), &noise).unwrap();
    }
    std::fs::write(docs.path().join("blank.txt"), b"").unwrap();
    std::fs::write(docs.path().join("heading-only.md"), "# Notice\n").unwrap();
    std::fs::write(docs.path().join("leave.md"), "# Leave\n\nEarned leave is 18 days a year.\n").unwrap();
    let data = tempfile::tempdir().unwrap();
    let engine = common::hash_engine(data.path());
    let report = common::index(&engine, &[docs.path()]);
    let status_of = |name: &str| report.outcomes.iter().find(|o| o.path.ends_with(&format!("/{name}"))).unwrap();
    for name in ["noise.md", "noise.txt", "noise"] {
        let o = status_of(name);
        assert_eq!((o.status, o.chunks), (Some(FileStatus::Binary), 0), "{name}: {o:?}");
    }
    for name in ["blank.txt", "heading-only.md"] {
        assert_eq!(status_of(name).status, Some(FileStatus::Empty), "{name}");
    }
    assert_eq!(status_of("leave.md").status, Some(FileStatus::Indexed));
    assert_eq!(report.failures(), 0, "binary and empty files are not failures");
    assert_eq!(engine.status().unwrap().chunks, 1, "only the leave policy has chunks");
}
