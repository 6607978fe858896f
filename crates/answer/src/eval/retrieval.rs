//! Retrieval metrics over documents (not chunks): recall@k of the gold
//! sources, and nDCG@k with binary relevance (Järvelin & Kekäläinen 2002,
//! "Cumulated gain-based evaluation of IR techniques"; computed as BEIR's
//! pytrec_eval does: gain 1 per relevant document, discount log2(rank + 1),
//! ideal ranking = every relevant document first).
//!
//! Rankings are lists of source paths, best first, with each document once;
//! a gold entry matches a path as in [`source_matches`].

use serde::Serialize;

use super::metrics::{percentile, source_matches};
use crate::classic::Answer;
use crate::trace::Step;

/// The documents of `paths` in first-seen order, each once.
pub fn dedup_documents<'a>(paths: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for p in paths {
        if !out.iter().any(|q| q == p) {
            out.push(p.to_string());
        }
    }
    out
}

/// The documents an answer's searches admitted, ranked: the searches' admitted
/// hits interleaved by rank (every search's first hit, then every second
/// hit, …), each document once. For a single search this is its ranking; for
/// the agent's several searches (one per hop) no hop crowds out the others,
/// as in the iterative-retrieval recall of IRCoT (Trivedi et al. 2023) and
/// HippoRAG (Gutiérrez et al. 2024).
pub fn ranked_documents(answer: &Answer) -> Vec<String> {
    let lists: Vec<Vec<&str>> = answer
        .trace
        .steps
        .iter()
        .filter_map(|s| match s {
            Step::Search { hits, .. } => Some(hits.iter().map(|h| h.path.as_str()).collect()),
            _ => None,
        })
        .collect();
    interleave(&lists)
}

/// Ranked lists merged by rank (all firsts, then all seconds, …), each
/// document once.
pub fn interleave(lists: &[Vec<&str>]) -> Vec<String> {
    let longest = lists.iter().map(Vec::len).max().unwrap_or(0);
    dedup_documents((0..longest).flat_map(|rank| lists.iter().filter_map(move |l| l.get(rank).copied())))
}

fn relevant(path: &str, gold: &[String]) -> bool {
    gold.iter().any(|g| source_matches(path, g))
}

/// Share of `gold` found in the first `k` documents of `ranked` (0..=1);
/// `None` when `gold` is empty.
pub fn recall_at(ranked: &[String], gold: &[String], k: usize) -> Option<f64> {
    if gold.is_empty() {
        return None;
    }
    let top = &ranked[..ranked.len().min(k)];
    let found = gold.iter().filter(|g| top.iter().any(|p| source_matches(p, g))).count();
    Some(found as f64 / gold.len() as f64)
}

/// nDCG@k with binary relevance (0..=1); `None` when `gold` is empty.
pub fn ndcg_at(ranked: &[String], gold: &[String], k: usize) -> Option<f64> {
    if gold.is_empty() {
        return None;
    }
    let discount = |i: usize| 1.0 / ((i + 2) as f64).log2();
    let dcg: f64 = ranked.iter().take(k).enumerate().filter(|(_, p)| relevant(p, gold)).map(|(i, _)| discount(i)).sum();
    let ideal: f64 = (0..gold.len().min(k)).map(discount).sum();
    Some(dcg / ideal)
}

/// One question under one ranker.
#[derive(Debug, Clone, Serialize)]
pub struct RetrievalResult {
    /// Item id.
    pub id: String,
    /// `bm25`, `vector` or `hybrid`.
    pub mode: String,
    /// The first 10 documents, best first.
    pub ranked: Vec<String>,
    /// Recall@5 of the gold sources (0..=1).
    pub recall_at_5: f64,
    /// Recall@10 (0..=1).
    pub recall_at_10: f64,
    /// nDCG@10 (0..=1).
    pub ndcg_at_10: f64,
    /// Search time including the query embedding, ms.
    pub ms: f64,
}

