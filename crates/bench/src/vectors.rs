//! Part 3: vector recall@10 against exact cosine, and latency, for every
//! plan of the core's vector search (exact f32, the binary shortlist
//! rescored in f32, the default planner) and for arroy's trees at several `search_k` factors, on the
//! embedding-like synthetic data of DEPENDENCIES.md, in a store written as
//! the library's writer writes it ([`crate::vector_store`]).

use std::time::{Duration, Instant};

use almirah_core::search::vector::{self, VectorParams, VectorStrategy};
use almirah_core::{ChunkId, ChunkSet};
use anyhow::Result;
use serde::Serialize;

use crate::Options;
use crate::stats::LatencyStats;
use crate::synth::{DIMS, LowRank, RANK, TopK, Vectors, dot, ground_truth};
use crate::vector_store::BenchStore;

/// Nearest neighbours asked for.
pub const K: usize = 10;
/// arroy factors timed without a filter.
pub const FACTORS: [usize; 3] = [1, 5, 20];
/// arroy factors timed with the 50% filter.
pub const FILTERED_FACTORS: [usize; 2] = [1, 20];
/// Untimed queries run first for each method (page cache, allocator).
pub const WARMUP: usize = 10;
/// Queries always timed per method, even past the time box.
pub const MIN_QUERIES: usize = 200;
/// Time box per method: no new query starts after this, once MIN_QUERIES ran.
pub const METHOD_BUDGET: Duration = Duration::from_secs(60);
/// arroy's trees are built up to this many items (beyond, the build takes
/// longer than the whole part should).
pub const TREES_UP_TO: usize = 100_000;

/// Chroma 1.5.9 figures from DEPENDENCIES.md; where a range was published
/// the midpoint is used for ratios, and `text` shows the range.
pub struct Chroma {
    /// Items.
    pub items: usize,
    /// Query p50, ms.
    pub p50_ms: f64,
    /// Recall@10.
    pub recall: f64,
    /// 50% filter p50, ms.
    pub filtered_p50_ms: f64,
    /// 50% filter recall@10.
    pub filtered_recall: f64,
    /// Insert time, s.
    pub insert_s: f64,
    /// Disk, MB.
    pub disk_mb: f64,
    /// As published.
    pub text: &'static str,
}

/// The published figures at 10k and 100k items.
pub const CHROMA: [Chroma; 2] = [
    Chroma {
        items: 10_000,
        p50_ms: 1.5,
        recall: 0.97,
        filtered_p50_ms: 13.0,
        filtered_recall: 0.99,
        insert_s: 2.65,
        disk_mb: 30.0,
        text: "p50 1.3-1.7 ms (p95 1.6-2.1), recall 0.97; 50% filter p50 12-14 ms, recall 0.99; insert 2.5-2.8 s, disk 30 MB",
    },
    Chroma {
        items: 100_000,
        p50_ms: 1.7,
        recall: 0.81,
        filtered_p50_ms: 118.0,
        filtered_recall: 0.90,
        insert_s: 54.5,
        disk_mb: 203.0,
        text: "p50 1.7 ms (p95 1.9-2.1), recall 0.81; 50% filter p50 118 ms, recall 0.90; insert 52-57 s, disk 203 MB",
    },
];

/// One method on one set.
#[derive(Debug, Clone, Serialize)]
pub struct VectorRow {
    /// `exact f32`, `binary+f32`, `planner` or `arroy xF`.
    pub method: String,
    /// Whether the 50% candidate filter was applied.
    pub filtered: bool,
    /// How the last query ran (`search_k`, shortlist lengths).
    pub strategy: String,
    /// Per-query latency, ms.
    pub latency: LatencyStats,
    /// Mean recall@10 against exact cosine.
    pub recall_at_10: f64,
}

