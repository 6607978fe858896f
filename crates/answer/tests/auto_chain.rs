//! `auto` with the builtin over a bridged chain whose last fact is missing
//! (MuSiQue-Full style): the answer is the abstention, not the bridge's
//! sentence. Paragraphs of `qa_multihop/musique/musique_train_100.json`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use almirah_answer::agent::AgentConfig;
use almirah_answer::builtin::BuiltinModel;
use almirah_answer::mode::{Mode, answer};
use almirah_core::{Engine, EngineConfig, NoProgress};
use chrono::NaiveDate;

/// The text of the MuSiQue paragraph titled `title`.
fn paragraph(title: &str) -> String {
    let root = std::env::var_os("ALMIRAH_CORPORA")
        .map_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpora"), Into::into);
    let raw = std::fs::read_to_string(root.join("qa_multihop/musique/musique_train_100.json")).unwrap();
    let items: Vec<serde_json::Value> = serde_json::from_str(&raw).unwrap();
    items
        .iter()
        .flat_map(|q| q["paragraphs"].as_array().unwrap().iter())
        .find(|p| p["title"] == title)
        .and_then(|p| p["paragraph_text"].as_str())
        .unwrap_or_else(|| panic!("{title} in the MuSiQue corpus"))
        .to_string()
}

#[test]
fn a_chain_whose_last_fact_is_missing_abstains_in_auto_mode() {
    let docs = tempfile::tempdir().unwrap();
    // The state is found; no paragraph says who was in charge of it.
    for title in ["Shringarpur", "Tukaram Gangadhar Gadakh", "ReNew Power"] {
        std::fs::write(docs.path().join(format!("{title}.txt")), format!("{title}\n\n{}\n", paragraph(title))).unwrap();
    }
    let data = tempfile::tempdir().unwrap();
    let mut cfg = EngineConfig::new(data.path());
    cfg.map_size = 1 << 28;
    cfg.embedder = almirah_core::embed::EmbedderConfig::Hash { dimensions: 256 };
    let engine = Engine::open(cfg).unwrap();
    engine.index(&[docs.path().to_path_buf()], &NoProgress, &AtomicBool::new(false)).unwrap();
    let today = NaiveDate::from_ymd_opt(2026, 11, 29).unwrap();
    let model = Arc::new(BuiltinModel::default());
    let ask = |q: &str, mode: Mode| {
        answer(&engine.reader(), model.clone(), q, today, &|_: &str| {}, mode, &AgentConfig::default()).unwrap()
    };
    let q = "Who was in charge of the state where Shringarpur is located?";
    for mode in [Mode::Auto, Mode::Classic] {
        let a = ask(q, mode);
        assert!(a.abstained, "{mode}: {}", a.text);
        assert!(a.citations.is_empty(), "{mode}: {:?}", a.citations);
    }
    // The first hop alone is still answered.
    let a = ask("In which state is Shringarpur?", Mode::Auto);
    assert!(a.text.contains("Maharashtra"), "{}", a.text);
}
