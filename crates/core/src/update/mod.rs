//! The write path (milli's `update/`): scan → plan → prepare (extract, chunk,
//! embed; in a worker thread, outside any transaction) → one writer thread
//! that commits batches of about 500 chunks or 2 s of work.

pub mod backfill;
mod delta;
mod describe_file;
pub mod extractor;
pub mod filter;
mod forget;
mod ocr_summary;
mod prepare;
pub mod scan;
pub mod targeted;
mod write;

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use almirah_embed::Embedder;
use almirah_extract::{ChunkDraft, ChunkOptions};
use serde::Serialize;

pub use almirah_extract::ocr::OcrOptions;
pub(crate) use describe_file::folder_for;
pub use extractor::{ExtractorMode, extract_child_main};
pub(crate) use forget::remove_folder;
pub use ocr_summary::OcrSummary;
pub use prepare::{Counters, Prepared};
pub use targeted::Hint;

use crate::error::{Error, Result};
use crate::ids::ChunkId;
use crate::progress::{Progress, ProgressEvent};
use crate::store::{FileRecord, FileStatus, Store};

/// Settings of an indexing run.
#[derive(Debug, Clone)]
pub struct IndexParams {
    /// How extraction runs.
    pub extractor: ExtractorMode,
    /// Chunk sizes.
    pub chunking: ChunkOptions,
    /// Commit after this many chunks (default 500).
    pub batch_max_chunks: usize,
    /// Commit after this much work, in ms (default 2000).
    pub batch_max_ms: u64,
    /// Per-folder settings (versioning, date order, audience); folders not
    /// listed get the defaults.
    pub folders: Vec<crate::freshness::FolderSettings>,
    /// OCR of scanned PDFs (on by default; languages `eng+hin`).
    pub ocr: almirah_extract::ocr::OcrOptions,
    /// Run the embedding backfill (phase 2) before returning (default
    /// true). With false, a run returns once every file is searchable by
    /// keywords; the queue is embedded by the next run that waits.
    pub wait_for_vectors: bool,
}

impl Default for IndexParams {
    fn default() -> Self {
        Self {
            extractor: ExtractorMode::InProcess,
            chunking: ChunkOptions::default(),
            batch_max_chunks: 500,
            batch_max_ms: 2000,
            folders: Vec::new(),
            ocr: almirah_extract::ocr::OcrOptions::default(),
            wait_for_vectors: true,
        }
    }
}

/// The result for one file that was looked at.
#[derive(Debug, Clone, Serialize)]
pub struct FileOutcome {
    /// Path.
    pub path: String,
    /// What happened: `indexed`, `moved`, `unchanged-content`, a failure status or `deleted`.
    pub action: String,
    /// Status of the file now.
    pub status: Option<FileStatus>,
    /// Reason for a failure.
    pub reason: Option<String>,
    /// Chunks written.
    pub chunks: usize,
    /// Whether an older version stays searchable despite a failure.
    pub kept_previous: bool,
    /// Set when the file was read by OCR.
    pub ocr: Option<OcrSummary>,
}

/// The report of an indexing run (ripgrep-style: per-file results, never an abort).
#[derive(Debug, Clone, Default, Serialize)]
pub struct IngestReport {
    /// Files found on disk.
    pub files_seen: usize,
    /// Files skipped because size and mtime were unchanged.
    pub unchanged: usize,
    /// Per-file outcomes of everything processed.
    pub outcomes: Vec<FileOutcome>,
    /// Extractor calls.
    pub extract_calls: usize,
    /// Embedder calls.
    pub embed_calls: usize,
    /// Texts embedded (cache misses).
    pub embedded_texts: usize,
    /// Chunk vectors reused from the cache.
    pub cache_hits: usize,
    /// Files read by OCR.
    pub ocr_files: usize,
    /// Pages recognised by OCR in this run.
    pub ocr_pages_recognised: usize,
    /// Pages served from the OCR cache.
    pub ocr_pages_cached: usize,
    /// Chunks written.
    pub chunks_added: usize,
    /// Chunks removed.
    pub chunks_removed: usize,
    /// Bytes of the files processed.
    pub bytes_processed: u64,
    /// Wall time, in ms.
    pub elapsed_ms: u64,
    /// Time until every processed file was searchable by keywords (phase
    /// 1 committed), in ms.
    pub searchable_ms: u64,
    /// Chunks given their vector by the backfill in this run.
    pub vectors_added: usize,
    /// Chunks still waiting for a vector when the run returned.
    pub vectors_pending: u64,
}

