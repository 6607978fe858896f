//! BM25 impact lists (issue 42, format v10): for each term, one LMDB value
//! holding every chunk that contains it, in ascending chunk-id order, with
//! the term's frequency in the chunk and the chunk's length ([`list`]
//! documents the bytes). A BM25 query reads one value per query term and
//! walks it, where format v9 looked up a `(term, chunk)` frequency and a
//! chunk length for every hit: thousands of B-tree lookups a query.
//!
//! Storage: database `term-impacts`, key the term (UTF-8), value its list;
//! a term no chunk holds has no key. Written only by the library's writer,
//! in the transaction that writes the chunks, through an [`ImpactDelta`]
//! gathered over the batch and applied once per term at commit (as the
//! roaring postings are). This module knows nothing of the store.

pub mod list;

use std::collections::BTreeMap;

use heed::RwTxn;
use heed::types::{Bytes, Str};

pub use list::{CorruptList, Impact, ImpactIter, ListBuilder, decode, encode, iter};

use crate::error::{Error, Result};
use crate::ids::ChunkId;

/// The `term-impacts` database: term → its impact list.
pub type ImpactDb = heed::Database<'static, Str, Bytes>;

/// The error for a stored list of `term` that does not decode.
pub fn corrupt(term: &str, err: CorruptList) -> Error {
    Error::DataCorruption(format!("the BM25 impact list of term {term:?}: {err}"))
}

/// Entries to add to or remove from terms' lists, gathered over a batch and
/// applied once per term when it commits. For one (term, chunk), the later
/// call wins.
#[derive(Debug, Default)]
pub struct ImpactDelta {
    /// Term → chunk id → `Some((tf, len))` to store, `None` to remove.
    changes: BTreeMap<String, BTreeMap<u32, Option<(u32, u32)>>>,
}

impl ImpactDelta {
    /// Record that `chunk` (`len` tokens long) holds `term` `tf` times.
    pub fn add(&mut self, term: &str, chunk: ChunkId, tf: u32, len: u32) {
        self.edits(term).insert(chunk.get(), Some((tf, len)));
    }

    /// Record that `chunk` leaves `term`'s list.
    pub fn remove(&mut self, term: &str, chunk: ChunkId) {
        self.edits(term).insert(chunk.get(), None);
    }

    /// Whether nothing is pending.
    pub fn is_empty(&self) -> bool {
        self.changes.is_empty()
    }

    fn edits(&mut self, term: &str) -> &mut BTreeMap<u32, Option<(u32, u32)>> {
        self.changes.entry(term.to_string()).or_default()
    }

    /// Write the pending edits into `db`: each touched term's list is read,
    /// merged with its edits and written back (deleted when it empties).
    ///
    /// # Errors
    /// LMDB errors; [`Error::DataCorruption`] for a stored list that does
    /// not decode.
    pub fn apply(self, wtxn: &mut RwTxn<'_>, db: ImpactDb) -> Result<()> {
        let mut merged = ListBuilder::new();
        for (term, edits) in self.changes {
            merged.clear();
            let old = db.get(wtxn, &term)?.unwrap_or_default();
            merge(old, &edits, &mut merged).map_err(|e| corrupt(&term, e))?;
            if merged.is_empty() {
                db.delete(wtxn, &term)?;
            } else {
                db.put(wtxn, &term, merged.as_bytes())?;
            }
        }
        Ok(())
    }
}

/// Append to `out` the list `old` with `edits` applied, in chunk order.
fn merge(old: &[u8], edits: &BTreeMap<u32, Option<(u32, u32)>>, out: &mut ListBuilder) -> Result<(), CorruptList> {
    let mut old = iter(old);
    let mut edits = edits.iter().map(|(&id, &e)| (id, e));
    let mut next_old = old.next().transpose()?;
    let mut next_edit = edits.next();
    loop {
        match (next_old, next_edit) {
            (None, None) => return Ok(()),
            (Some(kept), None) => {
                out.push(kept)?;
                next_old = old.next().transpose()?;
            }
            (Some(kept), Some((id, _))) if kept.chunk.get() < id => {
                out.push(kept)?;
                next_old = old.next().transpose()?;
            }
            (kept, Some((id, edit))) => {
                if let Some((tf, len)) = edit {
                    out.push(Impact { chunk: ChunkId::new(id), tf, len })?;
                }
                // An edit replaces or removes the stored entry of its chunk.
                if kept.is_some_and(|k| k.chunk.get() == id) {
                    next_old = old.next().transpose()?;
                }
                next_edit = edits.next();
            }
        }
    }
}

#[cfg(test)]
mod tests;
