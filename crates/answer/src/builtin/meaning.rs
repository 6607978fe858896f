//! Sentence similarity by meaning: the cosine between the question's
//! embedding and each candidate sentence's, from the library's own embedder
//! (all-MiniLM-L6-v2 by default, 384 dimensions; Sentence-BERT, Reimers and
//! Gurevych, EMNLP 2019). Lexical coverage finds the candidates; meaning
//! orders them, so "How many days of paid vacation do we get?" prefers the
//! sentence with the number of days over the one about days paid out at
//! departure, which shares as many words.
//!
//! Vectors are cached for the process by the BLAKE3 hash of the embedder's
//! fingerprint, the input kind and the text (at most [`CACHE_ENTRIES`],
//! about 1.5 KiB each at 384 dimensions), so a sentence or question is
//! embedded once however many models, requests or agent steps compare it:
//! the HTTP service and the desktop app build a model per question.

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex};

use almirah_embed::{Calibration, Embedder, InputKind};

/// Vectors kept at most (about 30 MiB at 384 dimensions).
pub const CACHE_ENTRIES: usize = 20_000;

/// The process-wide vector cache ([`Meaning::vectors`]).
static CACHE: LazyLock<Mutex<HashMap<blake3::Hash, Arc<[f32]>>>> = LazyLock::new(Default::default);

/// The embedder, and its fingerprint for the cache keys.
pub struct Meaning {
    embedder: Arc<dyn Embedder>,
    fingerprint: String,
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
        let fingerprint = embedder.id().fingerprint();
        Self { embedder, fingerprint }
    }

    /// The cosine between `question` and each of `sentences`, in order, on
    /// all-MiniLM-L6-v2's scale (another builtin embedder's cosine is mapped
    /// by its [`Calibration`], so the thresholds hold for either); `None`
    /// when the embedder fails (the caller then ranks by words alone: an
    /// embedder outage costs ordering, never an answer).
    pub fn similarities(&self, question: &str, sentences: &[&str]) -> Option<Vec<f32>> {
        let query = self.vectors(&[question], InputKind::Query)?.pop()?;
        let vectors = self.vectors(sentences, InputKind::Document)?;
        let scale = Calibration::of(self.embedder.id());
        Some(vectors.iter().map(|v| scale.to_reference(dot(&query, v))).collect())
    }

    /// One vector per text, from the cache or embedded in batches.
    fn vectors(&self, texts: &[&str], kind: InputKind) -> Option<Vec<Arc<[f32]>>> {
        let keys: Vec<blake3::Hash> = texts.iter().map(|t| self.key(t, kind)).collect();
        let mut out: Vec<Option<Arc<[f32]>>> = {
            let cache = CACHE.lock().ok()?;
            keys.iter().map(|k| cache.get(k).cloned()).collect()
        };
        let missing: Vec<usize> = (0..texts.len()).filter(|i| out[*i].is_none()).collect();
        let mut fresh = Vec::with_capacity(missing.len());
        for batch in missing.chunks(self.embedder.max_batch().max(1)) {
            let batch_texts: Vec<&str> = batch.iter().map(|i| texts[*i]).collect();
            let vectors = match self.embedder.embed(&batch_texts, kind) {
                Ok(v) if v.len() == batch_texts.len() => v,
                Ok(_) => return None,
                Err(e) => {
                    tracing::warn!(error = %e, "embedding for answer selection failed; sentences ranked by words alone");
                    return None;
                }
            };
            fresh.extend(batch.iter().copied().zip(vectors));
        }
        let mut cache = CACHE.lock().ok()?;
        if cache.len() + fresh.len() > CACHE_ENTRIES {
            cache.clear();
        }
        for (i, v) in fresh {
            let v: Arc<[f32]> = Arc::from(v);
            cache.insert(keys[i], v.clone());
            out[i] = Some(v);
        }
        out.into_iter().collect()
    }

    fn key(&self, text: &str, kind: InputKind) -> blake3::Hash {
        let mut hasher = blake3::Hasher::new();
        hasher.update(self.fingerprint.as_bytes());
        hasher.update(if kind == InputKind::Query { b"q\0" } else { b"d\0" });
        hasher.update(text.as_bytes());
        hasher.finalize()
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

    /// Counts the texts it embeds.
    struct Counting(HashEmbedder, std::sync::atomic::AtomicUsize);

    impl Embedder for Counting {
        fn id(&self) -> &almirah_embed::EmbedderId {
            self.0.id()
        }
        fn max_batch(&self) -> usize {
            self.0.max_batch()
        }
        fn embed(&self, texts: &[&str], kind: InputKind) -> Result<Vec<Vec<f32>>, almirah_embed::EmbedError> {
            self.1.fetch_add(texts.len(), std::sync::atomic::Ordering::Relaxed);
            self.0.embed(texts, kind)
        }
    }

    #[test]
    fn the_same_text_is_most_similar_and_vectors_are_embedded_once() {
        let embedder = Arc::new(Counting(HashEmbedder::new(61).unwrap(), Default::default()));
        let s =
            ["Annual leave is 24 days a year (meaning test).", "Parking is free at the Oslo office (meaning test)."];
        let sims = Meaning::new(embedder.clone()).similarities(s[0], &s).unwrap();
        assert_eq!(sims.len(), 2);
        assert!(sims[0] > 0.99 && sims[1] < sims[0], "{sims:?}");
        assert_eq!(embedder.1.load(std::sync::atomic::Ordering::Relaxed), 3, "the question and two sentences");
        // A second model over the same embedder (the next request) embeds nothing again.
        let again = Meaning::new(embedder.clone()).similarities(s[0], &s[1..]).unwrap();
        assert_eq!((again.len(), embedder.1.load(std::sync::atomic::Ordering::Relaxed)), (1, 3));
    }
}