impl IngestReport {
    /// Number of files whose status is a failure.
    pub fn failures(&self) -> usize {
        self.outcomes.iter().filter(|o| o.status.is_some_and(FileStatus::is_failure)).count()
    }
}

/// The text that is embedded and keyword-indexed for a chunk: the document
/// title and the heading path as a context line, then the chunk text
/// ("contextual chunk headers": a chunk that says "they pay half" is found by
/// the title that says what "they" and "half" refer to).
pub fn indexable_text(title: &str, chunk: &ChunkDraft) -> String {
    let mut context: Vec<&str> = Vec::with_capacity(chunk.heading_path.len() + 1);
    if !title.trim().is_empty() {
        context.push(title.trim());
    }
    for h in &chunk.heading_path {
        if !context.iter().any(|c| c.eq_ignore_ascii_case(h.trim())) {
            context.push(h.trim());
        }
    }
    if context.is_empty() { chunk.text.clone() } else { format!("{}\n{}", context.join(" > "), chunk.text) }
}

/// The indexable text (title and headings, then the text) of each chunk.
///
/// # Errors
/// [`Error::DataCorruption`] for a missing chunk; LMDB errors.
pub(crate) fn chunk_texts(store: &Store, ids: &[ChunkId]) -> Result<Vec<String>> {
    let rtxn = store.read_txn()?;
    let mut texts = Vec::with_capacity(ids.len());
    for id in ids {
        let chunk =
            store.dbs().chunks.get(&rtxn, id)?.ok_or_else(|| Error::DataCorruption(format!("chunk {id} missing")))?;
        let draft = almirah_extract::ChunkDraft {
            ordinal: chunk.ordinal,
            heading_path: chunk.heading_path,
            anchor: String::new(),
            text: chunk.text,
            byte_span: chunk.byte_span,
            pages: chunk.pages,
        };
        let title = store.dbs().documents.get(&rtxn, &chunk.doc_id)?.map(|d| d.title).unwrap_or_default();
        texts.push(indexable_text(&title, &draft));
    }
    Ok(texts)
}

/// The title used for chunk context: the extracted title, else the
/// file's own declared title, else the file stem.
pub fn context_title(doc: &almirah_extract::Extracted, path: &std::path::Path) -> String {
    doc.best_title().unwrap_or_else(|| path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default())
}

/// Index `roots`: new and changed files are processed, deleted ones removed.
///
/// # Errors
/// [`Error::BadPath`] for a missing folder or a bad glob in its settings,
/// store and embedder errors, and [`Error::Cancelled`]. Per-file problems
/// are in the report, never errors.
pub(crate) fn index(
    store: &Store,
    embedder: &dyn Embedder,
    params: &IndexParams,
    roots: &[PathBuf],
    progress: &dyn Progress,
    cancel: &AtomicBool,
) -> Result<IngestReport> {
    let started = Instant::now();
    let filters = filter::Filters::new(&folder_settings(params, roots))?;
    let mut scanned = Vec::new();
    for root in roots {
        scanned.extend(scan::scan_folder(root, &filters)?);
    }
    let files_seen = scanned.len();
    let plan = {
        let rtxn = store.read_txn()?;
        scan::plan(store.dbs(), &rtxn, roots, scanned)?
    };
    let job = Job { store, embedder, params, roots, progress, cancel };
    execute(&job, &plan, files_seen, started)
}

