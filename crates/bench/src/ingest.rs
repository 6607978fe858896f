//! Part 1: ingest throughput over a copy of the 18F and Sourcegraph
//! handbooks (523 Markdown files), with the built-in embedder and with the
//! hash embedder (no embedding cost), next to the Python reference pipeline
//! on the same copy.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use almirah_core::embed::{self, EmbedderConfig};
use almirah_core::{Engine, EngineConfig, IndexParams, Progress, ProgressEvent};
use anyhow::{Context, Result};
use serde::Serialize;

use crate::Options;

/// One indexing run.
#[derive(Debug, Clone, Serialize)]
pub struct IngestRun {
    /// Embedder label.
    pub embedder: String,
    /// Seconds spent loading the embedder (not part of the throughput).
    pub embedder_load_s: f64,
    /// Files indexed.
    pub files: usize,
    /// Files that failed.
    pub failures: usize,
    /// Chunks written.
    pub chunks: usize,
    /// Bytes of the files processed.
    pub bytes: u64,
    /// Wall time of `Engine::index`, in seconds (until every chunk has its
    /// vector: `index` waits for the backfill).
    pub elapsed_s: f64,
    /// Seconds until every file was searchable by keywords (the first
    /// phase committed; the gate applies from then on).
    pub searchable_s: f64,
    /// Chunks embedded per second of the embedding phase (after the first
    /// phase), the figure to set beside a pipeline that embeds everything.
    pub vector_chunks_per_s: f64,
    /// Files per second.
    pub files_per_s: f64,
    /// Chunks per second.
    pub chunks_per_s: f64,
    /// MB (10^6 bytes) per second.
    pub mb_per_s: f64,
    /// Library size on disk, bytes.
    pub disk_bytes: u64,
}

/// Part 1 results.
#[derive(Debug, Clone, Serialize)]
pub struct IngestResult {
    /// Source folder.
    pub source: String,
    /// Files copied.
    pub files_in_copy: usize,
    /// Built-in embedder run.
    pub builtin: IngestRun,
    /// Hash embedder run.
    pub hash: IngestRun,
    /// hash chunks/s ÷ builtin chunks/s.
    pub speedup_without_embedding: f64,
    /// The multilingual builtin (multilingual-e5-small) on the same files,
    /// when its model is installed.
    pub multilingual: Option<IngestRun>,
    /// Its embedding chunks/s ÷ all-MiniLM-L6-v2's (phase 2 of ingest).
    pub multilingual_vector_ratio: Option<f64>,
    /// The Python reference pipeline on the same files (split on headings,
    /// the same MiniLM weights through onnxruntime, Chroma), when run.
    pub reference: Option<crate::python::ReferencePipeline>,
    /// Almirah's end-to-end query latency (embed the query, hybrid search,
    /// the gate) on the built-in library, for the same questions, ms.
    pub query: Option<crate::stats::LatencyStats>,
    /// CPU seconds (user + system, this process and its extractor
    /// children) to index a 1 MB file of one repeated line with the hash
    /// embedder: the indexer's own cost, embedding excluded.
    pub repeated_line_cpu_s: Option<f64>,
    /// Embedding the query alone, per question, ms.
    pub query_embedding: Option<crate::stats::LatencyStats>,
    /// The rest of the query (end-to-end minus the same question's
    /// embedding time: BM25, vectors, RRF, the gate), ms.
    pub query_without_embedding: Option<crate::stats::LatencyStats>,
}

/// Prints a line to stderr every `every` files.
pub struct StderrProgress {
    /// Prefix of the lines.
    pub label: String,
    /// Print every this many files.
    pub every: usize,
}

impl Progress for StderrProgress {
    fn on_event(&self, event: ProgressEvent) {
        if let ProgressEvent::FileDone { done, total, .. } = event
            && (done % self.every.max(1) == 0 || done == total)
        {
            eprintln!("  {}: {done}/{total} files", self.label);
        }
    }
}

/// Index `docs` into a fresh library in `lib` with `embedder`.
///
/// # Errors
/// Engine and embedder errors.
pub fn index_folder(
    docs: &Path,
    lib: &Path,
    config: EmbedderConfig,
    params: IndexParams,
    label: &str,
) -> Result<(IngestRun, Engine)> {
    let load = Instant::now();
    let embedder = embed::from_config(&config).with_context(|| format!("loading {label}"))?;
    let embedder_load_s = load.elapsed().as_secs_f64();
    let mut cfg = EngineConfig::new(lib);
    cfg.embedder = config;
    cfg.index = params;
    let engine = Engine::with_embedder(cfg, embedder)?;
    let progress = StderrProgress { label: label.to_string(), every: 100 };
    let cancel = AtomicBool::new(false);
    let started = Instant::now();
    let report = engine.index(&[docs.to_path_buf()], &progress, &cancel)?;
    let elapsed_s = started.elapsed().as_secs_f64().max(1e-9);
    let files = report.outcomes.iter().filter(|o| o.action == "indexed").count();
    let run = IngestRun {
        embedder: label.to_string(),
        embedder_load_s,
        files,
        failures: report.failures(),
        chunks: report.chunks_added,
        bytes: report.bytes_processed,
        elapsed_s,
        searchable_s: report.searchable_ms as f64 / 1000.0,
        vector_chunks_per_s: report.chunks_added as f64 / (elapsed_s - report.searchable_ms as f64 / 1000.0).max(1e-9),
        files_per_s: files as f64 / elapsed_s,
        chunks_per_s: report.chunks_added as f64 / elapsed_s,
        mb_per_s: report.bytes_processed as f64 / 1e6 / elapsed_s,
        disk_bytes: engine.store().disk_size()?,
    };
    Ok((run, engine))
}

