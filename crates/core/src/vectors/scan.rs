//! The quantised scan: rank candidates by their codes and keep a shortlist
//! for exact f32 rescoring. One pass over the int8 codes, or a binary pass
//! first (Hamming, 48 bytes a vector at 384 dimensions) whose best
//! `keep_binary` are then ranked by int8.

use std::collections::BinaryHeap;

use heed::RoTxn;
use roaring::RoaringBitmap;

use super::block::{BLOCK_SLOTS, BlockView};
use super::codes::{CodeLayout, QueryCodes};
use super::{CodeDb, block_key};
use crate::error::Result;

/// What the quantised scan reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shortlist {
    /// int8 codes of every candidate; keep the best `keep`.
    Int8 {
        /// Shortlist length.
        keep: usize,
    },
    /// Binary codes of every candidate, the best `keep_binary` by int8, keep
    /// the best `keep`.
    Binary {
        /// Kept after the binary pass.
        keep_binary: usize,
        /// Shortlist length.
        keep: usize,
    },
}

/// The best `k` by an ascending `u32` key (ties: lower id first).
struct TopK {
    k: usize,
    heap: BinaryHeap<(u32, u32, usize)>,
}

impl TopK {
    fn new(k: usize) -> Self {
        Self { k, heap: BinaryHeap::with_capacity(k + 1) }
    }

    /// Offer `(key, id, at)`; lower keys win.
    fn offer(&mut self, key: u32, id: u32, at: usize) {
        if self.heap.len() < self.k {
            self.heap.push((key, id, at));
        } else if self.heap.peek().is_some_and(|top| (key, id) < (top.0, top.1)) {
            self.heap.pop();
            self.heap.push((key, id, at));
        }
    }

    fn into_sorted(self) -> Vec<(u32, u32, usize)> {
        self.heap.into_sorted_vec()
    }
}

/// A score as a `u32` key that sorts best (highest score) first.
fn score_key(score: f32) -> u32 {
    let bits = score.to_bits();
    let ascending = if bits >> 31 == 1 { !bits } else { bits | 0x8000_0000 };
    !ascending
}

/// The score a [`score_key`] came from.
fn key_score(key: u32) -> f32 {
    let ascending = !key;
    f32::from_bits(if ascending >> 31 == 1 { ascending & 0x7FFF_FFFF } else { !ascending })
}

/// The candidates' blocks, read in place, and each candidate's position.
struct Blocks<'t> {
    views: Vec<BlockView<'t>>,
}

/// Visit every candidate that has a vector: `(block index in blocks, view,
/// rank, chunk id)`, ascending by id; each block is read once, in place.
fn for_each_candidate<'t>(
    rtxn: &'t RoTxn<'_>,
    db: CodeDb,
    index: u16,
    layout: CodeLayout,
    candidates: &RoaringBitmap,
    blocks: &mut Blocks<'t>,
    mut visit: impl FnMut(usize, &BlockView<'t>, usize, u32),
) -> Result<()> {
    let mut ids = candidates.iter().peekable();
    while let Some(&first) = ids.peek() {
        let number = first / BLOCK_SLOTS;
        let mut wanted = [0u64; 4];
        while let Some(id) = ids.next_if(|id| id / BLOCK_SLOTS == number) {
            let slot = id % BLOCK_SLOTS;
            wanted[(slot / 64) as usize] |= 1u64 << (slot % 64);
        }
        let Some(bytes) = db.get(rtxn, &block_key(index, number))? else { continue };
        let at = blocks.push(BlockView::parse(bytes, layout)?);
        let view = &blocks.views[at];
        let presence = view.presence();
        let mut below = 0usize;
        for (w, (&present, &want)) in presence.iter().zip(&wanted).enumerate() {
            let mut hits = present & want;
            while hits != 0 {
                let bit = hits.trailing_zeros();
                hits &= hits - 1;
                let rank = below + (present & ((1u64 << bit) - 1)).count_ones() as usize;
                visit(at, view, rank, number * BLOCK_SLOTS + w as u32 * 64 + bit);
            }
            below += present.count_ones() as usize;
        }
    }
    Ok(())
}

