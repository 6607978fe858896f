//! Part 5: keeping the library current (issue 6). In a library of about
//! 10k chunks whose stored embedder is the built-in one: the save-to-
//! searchable latency of a one-page Markdown document under a running
//! [`Watcher`], and the reconcile time of the unchanged 1,000-file library.
//!
//! Indexing 10k chunks with all-MiniLM-L6-v2 takes about half an hour on two
//! busy cores, so the library's chunks are indexed by [`Engine::index`] with
//! a stand-in embedder: it reports the built-in embedder's identity (read
//! from the loaded model) and returns seeded low-rank embedding-like vectors
//! ([`LowRank`]) instead of model outputs. Everything else (extraction,
//! chunking, postings, vectors, the stored identity) is what the model would
//! give. The watcher then runs with the real model, so every timed save is
//! embedded by all-MiniLM-L6-v2.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use almirah_core::embed::{self, EmbedError, Embedder, EmbedderConfig, EmbedderId, InputKind};
use almirah_core::extract::{self, ChunkOptions};
use almirah_core::watch::{Notice, WatchOptions, Watcher};
use almirah_core::{Engine, EngineConfig, ExtractorMode, NoProgress, SearchMode, SearchOptions};
use anyhow::{Context, Result, bail};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use serde::Serialize;

use crate::Options;
use crate::stats::LatencyStats;
use crate::synth::{LowRank, Vocabulary};

/// Goal: p95 save-to-searchable under 1 s.
pub const LATENCY_GOAL_MS: f64 = 1000.0;
/// Goal: reconcile of an unchanged 1,000-file library under 1 s.
pub const RECONCILE_GOAL_MS: f64 = 1000.0;
/// Search poll interval after a save.
pub const POLL: Duration = Duration::from_millis(10);
/// Longest wait for one save to become searchable before the part fails.
const SAVE_TIMEOUT: Duration = Duration::from_secs(30);
/// Longest wait for the watcher's start reconcile.
const START_TIMEOUT: Duration = Duration::from_secs(300);
/// Quiet time after each save is found, before the next one.
const GAP: Duration = Duration::from_millis(250);
/// Sections of one paragraph (650-1100 characters; the default 400-1200
/// chunker makes about 2.5 chunks of each) per library file: about 10
/// chunks per file, 10k chunks for 1,000 files.
pub const PARAGRAPHS_PER_FILE: usize = 4;
/// The extractor child's limits, as `almirah`'s defaults.
const EXTRACT_TIMEOUT_MS: u64 = 120_000;
const EXTRACT_MEMORY_BYTES: u64 = 2048 << 20;
/// The first argument that makes this binary an extractor child.
pub const EXTRACT_ARG: &str = "__extract";
/// Timed `Engine::index` runs over the unchanged library.
pub const RECONCILE_RUNS: usize = 5;
const VOCAB_SEED: u64 = 1;
const CORPUS_SEED: u64 = 11;
const PAGE_SEED: u64 = 12;

/// Indexes with the built-in embedder's identity but returns seeded
/// low-rank vectors (see the module documentation).
struct StandIn {
    id: EmbedderId,
    max_batch: usize,
    model: LowRank,
}

impl Embedder for StandIn {
    fn id(&self) -> &EmbedderId {
        &self.id
    }

    fn max_batch(&self) -> usize {
        self.max_batch
    }

    fn embed(&self, texts: &[&str], _kind: InputKind) -> Result<Vec<Vec<f32>>, EmbedError> {
        Ok(texts
            .iter()
            .map(|t| {
                let mut h = DefaultHasher::new();
                t.hash(&mut h);
                self.model.row_seeded(h.finish())
            })
            .collect())
    }
}

