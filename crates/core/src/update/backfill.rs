//! Phase 2 of ingest: the embedding backfill. Phase 1 commits a file's
//! text, metadata and BM25 postings with the vectors the embedding cache
//! already had, and queues its other chunks in `vector-queue`; search runs
//! BM25 over every admissible chunk and the vector search over those with
//! vectors, so a file is searchable as soon as phase 1 commits. The
//! backfill embeds the queue in batches, oldest chunk ids first, each
//! distinct text once (within a batch by content, across batches and files
//! through the embedding cache), and commits each batch's vectors, cache
//! entries and queue removals in one transaction, so a kill loses at most
//! one batch of work and the next run resumes.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};

use almirah_embed::{EmbedError, Embedder, InputKind};
use serde::Serialize;

use crate::error::{Error, Result};
use crate::failpoint;
use crate::ids::{ChunkId, ChunkSet};
use crate::progress::{Progress, ProgressEvent};
use crate::store::{Store, cache_key, pending_vectors, put_pending_vectors, vector_from_bytes, vector_to_bytes};

/// Chunks embedded per backfill transaction (about 1-2 s of MiniLM work on
/// two cores).
const BATCH_CHUNKS: usize = 64;

/// What a backfill did.
#[derive(Debug, Clone, Default, Serialize)]
pub struct BackfillReport {
    /// Chunks that got their vector.
    pub chunks: usize,
    /// Calls to the embedder.
    pub embed_calls: usize,
    /// Distinct texts sent to the embedder.
    pub embedded_texts: usize,
    /// Chunks whose vector came from the embedding cache or from another
    /// chunk of the same batch with the same text.
    pub cache_hits: usize,
    /// Chunks still waiting for a vector (0 unless cancelled).
    pub pending: u64,
}

/// Chunks waiting for a vector.
///
/// # Errors
/// LMDB errors.
pub fn pending(store: &Store) -> Result<ChunkSet> {
    let rtxn = store.read_txn()?;
    crate::store::pending_vectors(store.dbs(), &rtxn)
}

/// Embed every queued chunk. Progress goes out as
/// [`ProgressEvent::Embedding`]; `cancel` stops between batches.
///
/// # Errors
/// [`Error::Cancelled`], embedder errors (the batch in hand is not
/// committed; the queue keeps it) and storage errors.
pub(crate) fn backfill(
    store: &Store,
    embedder: &dyn Embedder,
    progress: &dyn Progress,
    cancel: &AtomicBool,
) -> Result<BackfillReport> {
    backfill_up_to(store, embedder, progress, cancel, usize::MAX)
}

/// Embed at most `limit` queued chunks (whole batches of at most
/// `limit`), oldest first: a watcher's slice of background work between
/// its first-phase batches, so new files never wait for the backfill.
///
/// # Errors
/// As [`backfill`].
pub(crate) fn backfill_up_to(
    store: &Store,
    embedder: &dyn Embedder,
    progress: &dyn Progress,
    cancel: &AtomicBool,
    limit: usize,
) -> Result<BackfillReport> {
    let mut report = BackfillReport::default();
    let total = (pending(store)?.len() as usize).min(limit);
    if total == 0 {
        return Ok(report);
    }
    let id = embedder.resolve_id()?;
    let index = crate::embedder_choice::ensure_embedder(store, &id)?;
    let job = Job { store, embedder, fingerprint: id.fingerprint(), index, dims: id.dimensions };
    progress.on_event(ProgressEvent::Embedding { done: 0, total });
    let mut taken = 0;
    while taken < limit {
        if cancel.load(Ordering::Relaxed) {
            return Err(Error::Cancelled);
        }
        let group: Vec<ChunkId> = pending(store)?.iter().take(BATCH_CHUNKS.min(limit - taken)).collect();
        if group.is_empty() {
            break;
        }
        taken += group.len();
        job.one_batch(&group, &mut report)?;
        progress.on_event(ProgressEvent::Embedding { done: report.chunks.min(total), total });
    }
    report.pending = pending(store)?.len();
    Ok(report)
}

