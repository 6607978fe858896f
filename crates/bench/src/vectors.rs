//! Part 3: vector recall@10 against exact cosine, and latency, for the exact
//! scan and for arroy at several `search_k` factors, on the embedding-like
//! synthetic data of DEPENDENCIES.md, stored in a fresh core `Store`.

use std::path::Path;
use std::time::Instant;

use almirah_core::search::vector::{self, VectorParams, VectorStrategy};
use almirah_core::store::{DEFAULT_MAP_SIZE, Store};
use anyhow::{Result, bail};
use arroy::distances::Cosine;
use rand::SeedableRng;
use rand::rngs::StdRng;
use roaring::RoaringBitmap;
use serde::Serialize;

use crate::Options;
use crate::report::LatencyStats;
use crate::synth::{DIMS, LowRank, RANK, Vectors, dot};

/// Nearest neighbours asked for.
pub const K: usize = 10;
/// arroy factors timed without a filter.
pub const FACTORS: [usize; 4] = [1, 5, 20, 50];
/// arroy factors timed with the 50% filter.
pub const FILTERED_FACTORS: [usize; 3] = [1, 5, 20];
const BUILD_SEED: u64 = 42;

/// One method on one set.
#[derive(Debug, Clone, Serialize)]
pub struct VectorRow {
    /// `exact` or `arroy ×F`.
    pub method: String,
    /// Whether the 50% candidate filter was applied.
    pub filtered: bool,
    /// arroy `search_k` (k × n_trees × factor).
    pub search_k: Option<usize>,
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
    /// Writing the items and building the trees, s.
    pub build_s: f64,
    /// Trees arroy built.
    pub n_trees: usize,
    /// Store size on disk, bytes.
    pub disk_bytes: u64,
    /// Largest |reported similarity − true cosine| over all hits (sanity).
    pub max_similarity_error: f32,
    /// Methods.
    pub rows: Vec<VectorRow>,
}

/// Part 3 results.
#[derive(Debug, Clone, Serialize)]
pub struct VectorResult {
    /// Queries per method.
    pub queries: usize,
    /// Dimensions.
    pub dims: usize,
    /// Rank of Z.
    pub rank: usize,
    /// Per set.
    pub sets: Vec<VectorSet>,
}

type TopK = Vec<Vec<u32>>;

/// Exact top-K ids for every query, over all rows `< n` and over the even
/// rows (the 50% filter), in memory on two threads.
fn ground_truth(data: &Vectors, n: usize, queries: &Vectors) -> Result<(TopK, TopK)> {
    let half = queries.n.div_ceil(2);
    let work = |range: std::ops::Range<usize>| -> Vec<(Vec<u32>, Vec<u32>)> {
        range
            .map(|qi| {
                let q = queries.row(qi);
                let mut all: Vec<(f32, u32)> = Vec::with_capacity(K + 1);
                let mut even: Vec<(f32, u32)> = Vec::with_capacity(K + 1);
                for i in 0..n {
                    let s = dot(q, data.row(i));
                    push_top(&mut all, s, i as u32);
                    if i % 2 == 0 {
                        push_top(&mut even, s, i as u32);
                    }
                }
                (all.iter().map(|h| h.1).collect(), even.iter().map(|h| h.1).collect())
            })
            .collect()
    };
    let (a, b) = std::thread::scope(|s| {
        let first = s.spawn(|| work(0..half));
        let second = work(half..queries.n);
        (first.join(), second)
    });
    let a = a.map_err(|_| anyhow::anyhow!("ground-truth thread panicked"))?;
    Ok(a.into_iter().chain(b).unzip())
}

fn push_top(top: &mut Vec<(f32, u32)>, score: f32, id: u32) {
    if top.len() == K && top.last().is_some_and(|l| l.0 >= score) {
        return;
    }
    let pos = top.partition_point(|h| h.0 >= score);
    top.insert(pos, (score, id));
    top.truncate(K);
}

fn recall(found: &[(u32, f32)], truth: &[u32]) -> f64 {
    let hits = found.iter().filter(|(id, _)| truth.contains(id)).count();
    hits as f64 / truth.len().max(1) as f64
}

