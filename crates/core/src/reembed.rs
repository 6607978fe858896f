//! `almirah reindex --re-embed`: rebuild every vector with the configured
//! embedder into a fresh vector index (its own blocks, [`crate::vectors`]), in batches, and switch the library over
//! in one final transaction. Until then searches keep the old identity (and
//! refuse a mismatched embedder); a kill leaves the old index in use.

use almirah_embed::{Embedder, InputKind};
use serde::Serialize;

use crate::error::{Error, Result};
use crate::ids::ChunkId;
use crate::progress::{Progress, ProgressEvent};
use crate::store::{Store, all_chunks, cache_key, get_meta, meta_keys, vector_from_bytes, vector_to_bytes};
use crate::update::IndexParams;

/// What a re-embed did.
#[derive(Debug, Clone, Serialize)]
pub struct ReembedReport {
    /// Chunks re-embedded.
    pub chunks: u64,
    /// Vectors taken from the cache.
    pub cache_hits: u64,
    /// The vector index now in use.
    pub vector_index: u16,
}

/// Re-embed everything. Progress: an `Embedding` event before the first
/// batch and after each (chunks re-embedded of all), and a `Committed` per
/// batch; no file events.
///
/// # Errors
/// Embedder and storage errors.
pub(crate) fn re_embed(
    store: &Store,
    embedder: &dyn Embedder,
    params: &IndexParams,
    progress: &dyn Progress,
) -> Result<ReembedReport> {
    let dbs = *store.dbs();
    let (ids, old_index) = {
        let rtxn = store.read_txn()?;
        let old: u16 = get_meta(&dbs, &rtxn, meta_keys::VECTOR_INDEX)?.unwrap_or(0);
        (all_chunks(&dbs, &rtxn)?.iter().collect::<Vec<ChunkId>>(), old)
    };
    let new_index = old_index.wrapping_add(1);
    let dims = embedder.id().dimensions;
    let fingerprint = embedder.id().fingerprint();
    store.write(move |mut wtxn, dbs| {
        crate::vectors::clear(&mut wtxn, dbs.vector_codes, new_index)?;
        Ok(wtxn.commit()?)
    })?;
    let total = ids.len();
    progress.on_event(ProgressEvent::Embedding { done: 0, total });
    let mut report = ReembedReport { chunks: 0, cache_hits: 0, vector_index: new_index };
    for group in ids.chunks(params.batch_max_chunks.max(1)) {
        let texts = crate::update::chunk_texts(store, group)?;
        let mut items = Vec::with_capacity(group.len());
        let mut misses: Vec<(ChunkId, Vec<u8>, &str)> = Vec::new();
        {
            let rtxn = store.read_txn()?;
            for (id, text) in group.iter().zip(&texts) {
                let key = cache_key(&fingerprint, text);
                match dbs.embed_cache.get(&rtxn, &key)?.and_then(vector_from_bytes) {
                    Some(v) => {
                        report.cache_hits += 1;
                        items.push((*id, v));
                    }
                    None => misses.push((*id, key, text)),
                }
            }
        }
        let miss_texts: Vec<&str> = misses.iter().map(|m| m.2).collect();
        let vectors = embed_all(embedder, &miss_texts)?;
        let mut fresh = Vec::with_capacity(misses.len());
        for ((id, key, _), v) in misses.into_iter().zip(vectors) {
            fresh.push((key, v.clone()));
            items.push((id, v));
        }
        store.write(move |mut wtxn, dbs| {
            for (key, v) in &fresh {
                dbs.embed_cache.put(&mut wtxn, key, &vector_to_bytes(v))?;
            }
            let mut codes = crate::vectors::CodeDelta::default();
            for (id, v) in &items {
                codes.put(*id, v);
            }
            codes.apply(&mut wtxn, dbs.vector_codes, new_index, crate::vectors::CodeLayout { dims })?;
            Ok(wtxn.commit()?)
        })?;
        report.chunks += group.len() as u64;
        progress.on_event(ProgressEvent::Committed { files: 0, chunks: group.len() });
        progress.on_event(ProgressEvent::Embedding { done: report.chunks as usize, total });
    }
    switch_over(store, embedder.id().clone(), (old_index, new_index), ids)?;
    Ok(report)
}

/// Vectors of `texts` in order, in calls of at most the embedder's batch size.
fn embed_all(embedder: &dyn Embedder, texts: &[&str]) -> Result<Vec<Vec<f32>>> {
    let mut out = Vec::with_capacity(texts.len());
    for batch in texts.chunks(embedder.max_batch().max(1)) {
        let vectors = embedder.embed(batch, InputKind::Document)?;
        if vectors.len() != batch.len() {
            return Err(Error::Embed(almirah_embed::EmbedError::Protocol(format!(
                "{} vectors for {} texts",
                vectors.len(),
                batch.len()
            ))));
        }
        out.extend(vectors);
    }
    Ok(out)
}

/// One transaction: retire the old index's blocks,
/// record the new identity, and take the re-embedded chunks out of the
/// embedding queue (chunks written since stay in it).
fn switch_over(
    store: &Store,
    id: almirah_embed::EmbedderId,
    (old_index, new_index): (u16, u16),
    embedded: Vec<ChunkId>,
) -> Result<()> {
    store.write(move |mut wtxn, dbs| {
        let mut queue = crate::store::pending_vectors(dbs, &wtxn)?;
        for id in &embedded {
            queue.remove(*id);
        }
        crate::store::put_pending_vectors(dbs, &mut wtxn, &queue)?;
        crate::vectors::clear(&mut wtxn, dbs.vector_codes, old_index)?;
        let value = serde_json::to_value(&id).map_err(|e| Error::DataCorruption(e.to_string()))?;
        dbs.meta.put(&mut wtxn, meta_keys::EMBEDDER, &value)?;
        dbs.meta.put(&mut wtxn, meta_keys::VECTOR_INDEX, &new_index.into())?;
        Ok(wtxn.commit()?)
    })
}