/// One vector set.
#[derive(Debug, Clone, Serialize)]
pub struct VectorSet {
    /// Items.
    pub items: usize,
    /// Writing the f32 items and their codes, s.
    pub build_s: f64,
    /// Building arroy's trees, s (when built).
    pub trees_s: Option<f64>,
    /// Trees arroy built.
    pub n_trees: usize,
    /// Pages of the vector blocks (f32 + codes: what a library holds for
    /// its vectors), bytes.
    pub disk_bytes: u64,
    /// The LMDB file with arroy's items too (kept for the arroy rows), bytes.
    pub file_bytes: u64,
    /// Pages of arroy's f32 items (the benchmark's arroy rows only), bytes.
    pub items_bytes: u64,
    /// Store size with arroy's trees too, bytes.
    pub disk_with_trees: Option<u64>,
    /// Largest |reported similarity − true cosine| over all hits (sanity).
    pub max_similarity_error: f32,
    /// Methods.
    pub rows: Vec<VectorRow>,
    /// Chroma on the same vectors and queries, in the same run (when the
    /// Python side is set up).
    pub chroma: Option<crate::python::ChromaVectors>,
}

/// Part 3 results.
#[derive(Debug, Clone, Serialize)]
pub struct VectorResult {
    /// Queries per method (fewer at 1M).
    pub queries: usize,
    /// Dimensions.
    pub dims: usize,
    /// Rank of Z.
    pub rank: usize,
    /// Per set.
    pub sets: Vec<VectorSet>,
}

fn recall(found: &[(ChunkId, f32)], truth: &[u32]) -> f64 {
    let hits = found.iter().filter(|(id, _)| truth.contains(&id.get())).count();
    hits as f64 / truth.len().max(1) as f64
}

/// A method: a name and the plan parameters it forces.
struct Method {
    name: String,
    params: VectorParams,
    filtered: bool,
}

fn methods(trees: bool, items: usize) -> Vec<Method> {
    let planner = VectorParams::default();
    let forced = |exact_max| VectorParams { exact_max, arroy_min: u64::MAX, ..planner };
    let mut plans = vec![("binary+f32".to_string(), forced(0)), ("planner".to_string(), planner)];
    if items <= 100_000 {
        plans.insert(0, ("exact f32".to_string(), forced(u64::MAX)));
    }
    let arroy = |f: usize| (format!("arroy x{f}"), VectorParams { arroy_min: 0, search_k_factor: f, ..planner });
    let mut out = Vec::new();
    for filtered in [false, true] {
        out.extend(plans.iter().map(|(name, params)| Method { name: name.clone(), params: *params, filtered }));
        if trees {
            let factors: &[usize] = if filtered { &FILTERED_FACTORS } else { &FACTORS };
            out.extend(factors.iter().map(|&f| {
                let (name, params) = arroy(f);
                Method { name, params, filtered }
            }));
        }
    }
    out
}

/// How a vector search ran, for the report.
pub fn strategy_text(s: VectorStrategy) -> String {
    match s {
        VectorStrategy::Exact => "exact".into(),
        VectorStrategy::Binary { rescored } => format!("binary, {rescored} rescored"),
        VectorStrategy::Arroy { search_k } => format!("search_k {search_k}"),
    }
}

fn measure(
    store: &BenchStore,
    data: &Vectors,
    queries: &Vectors,
    truth: &TopK,
    cands: &ChunkSet,
    m: &Method,
    max_err: &mut f32,
) -> Result<VectorRow> {
    let rtxn = store.read_txn()?;
    let mut times = Vec::with_capacity(queries.n);
    let mut total_recall = 0.0;
    let mut strategy = VectorStrategy::Exact;
    // The first WARMUP queries run twice; only the second run is timed.
    let warmup = queries.n.min(WARMUP);
    let clock = Instant::now();
    for (step, qi) in (0..warmup).chain(0..queries.n).enumerate() {
        if times.len() >= MIN_QUERIES && clock.elapsed() > METHOD_BUDGET {
            break; // time box: slow methods stop early, with at least MIN_QUERIES timed
        }
        let q = queries.row(qi);
        let started = Instant::now();
        let (hits, s) = vector::search(store.dbs, &rtxn, 0, q, cands, K, m.params)?;
        let elapsed = started.elapsed();
        strategy = s;
        if step < warmup {
            continue;
        }
        times.push(elapsed.as_secs_f64() * 1000.0);
        for &(id, sim) in &hits {
            *max_err = max_err.max((sim - dot(q, data.row(id.get() as usize))).abs());
        }
        total_recall += recall(&hits, &truth[qi]);
    }
    let timed = times.len().max(1) as f64;
    Ok(VectorRow {
        method: m.name.clone(),
        filtered: m.filtered,
        strategy: strategy_text(strategy),
        latency: LatencyStats::from_ms(times),
        recall_at_10: total_recall / timed,
    })
}

