//! The library's background terms: words so common among the chunks the
//! user may see that they tell no passage from another, like a stop word
//! ("Sourcegraph" across Sourcegraph's handbook, where a quarter of the
//! chunks say it). A question that gives one ("What monthly limit does a
//! Sourcegraph manager's card get?") is not asking about it: the builtin
//! neither requires it of a sentence's source nor counts it in coverage.
//! The cut-off is a document-frequency share (Luhn's upper cut-off, 1958;
//! Elasticsearch's `cutoff_frequency`), measured per library on its
//! visible chunks ([`almirah_core::Snapshot::term_frequencies`]).
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
    tell_in(&snapshot, question)
}

/// `text` parsed once as `reader`'s library reads it
/// ([`Snapshot::as_the_library_reads`]: a romanized Hindi question in
/// Devanagari for the multilingual embedder, so its words meet the Hindi
/// documents' and its Hindi question forms are read; issue 41), then told
/// what its terms weigh ([`tell`]). A library that cannot be read parses
/// the text as typed.
pub fn parse(reader: &Reader<'_>, text: &str) -> Question {
    let snapshot = match reader.snapshot(reader.as_of(None, None)) {
        Ok(snapshot) => snapshot,
        Err(e) => {
            tracing::warn!(error = %e, "could not open a snapshot; no term is background");
            return Question::parse(text);
        }
    };
    let read = snapshot.as_the_library_reads(text).unwrap_or_else(|e| {
        tracing::warn!(error = %e, "could not read the question as the library does; taken as typed");
        text.to_string()
    });
    tell_in(&snapshot, Question::parse(&read))
}

/// [`tell`] in an open snapshot.
fn tell_in(snapshot: &Snapshot<'_>, question: Question) -> Question {
    // One read of the postings for both: the names' terms are the question's.
    let Some(stats) = frequencies(snapshot, &[question.text()]) else { return question };
    let names = lexicon::literal_terms(&Tokenizer::default(), &question.names().join(" "));
    let background = background_of(&stats, names.iter());
    let weights = weights_of(&stats);
    question.with_background(background).with_term_weights(weights)
}

/// `N` and the document frequency of each literal content term of
/// `texts` ([`lexicon::literal_terms`]) over `snapshot`'s visible chunks;
/// `None` (logged) when they cannot be read.
fn frequencies(snapshot: &Snapshot<'_>, texts: &[&str]) -> Option<(u64, BTreeMap<String, u64>)> {
    let tokenizer = Tokenizer::default();
    let literal: Vec<String> =
        texts.iter().flat_map(|t| lexicon::literal_terms(&tokenizer, t)).collect::<BTreeSet<_>>().into_iter().collect();
    match snapshot.term_frequencies(&literal) {
        Ok((n, dfs)) => Some((n, literal.into_iter().zip(dfs).collect())),
        Err(e) => {
            tracing::warn!(error = %e, "could not read term frequencies; terms weigh alike and none is background");
            None
        }
    }
}

/// The IDF of each term of `stats` on BM25's scale, by canonical term
/// (the rarest spelling wins); empty for an empty library or when
/// `ALMIRAH_ABLATE` names `idf`.
fn weights_of((n, dfs): &(u64, BTreeMap<String, u64>)) -> BTreeMap<String, f32> {
    let mut weights = BTreeMap::new();
    if *n == 0 || super::features::switched_off("idf") {
        return weights;
    }
    for (term, df) in dfs {
        let idf = (1.0 + (*n as f32 - *df as f32 + 0.5) / (*df as f32 + 0.5)).ln();
        let w = weights.entry(lexicon::canonical(term).to_string()).or_insert(idf);
        *w = w.max(idf);
    }
    weights
}

/// The canonical forms of `terms` held by at least [`BACKGROUND_SHARE`]
/// of the visible chunks in `stats`; none when `ALMIRAH_ABLATE` names
/// `background`.
fn background_of<'t>(
    (n, dfs): &(u64, BTreeMap<String, u64>),
    terms: impl Iterator<Item = &'t String>,
) -> BTreeSet<String> {
    if *n == 0 || super::features::switched_off("background") {
        return BTreeSet::new();
    }
    terms
        .filter(|t| dfs.get(*t).is_some_and(|df| *df as f32 / *n as f32 >= BACKGROUND_SHARE))
        .map(|t| lexicon::canonical(t).to_string())
        .collect()
}

/// The IDF of each content term of `text` in `snapshot`'s library, on
/// BM25's scale: `ln(1 + (N - df + 0.5) / (df + 0.5))` over the visible
/// chunks (Robertson & Zaragoza 2009; Lucene's non-negative form). A term
/// folded with synonyms ([`lexicon::canonical`]) weighs what its rarest
/// spelling in `text` weighs. Empty when the library cannot be read
/// (logged), when it has no chunk, or when `ALMIRAH_ABLATE` names `idf`.
pub fn term_weights(snapshot: &Snapshot<'_>, text: &str) -> BTreeMap<String, f32> {
    frequencies(snapshot, &[text]).map(|stats| weights_of(&stats)).unwrap_or_default()
}

/// The content terms ([`lexicon::content_terms`]) of `texts` that are
/// background in `snapshot`'s library: held by at least
/// [`BACKGROUND_SHARE`] of its visible chunks. Empty when the library
/// cannot be read (logged), or when `ALMIRAH_ABLATE` names `background`:
/// every term then counts.
pub fn background_terms(snapshot: &Snapshot<'_>, texts: &[&str]) -> BTreeSet<String> {
    frequencies(snapshot, texts).map(|stats| background_of(&stats, stats.1.keys())).unwrap_or_default()
}
