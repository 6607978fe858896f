//! On-disk format compatibility (STYLE convention 7; tantivy's
//! `compat_tests.rs`): the committed library of every released format opens,
//! upgrades through the ordered steps, and then holds exactly what a fresh
//! index of the same sources holds; a newer format is refused.
//!
//! The fixtures are written by `scripts/make-format-fixture.sh` from
//! `tests/fixtures/format-sources`, which the libraries record at
//! `/tmp/almirah-format-sources` (file times 2026-01-15).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::AtomicBool;

use almirah_core::embed::EmbedderConfig;
use almirah_core::freshness::record::RecordView;
use almirah_core::ids::{DocId, IdCodec};
use almirah_core::store::{FORMAT_VERSION, FileRecord, meta_keys};
use almirah_core::{Engine, EngineConfig, Error, NoProgress};
use heed::types::{SerdeJson, Str};
use serde_json::{Value, json};

const SOURCES: &str = "/tmp/almirah-format-sources";

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// The tests share [`SOURCES`]; each holds this while it uses them.
static SOURCES_LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn lay_sources() -> std::sync::MutexGuard<'static, ()> {
    let guard = SOURCES_LOCK.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let _ = std::fs::remove_dir_all(SOURCES);
    let status = Command::new("cp").arg("-r").arg(fixtures().join("format-sources")).arg(SOURCES).status().unwrap();
    assert!(status.success());
    let touch = Command::new("find")
        .args([SOURCES, "-type", "f", "-exec", "touch", "-d", "2026-01-15T00:00:00Z", "{}", "+"])
        .status()
        .unwrap();
    assert!(touch.success());
    guard
}

fn open(data: &Path) -> almirah_core::Result<Engine> {
    let mut cfg = EngineConfig::new(data);
    cfg.embedder = EmbedderConfig::Hash { dimensions: 64 };
    cfg.map_size = 1 << 28;
    cfg.audiences = vec!["all-staff".into()];
    Engine::open(cfg)
}

/// The databases an older format's records are written into.
struct Raw<'e> {
    meta: heed::Database<'e, Str, SerdeJson<Value>>,
    files: heed::Database<'e, Str, SerdeJson<FileRecord>>,
    tables: heed::Database<'e, IdCodec<DocId>, SerdeJson<Value>>,
    impacts: heed::Database<'e, Str, heed::types::Bytes>,
}

/// Put records into the closed library in `data` as an older version of
/// Almirah wrote them: straight through heed, past the engine, whose writer
/// only writes the current format and is private to the core.
fn write_raw(data: &Path, op: impl FnOnce(&Raw<'_>, &mut heed::RwTxn<'_>) -> heed::Result<()>) {
    // SAFETY: the engine on `data` is closed, so this is the only Env on it
    // in the process; the temp folder is local.
    #[allow(unsafe_code)]
    let env = unsafe { heed::EnvOpenOptions::new().map_size(1 << 28).max_dbs(32).open(data) }.unwrap();
    let wtxn = env.write_txn().unwrap();
    env.create_databases_and_commit(wtxn, |opener, wtxn| -> heed::Result<_> {
        let raw = Raw {
            meta: opener.create_database(wtxn, Some("meta"))?,
            files: opener.create_database(wtxn, Some("files"))?,
            tables: opener.create_database(wtxn, Some("tables"))?,
            impacts: opener.create_database(wtxn, Some("term-impacts"))?,
        };
        op(&raw, wtxn)?;
        Ok(heed::CommitOrAbort::<(), ()>::Commit(()))
    })
    .unwrap();
}