/// Run part 3: 2k and 10k items with `--quick`, else 10k, 100k and 1M.
///
/// # Errors
/// LMDB and arroy errors.
pub fn run(opts: &Options) -> Result<VectorResult> {
    let sizes: &[usize] = if opts.quick { &[2_000, 10_000] } else { &[10_000, 100_000, 1_000_000] };
    let n_queries = if opts.quick { 100 } else { 1000 };
    let max = sizes.iter().copied().max().unwrap_or(0);
    eprintln!("part 3: generating {max} vectors and {n_queries} queries ({DIMS} d, rank {RANK})");
    let mut model = LowRank::new();
    let data = model.data(max);
    let all_queries = model.queries(n_queries);
    let mut sets = Vec::new();
    for &n in sizes {
        // At 1M the exact ground truth of 1,000 queries would take longer
        // than the part: 200 queries there.
        let queries = if n > 100_000 { all_queries.head(MIN_QUERIES) } else { all_queries.clone() };
        sets.push(run_set(opts, &data, &queries, n)?);
    }
    Ok(VectorResult { queries: n_queries, dims: DIMS, rank: RANK, sets })
}

fn run_set(opts: &Options, data: &Vectors, queries: &Vectors, n: usize) -> Result<VectorSet> {
    eprintln!("part 3: exact ground truth over {n} vectors ({} queries)", queries.n);
    let (truth_all, truth_even) = ground_truth(data, n, queries, K)?;
    let work = opts.tempdir("vectors")?;
    let trees = n <= TREES_UP_TO;
    eprintln!("part 3: writing {n} vectors and their codes{}", if trees { ", then arroy's trees" } else { "" });
    let (store, built) = BenchStore::build(work.path(), data, n, trees)?;
    let all: ChunkSet = (0..n as u32).map(ChunkId::new).collect();
    let even: ChunkSet = (0..n as u32).step_by(2).map(ChunkId::new).collect();
    let mut rows = Vec::new();
    let mut max_err = 0.0f32;
    for m in &methods(trees, n) {
        let (truth, cands) = if m.filtered { (&truth_even, &even) } else { (&truth_all, &all) };
        let row = measure(&store, data, queries, truth, cands, m, &mut max_err)?;
        eprintln!(
            "  {n}: {}{}: p50 {:.3} ms, p95 {:.3} ms, recall {:.3} ({})",
            row.method,
            if m.filtered { " (50% filter)" } else { "" },
            row.latency.p50_ms,
            row.latency.p95_ms,
            row.recall_at_10,
            row.strategy
        );
        rows.push(row);
    }
    let chroma = (n <= 100_000).then(crate::python::python).flatten().and_then(|py| {
        eprintln!("part 3: Chroma on the same {n} vectors and {} queries", queries.n);
        crate::python::chroma_vectors(&py, work.path(), data, n, queries)
            .map_err(|e| eprintln!("part 3: Chroma failed: {e:#}"))
            .ok()
    });
    Ok(VectorSet {
        items: n,
        build_s: built.write_s,
        trees_s: built.trees_s,
        n_trees: built.n_trees,
        disk_bytes: built.codes_bytes,
        file_bytes: built.disk_bytes,
        items_bytes: built.items_bytes,
        disk_with_trees: built.disk_with_trees,
        max_similarity_error: max_err,
        rows,
        chroma,
    })
}
