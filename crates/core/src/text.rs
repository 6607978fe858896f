//! The BM25 tokenizer: Unicode word segmentation (UAX #29), lowercasing,
//! then the Snowball English stemmer (Porter 2). Shared by indexing and
//! search; its version is [`crate::store::TOKENIZER_VERSION`].

use std::collections::BTreeMap;

use rust_stemmers::{Algorithm, Stemmer};
use unicode_segmentation::UnicodeSegmentation;

/// Longest term kept, in bytes; LMDB keys are limited to 511 bytes.
pub const MAX_TERM_BYTES: usize = 200;

/// Stems and segments text into BM25 terms.
pub struct Tokenizer {
    stemmer: Stemmer,
}

impl Default for Tokenizer {
    fn default() -> Self {
        Self { stemmer: Stemmer::create(Algorithm::English) }
    }
}

impl Tokenizer {
    /// Terms of `text` in order, with repeats. Words are UAX #29 words
    /// (so Devanagari and CJK are segmented too), lowercased, stemmed, and
    /// cut to [`MAX_TERM_BYTES`] bytes on a character boundary.
    pub fn terms(&self, text: &str) -> Vec<String> {
        text.unicode_words().map(|w| self.term(w)).filter(|t| !t.is_empty()).collect()
    }

    /// Distinct terms with their frequencies, and the token count.
    pub fn term_frequencies(&self, text: &str) -> (BTreeMap<String, u32>, u32) {
        let mut freqs = BTreeMap::new();
        let mut len = 0u32;
        for term in self.terms(text) {
            *freqs.entry(term).or_insert(0) += 1;
            len += 1;
        }
        (freqs, len)
    }

    fn term(&self, word: &str) -> String {
        let lower = word.to_lowercase();
        let stemmed = self.stemmer.stem(&lower).into_owned();
        truncate(stemmed, MAX_TERM_BYTES)
    }
}

fn truncate(mut s: String, max: usize) -> String {
    if s.len() > max {
        let mut end = max;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        s.truncate(end);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stems_lowercases_and_segments() {
        let t = Tokenizer::default();
        assert_eq!(t.terms("Employees' Leaves, travelling!"), vec!["employe", "leav", "travel"]);
        let (freqs, len) = t.term_frequencies("leave leave policy");
        assert_eq!(len, 3);
        assert_eq!(freqs.get("leav"), Some(&2));
    }

    #[test]
    fn segments_devanagari_words() {
        let t = Tokenizer::default();
        assert_eq!(t.terms("छात्रावास शुल्क").len(), 2);
    }

    #[test]
    fn truncates_on_char_boundary() {
        let long = "é".repeat(150);
        assert!(truncate(long, 201).len() <= 201);
    }
}