/// Copy the regular files of `src` (recursively, sorted) into `dst`; at most
/// `limit` files. Returns the number copied.
fn copy_tree(src: &Path, dst: &Path, limit: usize) -> Result<usize> {
    let mut files = Vec::new();
    collect(src, &mut files)?;
    files.sort();
    files.truncate(limit);
    for f in &files {
        let rel = f.strip_prefix(src)?;
        let to = dst.join(rel);
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::copy(f, &to).with_context(|| format!("copying {}", f.display()))?;
    }
    Ok(files.len())
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    for entry in std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
        let path = entry?.path();
        if path.is_dir() {
            collect(&path, out)?;
        } else if path.is_file() {
            out.push(path);
        }
    }
    Ok(())
}

/// The two staff handbooks part 1 indexes: (folder name in the copy, corpus folder).
const SOURCES: [(&str, &str); 2] =
    [("handbook_18f", "handbook_18f/pages"), ("handbook_sourcegraph", "handbook_sourcegraph/content")];

/// Run part 1.
///
/// # Errors
/// I/O, engine and embedder errors.
pub fn run(opts: &Options) -> Result<IngestResult> {
    let work = opts.tempdir("ingest")?;
    let docs = work.path().join("handbooks");
    let limit = if opts.quick { 20 } else { usize::MAX };
    let mut files_in_copy = 0;
    let mut sources = Vec::new();
    for (name, folder) in SOURCES {
        let source = opts.corpora.join(folder);
        files_in_copy += copy_tree(&source, &docs.join(name), limit)?;
        sources.push(source.display().to_string());
    }
    let source = sources.join(" + ");
    eprintln!("part 1: ingest of {files_in_copy} files from {source}");
    let (builtin, engine) = index_folder(
        &docs,
        &work.path().join("lib-builtin"),
        EmbedderConfig::Builtin { model_dir: None, model: almirah_core::embed::BuiltinModel::MiniLm },
        IndexParams::default(),
        "builtin",
    )?;
    let (hash, _) = index_folder(
        &docs,
        &work.path().join("lib-hash"),
        EmbedderConfig::Hash { dimensions: 384 },
        IndexParams::default(),
        "hash-384",
    )?;
    let speedup_without_embedding = hash.chunks_per_s / builtin.chunks_per_s.max(1e-9);
    let multilingual = match index_folder(
        &docs,
        &work.path().join("lib-e5"),
        EmbedderConfig::Builtin { model_dir: None, model: almirah_core::embed::BuiltinModel::MultilingualE5Small },
        IndexParams::default(),
        "builtin-e5",
    ) {
        Ok((run, _)) => Some(run),
        Err(e) => {
            eprintln!("part 1: multilingual-e5-small skipped: {e:#}");
            None
        }
    };
    let multilingual_vector_ratio =
        multilingual.as_ref().map(|m| m.vector_chunks_per_s / builtin.vector_chunks_per_s.max(1e-9));
    let questions = handbook_questions(opts.quick);
    let repeated_line_cpu_s = repeated_line_cpu(opts).map_err(|e| eprintln!("part 1: repeated-line file: {e:#}")).ok();
    let (query, embedding, rest) = query_latency(&engine, &questions)?;
    let (query, query_embedding, query_without_embedding) = (Some(query), Some(embedding), Some(rest));
    let reference = match crate::python::python() {
        Some(py) => {
            eprintln!("part 1: the Python reference pipeline on the same {files_in_copy} files");
            match crate::python::reference_pipeline(&py, work.path(), std::slice::from_ref(&docs), &questions) {
                Ok(r) => Some(r),
                Err(e) => {
                    eprintln!("part 1: the reference pipeline failed: {e:#}");
                    None
                }
            }
        }
        None => None,
    };
    Ok(IngestResult {
        source,
        files_in_copy,
        builtin,
        hash,
        speedup_without_embedding,
        multilingual,
        multilingual_vector_ratio,
        reference,
        query,
        query_embedding,
        query_without_embedding,
        repeated_line_cpu_s,
    })
}

/// The questions of `eval/handbooks.jsonl` (20 with `quick`).
fn handbook_questions(quick: bool) -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../eval/handbooks.jsonl");
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let mut out: Vec<String> = text
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter_map(|v| v["question"].as_str().map(str::to_string))
        .collect();
    if quick {
        out.truncate(20);
    }
    out
}