/// The library the figures are measured in.
#[derive(Debug, Clone, Serialize)]
pub struct WatchLibrary {
    /// Markdown files.
    pub files: usize,
    /// Chunks.
    pub chunks: u64,
    /// Bytes of text generated.
    pub text_bytes: u64,
    /// The embedder identity stored in the library.
    pub stored_embedder: String,
    /// How the library's vectors were made.
    pub built_with: String,
    /// `Engine::index` time of the build, s.
    pub build_s: f64,
    /// Seconds to load the built-in model (once; the watcher uses it).
    pub model_load_s: f64,
    /// Library size on disk, bytes.
    pub disk_bytes: u64,
}

/// Save-to-searchable latency.
#[derive(Debug, Clone, Serialize)]
pub struct SaveLatency {
    /// Bytes of one page (mean over the timed saves).
    pub page_bytes: usize,
    /// Chunks of one new page.
    pub page_chunks: u64,
    /// Watcher debounce, ms.
    pub debounce_ms: u64,
    /// Watcher settle time, ms.
    pub settle_ms: u64,
    /// Search poll interval, ms.
    pub poll_ms: u64,
    /// From the rename returning to a BM25 search for the page's unique token returning it, ms (all saves).
    pub all: LatencyStats,
    /// New files only.
    pub new_files: LatencyStats,
    /// Edits of one file only.
    pub edits: LatencyStats,
    /// As reported by the watcher (event seen to commit), ms.
    pub watcher_reported: LatencyStats,
    /// Extract, chunk and embed one new page directly (no watcher, no
    /// writes), after the saves: the model's share of a save, ms.
    pub model_page: LatencyStats,
    /// Each poll search (BM25 for the token) while waiting, ms.
    pub poll_search: LatencyStats,
    /// Save to hybrid-searchable (the page's vectors written by the
    /// watcher's embedding slices), every save, ms.
    pub hybrid: LatencyStats,
    /// Goal for the p95 of `all`, ms.
    pub goal_p95_ms: f64,
    /// `all.p95_ms / goal_p95_ms` (below 1 meets the goal).
    pub p95_ratio: f64,
    /// Problems the watcher reported meanwhile.
    pub problems: Vec<String>,
}

/// Reconcile time of the unchanged library.
#[derive(Debug, Clone, Serialize)]
pub struct ReconcileTime {
    /// Files seen per run.
    pub files: usize,
    /// Each timed run, ms.
    pub runs_ms: Vec<f64>,
    /// Statistics of the runs.
    pub stats: LatencyStats,
    /// Goal for the p50, ms.
    pub goal_ms: f64,
    /// `stats.p50_ms / goal_ms` (below 1 meets the goal).
    pub ratio: f64,
    /// The watcher's own start reconcile (nothing changed), ms.
    pub watcher_start_ms: u64,
}

/// Part 5 results.
#[derive(Debug, Clone, Serialize)]
pub struct WatchResult {
    /// The library.
    pub library: WatchLibrary,
    /// Save-to-searchable latency.
    pub save: SaveLatency,
    /// Reconcile time.
    pub reconcile: ReconcileTime,
}

/// A one-page Markdown document (about 3 kB): title, three sections, the
/// unique `token` in the last one. `fixed` holds the first two sections'
/// text when only the last one changes (an edit).
fn page(title: &str, fixed: &[String; 2], last: &str, token: &str) -> String {
    format!(
        "# {title}\n\n## Purpose\n\n{}\n\n## Scope\n\n{}\n\n## Procedure\n\n{last} Reference {token}.\n",
        fixed[0], fixed[1]
    )
}

fn paragraphs(vocab: &Vocabulary, rng: &mut StdRng) -> [String; 2] {
    [vocab.paragraph(rng, 880), vocab.paragraph(rng, 880)]
}

/// Write `files` Markdown files of [`PARAGRAPHS_PER_FILE`] sections into
/// `dir`; returns the bytes.
fn write_library(dir: &Path, vocab: &Vocabulary, files: usize) -> Result<u64> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let mut rng = StdRng::seed_from_u64(CORPUS_SEED);
    let mut bytes = 0u64;
    for f in 0..files {
        let mut text = format!("# Synthetic policy {f}\n\n");
        for s in 0..PARAGRAPHS_PER_FILE {
            let len = rng.random_range(650..1100);
            text.push_str(&format!("## Section {}\n\n{}\n\n", s + 1, vocab.paragraph(&mut rng, len)));
        }
        let path = dir.join(format!("policy-{f:04}.md"));
        std::fs::write(&path, &text).with_context(|| format!("writing {}", path.display()))?;
        bytes += text.len() as u64;
    }
    Ok(bytes)
}