/// Write rows `0..n` into arroy index 0 of a fresh store in `dir` and build.
fn build_store(dir: &Path, data: &Vectors, n: usize) -> Result<(Store, f64, usize)> {
    let store = Store::open(dir, DEFAULT_MAP_SIZE)?;
    let dbs = *store.dbs();
    let started = Instant::now();
    let mut wtxn = store.env().write_txn()?;
    let writer = arroy::Writer::<Cosine>::new(dbs.vectors, 0, DIMS);
    for i in 0..n {
        writer.add_item(&mut wtxn, i as u32, data.row(i))?;
    }
    let mut rng = StdRng::seed_from_u64(BUILD_SEED);
    writer.builder(&mut rng).build(&mut wtxn)?;
    wtxn.commit()?;
    let build_s = started.elapsed().as_secs_f64();
    let rtxn = store.read_txn()?;
    let n_trees = arroy::Reader::<Cosine>::open(&rtxn, 0, dbs.vectors)?.n_trees();
    drop(rtxn);
    Ok((store, build_s, n_trees))
}

struct Method {
    factor: Option<usize>,
    filtered: bool,
}

fn measure(
    store: &Store,
    data: &Vectors,
    queries: &Vectors,
    truth: &TopK,
    cands: &RoaringBitmap,
    m: &Method,
    max_err: &mut f32,
) -> Result<VectorRow> {
    let dbs = store.dbs();
    let rtxn = store.read_txn()?;
    let mut times = Vec::with_capacity(queries.n);
    let mut total_recall = 0.0;
    let mut search_k = None;
    for qi in 0..queries.n {
        let q = queries.row(qi);
        let started = Instant::now();
        let hits = match m.factor {
            None => vector::exact(dbs, &rtxn, 0, q, cands, K)?,
            Some(factor) => {
                let params = VectorParams { exact_threshold: 0, search_k_factor: factor };
                let (hits, strategy) = vector::search(dbs, &rtxn, 0, q, cands, K, params)?;
                match strategy {
                    VectorStrategy::Arroy { search_k: sk } => search_k = Some(sk),
                    VectorStrategy::Exact => bail!("arroy was not used (no trees?)"),
                }
                hits
            }
        };
        times.push(started.elapsed().as_secs_f64() * 1000.0);
        for &(id, sim) in &hits {
            let err = (sim - dot(q, data.row(id as usize))).abs();
            *max_err = max_err.max(err);
        }
        total_recall += recall(&hits, &truth[qi]);
    }
    Ok(VectorRow {
        method: m.factor.map_or("exact scan".into(), |f| format!("arroy x{f}")),
        filtered: m.filtered,
        search_k,
        latency: LatencyStats::from_ms(times),
        recall_at_10: total_recall / queries.n.max(1) as f64,
    })
}

/// Run part 3.
///
/// # Errors
/// LMDB and arroy errors.
pub fn run(opts: &Options) -> Result<VectorResult> {
    let sizes: &[usize] = if opts.quick { &[2_000, 10_000] } else { &[10_000, 100_000] };
    let n_queries = if opts.quick { 100 } else { 1000 };
    let max = sizes.iter().copied().max().unwrap_or(0);
    eprintln!("part 3: generating {max} vectors and {n_queries} queries ({DIMS} d, rank {RANK})");
    let mut model = LowRank::new();
    let data = model.data(max);
    let queries = model.queries(n_queries);
    let mut sets = Vec::new();
    for &n in sizes {
        eprintln!("part 3: exact ground truth over {n} vectors");
        let (truth_all, truth_even) = ground_truth(&data, n, &queries)?;
        let work = opts.tempdir("vectors")?;
        eprintln!("part 3: writing and building arroy over {n} vectors");
        let (store, build_s, n_trees) = build_store(work.path(), &data, n)?;
        let all: RoaringBitmap = (0..n as u32).collect();
        let even: RoaringBitmap = (0..n as u32).step_by(2).collect();
        let mut methods = vec![Method { factor: None, filtered: false }];
        methods.extend(FACTORS.iter().map(|&f| Method { factor: Some(f), filtered: false }));
        methods.push(Method { factor: None, filtered: true });
        methods.extend(FILTERED_FACTORS.iter().map(|&f| Method { factor: Some(f), filtered: true }));
        let mut rows = Vec::new();
        let mut max_err = 0.0f32;
        for m in &methods {
            let (truth, cands) = if m.filtered { (&truth_even, &even) } else { (&truth_all, &all) };
            let row = measure(&store, &data, &queries, truth, cands, m, &mut max_err)?;
            eprintln!(
                "  {n}: {}{}: p50 {:.2} ms, recall {:.3}",
                row.method,
                if m.filtered { " (50% filter)" } else { "" },
                row.latency.p50_ms,
                row.recall_at_10
            );
            rows.push(row);
        }
        sets.push(VectorSet {
            items: n,
            build_s,
            n_trees,
            disk_bytes: store.disk_size()?,
            max_similarity_error: max_err,
            rows,
        });
    }
    Ok(VectorResult { queries: n_queries, dims: DIMS, rank: RANK, sets })
}
