//! Format v1 → v2. In v1 the `chunk-keys` table held document keys too
//! (`circular-14@2026-27` → document id) beside chunk keys
//! (`circular-14@2026-27::p1#1` → chunk id), so a lookup by key could not
//! tell which kind of id it got back. v2 moves every document key to its
//! own `doc-keys` table. The ids themselves are unchanged (`u32`,
//! big-endian), so no other table is touched.

use heed::RwTxn;
use heed::types::{Bytes, Str, U32};

use crate::error::Result;
use crate::store::Databases;

/// Move the document keys out of `chunk-keys` into `doc-keys`.
///
/// # Errors
/// LMDB errors.
pub(super) fn run(dbs: &Databases, wtxn: &mut RwTxn<'_>) -> Result<()> {
    let raw = dbs.chunk_keys.remap_types::<Str, U32<heed::byteorder::BigEndian>>();
    let mut doc_keys = Vec::new();
    for entry in dbs.documents.iter(wtxn)? {
        let (id, doc) = entry?;
        doc_keys.push((doc.key, id));
    }
    for (key, id) in &doc_keys {
        if raw.get(wtxn, key)? == Some(id.get()) {
            raw.delete(wtxn, key)?;
        }
        dbs.doc_keys.put(wtxn, key, id)?;
    }
    // Any key left without `::` belonged to a document that no longer exists.
    let stale: Vec<String> = dbs
        .chunk_keys
        .remap_data_type::<Bytes>()
        .iter(wtxn)?
        .filter_map(|e| e.ok().map(|(k, _)| k.to_string()))
        .filter(|k| !k.contains("::"))
        .collect();
    for key in stale {
        raw.delete(wtxn, &key)?;
    }
    Ok(())
}
