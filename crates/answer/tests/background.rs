//! Background names (issue #39): a name that a quarter of a library's
//! visible chunks carry (the organisation's own name across its handbook)
//! is neither required of an answer's source nor counted in coverage; a
//! rare name still is.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use almirah_answer::agent::AgentConfig;
use almirah_answer::builtin::BuiltinModel;
use almirah_answer::builtin::background::{BACKGROUND_SHARE, background_terms, tell};
use almirah_answer::mode::{Mode, answer};
use almirah_answer::question::Question;
use almirah_core::{Engine, EngineConfig, NoProgress};
use chrono::NaiveDate;

/// Four pages of "Acme"'s handbook that all say "Acme", and one about
/// the Zephyr card that does not.
fn library(dir: &Path) -> Engine {
    let docs = dir.join("docs");
    std::fs::create_dir_all(&docs).unwrap();
    let pages = [
        ("holidays.md", "# Holidays\n\nAcme closes on ten public holidays a year. Acme staff may swap one of them."),
        ("security.md", "# Security\n\nAcme laptops lock after five minutes. Acme badges must be worn on site."),
        ("travel.md", "# Travel\n\nAcme books economy class for flights under six hours at Acme rates."),
        ("payroll.md", "# Payroll\n\nAcme pays salaries on the last working day of the month, as Acme always has."),
        ("zephyr.md", "# Zephyr cards\n\nManagers get a default monthly limit of $1,000 on their Zephyr card."),
    ];
    for (name, text) in pages {
        std::fs::write(docs.join(name), text).unwrap();
    }
    let mut cfg = EngineConfig::new(dir.join("data"));
    cfg.map_size = 1 << 28;
    cfg.embedder = almirah_core::embed::EmbedderConfig::Hash { dimensions: 64 };
    let engine = Engine::open(cfg).unwrap();
    engine.index(&[docs], &NoProgress, &AtomicBool::new(false)).unwrap();
    engine
}

fn today() -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 12, 6).unwrap()
}

#[test]
fn only_a_name_most_chunks_carry_is_background() {
    let dir = tempfile::tempdir().unwrap();
    let engine = library(dir.path());
    let reader = engine.reader();
    let snapshot = reader.snapshot(reader.as_of(None, None)).unwrap();
    let shares = snapshot.term_shares(&["acm".into(), "zephyr".into(), "absent".into()]).unwrap();
    assert!(shares[0] >= BACKGROUND_SHARE && shares[0] <= 1.0, "{shares:?}");
    assert!(shares[1] > 0.0 && shares[1] < BACKGROUND_SHARE, "{shares:?}");
    assert_eq!(shares[2], 0.0);
    let background = background_terms(&snapshot, &["Acme Zephyr"]);
    assert!(background.contains("acm") && !background.contains("zephyr"), "{background:?}");
}

#[test]
fn a_background_name_is_not_required_of_the_source_but_a_rare_one_is() {
    let dir = tempfile::tempdir().unwrap();
    let engine = library(dir.path());
    let reader = engine.reader();
    let q = "What is the default monthly limit on an Acme manager's Zephyr card?";
    let told = tell(&reader, Question::parse(q));
    assert!(told.asked_terms().contains("zephyr") && !told.asked_terms().contains("acm"), "{:?}", told.asked_terms());
    assert!(told.name_alternatives().iter().all(|g| g.iter().all(|n| n != "Acme")), "{:?}", told.name_alternatives());
    // A part or ask of it knows the same background.
    assert!(!told.derive("Is the Acme limit monthly?").asked_terms().contains("acm"));
    // Untold, the question requires "Acme" of the Zephyr page and abstains.
    let untold = BuiltinModel::default().select(&Question::parse(q), &evidence(&engine, q));
    assert!(untold.is_empty(), "{untold:?}");
    let a = answer(
        &reader,
        Arc::new(BuiltinModel::default()),
        q,
        today(),
        &|_: &str| {},
        Mode::Classic,
        &AgentConfig::default(),
    )
    .unwrap();
    assert!(a.text.contains("$1,000") && !a.abstained, "{}\n{}", a.text, a.trace.render());
    // A name no chunk gives stays required: nothing answers for "Quokka".
    let rare = "What is the default monthly limit on a Quokka manager's Zephyr card?";
    let a = answer(
        &reader,
        Arc::new(BuiltinModel::default()),
        rare,
        today(),
        &|_: &str| {},
        Mode::Classic,
        &AgentConfig::default(),
    )
    .unwrap();
    assert!(a.abstained, "{}", a.text);
}

fn evidence(engine: &Engine, q: &str) -> Vec<almirah_answer::evidence::Evidence> {
    let as_of = engine.as_of(None, None);
    let hits = engine.search(q, &almirah_core::SearchOptions::default(), as_of, 0).unwrap();
    hits.results.hits.iter().map(almirah_answer::evidence::Evidence::from).collect()
}
