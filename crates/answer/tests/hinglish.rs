//! A question typed as Hindi in Latin letters, asked of a library on the
//! builtin multilingual embedder (issue 41): the answer path reads it in
//! Devanagari, so it is answered from the Hindi or English policy, while
//! the answer carries the question as typed and a social message is still
//! a social message. Uses the real multilingual-e5-small model
//! (`scripts/fetch-models.sh`) and the policies of `eval/hindi/docs`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use almirah_answer::agent::AgentConfig;
use almirah_answer::builtin::BuiltinModel;
use almirah_answer::mode::{Mode, answer};
use almirah_answer::model::ChatModel;
use almirah_core::embed::{BuiltinModel as Embedder, EmbedderConfig};
use almirah_core::{Engine, EngineConfig, NoProgress};
use chrono::NaiveDate;

#[test]
fn a_romanized_hindi_question_is_answered_and_shown_as_typed() {
    let docs = tempfile::tempdir().unwrap();
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../eval/hindi/docs");
    for f in ["work-from-home.en.md", "work-from-home.hi.md", "leave-policy.en.md", "leave-policy.hi.md"] {
        std::fs::copy(from.join(f), docs.path().join(f)).unwrap();
    }
    let data = tempfile::tempdir().unwrap();
    let mut cfg = EngineConfig::new(data.path());
    cfg.map_size = 1 << 30;
    cfg.embedder = EmbedderConfig::Builtin { model_dir: None, model: Embedder::MultilingualE5Small };
    let engine = Engine::open(cfg).unwrap();
    engine.index(&[docs.path().to_path_buf()], &NoProgress, &AtomicBool::new(false)).unwrap();
    let reader = engine.reader();
    let model: Arc<dyn ChatModel> = Arc::new(BuiltinModel::for_reader(&reader));
    let today = NaiveDate::from_ymd_opt(2026, 11, 29).unwrap();
    let ask = |q: &str| answer(&reader, model.clone(), q, today, &|_: &str| {}, Mode::Auto, &AgentConfig::default());

    let typed = "ghar se kaam hafte mein kitne din kar sakte hain?";
    let a = ask(typed).unwrap();
    assert_eq!(a.question, typed);
    assert!(!a.abstained && a.citations.iter().any(|c| c.key.starts_with("work-from-home")), "{}", a.text);
    assert!(a.text.contains('2'), "the policy allows 2 days a week: {}", a.text);

    let hello = ask("aap kaise hain?").unwrap();
    assert_eq!(hello.question, "aap kaise hain?");
    assert!(hello.citations.is_empty() && !hello.abstained, "a greeting is not searched: {}", hello.text);
}
