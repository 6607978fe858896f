//! Sentence similarity by meaning: the cosine between the question's
//! embedding and each candidate sentence's, from the library's own embedder
//! (all-MiniLM-L6-v2 by default, 384 dimensions; Sentence-BERT, Reimers and
//! Gurevych, EMNLP 2019). Lexical coverage finds the candidates; meaning
//! orders them, so "How many days of paid vacation do we get?" prefers the
//! sentence with the number of days over the one about days paid out at
//! departure, which shares as many words.
//!
//! Sentence vectors are cached by the BLAKE3 hash of their text (at most
//! [`CACHE_ENTRIES`], about 1.5 KiB each at 384 dimensions), so a sentence
//! is embedded once per process however often it is a candidate.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use almirah_embed::{Embedder, InputKind};

/// Sentence vectors kept at most (about 30 MiB at 384 dimensions).
pub const CACHE_ENTRIES: usize = 20_000;

/// The embedder and its sentence-vector cache.
pub struct Meaning {
    embedder: Arc<dyn Embedder>,
    cache: Mutex<HashMap<blake3::Hash, Arc<[f32]>>>,
}

impl std::fmt::Debug for Meaning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Meaning").field("embedder", self.embedder.id()).finish_non_exhaustive()
    }
}

impl Meaning {
    /// Wraps `embedder` (any [`Embedder`]: its vectors are L2-normalised, so
    /// a dot product is the cosine).
    pub fn new(embedder: Arc<dyn Embedder>) -> Self {
        Self { embedder, cache: Mutex::new(HashMap::new()) }
    }

    /// The cosine (-1..=1) between `question` and each of `sentences`, in
    /// order; `None` when the embedder fails (the caller then ranks by words
    /// alone: an embedder outage costs ordering, never an answer).
    pub fn similarities(&self, question: &str, sentences: &[&str]) -> Option<Vec<f32>> {
        let query = self.embedder.embed(&[question], InputKind::Query).ok()?.pop()?;
        let vectors = self.sentence_vectors(sentences)?;
        Some(vectors.iter().map(|v| dot(&query, v)).collect())
    }

    /// One vector per sentence, from the cache or embedded in batches.
    fn sentence_vectors(&self, sentences: &[&str]) -> Option<Vec<Arc<[f32]>>> {
        let hashes: Vec<blake3::Hash> = sentences.iter().map(|s| blake3::hash(s.as_bytes())).collect();
        let missing: Vec<usize> = {
            let cache = self.cache.lock().ok()?;
            (0..sentences.len()).filter(|i| !cache.contains_key(&hashes[*i])).collect()
        };
        let mut fresh = Vec::with_capacity(missing.len());
        for batch in missing.chunks(self.embedder.max_batch().max(1)) {
            let texts: Vec<&str> = batch.iter().map(|i| sentences[*i]).collect();
            let vectors = match self.embedder.embed(&texts, InputKind::Document) {
                Ok(v) if v.len() == texts.len() => v,
                Ok(_) => return None,
                Err(e) => {
                    tracing::warn!(error = %e, "sentence embedding failed; answer sentences ranked by words alone");
                    return None;
                }
            };
            fresh.extend(batch.iter().copied().zip(vectors));
        }
        let mut cache = self.cache.lock().ok()?;
        if cache.len() + fresh.len() > CACHE_ENTRIES {
            cache.clear();
        }
        let mut out: Vec<Option<Arc<[f32]>>> = hashes.iter().map(|h| cache.get(h).cloned()).collect();
        for (i, v) in fresh {
            let v: Arc<[f32]> = Arc::from(v);
            cache.insert(hashes[i], v.clone());
            out[i] = Some(v);
        }
        out.into_iter().collect()
    }
}

fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use almirah_embed::HashEmbedder;

    #[test]
    fn the_same_text_is_most_similar_and_vectors_are_cached() {
        let meaning = Meaning::new(Arc::new(HashEmbedder::new(64).unwrap()));
        let s = ["Annual leave is 24 days a year.", "Parking is free at the Oslo office."];
        let sims = meaning.similarities("Annual leave is 24 days a year.", &s).unwrap();
        assert_eq!(sims.len(), 2);
        assert!(sims[0] > 0.99 && sims[1] < sims[0], "{sims:?}");
        assert_eq!(meaning.cache.lock().map(|c| c.len()).unwrap_or(0), 2);
        let again = meaning.similarities("parking", &s[1..]).unwrap_or_default();
        assert_eq!((again.len(), meaning.cache.lock().map(|c| c.len()).unwrap_or(0)), (1, 2));
    }
}
