//! Reciprocal rank fusion (Cormack, Clarke & Büttcher, "Reciprocal Rank
//! Fusion outperforms Condorcet and individual Rank Learning Methods",
//! SIGIR 2009): `score(d) = Σ 1 / (k + rank(d))`, ranks 1-based, k = 60.

use std::collections::HashMap;

/// The constant of the paper.
pub const RRF_K: f32 = 60.0;

/// Fuse ranked lists of ids; returns `(id, fused score)` best first, ties by id.
pub fn fuse<T: Copy + Ord + std::hash::Hash>(lists: &[&[T]]) -> Vec<(T, f32)> {
    fuse_imputed(lists, |_| false)
}

/// As [`fuse`], for a hybrid search while some chunks have no vector yet
/// (two-phase ingest): an id of the first (keyword) list for which
/// `unranked` holds could not be ranked by the vector list, so it counts
/// its keyword rank once more, as if the vector search had ranked it
/// alike. Without this, the part of the library still waiting for vectors
/// loses to every chunk that has one, however weak its keyword match.
pub fn fuse_imputed<T: Copy + Ord + std::hash::Hash>(lists: &[&[T]], unranked: impl Fn(T) -> bool) -> Vec<(T, f32)> {
    let mut scores: HashMap<T, f32> = HashMap::new();
    for list in lists {
        for (rank, id) in list.iter().enumerate() {
            *scores.entry(*id).or_insert(0.0) += 1.0 / (RRF_K + rank as f32 + 1.0);
        }
    }
    let keyword = lists.first().copied().unwrap_or_default();
    for (rank, id) in keyword.iter().enumerate().filter(|(_, id)| unranked(**id)) {
        *scores.entry(*id).or_insert(0.0) += 1.0 / (RRF_K + rank as f32 + 1.0);
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

    #[test]
    fn a_keyword_hit_without_a_vector_competes_as_if_ranked_alike_on_both_lists() {
        // 1 is the best keyword hit but has no vector; 9 has only a vector.
        let (keyword, vector) = ([1u32, 2, 3], [9u32, 2, 3]);
        assert_eq!(fuse::<u32>(&[&keyword, &vector])[0].0, 2, "plain RRF buries the unembedded best hit");
        let fused = fuse_imputed::<u32>(&[&keyword, &vector], |id| id == 1);
        assert_eq!(fused[0].0, 1);
        assert!((fused[0].1 - 2.0 / 61.0).abs() < 1e-6);
        assert_eq!(fused.iter().find(|f| f.0 == 9).map(|f| f.1), Some(1.0 / 61.0));
    }
}
