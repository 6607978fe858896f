//! Okapi BM25 over the candidate bitmap (Robertson & Zaragoza, "The
//! Probabilistic Relevance Framework: BM25 and Beyond", 2009), with the
//! non-negative IDF `ln(1 + (N - df + 0.5) / (df + 0.5))` used by Lucene.
//!
//! `N` and `df` count only the chunks of documents the user may see (the
//! `visible` set: current or withheld, never hidden), so a hidden document's
//! terms never move a score that is shown. The average length `avgdl` is
//! library-wide: one total that carries no term.

use std::collections::HashMap;

use heed::RoTxn;

use crate::error::Result;
use crate::ids::{ChunkId, ChunkSet};
use crate::store::{Databases, chunk_of_key, get_meta, meta_keys, term_prefix};
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
/// LMDB errors.
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
        let hits = postings.intersection(candidates);
        if hits.is_empty() {
            continue;
        }
        score_term(dbs, rtxn, term, &hits, idf, avgdl, &mut scores)?;
    }
    let mut ranked: Vec<(ChunkId, f32)> = scores.into_iter().collect();
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    ranked.truncate(limit);
    Ok(ranked)
}

fn score_term(
    dbs: &Databases,
    rtxn: &RoTxn<'_>,
    term: &str,
    hits: &ChunkSet,
    idf: f32,
    avgdl: f32,
    scores: &mut HashMap<ChunkId, f32>,
) -> Result<()> {
    let mut add = |chunk: ChunkId, tf: u32| -> Result<()> {
        let len = dbs.chunk_lens.get(rtxn, &chunk)?.map_or(avgdl, |l| l as f32);
        let tf = tf as f32;
        let norm = tf * (K1 + 1.0) / (tf + K1 * (1.0 - B + B * len / avgdl));
        *scores.entry(chunk).or_insert(0.0) += idf * norm;
        Ok(())
    };
    // Few candidates: look each one up. Many: one sequential scan of the term's entries.
    if hits.len() <= DIRECT_LOOKUP_MAX {
        for chunk in hits.iter() {
            if let Some(tf) = dbs.term_freqs.get(rtxn, &crate::store::term_chunk_key(term, chunk))? {
                add(chunk, tf)?;
            }
        }
        return Ok(());
    }
    for entry in dbs.term_freqs.prefix_iter(rtxn, &term_prefix(term))? {
        let (key, tf) = entry?;
        match chunk_of_key(key) {
            Some(chunk) if hits.contains(chunk) => add(chunk, tf)?,
            _ => {}
        }
    }
    Ok(())
}

/// Up to this many candidate chunks per term, term frequencies are read by
/// direct key lookups instead of a scan of the whole posting.
const DIRECT_LOOKUP_MAX: u64 = 2_000;