/// Bring the paths in `hints` up to date (the watcher's entry point): each
/// is re-stat'ed and, when it may have changed, hashed; files are indexed,
/// moved or deleted through the same pipeline and writer as [`index`].
/// `roots` are the folders the paths belong to (their settings apply).
///
/// # Errors
/// As [`index`]. Nothing is written when no hint needs work.
pub(crate) fn index_paths(
    store: &Store,
    embedder: &dyn Embedder,
    params: &IndexParams,
    roots: &[PathBuf],
    hints: &[Hint],
    progress: &dyn Progress,
    cancel: &AtomicBool,
) -> Result<IngestReport> {
    let started = Instant::now();
    let filters = filter::Filters::new(&folder_settings(params, roots))?;
    let (plan, files_seen) = {
        let rtxn = store.read_txn()?;
        targeted::plan_paths(store.dbs(), &rtxn, &filters, hints)?
    };
    if plan.candidates.is_empty() && plan.deleted.is_empty() {
        let elapsed_ms = started.elapsed().as_millis() as u64;
        return Ok(IngestReport { files_seen, unchanged: plan.unchanged, elapsed_ms, ..IngestReport::default() });
    }
    let job = Job { store, embedder, params, roots, progress, cancel };
    execute(&job, &plan, files_seen, started)
}

/// What one indexing run works with.
struct Job<'a> {
    store: &'a Store,
    embedder: &'a dyn Embedder,
    params: &'a IndexParams,
    roots: &'a [PathBuf],
    progress: &'a dyn Progress,
    cancel: &'a AtomicBool,
}

fn execute(job: &Job<'_>, plan: &scan::Plan, files_seen: usize, started: Instant) -> Result<IngestReport> {
    job.progress.on_event(ProgressEvent::Planned { total: plan.candidates.len(), deleted: plan.deleted.len() });
    let mut report = IngestReport { files_seen, unchanged: plan.unchanged, ..IngestReport::default() };
    let counters = Counters::default();
    let Job { store, embedder, params, roots, progress, cancel } = *job;
    run_pipeline(store, embedder, params, roots, plan, &counters, progress, cancel, &mut report)?;
    report.searchable_ms = started.elapsed().as_millis() as u64;
    if params.wait_for_vectors {
        let filled = backfill::backfill(store, embedder, progress, cancel)?;
        counters.embed_calls.fetch_add(filled.embed_calls, Ordering::Relaxed);
        counters.embedded_texts.fetch_add(filled.embedded_texts, Ordering::Relaxed);
        counters.cache_hits.fetch_add(filled.cache_hits, Ordering::Relaxed);
        report.vectors_added = filled.chunks;
    }
    report.vectors_pending = backfill::pending(store)?.len();
    report.extract_calls = counters.extract_calls.load(Ordering::Relaxed);
    report.embed_calls = counters.embed_calls.load(Ordering::Relaxed);
    report.embedded_texts = counters.embedded_texts.load(Ordering::Relaxed);
    report.cache_hits = counters.cache_hits.load(Ordering::Relaxed);
    report.ocr_files = counters.ocr_files.load(Ordering::Relaxed);
    report.ocr_pages_recognised = counters.ocr_pages_recognised.load(Ordering::Relaxed);
    report.ocr_pages_cached = counters.ocr_pages_cached.load(Ordering::Relaxed);
    report.elapsed_ms = started.elapsed().as_millis() as u64;
    Ok(report)
}

/// The configured folder settings, plus defaults for roots not configured.
pub(crate) fn folder_settings(params: &IndexParams, roots: &[PathBuf]) -> Vec<crate::freshness::FolderSettings> {
    let mut folders: Vec<_> = params
        .folders
        .iter()
        .map(|f| crate::freshness::FolderSettings {
            path: f.path.canonicalize().unwrap_or_else(|_| f.path.clone()),
            ..f.clone()
        })
        .collect();
    for root in roots {
        if !folders.iter().any(|f| root.starts_with(&f.path)) {
            folders.push(crate::freshness::FolderSettings { path: root.clone(), ..Default::default() });
        }
    }
    folders
}

#[allow(clippy::too_many_arguments)]
fn run_pipeline(
    store: &Store,
    embedder: &dyn Embedder,
    params: &IndexParams,
    roots: &[PathBuf],
    plan: &scan::Plan,
    counters: &Counters,
    progress: &dyn Progress,
    cancel: &AtomicBool,
    report: &mut IngestReport,
) -> Result<()> {
    let moves = plan.deleted_by_hash();
    let ctx = write_context(store, embedder, params, roots)?;
    let total = plan.candidates.len();
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::sync_channel::<Result<Prepared>>(8);
        let producer = scope.spawn(move || {
            let job = Producer { store, embedder, params, counters, moves: &moves, cancel, tx };
            job.run(&plan.candidates, progress);
        });
        let written = write_loop(store, &ctx, params, rx, plan, total, progress, report);
        let _ = producer.join();
        written
    })
}

