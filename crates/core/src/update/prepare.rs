//! Everything that happens to a file before the write transaction: hashing,
//! move detection, extraction, chunking and embedding through the cache.

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicUsize, Ordering};

use almirah_embed::Embedder;
use almirah_extract::ocr::{OcrHost, OcrPage, PageKey};
use almirah_extract::{ChunkDraft, ExtractError};

use super::extractor::{ExtractedFile, Reading, extract_file};
use super::scan::ScannedFile;
use crate::error::Result;
use crate::progress::{Progress, ProgressEvent};
use crate::source_file::{parse_sidecar, sidecar_path};
use crate::store::{FileStatus, Store, cache_key, vector_from_bytes};
use crate::update::IndexParams;

/// A file ready to be written. The variants differ in size by design: the
/// indexed one carries the document, and they travel one at a time.
#[derive(Debug)]
#[allow(clippy::large_enum_variant)]
pub enum Prepared {
    /// New or changed content, extracted and embedded.
    Indexed {
        /// The file.
        file: ScannedFile,
        /// blake3 hex of the content.
        hash: String,
        /// Extraction output.
        extracted: ExtractedFile,
        /// One entry per chunk: its vector when the embedding cache has it;
        /// `None` queues the chunk for the embedding backfill (phase 2).
        vectors: Vec<Option<Vec<f32>>>,
        /// Values from the `<file>.meta.toml` sidecar.
        sidecar: BTreeMap<String, serde_json::Value>,
    },
    /// Same content as a recorded file that disappeared: a move or rename.
    Moved {
        /// The file at its new place.
        file: ScannedFile,
        /// Content hash.
        hash: String,
        /// Old path.
        from: String,
    },
    /// Same content as recorded (only the mtime changed).
    Touched {
        /// The file.
        file: ScannedFile,
        /// Content hash.
        hash: String,
    },
    /// The content could not be indexed.
    Failed {
        /// The file.
        file: ScannedFile,
        /// Content hash ("" when unreadable).
        hash: String,
        /// Status.
        status: FileStatus,
        /// Reason.
        reason: String,
    },
}

impl Prepared {
    /// Number of chunks this item will write.
    pub fn chunk_count(&self) -> usize {
        match self {
            Prepared::Indexed { extracted, .. } => extracted.chunks.len(),
            _ => 0,
        }
    }
}

/// Counters proving what work was done (asserted by the incremental tests).
#[derive(Debug, Default)]
pub struct Counters {
    /// Files read by OCR (cached pages included).
    pub ocr_files: AtomicUsize,
    /// Pages recognised by OCR now.
    pub ocr_pages_recognised: AtomicUsize,
    /// Pages served from the OCR cache.
    pub ocr_pages_cached: AtomicUsize,
    /// Calls to the extractor.
    pub extract_calls: AtomicUsize,
    /// Calls to the embedder.
    pub embed_calls: AtomicUsize,
    /// Texts sent to the embedder.
    pub embedded_texts: AtomicUsize,
    /// Chunk vectors served from the embedding cache.
    pub cache_hits: AtomicUsize,
}

/// Which pass of a run a file is prepared in: text layers first, so that
/// OCR of one scan never holds up the other files, then OCR of the scans.
#[derive(Clone, Copy)]
pub enum Pass<'a> {
    /// Text layers only; a scan OCR could read is handed back for later.
    TextLayer,
    /// OCR of a scan whose text layer gave `was`; page progress goes to
    /// the progress sink.
    Ocr {
        /// OCR settings for this file (its share of the parallel jobs).
        ocr: &'a almirah_extract::ocr::OcrOptions,
        /// Where page progress goes.
        progress: &'a dyn Progress,
        /// Why the text layer was not used.
        was: &'a ExtractError,
    },
}

/// What preparing a file gave.
#[derive(Debug)]
#[allow(clippy::large_enum_variant)]
pub enum Step {
    /// Ready for the writer.
    Ready(Prepared),
    /// In [`Pass::TextLayer`]: a PDF whose text layer (the error) OCR may
    /// improve; prepare it again in [`Pass::Ocr`].
    NeedsOcr(ExtractError),
}

/// Prepare one candidate file.
///
/// # Errors
/// Only store and embedder errors; per-file problems become [`Prepared::Failed`].
pub fn prepare(
    store: &Store,
    embedder: &dyn Embedder,
    params: &IndexParams,
    counters: &Counters,
    file: ScannedFile,
    moves: &HashMap<String, String>,
    pass: Pass<'_>,
) -> Result<Step> {
    let bytes = match std::fs::read(&file.path) {
        Ok(b) => b,
        Err(e) => {
            return Ok(Step::Ready(failed(file, String::new(), ExtractError::Failed(format!("cannot read: {e}")))));
        }
    };
    let sidecar_bytes = std::fs::read(sidecar_path(&file.path)).ok();
    let mut hasher = blake3::Hasher::new();
    hasher.update(&bytes);
    if let Some(s) = &sidecar_bytes {
        hasher.update(b"\0sidecar\0");
        hasher.update(s);
    }
    let hash = hasher.finalize().to_hex().to_string();
    if let Some(p) = same_content(store, &file, &hash, moves)? {
        return Ok(Step::Ready(p));
    }
    counters.extract_calls.fetch_add(1, Ordering::Relaxed);
    let extracted = match extract(store, params, counters, &file, &bytes, pass) {
        Ok(x) => x,
        Err(e) if matches!(pass, Pass::TextLayer) && almirah_extract::ocr_may_read(&file.path, &e, &params.ocr) => {
            return Ok(Step::NeedsOcr(e));
        }
        Err(e @ ExtractError::OcrUnavailable { .. }) => return Ok(Step::Ready(retry_later(file, e))),
        Err(e) => return Ok(Step::Ready(failed(file, hash, e))),
    };
    let sidecar = match sidecar_bytes.as_deref().map(parse_sidecar).transpose() {
        Ok(s) => s.unwrap_or_default(),
        Err(reason) => return Ok(Step::Ready(failed(file, hash, ExtractError::Failed(reason)))),
    };
    let fingerprint = embedder.id().fingerprint();
    let title = super::context_title(&extracted.doc, &file.path);
    let vectors = cached_vectors(store, &fingerprint, &title, &extracted.chunks, counters)?;
    Ok(Step::Ready(Prepared::Indexed { file, hash, extracted, vectors, sidecar }))
}