/// Per question: embed it, hybrid search, the gate (what `ask` does before
/// drafting), after one untimed warm-up; then the same question's embedding
/// alone, so the rest of the query can be reported beside it. Returns
/// (end-to-end, embedding, end-to-end minus embedding).
fn query_latency(
    engine: &almirah_core::Engine,
    questions: &[String],
) -> Result<(crate::stats::LatencyStats, crate::stats::LatencyStats, crate::stats::LatencyStats)> {
    let opts = almirah_core::SearchOptions::default();
    let as_of = engine.as_of(None, None);
    if let Some(q) = questions.first() {
        engine.search(q, &opts, as_of, 3)?;
    }
    let embedder = engine.embedder()?;
    let (mut times, mut embeds, mut rest) = (Vec::new(), Vec::new(), Vec::new());
    for q in questions {
        let started = Instant::now();
        engine.search(q, &opts, as_of, 3)?;
        let total = started.elapsed().as_secs_f64() * 1000.0;
        let started = Instant::now();
        embedder.embed(&[q.as_str()], almirah_core::embed::InputKind::Query)?;
        let embed = started.elapsed().as_secs_f64() * 1000.0;
        times.push(total);
        embeds.push(embed);
        rest.push((total - embed).max(0.0));
    }
    let stats = crate::stats::LatencyStats::from_ms;
    Ok((stats(times), stats(embeds), stats(rest)))
}

/// Index a 1 MB file of one repeated line (every chunk the same text) into
/// a fresh library with the hash embedder and return the CPU seconds it
/// took (issue 42: the indexer's cost must not grow with repetition).
fn repeated_line_cpu(opts: &Options) -> Result<f64> {
    let work = opts.tempdir("repeated")?;
    let docs = work.path().join("docs");
    std::fs::create_dir_all(&docs)?;
    let line = "The hostel fee waiver applies to students of the 2026-27 session only.\n";
    std::fs::write(docs.join("repeated.txt"), line.repeat(1_000_000 / line.len()))?;
    let before = cpu_seconds()?;
    let (run, _engine) = index_folder(
        &docs,
        &work.path().join("lib"),
        EmbedderConfig::Hash { dimensions: 384 },
        IndexParams::default(),
        "repeated-line",
    )?;
    let cpu = cpu_seconds()? - before;
    eprintln!("part 1: 1 MB repeated-line file: {} chunks, {cpu:.2} CPU-s", run.chunks);
    Ok(cpu)
}

/// CPU time of this process and its waited-for children, s (Linux
/// `/proc/self/stat` fields 14-17, utime stime cutime cstime, in clock
/// ticks of 1/100 s, the value of `_SC_CLK_TCK` on Linux).
fn cpu_seconds() -> Result<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").context("reading /proc/self/stat")?;
    let after = stat.rsplit_once(") ").map(|(_, rest)| rest).context("parsing /proc/self/stat")?;
    let fields: Vec<&str> = after.split_whitespace().collect();
    let ticks: u64 =
        fields.get(11..15).context("short /proc/self/stat")?.iter().map(|f| f.parse::<u64>().unwrap_or(0)).sum();
    Ok(ticks as f64 / 100.0)
}

/// The handbook questions on an existing library (`--library`).
#[derive(Debug, Clone, Serialize)]
pub struct LibraryQueries {
    /// The library folder.
    pub library: String,
    /// Chunks in it.
    pub chunks: u64,
    /// Its LMDB file, bytes.
    pub disk_bytes: u64,
    /// End-to-end query (embed, hybrid search, gate), ms.
    pub query: crate::stats::LatencyStats,
    /// Embedding the query alone, ms.
    pub embedding: crate::stats::LatencyStats,
    /// End-to-end minus the same question's embedding, ms.
    pub without_embedding: crate::stats::LatencyStats,
}

/// Open the library at `dir` with its own embedder and time the handbook
/// questions on it.
///
/// # Errors
/// The library does not open; search errors.
pub fn library_queries(dir: &Path) -> Result<LibraryQueries> {
    // Opening a folder with no library in it would create an empty one there and time nothing.
    if !almirah_core::engine::is_library(dir) {
        anyhow::bail!("{} holds no library (no data.mdb): give the library's data folder", dir.display());
    }
    // The CLI's default audience, so the timed searches run over what a user sees.
    let mut cfg = EngineConfig::new(dir);
    cfg.audiences = almirah_settings::ProfileSection::default().audience;
    let engine = Engine::open(cfg).with_context(|| format!("opening {}", dir.display()))?;
    let status = engine.status()?;
    let (query, embedding, without_embedding) = query_latency(&engine, &handbook_questions(false))?;
    eprintln!(
        "library {}: {} chunks; query p50 {:.1} ms, embedding p50 {:.1} ms, the rest p50 {:.2} ms (p95 {:.2})",
        dir.display(),
        status.chunks,
        query.p50_ms,
        embedding.p50_ms,
        without_embedding.p50_ms,
        without_embedding.p95_ms
    );
    Ok(LibraryQueries {
        library: dir.display().to_string(),
        chunks: status.chunks,
        disk_bytes: status.disk_bytes,
        query,
        embedding,
        without_embedding,
    })
}