/// The thread that prepares files for the writer: text layers first, then
/// the scans that need OCR, so a long OCR never holds up the other files.
struct Producer<'a> {
    store: &'a Store,
    embedder: &'a dyn Embedder,
    params: &'a IndexParams,
    counters: &'a Counters,
    moves: &'a std::collections::HashMap<String, String>,
    cancel: &'a AtomicBool,
    tx: mpsc::SyncSender<Result<Prepared>>,
}

impl Producer<'_> {
    fn run(&self, candidates: &[scan::ScannedFile], progress: &dyn Progress) {
        let mut scans = Vec::new();
        for file in candidates {
            match self.one(file, prepare::Pass::TextLayer) {
                Some(Ok(prepare::Step::NeedsOcr(was))) => scans.push((file, was)),
                Some(item) => {
                    if self.send(item) {
                        return;
                    }
                }
                None => return,
            }
        }
        self.read_scans(&scans, progress);
    }

    /// The OCR pass: scans in parallel, up to [`OcrOptions::parallel_jobs`]
    /// files at once, each with its share of the jobs for its pages (so a
    /// one-page scan does not leave cores idle, and files times pages never
    /// exceed the jobs).
    fn read_scans(&self, scans: &[(&scan::ScannedFile, almirah_extract::ExtractError)], progress: &dyn Progress) {
        let next = std::sync::atomic::AtomicUsize::new(0);
        let stop = AtomicBool::new(false);
        let jobs = self.params.ocr.parallel_jobs();
        let workers = jobs.min(scans.len());
        let ocr = OcrOptions { jobs: (jobs / workers.max(1)).max(1), ..self.params.ocr.clone() };
        let ocr = &ocr;
        std::thread::scope(|scope| {
            for _ in 0..workers {
                scope.spawn(|| {
                    while let Some((file, was)) = scans.get(next.fetch_add(1, Ordering::Relaxed)) {
                        if stop.load(Ordering::Relaxed) {
                            return;
                        }
                        let pass = prepare::Pass::Ocr { ocr, progress, was };
                        let sent = self.one(file, pass).is_some_and(|item| !self.send(item));
                        if !sent {
                            return stop.store(true, Ordering::Relaxed);
                        }
                    }
                });
            }
        });
    }

    /// Prepare one file; `None` when cancelled (the writer has been told).
    fn one(&self, file: &scan::ScannedFile, pass: prepare::Pass<'_>) -> Option<Result<prepare::Step>> {
        if self.cancel.load(Ordering::Relaxed) {
            let _ = self.tx.send(Err(Error::Cancelled));
            return None;
        }
        Some(prepare::prepare(self.store, self.embedder, self.params, self.counters, file.clone(), self.moves, pass))
    }

    /// Pass a prepared file on; `true` when the writer has gone. A scan
    /// handed back in the OCR pass (never happens) is dropped.
    fn send(&self, item: Result<prepare::Step>) -> bool {
        match item {
            Ok(prepare::Step::Ready(p)) => self.tx.send(Ok(p)).is_err(),
            Ok(prepare::Step::NeedsOcr(_)) => false,
            Err(e) => self.tx.send(Err(e)).is_err(),
        }
    }
}

fn write_context(
    store: &Store,
    embedder: &dyn Embedder,
    params: &IndexParams,
    roots: &[PathBuf],
) -> Result<write::WriteContext> {
    let id = embedder.resolve_id()?;
    let vector_index = crate::embedder_choice::ensure_embedder(store, &id)?;
    Ok(write::WriteContext { dimensions: id.dimensions, vector_index, folders: folder_settings(params, roots) })
}

