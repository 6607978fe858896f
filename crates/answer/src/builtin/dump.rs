//! An evaluation hook: with `ALMIRAH_CANDIDATES=<file>` set, each question
//! the builtin selects sentences for appends its best [`DUMPED`] candidates
//! (sentence, chunk key, coverage and feature values) to that file as JSON
//! lines, the data `scripts/eval/fit.py` fits the weight table on. Off, and
//! free, when the variable is unset; a write failure is logged and
//! otherwise ignored (answering never depends on it).

use std::io::Write;
use std::sync::LazyLock;

use super::{BuiltinModel, Feature, Question, Scored};
use crate::evidence::Evidence;

/// Candidates written per question at most.
const DUMPED: usize = 20;

static TARGET: LazyLock<Option<std::path::PathBuf>> =
    LazyLock::new(|| std::env::var_os("ALMIRAH_CANDIDATES").map(Into::into));

/// Whether a dump is being written (`ALMIRAH_CANDIDATES` is set).
pub(super) fn enabled() -> bool {
    TARGET.is_some()
}

/// The question-level facts the answerer's abstention gate reads, written
/// with every candidate so a gate can be fitted offline.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Gate {
    /// [`BuiltinModel::evidence_speaks_of`].
    pub speaks_of: bool,
    /// Question terms the evidence never mentions ([`BuiltinModel::unknown_terms`]).
    pub unknown: usize,
    /// Whether the typed and meaning thresholds may apply (few unknown terms).
    pub known: bool,
}

/// Append `scored`'s best candidates for `question` to the dump, if one is
/// set, with the content terms of the question, of each sentence and of its
/// chunk's title and headings (what a new feature would be computed from).
pub(super) fn candidates(model: &BuiltinModel, question: &Question, scored: &[Scored], evidence: &[Evidence]) {
    gated(model, question, scored, evidence, None, &|_| true);
}

/// [`candidates`] with the `gate` facts and whether each candidate is `kept`
/// by the answerer's filters (the amount asked for, the names given).
pub(super) fn gated(
    model: &BuiltinModel,
    question: &Question,
    scored: &[Scored],
    evidence: &[Evidence],
    gate: Option<Gate>,
    kept: &dyn Fn(&Scored) -> bool,
) {
    let Some(path) = TARGET.as_ref() else { return };
    let mut out = String::new();
    for (i, s) in scored.iter().take(DUMPED).enumerate() {
        let context = evidence
            .iter()
            .find(|e| e.key == s.key)
            .map(|e| model.content_terms(&format!("{} {}", e.title, e.heading_path.join(" "))))
            .unwrap_or_default();
        let features: serde_json::Map<String, serde_json::Value> =
            Feature::ALL.iter().map(|f| (f.name().to_string(), s.features[*f as usize].into())).collect();
        let line = serde_json::json!({
            "question": question.text(), "place": i, "key": s.key, "text": s.text,
            "coverage": s.coverage, "weighted_coverage": s.weighted_coverage, "direct": s.direct, "lacks_value": s.lacks_value,
            "has_meaning": s.meaning.is_some(), "features": features,
            "q_terms": question.terms(), "ask": question.ask_text(), "ask_terms": question.ask_terms(), "terms": model.content_terms(&s.text), "context_terms": context,
            "retrieval_score": evidence.iter().find(|e| e.key == s.key).map(|e| e.score),
            "meaning": s.meaning, "typed": s.typed, "answers": s.answers(), "covers_enough": s.covers_enough(),
            "close_in_meaning": s.close_in_meaning(), "kept": kept(s), "chunk": s.at.0, "sentence": s.at.1,
            "gate": gate.as_ref().map(|g| serde_json::json!({"speaks_of": g.speaks_of, "unknown": g.unknown, "known": g.known})),
        });
        out.push_str(&line.to_string());
        out.push('\n');
    }
    let written =
        std::fs::OpenOptions::new().create(true).append(true).open(path).and_then(|mut f| f.write_all(out.as_bytes()));
    if let Err(e) = written {
        tracing::warn!(path = %path.display(), error = %e, "could not append to ALMIRAH_CANDIDATES");
    }
}
