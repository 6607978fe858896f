//! The library's vectors in blocks laid out for scanning (issue 42): every
//! embedding is kept once, as f32, beside its binary code, in blocks of 256
//! consecutive chunk ids, so a search reads a few contiguous LMDB values in
//! place instead of decoding one stored item at a time. A search scans the
//! candidates' binary codes, keeps a shortlist and rescores it with the
//! exact f32 vectors: binary quantisation with rescoring (Shakir, Aarsen
//! and Lee, "Binary and scalar embedding quantization", Hugging Face 2024).
//!
//! Storage: database `vector-codes`, key `[index u16 BE][block u32 BE]`
//! (block = chunk id >> 8), value a block ([`block`] documents the bytes).
//! Written only by the library's writer, in the transaction that writes the
//! chunks, through a [`CodeDelta`]; this module knows nothing of the store,
//! so the benchmark can build blocks in an LMDB environment of its own.

pub mod block;
pub mod codes;
pub mod scan;

use std::collections::BTreeMap;

use heed::types::Bytes;
use heed::{RoTxn, RwTxn};

pub use block::{BLOCK_SLOTS, BlockView};
pub use codes::{CodeLayout, Codes, QueryCodes, dot_f32};
pub use scan::shortlist;

use crate::error::Result;
use crate::ids::ChunkId;
use block::BlockEdit;

/// The `vector-codes` database.
pub type CodeDb = heed::Database<'static, Bytes, Bytes>;

/// The stores of a library's vectors: the blocks (f32 with binary codes),
/// and arroy's items and trees where an older library or the benchmark has
/// them.
#[derive(Debug, Clone, Copy)]
pub struct VectorDbs {
    /// arroy (cosine), item id = chunk id.
    pub items: arroy::Database<'static, arroy::distances::Cosine>,
    /// The vector blocks.
    pub codes: CodeDb,
}

/// Key of block `block` of vector index `index`.
pub fn block_key(index: u16, block: u32) -> [u8; 6] {
    let mut key = [0u8; 6];
    key[..2].copy_from_slice(&index.to_be_bytes());
    key[2..].copy_from_slice(&block.to_be_bytes());
    key
}

/// Codes to write or remove, gathered over a batch and written block by
/// block when it commits (a block is rewritten once per batch, not once per
/// chunk).
#[derive(Debug, Default)]
pub struct CodeDelta {
    edits: BTreeMap<u32, Option<Codes>>,
}

impl CodeDelta {
    /// Store `vector`'s codes for `id` (replacing any).
    pub fn put(&mut self, id: ChunkId, vector: &[f32]) {
        self.edits.insert(id.get(), Some(Codes::encode(vector)));
    }

    /// Remove `id`'s codes.
    pub fn remove(&mut self, id: ChunkId) {
        self.edits.insert(id.get(), None);
    }

    /// Whether nothing is pending.
    pub fn is_empty(&self) -> bool {
        self.edits.is_empty()
    }

    /// Write the pending edits into `index` of `db`.
    ///
    /// # Errors
    /// LMDB errors; [`crate::Error::DataCorruption`] for a stored block whose
    /// length disagrees with its presence bitmap.
    pub fn apply(self, wtxn: &mut RwTxn<'_>, db: CodeDb, index: u16, layout: CodeLayout) -> Result<()> {
        let mut edits = self.edits.into_iter().peekable();
        while let Some(&(first, _)) = edits.peek() {
            let number = first / BLOCK_SLOTS;
            let key = block_key(index, number);
            let mut block = match db.get(wtxn, &key)? {
                Some(bytes) => BlockEdit::from_view(&BlockView::parse(bytes, layout)?),
                None => BlockEdit::default(),
            };
            while let Some((id, codes)) = edits.next_if(|(id, _)| id / BLOCK_SLOTS == number) {
                match codes {
                    Some(c) => block.put(id % BLOCK_SLOTS, c),
                    None => block.remove(id % BLOCK_SLOTS),
                }
            }
            if block.is_empty() {
                db.delete(wtxn, &key)?;
            } else {
                db.put(wtxn, &key, &block.encode(layout))?;
            }
        }
        Ok(())
    }
}

/// Delete every block of `index`.
///
/// # Errors
/// LMDB errors.
pub fn clear(wtxn: &mut RwTxn<'_>, db: CodeDb, index: u16) -> Result<()> {
    let mut keys = Vec::new();
    for entry in db.prefix_iter(wtxn, &index.to_be_bytes())? {
        keys.push(entry?.0.to_vec());
    }
    for key in keys {
        db.delete(wtxn, &key)?;
    }
    Ok(())
}

/// Vectors coded in `index`.
///
/// # Errors
/// LMDB errors and corrupt blocks.
pub fn count(rtxn: &RoTxn<'_>, db: CodeDb, index: u16, layout: CodeLayout) -> Result<u64> {
    let mut n = 0u64;
    for entry in db.prefix_iter(rtxn, &index.to_be_bytes())? {
        let (_, bytes) = entry?;
        n += BlockView::parse(bytes, layout)?.len() as u64;
    }
    Ok(n)
}

#[cfg(test)]
mod tests;