/// Save like an editor: write a hidden temp file next to `path`, rename it over `path`.
fn atomic_save(path: &Path, text: &str) -> Result<()> {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let tmp = path.with_file_name(format!(".{name}.tmp"));
    std::fs::write(&tmp, text).with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("renaming onto {}", path.display()))
}

/// The watcher's notices, gathered from its channel.
struct Notices {
    rx: mpsc::Receiver<Notice>,
    seen: Vec<Notice>,
}

impl Notices {
    fn drain(&mut self) {
        while let Ok(n) = self.rx.try_recv() {
            self.seen.push(n);
        }
    }

    /// Wait until a notice from index `from` on matches `want`.
    fn wait_for(&mut self, from: usize, timeout: Duration, want: impl Fn(&Notice) -> bool) -> Option<Notice> {
        let start = Instant::now();
        loop {
            if let Some(n) = self.seen.iter().skip(from).find(|n| want(n)) {
                return Some(n.clone());
            }
            let left = timeout.saturating_sub(start.elapsed());
            if left.is_zero() {
                return None;
            }
            match self.rx.recv_timeout(left.min(Duration::from_millis(50))) {
                Ok(n) => self.seen.push(n),
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => return None,
            }
        }
    }
}

/// Whether a BM25 search for `token` (gated, as of today) returns `path`.
fn found(engine: &Engine, token: &str, path: &str) -> Result<bool> {
    let opts = SearchOptions { mode: SearchMode::Bm25, ..SearchOptions::default() };
    let as_of = engine.as_of(None, None);
    Ok(engine.search(token, &opts, as_of, 0)?.results.hits.iter().any(|h| h.path == path))
}

/// Poll [`found`] every [`POLL`]; the time from `since` until it holds.
/// Each search's own time (ms) goes to `searches`.
fn wait_searchable(
    engine: &Engine,
    token: &str,
    path: &str,
    since: Instant,
    searches: &mut Vec<f64>,
) -> Result<Duration> {
    loop {
        let started = Instant::now();
        let hit = found(engine, token, path)?;
        searches.push(started.elapsed().as_secs_f64() * 1000.0);
        if hit {
            return Ok(since.elapsed());
        }
        if since.elapsed() > SAVE_TIMEOUT {
            bail!("{path} was not searchable for {token:?} after {SAVE_TIMEOUT:?}");
        }
        std::thread::sleep(POLL);
    }
}