/// Everything a user or the gate can observe, ids included, paths as recorded.
fn logical(engine: &Engine) -> Value {
    let dbs = *engine.store().dbs();
    let rtxn = engine.store().read_txn().unwrap();
    let table = |it: Vec<(String, u32)>| it.into_iter().map(|(k, v)| json!([k, v])).collect::<Vec<_>>();
    let doc_keys = dbs.doc_keys.iter(&rtxn).unwrap().map(|e| e.unwrap()).map(|(k, v)| (k.to_string(), v.get()));
    let chunk_keys = dbs.chunk_keys.iter(&rtxn).unwrap().map(|e| e.unwrap()).map(|(k, v)| (k.to_string(), v.get()));
    let chunks: Vec<Value> = dbs
        .chunks
        .iter(&rtxn)
        .unwrap()
        .map(|e| e.unwrap())
        .map(|(id, c)| json!([id.get(), c.doc_id.get(), c.key, c.heading_path, c.text, c.pages]))
        .collect();
    let postings: Vec<Value> = dbs
        .postings
        .iter(&rtxn)
        .unwrap()
        .map(|e| e.unwrap())
        .map(|(term, ids)| json!([term, ids.iter().map(|i| i.get()).collect::<Vec<_>>()]))
        .collect();
    // The impact lists (format v10): an upgraded library's are built from
    // v9's term frequencies and lengths, then kept by the writer.
    let impacts: Vec<Value> = dbs
        .term_impacts
        .iter(&rtxn)
        .unwrap()
        .map(|e| e.unwrap())
        .map(|(term, list)| {
            let entries = almirah_core::impacts::decode(list).unwrap();
            json!([term, entries.iter().map(|i| [i.chunk.get(), i.tf, i.len]).collect::<Vec<_>>()])
        })
        .collect();
    assert_eq!(postings.len(), impacts.len());
    for (posting, impact) in postings.iter().zip(&impacts) {
        let ids: Vec<&Value> = impact[1].as_array().unwrap().iter().map(|e| &e[0]).collect();
        assert_eq!((&posting[0], posting[1].as_array().unwrap().iter().collect::<Vec<_>>()), (&impact[0], ids));
    }
    let files: Vec<Value> = dbs
        .files
        .iter(&rtxn)
        .unwrap()
        .map(|e| e.unwrap())
        .map(|(p, r)| json!([p, r.hash, r.doc_id.map(|d| d.get()), r.status, r.reason]))
        .collect();
    // The gate's records (format v7) are a function of the documents, so an
    // upgraded library holds the same bytes as a fresh one.
    let gate_docs: Vec<Value> = dbs
        .gate_docs
        .iter(&rtxn)
        .unwrap()
        .map(|e| e.unwrap())
        .map(|(id, bytes)| json!([id.get(), format!("{:?}", RecordView::decode(bytes).unwrap().to_owned_record())]))
        .collect();
    let gate_failed: Vec<Value> =
        dbs.gate_failed.iter(&rtxn).unwrap().map(|e| e.unwrap()).map(|(p, f)| json!([p, f.status, f.reason])).collect();
    let off = almirah_core::store::gate_records::disagreements(&dbs, &rtxn).unwrap();
    assert!(off.is_empty(), "stored gate records disagree with the metadata: {off:?}");
    let mut counts = engine.dump().unwrap().counts;
    counts.remove("health");
    let as_of = engine.as_of(chrono::NaiveDate::from_ymd_opt(2026, 11, 29), None);
    json!({
        "documents": engine.documents(as_of).unwrap(),
        "doc_keys": table(doc_keys.collect()),
        "chunk_keys": table(chunk_keys.collect()),
        "chunks": chunks,
        "postings": postings,
        "impacts": impacts,
        "files": files,
        "gate_docs": gate_docs,
        "gate_failed": gate_failed,
        "counts": counts,
        "tables": engine.lookup_table("fees", "tuition", 10, as_of).unwrap(),
        "sheets": engine.lookup_table("academic-calendar-2026-27/semester", "hostel", 10, as_of).unwrap(),
    })
}

fn fresh() -> (tempfile::TempDir, Value) {
    let data = tempfile::tempdir().unwrap();
    let engine = open(data.path()).unwrap();
    let report = engine.index(&[PathBuf::from(SOURCES)], &NoProgress, &AtomicBool::new(false)).unwrap();
    assert_eq!(report.outcomes.iter().filter(|o| o.status.is_some_and(|s| s.is_failure())).count(), 1);
    let doc = engine.find_document("travel-circular").unwrap();
    engine.set_override(doc, "session", Some("2026-27")).unwrap();
    let dump = logical(&engine);
    (data, dump)
}