#[allow(clippy::too_many_arguments)]
fn write_loop(
    store: &Store,
    ctx: &write::WriteContext,
    params: &IndexParams,
    rx: mpsc::Receiver<Result<Prepared>>,
    plan: &scan::Plan,
    total: usize,
    progress: &dyn Progress,
    report: &mut IngestReport,
) -> Result<()> {
    let mut batch: Vec<Prepared> = Vec::new();
    let mut batch_chunks = 0usize;
    let mut batch_started = Instant::now();
    for (i, item) in rx.into_iter().enumerate() {
        let item = item?;
        let done = i + 1;
        let outcome = outcome_of(&item, store)?;
        report.bytes_processed += item_size(&item);
        progress.on_event(ProgressEvent::FileDone { done, total, path: outcome.path.clone() });
        report.outcomes.push(outcome);
        batch_chunks += item.chunk_count();
        batch.push(item);
        let elapsed = batch_started.elapsed() >= Duration::from_millis(params.batch_max_ms);
        if batch_chunks >= params.batch_max_chunks || elapsed {
            commit(store, ctx, std::mem::take(&mut batch), Vec::new(), progress, report)?;
            batch_chunks = 0;
            batch_started = Instant::now();
        }
    }
    let deletions: Vec<(String, FileRecord)> = plan.deleted.iter().map(|(p, r)| (p.clone(), r.clone())).collect();
    for (path, _) in &deletions {
        report.outcomes.push(FileOutcome {
            path: path.clone(),
            action: "deleted".into(),
            status: None,
            reason: None,
            chunks: 0,
            kept_previous: false,
            ocr: None,
        });
    }
    if !batch.is_empty() || !deletions.is_empty() {
        commit(store, ctx, batch, deletions, progress, report)?;
    }
    Ok(())
}

fn commit(
    store: &Store,
    ctx: &write::WriteContext,
    batch: Vec<Prepared>,
    deletions: Vec<(String, FileRecord)>,
    progress: &dyn Progress,
    report: &mut IngestReport,
) -> Result<()> {
    let files = batch.len() + deletions.len();
    let outcome = write::write_batch(store, ctx, batch, deletions)?;
    report.chunks_added += outcome.chunks_added;
    report.chunks_removed += outcome.chunks_removed;
    progress.on_event(ProgressEvent::Committed { files, chunks: outcome.chunks_added });
    Ok(())
}

fn item_size(item: &Prepared) -> u64 {
    match item {
        Prepared::Indexed { file, .. }
        | Prepared::Moved { file, .. }
        | Prepared::Touched { file, .. }
        | Prepared::Failed { file, .. } => file.size,
    }
}

fn outcome_of(item: &Prepared, store: &Store) -> Result<FileOutcome> {
    let (file, action, status, reason) = match item {
        Prepared::Indexed { file, extracted, .. } if extracted.doc.ocr.is_some() => {
            (file, "indexed (ocr)".to_string(), FileStatus::Indexed, None)
        }
        Prepared::Indexed { file, .. } => (file, "indexed".to_string(), FileStatus::Indexed, None),
        Prepared::Moved { file, from, .. } => (file, format!("moved from {from}"), FileStatus::Indexed, None),
        Prepared::Touched { file, .. } => (file, "unchanged-content".to_string(), FileStatus::Indexed, None),
        Prepared::Failed { file, status, reason, .. } => {
            (file, status.as_str().to_string(), *status, Some(reason.clone()))
        }
    };
    let path = file.path.to_string_lossy().into_owned();
    let kept_previous = matches!(item, Prepared::Failed { .. }) && {
        let rtxn = store.read_txn()?;
        store.dbs().files.get(&rtxn, &path)?.and_then(|r| r.doc_id).is_some()
    };
    let status = match item {
        Prepared::Touched { .. } => {
            let rtxn = store.read_txn()?;
            store.dbs().files.get(&rtxn, &path)?.map_or(status, |r| r.status)
        }
        _ => status,
    };
    let ocr = match item {
        Prepared::Indexed { extracted, .. } => extracted.doc.ocr.as_ref().map(OcrSummary::of),
        _ => None,
    };
    Ok(FileOutcome { path, action, status: Some(status), reason, chunks: item.chunk_count(), kept_previous, ocr })
}
