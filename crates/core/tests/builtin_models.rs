//! The two builtin embedders (issue 41): a library keeps the model it was
//! created with, refuses to be searched with the other, `auto` chooses the
//! multilingual model for Devanagari files, and switching re-embeds every
//! chunk once, through the writer. Uses the real models
//! (`scripts/fetch-models.sh`) and the Hindi/English policies of eval/hindi.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use almirah_core::embed::{BuiltinModel, EmbedderConfig};
use almirah_core::{Engine, EngineConfig, Error, NoProgress, SearchOptions};

fn engine(data: &Path, model: BuiltinModel) -> Engine {
    let mut cfg = EngineConfig::new(data);
    cfg.embedder = EmbedderConfig::Builtin { model_dir: None, model };
    cfg.map_size = 1 << 30;
    Engine::open(cfg).unwrap()
}

/// A folder with the leave policy in `langs` (`en`, `hi`).
fn docs(langs: &[&str]) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../eval/hindi/docs");
    let files: Vec<String> = langs.iter().map(|l| format!("leave-policy.{l}.md")).collect();
    let refs: Vec<&str> = files.iter().map(String::as_str).collect();
    common::copy_files(&from, tmp.path(), &refs);
    let root = tmp.path().to_path_buf();
    (tmp, root)
}

fn index(e: &Engine, root: &Path) {
    e.index(&[root.to_path_buf()], &NoProgress, &AtomicBool::new(false)).unwrap();
}

fn search(e: &Engine, query: &str) -> Result<Vec<String>, Error> {
    let found = e.search(query, &SearchOptions::default(), e.as_of(None, None), 0)?;
    Ok(found.results.hits.iter().map(|h| h.path.clone()).collect())
}

fn stored_model(e: &Engine) -> String {
    e.status().unwrap().embedder.map(|id| id.model).unwrap_or_default()
}

#[test]
fn auto_picks_the_multilingual_model_for_devanagari_and_keeps_it() {
    let (_docs, root) = docs(&["en", "hi"]);
    let data = tempfile::tempdir().unwrap();
    // A first index of an empty folder (the desktop's inbox) binds nothing.
    let empty = tempfile::tempdir().unwrap();
    index(&engine(data.path(), BuiltinModel::Auto), empty.path());
    index(&engine(data.path(), BuiltinModel::Auto), &root);
    let reopened = engine(data.path(), BuiltinModel::Auto);
    assert_eq!(stored_model(&reopened), "multilingual-e5-small");
    let hits = search(&reopened, "saal mein kitni earned leave milti hai").unwrap();
    assert!(!hits.is_empty(), "auto reopens with the library's model and searches");

    let (_en, english) = docs(&["en"]);
    let data = tempfile::tempdir().unwrap();
    index(&engine(data.path(), BuiltinModel::Auto), &english);
    assert_eq!(stored_model(&engine(data.path(), BuiltinModel::Auto)), "all-MiniLM-L6-v2");
}

#[test]
fn the_other_model_is_refused_and_switching_re_embeds_every_chunk_once() {
    let (_docs, root) = docs(&["en", "hi"]);
    let data = tempfile::tempdir().unwrap();
    let e5 = engine(data.path(), BuiltinModel::MultilingualE5Small);
    index(&e5, &root);
    let chunks = e5.status().unwrap().chunks;
    assert!(chunks >= 4, "{chunks} chunks");
    drop(e5);

    let minilm = engine(data.path(), BuiltinModel::MiniLm);
    let err = search(&minilm, "earned leave").unwrap_err();
    assert!(matches!(err, Error::EmbedderMismatch { .. }), "{err}");
    assert!(err.to_string().contains("reindex --re-embed"), "{err}");

    let report = minilm.reindex_re_embed(&NoProgress).unwrap();
    assert_eq!(report.chunks, chunks, "every chunk re-embedded once");
    assert_eq!(report.cache_hits, 0, "no MiniLM vector existed");
    assert_eq!(stored_model(&minilm), "all-MiniLM-L6-v2");
    assert!(!search(&minilm, "earned leave").unwrap().is_empty());
    drop(minilm);

    let err = search(&engine(data.path(), BuiltinModel::MultilingualE5Small), "earned leave").unwrap_err();
    assert!(matches!(err, Error::EmbedderMismatch { .. }), "the old model is refused after the switch: {err}");
}

/// A romanized Hindi question ("Hinglish") is embedded in Devanagari for
/// the multilingual model: with no English content word it still finds
/// the work-from-home policy, and the words the library holds stay typed.
#[test]
fn a_romanized_hindi_query_is_read_in_devanagari_by_the_multilingual_model() {
    let tmp = tempfile::tempdir().unwrap();
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../eval/hindi/docs");
    common::copy_files(&from, tmp.path(), &["work-from-home.en.md", "work-from-home.hi.md", "leave-policy.en.md"]);
    let data = tempfile::tempdir().unwrap();
    let e = engine(data.path(), BuiltinModel::MultilingualE5Small);
    index(&e, tmp.path());
    let query = "hafte mein kitne din ghar se kaam kar sakta hoon?";
    let hits = search(&e, query).unwrap();
    assert!(hits.first().is_some_and(|p| p.contains("work-from-home")), "{hits:?}");
    let snapshot = e.snapshot(e.as_of(None, None)).unwrap();
    assert_eq!(snapshot.as_the_library_reads(query).unwrap(), "हफ़ते में कितने दिन घर से काम कर सकता हूँ?");
    let mixed = snapshot.as_the_library_reads("kitne din ki leave carry forward kar sakte hain?").unwrap();
    assert!(mixed.contains("leave carry forward") && mixed.starts_with("कितने दिन की"), "{mixed}");
    let english = "How many days can I work from home?";
    assert_eq!(snapshot.as_the_library_reads(english).unwrap(), english);
    // MiniLM reads English only: the question stays as typed.
    let data = tempfile::tempdir().unwrap();
    let minilm = engine(data.path(), BuiltinModel::MiniLm);
    index(&minilm, tmp.path());
    let snapshot = minilm.snapshot(minilm.as_of(None, None)).unwrap();
    assert_eq!(snapshot.as_the_library_reads(query).unwrap(), query);
}
