//! A logical dump of the library for tests: entry counts per database and a
//! blake3 hash over every key and value in key order (the vectors through
//! their blocks, which depend only on the stored vectors). The impact lists
//! are bytes determined by their entries, so two libraries of the same
//! chunks hash alike; `term-freqs` and `chunk-lens`, empty since format
//! v10, are still counted, so one left full shows.

use std::collections::BTreeMap;

use heed::types::Bytes;

use super::{Databases, Store, get_meta, meta_keys};
use crate::error::Result;

/// Counts and hash of the whole library.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Dump {
    /// Entries per database (vectors: items in the active index).
    pub counts: BTreeMap<String, u64>,
    /// blake3 hex over the logical content.
    pub hash: String,
}

/// Dump `store`.
///
/// # Errors
/// LMDB errors and corrupt vector blocks.
pub fn dump(store: &Store) -> Result<Dump> {
    let dbs: &Databases = store.dbs();
    let rtxn = store.read_txn()?;
    let mut hasher = blake3::Hasher::new();
    let mut counts = BTreeMap::new();
    let raw = [
        ("meta", dbs.meta.remap_types::<Bytes, Bytes>()),
        ("files", dbs.files.remap_types()),
        ("documents", dbs.documents.remap_types()),
        ("chunks", dbs.chunks.remap_types()),
        ("chunk-keys", dbs.chunk_keys.remap_types()),
        ("postings", dbs.postings.remap_types()),
        ("term-freqs", dbs.term_freqs.remap_types()),
        ("term-impacts", dbs.term_impacts.remap_types()),
        ("chunk-terms", dbs.chunk_terms.remap_types()),
        ("facets", dbs.facets.remap_types()),
        ("embed-cache", dbs.embed_cache.remap_types()),
        ("ocr-cache", dbs.ocr_cache.remap_types()),
        ("vector-queue", dbs.vector_queue.remap_types()),
        ("tables", dbs.tables.remap_types()),
        ("doc-meta", dbs.doc_meta.remap_types()),
        ("overrides", dbs.overrides.remap_types()),
        ("chunk-lens", dbs.chunk_lens.remap_types()),
        ("gate-docs", dbs.gate_docs.remap_types()),
        ("gate-failed", dbs.gate_failed.remap_types()),
        ("gate-state", dbs.gate_state.remap_types()),
    ];
    for (name, db) in raw {
        let mut n = 0u64;
        hasher.update(name.as_bytes());
        for entry in db.iter(&rtxn)? {
            let (k, v) = entry?;
            hasher.update(&(k.len() as u64).to_le_bytes());
            hasher.update(k);
            hasher.update(&(v.len() as u64).to_le_bytes());
            hasher.update(v);
            n += 1;
        }
        counts.insert(name.to_string(), n);
    }
    let index: u16 = get_meta(dbs, &rtxn, meta_keys::VECTOR_INDEX)?.unwrap_or(0);
    let dims = get_meta::<almirah_embed::EmbedderId>(dbs, &rtxn, meta_keys::EMBEDDER)?.map_or(1, |e| e.dimensions);
    // The blocks are a function of the stored vectors (slots in id order,
    // codes derived from the f32), so their bytes hash the vectors.
    hasher.update(b"vectors");
    for entry in dbs.vector_codes.iter(&rtxn)? {
        let (k, v) = entry?;
        hasher.update(k);
        hasher.update(&(v.len() as u64).to_le_bytes());
        hasher.update(v);
    }
    let n = crate::vectors::count(&rtxn, dbs.vector_codes, index, crate::vectors::CodeLayout { dims })?;
    counts.insert("vectors".to_string(), n);
    Ok(Dump { counts, hash: hasher.finalize().to_hex().to_string() })
}
