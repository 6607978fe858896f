//! Format v8 → v9: vector codes laid out for scanning (issue 42). v9 adds
//! the `vector-codes` database (created on open): every vector of the
//! library's vector index with its binary code, in blocks of 256 chunk
//! ids ([`crate::vectors`]), which the vector search scans instead of
//! decoding every f32 item. A v8 build must not write a v9 library: it
//! would change items without their codes.
//!
//! The step moves the stored f32 items of the index in use into blocks
//! with their codes and clears arroy's items and trees (the blocks are the
//! one f32 copy from v9 on). It reads only
//! the library: nothing is embedded again, and it runs in the upgrade's one
//! write transaction, so a crash leaves v8.

use almirah_embed::EmbedderId;
use arroy::distances::Cosine;
use heed::RwTxn;

use crate::error::Result;
use crate::store::{Databases, all_chunks, get_meta, meta_keys};
use crate::vectors::{CodeDelta, CodeLayout};

/// Code every stored vector of the index in use.
///
/// # Errors
/// LMDB and arroy errors.
pub(super) fn run(dbs: &Databases, wtxn: &mut RwTxn<'_>) -> Result<()> {
    let Some(embedder) = get_meta::<EmbedderId>(dbs, wtxn, meta_keys::EMBEDDER)? else { return Ok(()) };
    let index: u16 = get_meta(dbs, wtxn, meta_keys::VECTOR_INDEX)?.unwrap_or(0);
    let dims = embedder.dimensions;
    let items = arroy::Writer::<Cosine>::new(dbs.vectors, index, dims);
    let mut delta = CodeDelta::default();
    for id in all_chunks(dbs, wtxn)?.iter() {
        if let Some(v) = items.item_vector(wtxn, id.get())? {
            delta.put(id, &v);
        }
    }
    delta.apply(wtxn, dbs.vector_codes, index, CodeLayout { dims })?;
    // The blocks hold the one f32 copy now: arroy's items and trees go
    // (their pages are reused by later writes).
    items.clear(wtxn)?;
    Ok(())
}
