//! Okapi BM25 over the candidate bitmap (Robertson & Zaragoza, "The
//! Probabilistic Relevance Framework: BM25 and Beyond", 2009), with the
//! non-negative IDF `ln(1 + (N - df + 0.5) / (df + 0.5))` used by Lucene.
//!
//! `N` and `df` count only the chunks of documents the user may see (the
//! `visible` set: current or withheld, never hidden), so a hidden document's
//! terms never move a score that is shown. The average length `avgdl` is
//! library-wide: one total that carries no term.
//!
//! Each query term costs two reads: its roaring postings (for `df`) and its
//! impact list ([`crate::impacts`]), walked once; every entry carries the
//! term frequency and the chunk's exact length, so a hit needs no lookup
//! of its own.

use std::collections::HashMap;

use heed::RoTxn;

use crate::error::Result;
use crate::ids::{ChunkId, ChunkSet};
use crate::impacts;
use crate::store::{Databases, get_meta, meta_keys};
use crate::text::Tokenizer;

/// Term-frequency saturation.
pub const K1: f32 = 1.2;
/// Length normalisation.
pub const B: f32 = 0.75;

/// Score every candidate chunk containing a query term; returns
/// `(chunk id, score)` sorted by score, best first, at most `limit`.
/// `visible` (a superset of `candidates`) is what `N` and `df` count.
///
/// # Errors
/// LMDB errors; [`crate::Error::DataCorruption`] for an impact list that
/// does not decode.
pub fn search(
    dbs: &Databases,
    rtxn: &RoTxn<'_>,
    tokenizer: &Tokenizer,
    query: &str,
    candidates: &ChunkSet,
    visible: &ChunkSet,
    limit: usize,
) -> Result<Vec<(ChunkId, f32)>> {
    let all = crate::store::all_chunks(dbs, rtxn)?;
    let n = visible.len().max(1) as f32;
    let total_len: f64 = get_meta::<f64>(dbs, rtxn, meta_keys::BM25_TOTAL_LEN)?.unwrap_or(0.0);
    let avgdl = (total_len as f32 / all.len().max(1) as f32).max(1.0);
    let mut terms = tokenizer.terms(query);
    terms.sort();
    terms.dedup();
    let mut scores: HashMap<ChunkId, f32> = HashMap::new();
    for term in &terms {
        let Some(postings) = dbs.postings.get(rtxn, term)? else {
            continue;
        };
        let df = postings.bitmap().intersection_len(visible.bitmap()) as f32;
        let idf = (1.0 + (n - df + 0.5) / (df + 0.5)).ln();
        let Some(list) = dbs.term_impacts.get(rtxn, term)? else {
            continue;
        };
        for entry in impacts::iter(list) {
            let entry = entry.map_err(|e| impacts::corrupt(term, e))?;
            if candidates.contains(entry.chunk) {
                let (tf, len) = (entry.tf as f32, entry.len as f32);
                let norm = tf * (K1 + 1.0) / (tf + K1 * (1.0 - B + B * len / avgdl));
                *scores.entry(entry.chunk).or_insert(0.0) += idf * norm;
            }
        }
    }
    let mut ranked: Vec<(ChunkId, f32)> = scores.into_iter().collect();
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    ranked.truncate(limit);
    Ok(ranked)
}