fn opened_fixture(version: u32) -> (tempfile::TempDir, Value) {
    let data = tempfile::tempdir().unwrap();
    let from = fixtures().join(format!("format-v{version}/data.mdb"));
    std::fs::copy(&from, data.path().join("data.mdb")).unwrap();
    let engine = open(data.path()).unwrap();
    assert_eq!(engine.status().unwrap().format_version, FORMAT_VERSION);
    // The next index after an upgrade re-reads only what a step marked:
    // v3 → v4 marks the PDFs v3 could not read, for OCR. The sources
    // gained an HTML page and a workbook (`web/`) with format v6; the
    // fixtures of v1..v5 were written without them, so those read them as
    // new files (after every older file, so the ids stay comparable).
    let report = engine.index(&[PathBuf::from(SOURCES)], &NoProgress, &AtomicBool::new(false)).unwrap();
    let mut re_read: Vec<&str> = report.outcomes.iter().map(|o| o.path.as_str()).collect();
    re_read.sort_unstable();
    let mut expected = Vec::new();
    if version < 6 {
        expected.extend(["web/academic-calendar-2026-27.xlsx", "web/leave-page.html"]);
    }
    if version < 4 {
        expected.push("policies/leave-policy-v2.pdf");
    }
    expected.sort_unstable();
    let expected: Vec<String> = expected.iter().map(|f| format!("{SOURCES}/{f}")).collect();
    assert_eq!(re_read, expected, "format v{version}: files read again after the upgrade");
    let dump = logical(&engine);
    (data, dump)
}

#[test]
fn every_committed_format_upgrades_to_what_a_fresh_index_holds_and_newer_ones_are_refused() {
    let _sources = lay_sources();
    let (_fresh_dir, expected) = fresh();
    let docs = expected["documents"].as_array().unwrap();
    assert!(docs.iter().any(|d| d["stale_reason"].as_str().is_some_and(|r| r.contains("could not be read"))));
    assert!(!docs.iter().any(|d| d["key"].as_str().is_some_and(|k| k.contains("salary"))), "hr-only is hidden");
    // Since v10 the impact lists hold what term-freqs and chunk-lens held.
    let counts = &expected["counts"];
    assert_eq!((&counts["term-freqs"], &counts["chunk-lens"]), (&json!(0), &json!(0)), "{counts}");
    assert_eq!(counts["term-impacts"], counts["postings"], "one impact list a term");
    assert_eq!(expected["impacts"].as_array().unwrap().len(), expected["postings"].as_array().unwrap().len());
    for version in 1..=FORMAT_VERSION {
        let (_dir, upgraded) = opened_fixture(version);
        for part in expected.as_object().unwrap().keys() {
            assert_eq!(upgraded[part], expected[part], "format v{version}: {part} differs after the upgrade");
        }
    }
    // v1 kept document keys among chunk keys; v2 has none there.
    let (_dir, upgraded) = opened_fixture(1);
    assert!(upgraded["chunk_keys"].as_array().unwrap().iter().all(|e| e[0].as_str().unwrap().contains("::")));

    let newer = tempfile::tempdir().unwrap();
    drop(open(newer.path()).unwrap());
    write_raw(newer.path(), |raw, wtxn| {
        raw.meta.put(wtxn, meta_keys::FORMAT_VERSION, &Value::from(FORMAT_VERSION + 1))
    });
    let Err(err) = open(newer.path()) else { panic!("a newer format opened") };
    assert!(
        matches!(err, Error::IncompatibleIndex { found, supported } if found == FORMAT_VERSION + 1 && supported == FORMAT_VERSION)
    );
    let message = err.to_string();
    assert!(
        message.contains(&(FORMAT_VERSION + 1).to_string()) && message.contains(&FORMAT_VERSION.to_string()),
        "{message}"
    );
}

/// The v2 → v3 step: v2 recorded an empty file as `failed: empty`; v3 says `empty`.
#[test]
fn the_v2_to_v3_step_marks_empty_files_empty() {
    use almirah_core::store::FileStatus;
    let data = tempfile::tempdir().unwrap();
    {
        drop(open(data.path()).unwrap());
        let record = |status, reason: &str| FileRecord {
            hash: "00".into(),
            size: 0,
            mtime_ns: 0,
            doc_id: None,
            status,
            reason: Some(reason.into()),
        };
        let blank = record(FileStatus::Failed, "failed: empty");
        let broken = record(FileStatus::Failed, "failed: bad trailer");
        write_raw(data.path(), |raw, wtxn| {
            raw.files.put(wtxn, "/x/blank.txt", &blank)?;
            raw.files.put(wtxn, "/x/broken.pdf", &broken)?;
            raw.meta.put(wtxn, meta_keys::FORMAT_VERSION, &Value::from(2))
        });
    }
    let engine = open(data.path()).unwrap();
    let rtxn = engine.store().read_txn().unwrap();
    let files = engine.store().dbs().files;
    let blank = files.get(&rtxn, "/x/blank.txt").unwrap().unwrap();
    assert_eq!((blank.status, blank.reason.as_deref()), (FileStatus::Empty, Some("no text to index")));
    assert_eq!(files.get(&rtxn, "/x/broken.pdf").unwrap().unwrap().status, FileStatus::Failed);
}

