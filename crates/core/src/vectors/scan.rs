//! The scans of the vector blocks: the binary pass (Hamming distance of the
//! candidates' codes, 48 bytes a vector at 384 dimensions) that shortlists
//! for the exact f32 rescoring, and the exact f32 scan itself. Each block is
//! read once, in place.

use std::collections::BinaryHeap;

use heed::RoTxn;
use roaring::RoaringBitmap;

use super::block::{BLOCK_SLOTS, BlockView};
use super::codes::{CodeLayout, QueryCodes};
use super::{CodeDb, block_key};
use crate::error::Result;

/// The best `k` by an ascending `u32` key (ties: lower id first).
struct TopK {
    k: usize,
    heap: BinaryHeap<(u32, u32)>,
    /// The worst key kept once the heap is full (`u32::MAX` before).
    worst: u32,
}

impl TopK {
    fn new(k: usize) -> Self {
        Self { k, heap: BinaryHeap::with_capacity(k + 1), worst: u32::MAX }
    }

    /// Offer `(key, id)`; lower keys win.
    #[inline(always)]
    fn offer(&mut self, key: u32, id: u32) {
        if key > self.worst {
            return; // the common case of a long scan: not among the best
        }
        if self.heap.len() < self.k {
            self.heap.push((key, id));
        } else if let Some(mut top) = self.heap.peek_mut()
            && (key, id) < (top.0, top.1)
        {
            *top = (key, id);
        }
        if self.heap.len() == self.k {
            self.worst = self.heap.peek().map_or(u32::MAX, |top| top.0);
        }
    }

    fn into_sorted(self) -> Vec<(u32, u32)> {
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

/// Visit every candidate that has a vector: `(view, rank, chunk id)`,
/// ascending by id; each block is read once, in place.
#[inline(always)]
fn for_each_candidate<'t>(
    rtxn: &'t RoTxn<'_>,
    db: CodeDb,
    index: u16,
    layout: CodeLayout,
    candidates: &RoaringBitmap,
    mut visit: impl FnMut(&BlockView<'t>, usize, u32),
) -> Result<()> {
    let mut next = candidates.min();
    while let Some(first) = next {
        let number = first / BLOCK_SLOTS;
        let lo = number * BLOCK_SLOTS;
        let hi = lo.saturating_add(BLOCK_SLOTS - 1);
        // A block whose ids are all candidates (the unfiltered case) needs
        // no walk over its ids.
        let wanted = if candidates.contains_range(lo..=hi) {
            [u64::MAX; 4]
        } else {
            let mut mask = [0u64; 4];
            for id in candidates.range(lo..=hi) {
                let slot = id % BLOCK_SLOTS;
                mask[(slot / 64) as usize] |= 1u64 << (slot % 64);
            }
            mask
        };
        next = hi.checked_add(1).and_then(|from| candidates.range(from..).next());
        let Some(bytes) = db.get(rtxn, &block_key(index, number))? else { continue };
        let view = &BlockView::parse(bytes, layout)?;
        let mut below = 0usize;
        for (w, (&present, &want)) in view.presence().iter().zip(&wanted).enumerate() {
            let mut hits = present & want;
            // Every present slot wanted: ranks follow one another.
            let consecutive = hits == present;
            let mut rank = below;
            while hits != 0 {
                let bit = hits.trailing_zeros();
                hits &= hits - 1;
                if !consecutive {
                    rank = below + (present & ((1u64 << bit) - 1)).count_ones() as usize;
                }
                visit(view, rank, number * BLOCK_SLOTS + w as u32 * 64 + bit);
                rank += 1;
            }
            below += present.count_ones() as usize;
        }
    }
    Ok(())
}

/// The `keep` candidates nearest to `query` by the Hamming distance of
/// their binary codes, nearest first (ties: lower id first). Candidates
/// without a vector yet are skipped.
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
    keep: usize,
) -> Result<Vec<u32>> {
    let mut top = TopK::new(keep);
    for_each_candidate(rtxn, db, index, layout, candidates, |view, rank, id| {
        top.offer(query.hamming(view.binary(rank)), id);
    })?;
    Ok(top.into_sorted().into_iter().map(|(_, id)| id).collect())
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
    let mut top = TopK::new(limit);
    let mut buffer = Vec::with_capacity(query.len());
    for_each_candidate(rtxn, db, index, layout, candidates, |view, rank, id| {
        let vector = view.vector(rank, &mut buffer);
        top.offer(score_key(super::codes::dot_f32(query, vector)), id);
    })?;
    Ok(top.into_sorted().into_iter().map(|(key, id)| (id, key_score(key))).collect())
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
            top.offer(key, id);
        }
        let kept: Vec<(u32, u32)> = top.into_sorted();
        assert_eq!(kept, vec![(1, 0), (1, 2), (3, 3)]);
    }
}
