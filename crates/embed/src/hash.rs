//! Deterministic feature-hashing embedder ("hashing trick", Weinberger et al.,
//! ICML 2009): not semantic, but fast, offline and stable across platforms,
//! for tests and benchmarks.

use crate::vector::normalize;
use crate::{EmbedError, Embedder, EmbedderId, InputKind};

/// Weight of each character trigram relative to a whole word (1.0).
const TRIGRAM_WEIGHT: f32 = 0.5;

/// Bag of lowercase words and their character trigrams, each hashed with
/// 64-bit FNV-1a into one of `dimensions` buckets with a hash-derived sign,
/// then L2-normalised. A text with no word characters maps to the unit vector
/// e0 (never NaN). Provider id `hash`, model `fnv1a-words-trigrams`.
#[derive(Debug, Clone)]
pub struct HashEmbedder {
    id: EmbedderId,
}

impl HashEmbedder {
    /// An embedder producing `dimensions`-float vectors.
    ///
    /// # Errors
    /// [`EmbedError::Config`] when `dimensions` is 0.
    pub fn new(dimensions: usize) -> Result<Self, EmbedError> {
        if dimensions == 0 {
            return Err(EmbedError::Config("hash embedder needs dimensions > 0".into()));
        }
        let id = EmbedderId {
            provider: "hash".into(),
            model: "fnv1a-words-trigrams".into(),
            dimensions,
            document_prefix: String::new(),
            query_prefix: String::new(),
        };
        Ok(Self { id })
    }

    /// The vector of one text (`dimensions` floats, unit norm).
    pub fn embed_one(&self, text: &str) -> Vec<f32> {
        let mut v = vec![0.0_f32; self.id.dimensions];
        for word in words(text) {
            add_feature(&mut v, b'w', word.as_bytes(), 1.0);
            for gram in trigrams(&word) {
                add_feature(&mut v, b't', gram.as_bytes(), TRIGRAM_WEIGHT);
            }
        }
        if !normalize(&mut v) {
            v.iter_mut().for_each(|x| *x = 0.0);
            v[0] = 1.0;
        }
        v
    }
}

impl Embedder for HashEmbedder {
    fn id(&self) -> &EmbedderId {
        &self.id
    }

    fn max_batch(&self) -> usize {
        1024
    }

    fn embed(&self, texts: &[&str], _kind: InputKind) -> Result<Vec<Vec<f32>>, EmbedError> {
        Ok(texts.iter().map(|t| self.embed_one(t)).collect())
    }
}

/// Lowercase runs of alphanumeric characters.
fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).map(str::to_lowercase)
}

/// Character trigrams of `^word$` (words of one character give one trigram).
fn trigrams(word: &str) -> Vec<String> {
    let chars: Vec<char> = format!("^{word}$").chars().collect();
    chars.windows(3).map(|w| w.iter().collect()).collect()
}

fn add_feature(v: &mut [f32], tag: u8, bytes: &[u8], weight: f32) {
    let h = fnv1a(tag, bytes);
    let bucket = (h % v.len() as u64) as usize;
    let sign = if h >> 63 == 0 { 1.0 } else { -1.0 };
    v[bucket] += sign * weight;
}

/// 64-bit FNV-1a over `tag` then `bytes` (Fowler, Noll, Vo).
fn fnv1a(tag: u8, bytes: &[u8]) -> u64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    std::iter::once(&tag).chain(bytes).fold(OFFSET, |h, b| (h ^ u64::from(*b)).wrapping_mul(PRIME))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use crate::vector::{cosine, norm};

    #[test]
    fn deterministic_unit_vectors() {
        let e = HashEmbedder::new(64).unwrap();
        let a = e.embed(&["Earned leave is 18 days."], InputKind::Document).unwrap();
        let b = e.embed(&["Earned leave is 18 days."], InputKind::Query).unwrap();
        assert_eq!(a, b);
        assert_eq!(a[0].len(), 64);
        assert!((norm(&a[0]) - 1.0).abs() < 1e-5);
    }

    #[test]
    fn different_texts_differ_and_overlap_scores_higher() {
        let e = HashEmbedder::new(256).unwrap();
        let q = e.embed_one("earned leave days");
        let near = e.embed_one("Employees get 18 days of earned leave.");
        let far = e.embed_one("Hotels are capped at INR 6,000 a night.");
        assert_ne!(near, far);
        assert!(cosine(&q, &near) > cosine(&q, &far));
    }

    #[test]
    fn empty_text_is_e0_not_nan() {
        let e = HashEmbedder::new(8).unwrap();
        for text in ["", "  ,;! "] {
            let v = e.embed_one(text);
            assert_eq!(v[0], 1.0);
            assert!(v[1..].iter().all(|x| *x == 0.0));
        }
    }

    #[test]
    fn zero_dimensions_is_a_config_error() {
        assert!(matches!(HashEmbedder::new(0), Err(EmbedError::Config(_))));
    }

    #[test]
    fn fnv1a_known_value() {
        // FNV-1a 64 of "a" is 0xaf63dc4c8601ec8c; with our tag byte prepended
        // the value must stay fixed across releases.
        assert_eq!(fnv1a(b'a', b""), 0xaf63_dc4c_8601_ec8c);
    }
}