/// `(chunk id, approximate cosine)` of the best candidates by their codes,
/// best first, at most the plan's `keep`. Candidates without a vector yet
/// are skipped.
///
/// # Errors
/// LMDB errors and corrupt blocks.
pub fn shortlist(
    rtxn: &RoTxn<'_>,
    db: CodeDb,
    index: u16,
    layout: CodeLayout,
    query: &QueryCodes,
    candidates: &RoaringBitmap,
    plan: Shortlist,
) -> Result<Vec<(u32, f32)>> {
    let mut blocks = Blocks { views: Vec::new() };
    let (first_keep, binary) = match plan {
        Shortlist::Int8 { keep } => (keep, false),
        Shortlist::Binary { keep_binary, keep } => (keep_binary.max(keep), true),
    };
    let mut top = TopK::new(first_keep);
    for_each_candidate(rtxn, db, index, layout, candidates, &mut blocks, |at, view, rank, id| {
        let key = if binary {
            query.hamming(view.binary(rank))
        } else {
            let (scale, int8) = view.int8(rank);
            score_key(query.int8_dot(scale, int8))
        };
        top.offer(key, id, at);
    })?;
    let Shortlist::Binary { keep, .. } = plan else {
        return Ok(top.into_sorted().into_iter().map(|(key, id, _)| (id, key_score(key))).collect());
    };
    let mut second = TopK::new(keep);
    for (_, id, at) in top.into_sorted() {
        second.offer(score_key(blocks.score(query, at, id)), id, at);
    }
    Ok(second.into_sorted().into_iter().map(|(key, id, _)| (id, key_score(key))).collect())
}

/// `(chunk id, exact cosine)` of the best `limit` candidates by their f32
/// vectors (unit length, so the dot product is the cosine), best first,
/// ties by lower id. Candidates without a vector yet are skipped.
///
/// # Errors
/// LMDB errors and corrupt blocks.
pub fn exact(
    rtxn: &RoTxn<'_>,
    db: CodeDb,
    index: u16,
    query: &[f32],
    candidates: &RoaringBitmap,
    limit: usize,
) -> Result<Vec<(u32, f32)>> {
    let layout = CodeLayout { dims: query.len() };
    let mut blocks = Blocks { views: Vec::new() };
    let mut top = TopK::new(limit);
    let mut buffer = Vec::with_capacity(query.len());
    for_each_candidate(rtxn, db, index, layout, candidates, &mut blocks, |_, view, rank, id| {
        view.vector_into(rank, &mut buffer);
        top.offer(score_key(super::codes::dot_f32(query, &buffer)), id, 0);
    })?;
    Ok(top.into_sorted().into_iter().map(|(key, id, _)| (id, key_score(key))).collect())
}

impl<'t> Blocks<'t> {
    fn push(&mut self, view: BlockView<'t>) -> usize {
        self.views.push(view);
        self.views.len() - 1
    }

    /// int8 score of `id`, which is present in block `at`.
    fn score(&self, query: &QueryCodes, at: usize, id: u32) -> f32 {
        let view = &self.views[at];
        view.rank(id % BLOCK_SLOTS).map_or(f32::NEG_INFINITY, |rank| {
            let (scale, int8) = view.int8(rank);
            query.int8_dot(scale, int8)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn score_keys_sort_the_best_score_first() {
        let mut scores = [0.5f32, -0.25, 0.99, -1.0, 0.0, 0.1];
        scores.sort_by_key(|s| score_key(*s));
        assert_eq!(scores, [0.99, 0.5, 0.1, 0.0, -0.25, -1.0]);
        for s in scores {
            assert_eq!(key_score(score_key(s)), s);
        }
    }

    #[test]
    fn top_k_keeps_the_lowest_keys_and_breaks_ties_by_id() {
        let mut top = TopK::new(3);
        for (key, id) in [(5, 1), (1, 2), (3, 3), (1, 0), (9, 4), (3, 5)] {
            top.offer(key, id, 0);
        }
        let kept: Vec<(u32, u32)> = top.into_sorted().into_iter().map(|(k, id, _)| (k, id)).collect();
        assert_eq!(kept, vec![(1, 0), (1, 2), (3, 3)]);
    }
}