fn path_str(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

/// Run part 5.
///
/// # Errors
/// I/O, engine and embedder errors; a save not searchable within 30 s.
pub fn run(opts: &Options) -> Result<WatchResult> {
    let files = if opts.quick { 200 } else { 1_000 };
    let saves_per_kind = if opts.quick { 5 } else { 20 };
    let work = opts.tempdir("watch")?;
    // The saves' folder exists before the watcher starts (a new folder would be rescanned).
    let docs_dir = work.path().join("docs");
    std::fs::create_dir_all(docs_dir.join("saves"))?;
    let docs = docs_dir.canonicalize()?;
    let saves_dir = docs.join("saves");
    let lib = work.path().join("lib");
    let vocab = Vocabulary::new(crate::latency::VOCABULARY, VOCAB_SEED);
    eprintln!("part 5: generating {files} Markdown files of {PARAGRAPHS_PER_FILE} sections");
    let text_bytes = write_library(&docs.join("library"), &vocab, files)?;

    let load = Instant::now();
    let model = embed::from_config(&EmbedderConfig::Builtin { model_dir: None, model: embed::BuiltinModel::MiniLm })
        .context("loading the built-in model")?;
    let model_load_s = load.elapsed().as_secs_f64();
    let mut cfg = EngineConfig::new(&lib);
    cfg.embedder = EmbedderConfig::Builtin { model_dir: None, model: embed::BuiltinModel::MiniLm };

    // Build with the stand-in, then reopen with the real model.
    let stand_in = StandIn { id: model.id().clone(), max_batch: model.max_batch(), model: LowRank::new() };
    let roots = vec![docs.clone()];
    let build_s = {
        let engine = Engine::with_embedder(cfg.clone(), Box::new(stand_in))?;
        let started = Instant::now();
        let report = engine.index(&roots, &NoProgress, &AtomicBool::new(false))?;
        if report.failures() > 0 {
            bail!("{} library files failed to index", report.failures());
        }
        started.elapsed().as_secs_f64()
    };
    // From here on, extraction runs in a child process per file, as in `almirah watch`.
    cfg.index.extractor = ExtractorMode::Subprocess {
        program: std::env::current_exe().context("cannot find the almirah-bench executable")?,
        args: vec![EXTRACT_ARG.into()],
        timeout_ms: EXTRACT_TIMEOUT_MS,
        memory_limit_bytes: EXTRACT_MEMORY_BYTES,
    };
    let engine = Arc::new(Engine::with_embedder(cfg, model)?);
    let status = engine.status()?;
    let stored_embedder = status
        .embedder
        .as_ref()
        .map_or("none".into(), |id| format!("{}:{} ({} d)", id.provider, id.model, id.dimensions));
    let library = WatchLibrary {
        files,
        chunks: status.chunks,
        text_bytes,
        stored_embedder,
        built_with: "Engine::index with a stand-in embedder reporting the built-in identity and returning seeded \
                     low-rank vectors (synth::LowRank), not model outputs; timed saves use the real model"
            .into(),
        build_s,
        model_load_s,
        disk_bytes: status.disk_bytes,
    };
    eprintln!("part 5: {} chunks in {:.1} s; timing {RECONCILE_RUNS} reconciles", library.chunks, build_s);

    // Reconcile: what the watcher runs, over the unchanged library.
    let mut runs_ms = Vec::with_capacity(RECONCILE_RUNS);
    let mut files_seen = 0;
    for _ in 0..RECONCILE_RUNS {
        let started = Instant::now();
        let report = engine.index(&roots, &NoProgress, &AtomicBool::new(false))?;
        runs_ms.push(started.elapsed().as_secs_f64() * 1000.0);
        if !report.outcomes.is_empty() || report.chunks_added > 0 {
            bail!("the unchanged library changed on reconcile: {} outcomes", report.outcomes.len());
        }
        files_seen = report.files_seen;
    }

    // The watcher, with the defaults of `almirah watch`.
    let (tx, rx) = mpsc::channel();
    let mut notices = Notices { rx, seen: Vec::new() };
    let options = WatchOptions::new(roots);
    let (debounce_ms, settle_ms) = (options.debounce.as_millis() as u64, options.settle.as_millis() as u64);
    let watcher = Watcher::start(
        engine.clone(),
        options,
        Box::new(move |n| {
            let _ = tx.send(n);
        }),
    )?;
    let result = time_saves(&engine, &mut notices, &vocab, &saves_dir, saves_per_kind);
    watcher.stop();
    notices.drain();
    let Saves { times: save_times, page_chunks, searches } = result?;
    let model_page = time_model(&engine, &vocab, &docs.join("saves/model-check.md"), if opts.quick { 3 } else { 5 })?;
    let watcher_start_ms = notices
        .seen
        .iter()
        .find_map(|n| if let Notice::Reconciled { elapsed_ms, .. } = n { Some(*elapsed_ms) } else { None })
        .unwrap_or(0);
    let problems: Vec<String> = notices
        .seen
        .iter()
        .filter_map(|n| if let Notice::Problem { message } = n { Some(message.clone()) } else { None })
        .collect();

    let all = LatencyStats::from_ms(save_times.iter().map(|s| s.ms).collect());
    let pick = |edit: bool| LatencyStats::from_ms(save_times.iter().filter(|s| s.edit == edit).map(|s| s.ms).collect());
    let watcher_reported = LatencyStats::from_ms(save_times.iter().filter_map(|s| s.watcher_ms).collect());
    let page_bytes = save_times.iter().map(|s| s.bytes).sum::<usize>() / save_times.len().max(1);
    let p95_ratio = all.p95_ms / LATENCY_GOAL_MS;
    let stats = LatencyStats::from_ms(runs_ms.clone());
    let ratio = stats.p50_ms / RECONCILE_GOAL_MS;
    Ok(WatchResult {
        library,
        save: SaveLatency {
            page_bytes,
            page_chunks,
            debounce_ms,
            settle_ms,
            poll_ms: POLL.as_millis() as u64,
            new_files: pick(false),
            edits: pick(true),
            all,
            hybrid: LatencyStats::from_ms(save_times.iter().map(|s| s.hybrid_ms).collect()),
            watcher_reported,
            model_page,
            poll_search: LatencyStats::from_ms(searches),
            goal_p95_ms: LATENCY_GOAL_MS,
            p95_ratio,
            problems,
        },
        reconcile: ReconcileTime {
            files: files_seen,
            runs_ms,
            stats,
            goal_ms: RECONCILE_GOAL_MS,
            ratio,
            watcher_start_ms,
        },
    })
}

/// One timed save.
struct SaveTime {
    edit: bool,
    bytes: usize,
    ms: f64,
    /// Until the page's chunks had their vectors too (hybrid search), ms.
    hybrid_ms: f64,
    watcher_ms: Option<f64>,
}

/// One save: write and rename, time until searchable, then wait for the
/// watcher's notice of it (its own latency) and a short quiet gap.
fn save_and_wait(
    engine: &Engine,
    notices: &mut Notices,
    path: &Path,
    text: &str,
    token: &str,
    searches: &mut Vec<f64>,
) -> Result<(Duration, Duration, Option<f64>)> {
    notices.drain();
    let from = notices.seen.len();
    atomic_save(path, text)?;
    let saved = Instant::now();
    let took = wait_searchable(engine, token, &path_str(path), saved, searches)?;
    let hybrid = wait_vectors(engine, saved)?;
    let want = path_str(path);
    let change = notices.wait_for(from, Duration::from_secs(5), |n| matches!(n, Notice::Change(c) if c.path == want));
    let watcher_ms = match change {
        Some(Notice::Change(c)) => Some(c.latency_ms as f64),
        _ => None,
    };
    std::thread::sleep(GAP);
    Ok((took, hybrid, watcher_ms))
}

/// Poll the embedding queue until it is empty: the saved page's chunks
/// have their vectors and hybrid search ranks them by meaning too.
fn wait_vectors(engine: &Engine, saved: Instant) -> Result<Duration> {
    loop {
        if almirah_core::update::backfill::pending(engine.store())?.is_empty() {
            return Ok(saved.elapsed());
        }
        if saved.elapsed() > SAVE_TIMEOUT {
            bail!("the saved page had no vectors within {SAVE_TIMEOUT:?}");
        }
        std::thread::sleep(POLL);
    }
}

impl SaveTime {
    fn new(edit: bool, text: &str, took: Duration, hybrid: Duration, watcher_ms: Option<f64>) -> Self {
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        Self { edit, bytes: text.len(), ms: ms(took), hybrid_ms: ms(hybrid), watcher_ms }
    }
}

/// What [`time_saves`] measured.
struct Saves {
    times: Vec<SaveTime>,
    page_chunks: u64,
    /// Each poll search during the timed saves, ms.
    searches: Vec<f64>,
}

/// Wait for the start reconcile, warm up, then alternate new files and
/// edits of one file.
fn time_saves(
    engine: &Engine,
    notices: &mut Notices,
    vocab: &Vocabulary,
    dir: &Path,
    per_kind: usize,
) -> Result<Saves> {
    if notices.wait_for(0, START_TIMEOUT, |n| matches!(n, Notice::Reconciled { .. })).is_none() {
        bail!("the watcher's start reconcile did not finish within {START_TIMEOUT:?}");
    }
    let mut rng = StdRng::seed_from_u64(PAGE_SEED);
    // Warm-up (untimed): the first new page, and the file later edited.
    let before = engine.status()?.chunks;
    let warm = paragraphs(vocab, &mut rng);
    let last = vocab.paragraph(&mut rng, 880);
    let mut searches = Vec::new();
    let text = page("Warm-up", &warm, &last, "qxwarmup");
    save_and_wait(engine, notices, &dir.join("warm-up.md"), &text, "qxwarmup", &mut searches)?;
    let page_chunks = engine.status()?.chunks.saturating_sub(before);
    let edited_path: PathBuf = dir.join("edited.md");
    let edited = paragraphs(vocab, &mut rng);
    let last = vocab.paragraph(&mut rng, 880);
    let text = page("Edited policy", &edited, &last, "qxedit000");
    save_and_wait(engine, notices, &edited_path, &text, "qxedit000", &mut searches)?;
    searches.clear();
    eprintln!("part 5: watcher ready; timing {} saves ({per_kind} new files, {per_kind} edits)", 2 * per_kind);

    let mut times = Vec::with_capacity(2 * per_kind);
    for i in 1..=per_kind {
        // A new file: every chunk is embedded.
        let token = format!("qxnew{i:03}");
        let fixed = paragraphs(vocab, &mut rng);
        let last = vocab.paragraph(&mut rng, 880);
        let text = page(&format!("New circular {i}"), &fixed, &last, &token);
        let path = dir.join(format!("new-{i:03}.md"));
        let (took, hybrid, watcher_ms) = save_and_wait(engine, notices, &path, &text, &token, &mut searches)?;
        times.push(SaveTime::new(false, &text, took, hybrid, watcher_ms));
        // An edit of the last section of one file: the other chunks come from the embedding cache.
        let token = format!("qxedit{i:03}");
        let last = vocab.paragraph(&mut rng, 880);
        let text = page("Edited policy", &edited, &last, &token);
        let (took, hybrid, watcher_ms) = save_and_wait(engine, notices, &edited_path, &text, &token, &mut searches)?;
        times.push(SaveTime::new(true, &text, took, hybrid, watcher_ms));
    }
    Ok(Saves { times, page_chunks, searches })
}

/// Extract, chunk and embed `n` fresh pages with the engine's model, no
/// watcher and nothing written (the texts get the title and heading
/// context line, as indexed).
fn time_model(engine: &Engine, vocab: &Vocabulary, path: &Path, n: usize) -> Result<LatencyStats> {
    let embedder = engine.embedder()?;
    let mut rng = StdRng::seed_from_u64(PAGE_SEED + 1);
    let mut times = Vec::with_capacity(n);
    for i in 0..n {
        let fixed = paragraphs(vocab, &mut rng);
        let last = vocab.paragraph(&mut rng, 880);
        let text = page(&format!("Model check {i}"), &fixed, &last, &format!("qxmodel{i:03}"));
        let started = Instant::now();
        let doc = extract::extract(path, text.as_bytes()).map_err(|e| anyhow::anyhow!("extracting a page: {e}"))?;
        let title = doc.title.clone().unwrap_or_default();
        let texts: Vec<String> = extract::chunk(&doc, &ChunkOptions::default())
            .iter()
            .map(|c| {
                let mut context: Vec<&str> = vec![title.as_str()];
                for h in &c.heading_path {
                    if !context.iter().any(|x| x.eq_ignore_ascii_case(h)) {
                        context.push(h);
                    }
                }
                format!("{}\n{}", context.join(" > "), c.text)
            })
            .collect();
        let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        for batch in refs.chunks(embedder.max_batch().max(1)) {
            embedder.embed(batch, InputKind::Document)?;
        }
        times.push(started.elapsed().as_secs_f64() * 1000.0);
    }
    Ok(LatencyStats::from_ms(times))
}
