//! Reciprocal rank fusion (Cormack, Clarke & Büttcher, "Reciprocal Rank
//! Fusion outperforms Condorcet and individual Rank Learning Methods",
//! SIGIR 2009): `score(d) = Σ 1 / (k + rank(d))`, ranks 1-based, k = 60.

use std::collections::HashMap;

/// The constant of the paper.
pub const RRF_K: f32 = 60.0;

/// Fuse ranked lists of ids; returns `(id, fused score)` best first, ties by id.
pub fn fuse<T: Copy + Ord + std::hash::Hash>(lists: &[&[T]]) -> Vec<(T, f32)> {
    let mut scores: HashMap<T, f32> = HashMap::new();
    for list in lists {
        for (rank, id) in list.iter().enumerate() {
            *scores.entry(*id).or_insert(0.0) += 1.0 / (RRF_K + rank as f32 + 1.0);
        }
    }
    let mut fused: Vec<(T, f32)> = scores.into_iter().collect();
    fused.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    fused
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_item_in_both_lists_beats_a_top_item_in_one() {
        let fused = fuse::<u32>(&[&[1, 2, 3], &[2, 4, 1]]);
        assert_eq!(fused[0].0, 2);
        assert!((fused[0].1 - (1.0 / 62.0 + 1.0 / 61.0)).abs() < 1e-6);
        assert_eq!(fused.len(), 4);
    }
}
