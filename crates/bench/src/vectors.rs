//! Part 3: vector recall@10 against exact cosine, and latency, for the exact
//! scan and for arroy at several `search_k` factors, on the embedding-like
//! synthetic data of DEPENDENCIES.md, stored in a fresh core `Store`.

use std::path::Path;
use std::time::{Duration, Instant};

use almirah_core::search::vector::{self, VectorParams, VectorStrategy};
use almirah_core::store::{DEFAULT_MAP_SIZE, Store};
use almirah_core::{ChunkId, ChunkSet};
use anyhow::{Result, bail};
use arroy::distances::Cosine;
use rand::SeedableRng;
use rand::rngs::StdRng;
use serde::Serialize;

use crate::Options;
use crate::stats::LatencyStats;
use crate::synth::{DIMS, LowRank, RANK, TopK, Vectors, dot, ground_truth};

/// Nearest neighbours asked for.
pub const K: usize = 10;
/// arroy factors timed without a filter.
pub const FACTORS: [usize; 4] = [1, 5, 20, 50];
/// arroy factors timed with the 50% filter.
pub const FILTERED_FACTORS: [usize; 3] = [1, 5, 20];
const BUILD_SEED: u64 = 42;
/// Untimed queries run first for each method (page cache, allocator).
pub const WARMUP: usize = 10;
/// Queries always timed per method, even past the time box.
pub const MIN_QUERIES: usize = 200;
/// Time box per method: no new query starts after this, once MIN_QUERIES ran.
pub const METHOD_BUDGET: Duration = Duration::from_secs(90);

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
    /// Chroma on the same vectors and queries, in the same run (when the
    /// Python side is set up).
    pub chroma: Option<crate::python::ChromaVectors>,
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

fn recall(found: &[(u32, f32)], truth: &[u32]) -> f64 {
    let hits = found.iter().filter(|(id, _)| truth.contains(id)).count();
    hits as f64 / truth.len().max(1) as f64
}

/// Write rows `0..n` into arroy index 0 of a fresh library in `dir` and
/// build, then open the store on it. The core's writer is the core's own,
/// so the synthetic vectors go into the library's `vectors` database
/// straight through heed, in an environment closed before the store opens.
fn build_store(dir: &Path, data: &Vectors, n: usize) -> Result<(Store, f64, usize)> {
    // SAFETY: `dir` is this run's own temp folder (local), and the store
    // opens its environment only after this one is closed.
    #[allow(unsafe_code)]
    let env = unsafe { heed::EnvOpenOptions::new().map_size(DEFAULT_MAP_SIZE).max_dbs(32).open(dir) }?;
    let vectors: arroy::Database<'static, Cosine> = env
        .create_databases_and_commit(env.write_txn()?, |opener, wtxn| {
            opener.create_database(wtxn, Some("vectors")).map(heed::CommitOrAbort::<_, ()>::Commit)
        })?
        .unwrap_commit();
    let started = Instant::now();
    let rows: Vec<Vec<f32>> = (0..n).map(|i| data.row(i).to_vec()).collect();
    let mut wtxn = env.write_txn()?;
    let writer = arroy::Writer::<Cosine>::new(vectors, 0, DIMS);
    for (i, row) in rows.iter().enumerate() {
        writer.add_item(&mut wtxn, i as u32, row)?;
    }
    let mut rng = StdRng::seed_from_u64(BUILD_SEED);
    writer.builder(&mut rng).build(&mut wtxn)?;
    wtxn.commit()?;
    let build_s = started.elapsed().as_secs_f64();
    drop(env);
    let store = Store::open(dir, DEFAULT_MAP_SIZE)?;
    let dbs = *store.dbs();
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
    cands: &ChunkSet,
    m: &Method,
    max_err: &mut f32,
) -> Result<VectorRow> {
    let dbs = store.dbs();
    let rtxn = store.read_txn()?;
    let mut times = Vec::with_capacity(queries.n);
    let mut total_recall = 0.0;
    let mut search_k = None;
    // The first WARMUP queries run twice; only the second run is timed.
    let warmup = queries.n.min(WARMUP);
    let clock = Instant::now();
    for (step, qi) in (0..warmup).chain(0..queries.n).enumerate() {
        if times.len() >= MIN_QUERIES && clock.elapsed() > METHOD_BUDGET {
            break; // time box: slow methods stop early, with at least MIN_QUERIES timed
        }
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
        if step < warmup {
            continue;
        }
        times.push(started.elapsed().as_secs_f64() * 1000.0);
        for &(id, sim) in &hits {
            let err = (sim - dot(q, data.row(id.get() as usize))).abs();
            *max_err = max_err.max(err);
        }
        let hits: Vec<(u32, f32)> = hits.iter().map(|(id, s)| (id.get(), *s)).collect();
        total_recall += recall(&hits, &truth[qi]);
    }
    let timed = times.len().max(1) as f64;
    Ok(VectorRow {
        method: m.factor.map_or("exact scan".into(), |f| format!("arroy x{f}")),
        filtered: m.filtered,
        search_k,
        latency: LatencyStats::from_ms(times),
        recall_at_10: total_recall / timed,
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
        let (truth_all, truth_even) = ground_truth(&data, n, &queries, K)?;
        let work = opts.tempdir("vectors")?;
        eprintln!("part 3: writing and building arroy over {n} vectors");
        let (store, build_s, n_trees) = build_store(work.path(), &data, n)?;
        let all: ChunkSet = (0..n as u32).map(ChunkId::new).collect();
        let even: ChunkSet = (0..n as u32).step_by(2).map(ChunkId::new).collect();
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
        let chroma = crate::python::python().and_then(|py| {
            eprintln!("part 3: Chroma on the same {n} vectors and {} queries", queries.n);
            crate::python::chroma_vectors(&py, work.path(), &data, n, &queries)
                .map_err(|e| eprintln!("part 3: Chroma failed: {e:#}"))
                .ok()
        });
        sets.push(VectorSet {
            items: n,
            build_s,
            n_trees,
            disk_bytes: store.disk_size()?,
            max_similarity_error: max_err,
            rows,
            chroma,
        });
    }
    Ok(VectorResult { queries: n_queries, dims: DIMS, rank: RANK, sets })
}