struct Job<'a> {
    store: &'a Store,
    embedder: &'a dyn Embedder,
    fingerprint: String,
    index: u16,
    dims: usize,
}

impl Job<'_> {
    /// Embed `group` (distinct texts once) and commit its vectors.
    fn one_batch(&self, group: &[ChunkId], report: &mut BackfillReport) -> Result<()> {
        let texts = super::chunk_texts(self.store, group)?;
        let keys: Vec<Vec<u8>> = texts.iter().map(|t| cache_key(&self.fingerprint, t)).collect();
        let mut vectors: HashMap<&[u8], Vec<f32>> = HashMap::new();
        {
            let rtxn = self.store.read_txn()?;
            for key in &keys {
                if let Some(v) = self.store.dbs().embed_cache.get(&rtxn, key)?.and_then(vector_from_bytes) {
                    vectors.insert(key, v);
                }
            }
        }
        let mut missing: Vec<(&[u8], &str)> = Vec::new();
        for (key, text) in keys.iter().zip(&texts) {
            if !vectors.contains_key(key.as_slice()) && !missing.iter().any(|(k, _)| *k == key.as_slice()) {
                missing.push((key, text));
            }
        }
        report.cache_hits += group.len() - missing.len();
        missing.sort_by_key(|(_, t)| t.len());
        let fresh = self.embed(&missing, report)?;
        vectors.extend(fresh.iter().map(|(k, v)| (*k, v.clone())));
        let assigned: Vec<(ChunkId, Vec<f32>)> = group
            .iter()
            .zip(&keys)
            .filter_map(|(id, key)| vectors.get(key.as_slice()).map(|v| (*id, v.clone())))
            .collect();
        let fresh: Vec<(Vec<u8>, Vec<f32>)> = fresh.into_iter().map(|(k, v)| (k.to_vec(), v)).collect();
        report.chunks += self.commit(assigned, fresh)?;
        Ok(())
    }

    /// Embed the missing distinct texts in the embedder's batch size.
    fn embed<'k>(
        &self,
        missing: &[(&'k [u8], &str)],
        report: &mut BackfillReport,
    ) -> Result<Vec<(&'k [u8], Vec<f32>)>> {
        let mut out = Vec::with_capacity(missing.len());
        for part in missing.chunks(self.embedder.max_batch().max(1)) {
            let batch: Vec<&str> = part.iter().map(|(_, t)| *t).collect();
            report.embed_calls += 1;
            report.embedded_texts += batch.len();
            let embedded = self.embedder.embed(&batch, InputKind::Document)?;
            if embedded.len() != batch.len() || embedded.iter().any(|v| v.len() != self.dims) {
                let msg = format!("{} vectors for {} texts of {} dims", embedded.len(), batch.len(), self.dims);
                return Err(EmbedError::Protocol(msg).into());
            }
            out.extend(part.iter().map(|(k, _)| *k).zip(embedded));
        }
        Ok(out)
    }

    /// One transaction on the writer: vectors of the chunks still queued,
    /// cache entries, the queue without them. Chunks removed or replaced
    /// meanwhile left the queue with their document and are skipped.
    /// Returns the chunks that got their vector.
    fn commit(&self, assigned: Vec<(ChunkId, Vec<f32>)>, fresh: Vec<(Vec<u8>, Vec<f32>)>) -> Result<usize> {
        let (index, dims) = (self.index, self.dims);
        self.store.write(move |mut wtxn, dbs| {
            let mut queue = pending_vectors(dbs, &wtxn)?;
            let mut codes = crate::vectors::CodeDelta::default();
            let mut added = 0;
            for (id, vector) in &assigned {
                if queue.remove(*id) {
                    codes.put(*id, vector);
                    added += 1;
                }
            }
            codes.apply(&mut wtxn, dbs.vector_codes, index, crate::vectors::CodeLayout { dims })?;
            for (key, vector) in &fresh {
                dbs.embed_cache.put(&mut wtxn, key, &vector_to_bytes(vector))?;
            }
            put_pending_vectors(dbs, &mut wtxn, &queue)?;
            failpoint::hit("backfill-before-commit");
            wtxn.commit()?;
            Ok(added)
        })
    }
}