/// The v5 → v6 step: v5 recorded Word, HTML and spreadsheet files as
/// `unsupported`; v6 reads them again (and a `.doc` gets its own status),
/// while a kind v6 does not read either stays as it was. v5 kept one table
/// per document; v6 keeps a list of them.
#[test]
fn the_v5_to_v6_step_reads_again_the_office_files_v5_could_not() {
    use almirah_core::store::FileStatus;
    let _sources = lay_sources();
    let data = tempfile::tempdir().unwrap();
    let page = format!("{SOURCES}/web/leave-page.html");
    let fees = |rows: usize| {
        let table = almirah_extract::Table {
            headers: vec!["item".into(), "fee".into()],
            rows: vec![vec!["tuition".into(), "48500".into()]; rows],
            sheet: None,
        };
        serde_json::to_value(table).unwrap()
    };
    {
        drop(open(data.path()).unwrap());
        let unsupported = FileRecord {
            hash: "00ff".into(),
            size: 10,
            mtime_ns: 5,
            doc_id: None,
            status: FileStatus::Unsupported,
            reason: Some("unsupported".into()),
        };
        let v5_table = fees(2);
        write_raw(data.path(), |raw, wtxn| {
            raw.files.put(wtxn, &page, &unsupported)?;
            raw.files.put(wtxn, "/x/slides.pptx", &unsupported)?;
            raw.files.put(wtxn, "/x/old.doc", &unsupported)?;
            raw.tables.put(wtxn, &DocId::new(900), &v5_table)?;
            raw.meta.put(wtxn, meta_keys::FORMAT_VERSION, &Value::from(5))
        });
    }
    let engine = open(data.path()).unwrap();
    let dbs = engine.store().dbs();
    {
        let rtxn = engine.store().read_txn().unwrap();
        let record = |p: &str| dbs.files.get(&rtxn, p).unwrap().unwrap();
        assert_eq!((record(&page).hash.as_str(), record(&page).size), ("", 0), "marked for reading");
        assert_eq!((record("/x/old.doc").hash.as_str(), record("/x/old.doc").size), ("", 0));
        assert_eq!((record("/x/slides.pptx").hash.as_str(), record("/x/slides.pptx").size), ("00ff", 10));
        let tables = dbs.tables.get(&rtxn, &almirah_core::ids::DocId::new(900)).unwrap().unwrap();
        assert_eq!(serde_json::to_value(tables).unwrap(), Value::Array(vec![fees(2)]));
    }
    let report = engine.index(&[PathBuf::from(SOURCES)], &NoProgress, &AtomicBool::new(false)).unwrap();
    let read = report.outcomes.iter().find(|o| o.path == page).unwrap();
    assert_eq!(read.status, Some(FileStatus::Indexed));
}

/// A stored impact list that does not decode makes the query an error that
/// says so, never a panic.
#[test]
fn a_corrupt_impact_list_is_an_error_not_a_panic() {
    let _sources = lay_sources();
    let data = tempfile::tempdir().unwrap();
    {
        let engine = open(data.path()).unwrap();
        engine.index(&[PathBuf::from(SOURCES)], &NoProgress, &AtomicBool::new(false)).unwrap();
    }
    write_raw(data.path(), |raw, wtxn| {
        let terms: Vec<String> =
            raw.impacts.iter(wtxn)?.map(|e| e.map(|(t, _)| t.to_string())).collect::<Result<_, _>>()?;
        assert!(!terms.is_empty());
        // A varint cut short.
        terms.iter().try_for_each(|t| raw.impacts.put(wtxn, t, &[0x80]))
    });
    let engine = open(data.path()).unwrap();
    let as_of = engine.as_of(chrono::NaiveDate::from_ymd_opt(2026, 11, 29), None);
    let Err(err) = engine.search("leave policy", &almirah_core::SearchOptions::default(), as_of, 0) else {
        panic!("a corrupt impact list was read as a list")
    };
    assert!(matches!(&err, Error::DataCorruption(m) if m.contains("impact list")), "{err}");
}
