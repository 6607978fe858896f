//! The library's background terms: words so common among the chunks the
//! user may see that they tell no passage from another, like a stop word
//! ("Sourcegraph" across Sourcegraph's handbook, where a quarter of the
//! chunks say it). A question that gives one ("What monthly limit does a
//! Sourcegraph manager's card get?") is not asking about it: the builtin
//! neither requires it of a sentence's source nor counts it in coverage.
//! The cut-off is a document-frequency share (Luhn's upper cut-off, 1958;
//! Elasticsearch's `cutoff_frequency`), measured per library on its
//! visible chunks ([`almirah_core::Snapshot::term_shares`]).

use std::collections::BTreeSet;

use almirah_core::text::Tokenizer;
use almirah_core::{Reader, Snapshot};

use crate::lexicon;
use crate::question::Question;

/// Share of the visible chunks (0..=1) from which a term is background.
pub const BACKGROUND_SHARE: f32 = 0.25;

/// `question` told which of its names are background in `reader`'s
/// library, read in a snapshot of the library as it stands
/// ([`Question::with_background`]). Only names are candidates: a common
/// word of a small or focused library ("hostel" in a hostel's rules) is
/// still what the question is about.
/// A library that cannot be read gives it none.
pub fn tell(reader: &Reader<'_>, question: Question) -> Question {
    let background = match reader.snapshot(reader.as_of(None, None)) {
        Ok(snapshot) => background_terms(&snapshot, &[question.names().join(" ").as_str()]),
        Err(e) => {
            tracing::warn!(error = %e, "could not open a snapshot; no term is background");
            BTreeSet::new()
        }
    };
    question.with_background(background)
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