impl RetrievalResult {
    /// Score one ranking against `gold` (must be non-empty: `None` otherwise).
    pub fn new(id: &str, mode: &str, ranked: Vec<String>, gold: &[String], ms: f64) -> Option<Self> {
        Some(Self {
            id: id.to_string(),
            mode: mode.to_string(),
            recall_at_5: recall_at(&ranked, gold, 5)?,
            recall_at_10: recall_at(&ranked, gold, 10)?,
            ndcg_at_10: ndcg_at(&ranked, gold, 10)?,
            ranked: ranked.into_iter().take(10).collect(),
            ms,
        })
    }
}

/// The means of one ranker over a set.
#[derive(Debug, Clone, Serialize)]
pub struct RetrievalSummary {
    /// `bm25`, `vector` or `hybrid`.
    pub mode: String,
    /// Questions with gold sources.
    pub questions: usize,
    /// Mean recall@5 (0..=1).
    pub recall_at_5: f64,
    /// Mean recall@10 (0..=1).
    pub recall_at_10: f64,
    /// Mean nDCG@10 (0..=1).
    pub ndcg_at_10: f64,
    /// Search latency p50, ms.
    pub p50_ms: f64,
    /// Search latency p95, ms.
    pub p95_ms: f64,
}

/// Summarise one ranker's results.
pub fn summarise_retrieval(mode: &str, results: &[RetrievalResult]) -> RetrievalSummary {
    let n = results.len().max(1) as f64;
    let mean = |f: fn(&RetrievalResult) -> f64| results.iter().map(f).sum::<f64>() / n;
    let ms: Vec<f64> = results.iter().map(|r| r.ms).collect();
    RetrievalSummary {
        mode: mode.to_string(),
        questions: results.len(),
        recall_at_5: mean(|r| r.recall_at_5),
        recall_at_10: mean(|r| r.recall_at_10),
        ndcg_at_10: mean(|r| r.ndcg_at_10),
        p50_ms: percentile(&ms, 50.0),
        p95_ms: percentile(&ms, 95.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn docs(xs: &[&str]) -> Vec<String> {
        xs.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn ndcg_matches_hand_computed_values() {
        let gold = docs(&["a.txt", "b.txt"]);
        // Relevant at ranks 1 and 3: (1 + 1/log2(4)) / (1 + 1/log2(3)).
        let ranked = docs(&["/x/a.txt", "/x/c.txt", "/x/b.txt"]);
        let expected = (1.0 + 0.5) / (1.0 + 1.0 / 3f64.log2());
        let ndcg = ndcg_at(&ranked, &gold, 10).unwrap_or(-1.0);
        assert!((ndcg - expected).abs() < 1e-12, "{ndcg} vs {expected}");
        assert_eq!(ndcg_at(&docs(&["/x/c.txt"]), &gold, 10), Some(0.0));
        assert_eq!(ndcg_at(&docs(&["/x/b.txt", "/x/a.txt"]), &gold, 10), Some(1.0));
        // A relevant document below the cut-off does not count.
        assert_eq!(ndcg_at(&docs(&["/x/c.txt", "/x/a.txt"]), &gold, 1), Some(0.0));
        assert_eq!(ndcg_at(&ranked, &[], 10), None);
    }

    #[test]
    fn recall_counts_gold_documents_in_the_top_k() {
        let gold = docs(&["a.txt", "b.txt"]);
        let ranked = docs(&["/x/c.txt", "/x/a.txt", "/x/d.txt", "/x/b.txt"]);
        assert_eq!(recall_at(&ranked, &gold, 1), Some(0.0));
        assert_eq!(recall_at(&ranked, &gold, 2), Some(0.5));
        assert_eq!(recall_at(&ranked, &gold, 4), Some(1.0));
    }

    #[test]
    fn searches_are_interleaved_by_rank() {
        let hop1 = vec!["a", "b", "c"];
        let hop2 = vec!["d", "a", "e", "f"];
        assert_eq!(interleave(&[hop1, hop2]), docs(&["a", "d", "b", "c", "e", "f"]));
        assert!(interleave(&[]).is_empty());
    }

    #[test]
    fn documents_are_deduplicated_in_first_seen_order() {
        assert_eq!(dedup_documents(["b", "a", "b", "c", "a"]), docs(&["b", "a", "c"]));
    }
}
