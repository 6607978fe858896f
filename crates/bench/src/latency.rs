//! Part 2: query latency (hybrid, BM25 only, vectors only) on synthetic text
//! libraries of about 10k and 100k chunks, indexed with the hash embedder.

use std::time::{Duration, Instant};

use almirah_core::embed::EmbedderConfig;
use almirah_core::search::VectorStrategy;
use almirah_core::{Engine, IndexParams, SearchMode, SearchOptions};
use anyhow::Result;
use rand::SeedableRng;
use rand::rngs::StdRng;
use serde::Serialize;

use crate::Options;
use crate::ingest::index_folder;
use crate::stats::LatencyStats;
use crate::synth::{Vocabulary, write_text_corpus};

/// Vocabulary size.
pub const VOCABULARY: usize = 20_000;
/// Paragraphs (about one chunk each) per file.
pub const PARAGRAPHS_PER_FILE: usize = 50;
const VOCAB_SEED: u64 = 1;
const CORPUS_SEED: u64 = 2;
const QUERY_SEED: u64 = 3;
/// Untimed queries per mode.
pub const WARMUP: usize = 5;
/// Queries always timed per mode, even past the time box.
pub const MIN_QUERIES: usize = 50;
/// Time box per mode: no new query starts after this, once MIN_QUERIES ran.
pub const MODE_BUDGET: Duration = Duration::from_secs(120);

/// Latency of one search mode.
#[derive(Debug, Clone, Serialize)]
pub struct ModeLatency {
    /// `hybrid`, `bm25` or `vector`.
    pub mode: String,
    /// Per-query wall time of `Engine::search`, ms.
    pub latency: LatencyStats,
    /// How the vector search ran (`exact`, `arroy search_k=…`, or `none`).
    pub vector_strategy: String,
    /// Mean hits returned.
    pub mean_hits: f64,
}

/// One synthetic library.
#[derive(Debug, Clone, Serialize)]
pub struct LibraryLatency {
    /// Target chunk count.
    pub target_chunks: usize,
    /// Files generated.
    pub files: usize,
    /// Chunks indexed.
    pub chunks: usize,
    /// Bytes of text generated.
    pub text_bytes: u64,
    /// Indexing time, s.
    pub index_s: f64,
    /// Library size on disk, bytes.
    pub disk_bytes: u64,
    /// Queries timed per mode.
    pub queries: usize,
    /// Per mode.
    pub modes: Vec<ModeLatency>,
}

/// Part 2 results.
#[derive(Debug, Clone, Serialize)]
pub struct LatencyResult {
    /// Vocabulary size.
    pub vocabulary: usize,
    /// Paragraphs per file.
    pub paragraphs_per_file: usize,
    /// `batch_max_chunks` used while indexing.
    pub batch_max_chunks: usize,
    /// Search options (besides the mode).
    pub k: usize,
    /// Candidates per ranker.
    pub depth: usize,
    /// Exact f32 scan at or below this many candidates.
    pub exact_max: u64,
    /// Shortlist of the binary pass, at least.
    pub shortlist_min: usize,
    /// Per library.
    pub libraries: Vec<LibraryLatency>,
}

fn strategy_label(s: VectorStrategy) -> String {
    crate::vectors::strategy_text(s)
}

fn time_mode(engine: &Engine, queries: &[String], mode: SearchMode, base: &SearchOptions) -> Result<ModeLatency> {
    let opts = SearchOptions { mode, ..*base };
    // The gated search (what users run), as of today, no withheld second search.
    let as_of = engine.as_of(None, None);
    for q in queries.iter().take(WARMUP) {
        engine.search(q, &opts, as_of, 0)?;
    }
    let mut times = Vec::with_capacity(queries.len());
    let mut strategies: Vec<String> = Vec::new();
    let mut hits = 0usize;
    let clock = Instant::now();
    for q in queries {
        if times.len() >= MIN_QUERIES && clock.elapsed() > MODE_BUDGET {
            break; // time box: slow modes stop early, with at least MIN_QUERIES timed
        }
        let started = Instant::now();
        let res = engine.search(q, &opts, as_of, 0)?.results;
        times.push(started.elapsed().as_secs_f64() * 1000.0);
        hits += res.hits.len();
        let label = if mode == SearchMode::Bm25 { "none".to_string() } else { strategy_label(res.vector_strategy) };
        if !strategies.contains(&label) {
            strategies.push(label);
        }
    }
    let timed = times.len().max(1) as f64;
    Ok(ModeLatency {
        mode: match mode {
            SearchMode::Hybrid => "hybrid",
            SearchMode::Bm25 => "bm25",
            SearchMode::Vector => "vector",
        }
        .into(),
        latency: LatencyStats::from_ms(times),
        vector_strategy: strategies.join(", "),
        mean_hits: hits as f64 / timed,
    })
}

/// Run part 2.
///
/// # Errors
/// I/O and engine errors.
pub fn run(opts: &Options) -> Result<LatencyResult> {
    let sizes: &[usize] = if opts.quick { &[2_000, 10_000] } else { &[10_000, 100_000] };
    let n_queries = if opts.quick { 50 } else { 200 };
    let vocab = Vocabulary::new(VOCABULARY, VOCAB_SEED);
    let mut qrng = StdRng::seed_from_u64(QUERY_SEED);
    let queries: Vec<String> = (0..n_queries).map(|_| vocab.query(&mut qrng)).collect();
    let params = IndexParams { batch_max_chunks: 5000, ..IndexParams::default() };
    let base = SearchOptions::default();
    let mut libraries = Vec::new();
    for &target in sizes {
        let work = opts.tempdir("latency")?;
        let files = target.div_ceil(PARAGRAPHS_PER_FILE);
        eprintln!("part 2: generating {files} files (~{target} chunks)");
        let docs = work.path().join("docs");
        let text_bytes = write_text_corpus(&docs, &vocab, files, PARAGRAPHS_PER_FILE, CORPUS_SEED)?;
        let (run, engine) = index_folder(
            &docs,
            &work.path().join("lib"),
            EmbedderConfig::Hash { dimensions: 384 },
            params.clone(),
            &format!("synthetic-{target}"),
        )?;
        eprintln!(
            "part 2: indexed {} chunks in {:.1} s; timing {n_queries} queries x 3 modes",
            run.chunks, run.elapsed_s
        );
        let mut modes = Vec::new();
        for mode in [SearchMode::Hybrid, SearchMode::Bm25, SearchMode::Vector] {
            modes.push(time_mode(&engine, &queries, mode, &base)?);
        }
        libraries.push(LibraryLatency {
            target_chunks: target,
            files,
            chunks: run.chunks,
            text_bytes,
            index_s: run.elapsed_s,
            disk_bytes: run.disk_bytes,
            queries: n_queries,
            modes,
        });
    }
    Ok(LatencyResult {
        vocabulary: VOCABULARY,
        paragraphs_per_file: PARAGRAPHS_PER_FILE,
        batch_max_chunks: params.batch_max_chunks,
        k: base.k,
        depth: base.depth,
        exact_max: base.vector.exact_max,
        shortlist_min: base.vector.shortlist_min,
        libraries,
    })
}
