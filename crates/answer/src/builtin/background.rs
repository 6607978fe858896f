//! The library's background terms: words so common among the chunks the
//! user may see that they tell no passage from another, like a stop word
//! ("Sourcegraph" across Sourcegraph's handbook, where a quarter of the
//! chunks say it). A question that gives one ("What monthly limit does a
//! Sourcegraph manager's card get?") is not asking about it: the builtin
//! neither requires it of a sentence's source nor counts it in coverage.
//! The cut-off is a document-frequency share (Luhn's upper cut-off, 1958;
//! Elasticsearch's `cutoff_frequency`), measured per library on its
//! visible chunks ([`almirah_core::Snapshot::term_shares`]).
//!
//! The same statistics give each question term its IDF ([`term_weights`]),
//! which the builtin's weighted coverage counts. [`tell`] reads both once
//! per answer (`crate::mode::answer`, the one entry of the CLI, the
//! desktop app, the HTTP service and MCP).

use std::collections::{BTreeMap, BTreeSet};

use almirah_core::text::Tokenizer;
use almirah_core::{Reader, Snapshot};

use crate::lexicon;
use crate::question::Question;

/// Share of the visible chunks (0..=1) from which a term is background.
pub const BACKGROUND_SHARE: f32 = 0.25;

/// `question` told what its terms weigh in `reader`'s library, read in a
/// snapshot of the library as it stands: which of its names are
/// background ([`Question::with_background`]; only names are candidates:
/// a common word of a small or focused library, "hostel" in a hostel's
/// rules, is still what the question is about), and the IDF of each of
/// its content terms ([`Question::with_term_weights`]). A library that
/// cannot be read tells it nothing.
pub fn tell(reader: &Reader<'_>, question: Question) -> Question {
    let snapshot = match reader.snapshot(reader.as_of(None, None)) {
        Ok(snapshot) => snapshot,
        Err(e) => {
            tracing::warn!(error = %e, "could not open a snapshot; no term is background");
            return question;
        }
    };
    let background = background_terms(&snapshot, &[question.names().join(" ").as_str()]);
    let weights = term_weights(&snapshot, question.text());
    question.with_background(background).with_term_weights(weights)
}

/// The IDF of each content term of `text` in `snapshot`'s library, on
/// BM25's scale: `ln(1 + (N - df + 0.5) / (df + 0.5))` over the visible
/// chunks (Robertson & Zaragoza 2009; Lucene's non-negative form). A term
/// folded with synonyms ([`lexicon::canonical`]) weighs what its rarest
/// spelling in `text` weighs. Empty when the library cannot be read
/// (logged), when it has no chunk, or when `ALMIRAH_ABLATE` names `idf`.
pub fn term_weights(snapshot: &Snapshot<'_>, text: &str) -> BTreeMap<String, f32> {
    let mut weights = BTreeMap::new();
    if super::features::switched_off("idf") {
        return weights;
    }
    let literal: Vec<String> = lexicon::literal_terms(&Tokenizer::default(), text).into_iter().collect();
    let (n, dfs) = match snapshot.term_frequencies(&literal) {
        Ok(found) => found,
        Err(e) => {
            tracing::warn!(error = %e, "could not read term frequencies; terms weigh alike");
            return weights;
        }
    };
    if n == 0 {
        return weights;
    }
    for (term, df) in literal.iter().zip(dfs) {
        let idf = (1.0 + (n as f32 - df as f32 + 0.5) / (df as f32 + 0.5)).ln();
        let w = weights.entry(lexicon::canonical(term).to_string()).or_insert(idf);
        *w = w.max(idf);
    }
    weights
}

/// The content terms ([`lexicon::content_terms`]) of `texts` that are
/// background in `snapshot`'s library: held by at least
/// [`BACKGROUND_SHARE`] of its visible chunks. Empty when the library
/// cannot be read (logged), or when `ALMIRAH_ABLATE` names `background`:
/// every term then counts.
pub fn background_terms(snapshot: &Snapshot<'_>, texts: &[&str]) -> BTreeSet<String> {
    if super::features::switched_off("background") {
        return BTreeSet::new();
    }
    let tokenizer = Tokenizer::default();
    let literal: Vec<String> =
        texts.iter().flat_map(|t| lexicon::literal_terms(&tokenizer, t)).collect::<BTreeSet<_>>().into_iter().collect();
    match snapshot.term_shares(&literal) {
        Ok(shares) => literal
            .iter()
            .zip(shares)
            .filter(|(_, share)| *share >= BACKGROUND_SHARE)
            .map(|(t, _)| lexicon::canonical(t).to_string())
            .collect(),
        Err(e) => {
            tracing::warn!(error = %e, "could not read term frequencies; no term is background");
            BTreeSet::new()
        }
    }
}