/// Extract in `pass`, counting OCR work.
fn extract(
    store: &Store,
    params: &IndexParams,
    counters: &Counters,
    file: &ScannedFile,
    bytes: &[u8],
    pass: Pass<'_>,
) -> std::result::Result<ExtractedFile, ExtractError> {
    let (mode, opts) = (&params.extractor, &params.chunking);
    let Pass::Ocr { ocr, progress, was } = pass else {
        return extract_file(mode, &file.path, bytes, opts, Reading::TextLayer, &almirah_extract::ocr::NoCache);
    };
    let host = StoreOcrHost { store, progress, path: file.path.to_string_lossy().into_owned() };
    let reading = Reading::Scan { ocr, was };
    let extracted = extract_file(mode, &file.path, bytes, opts, reading, &host)?;
    if let Some(report) = &extracted.doc.ocr {
        let recognised = report.recognised();
        counters.ocr_files.fetch_add(1, Ordering::Relaxed);
        counters.ocr_pages_recognised.fetch_add(recognised, Ordering::Relaxed);
        counters.ocr_pages_cached.fetch_add(report.cached(), Ordering::Relaxed);
    }
    Ok(extracted)
}

/// OCR pages from the library's OCR cache; page progress as events.
struct StoreOcrHost<'a> {
    store: &'a Store,
    progress: &'a dyn Progress,
    path: String,
}

impl OcrHost for StoreOcrHost<'_> {
    fn cached(&self, keys: &[PageKey]) -> HashMap<PageKey, OcrPage> {
        let Ok(rtxn) = self.store.read_txn() else { return HashMap::new() };
        let cache = self.store.dbs().ocr_cache;
        keys.iter().filter_map(|k| cache.get(&rtxn, k.as_str()).ok().flatten().map(|page| (k.clone(), page))).collect()
    }

    fn page_done(&self, done: u32, total: u32) {
        self.progress.on_event(ProgressEvent::OcrPage { path: self.path.clone(), done, total });
    }
}

fn same_content(
    store: &Store,
    file: &ScannedFile,
    hash: &str,
    moves: &HashMap<String, String>,
) -> Result<Option<Prepared>> {
    let rtxn = store.read_txn()?;
    let key = file.path.to_string_lossy();
    if let Some(record) = store.dbs().files.get(&rtxn, &key)?
        && record.hash == hash
    {
        return Ok(Some(Prepared::Touched { file: file.clone(), hash: hash.to_string() }));
    }
    Ok(moves.get(hash).map(|from| Prepared::Moved { file: file.clone(), hash: hash.to_string(), from: from.clone() }))
}

/// A scan the OCR programs could not read because they are missing: its
/// status and reason are recorded without its hash or mtime, so the next
/// run reads it again (after the packages are installed, it is indexed).
fn retry_later(mut file: ScannedFile, error: ExtractError) -> Prepared {
    file.mtime_ns = 0;
    failed(file, String::new(), error)
}

fn failed(file: ScannedFile, hash: String, error: ExtractError) -> Prepared {
    let status = match error.status_error() {
        ExtractError::NeedsPassword => FileStatus::NeedsPassword,
        ExtractError::NeedsConversion(_) => FileStatus::NeedsConversion,
        ExtractError::NoTextLayer => FileStatus::NoTextLayer,
        ExtractError::LowQualityText(_) => FileStatus::LowQualityText,
        ExtractError::Unsupported => FileStatus::Unsupported,
        ExtractError::Binary => FileStatus::Binary,
        ExtractError::Empty => FileStatus::Empty,
        ExtractError::Failed(_) | ExtractError::Unread { .. } | ExtractError::OcrUnavailable { .. } => {
            FileStatus::Failed
        }
    };
    Prepared::Failed { file, hash, status, reason: error.to_string() }
}

/// Phase 1 never embeds: each chunk's vector comes from the embedding
/// cache, or the chunk is queued for the backfill.
fn cached_vectors(
    store: &Store,
    fingerprint: &str,
    title: &str,
    chunks: &[ChunkDraft],
    counters: &Counters,
) -> Result<Vec<Option<Vec<f32>>>> {
    let rtxn = store.read_txn()?;
    let mut vectors = Vec::with_capacity(chunks.len());
    for chunk in chunks {
        let text = super::indexable_text(title, chunk);
        let cached = store.dbs().embed_cache.get(&rtxn, &cache_key(fingerprint, &text))?;
        vectors.push(cached.and_then(vector_from_bytes));
    }
    counters.cache_hits.fetch_add(vectors.iter().filter(|v| v.is_some()).count(), Ordering::Relaxed);
    Ok(vectors)
}
