//! The sample documents indexed once per test binary with the builtin
//! embedder, and helpers shared by the answering tests.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, dead_code)]

use std::path::Path;
use std::sync::OnceLock;
use std::sync::atomic::AtomicBool;

use almirah_answer::classic::Answer;
use almirah_core::{Engine, EngineConfig, NoProgress};
use chrono::NaiveDate;

/// The engine over `sample-docs/`, indexed on first use.
pub fn engine() -> &'static Engine {
    static ENGINE: OnceLock<(tempfile::TempDir, Engine)> = OnceLock::new();
    &ENGINE
        .get_or_init(|| {
            let data = tempfile::tempdir().unwrap();
            let mut cfg = EngineConfig::new(data.path());
            cfg.map_size = 1 << 30;
            cfg.audiences = vec!["all-staff".into(), "students".into()];
            let engine = Engine::open(cfg).unwrap();
            let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../sample-docs");
            engine.index(&[docs], &NoProgress, &AtomicBool::new(false)).unwrap();
            (data, engine)
        })
        .1
}

/// 2026-11-29, the date every acceptance question is asked on.
pub fn today() -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 11, 29).unwrap()
}

/// Whether a citation's key starts with `key_prefix`.
pub fn cites(a: &Answer, key_prefix: &str) -> bool {
    a.citations.iter().any(|c| c.key.starts_with(key_prefix))
}
