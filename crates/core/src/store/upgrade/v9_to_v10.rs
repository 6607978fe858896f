//! Format v9 → v10: BM25 impact lists (issue 42). v10 adds the
//! `term-impacts` database (created on open): per term, every chunk that
//! holds it with the term frequency and the chunk's length, varint-coded in
//! one value ([`crate::impacts`]), which BM25 walks instead of looking up a
//! `(term, chunk)` frequency and a chunk length for every hit. A v9 build
//! must not write a v10 library: it would change chunks without their
//! impact entries.
//!
//! The step builds every list from the `term-freqs` entries (whose keys
//! sort by term, then chunk id) and the `chunk-lens` lengths, then clears
//! both: v10 keeps them empty. It reads only the library: nothing is
//! tokenised again, scores do not change (the lengths are exact), and it
//! runs in the upgrade's one write transaction, so a crash leaves v9.

use std::collections::HashMap;
use std::ops::Bound;

use heed::RwTxn;

use crate::error::{Error, Result};
use crate::ids::ChunkId;
use crate::impacts::{Impact, ListBuilder};
use crate::store::Databases;

/// Lists are written out whenever this many bytes of them are pending, so
/// memory stays bounded on a large library.
const PASS_BYTES: usize = 32 << 20;

/// Build the impact lists and clear the two v9 tables.
///
/// # Errors
/// LMDB errors; [`Error::DataCorruption`] for a `term-freqs` key that is not
/// a term, a NUL and a chunk id.
pub(super) fn run(dbs: &Databases, wtxn: &mut RwTxn<'_>) -> Result<()> {
    let mut lens = HashMap::new();
    for entry in dbs.chunk_lens.iter(wtxn)? {
        let (id, len) = entry?;
        lens.insert(id, len);
    }
    let mut pass = Pass { lens, after: None, orphans: 0 };
    loop {
        let lists = pass.collect(dbs, wtxn)?;
        for (term, bytes) in &lists {
            dbs.term_impacts.put(wtxn, term, bytes)?;
        }
        if pass.after.is_none() {
            break;
        }
    }
    if pass.orphans > 0 {
        tracing::warn!(entries = pass.orphans, "term frequencies of chunks without a length were dropped");
    }
    dbs.term_freqs.clear(wtxn)?;
    dbs.chunk_lens.clear(wtxn)?;
    Ok(())
}

/// One walk over `term-freqs`, resumed after the last key of the previous
/// walk's last term.
struct Pass {
    lens: HashMap<ChunkId, u32>,
    /// The key to resume after, or `None` when every entry was read.
    after: Option<Vec<u8>>,
    /// Entries of chunks with no recorded length (not scored in v9 either
    /// beyond a guess; left out).
    orphans: u64,
}

impl Pass {
    /// The lists of the next terms, up to about [`PASS_BYTES`].
    fn collect(&mut self, dbs: &Databases, wtxn: &RwTxn<'_>) -> Result<Vec<(String, Vec<u8>)>> {
        let start = self.after.take();
        let bounds = (start.as_deref().map_or(Bound::Unbounded, Bound::Excluded), Bound::Unbounded);
        let mut lists = Vec::new();
        let mut pending = 0usize;
        let mut current: Option<(String, ListBuilder, Vec<u8>)> = None;
        for entry in dbs.term_freqs.range(wtxn, &bounds)? {
            let (key, tf) = entry?;
            let (term, chunk) = split_key(key)?;
            if current.as_ref().is_some_and(|(t, _, _)| t != term)
                && let Some((done, list, last_key)) = current.take()
            {
                if !list.is_empty() {
                    pending += list.as_bytes().len();
                    lists.push((done, list.as_bytes().to_vec()));
                }
                if pending >= PASS_BYTES {
                    self.after = Some(last_key);
                    return Ok(lists);
                }
            }
            let (_, list, last_key) = current.get_or_insert_with(|| (term.to_string(), ListBuilder::new(), Vec::new()));
            last_key.clear();
            last_key.extend_from_slice(key);
            let len = match self.lens.get(&chunk) {
                Some(&len) => len,
                None => match dbs.chunk_terms.get(wtxn, &chunk)? {
                    Some(terms) => terms.len,
                    None => {
                        self.orphans += 1;
                        continue;
                    }
                },
            };
            list.push(Impact { chunk, tf, len }).map_err(|e| crate::impacts::corrupt(term, e))?;
        }
        if let Some((term, list, _)) = current
            && !list.is_empty()
        {
            lists.push((term, list.as_bytes().to_vec()));
        }
        Ok(lists)
    }
}

/// The term and chunk of a v9 `term-freqs` key: term bytes, `0x00`, chunk
/// id (u32 big-endian).
fn split_key(key: &[u8]) -> Result<(&str, ChunkId)> {
    let bad = || Error::DataCorruption(format!("term-freqs key {key:?} is not a term and a chunk id"));
    let split = key.len().checked_sub(5).ok_or_else(bad)?;
    let (term, rest) = key.split_at(split);
    let (nul, id) = rest.split_first().ok_or_else(bad)?;
    let id: [u8; 4] = id.try_into().map_err(|_| bad())?;
    if *nul != 0 {
        return Err(bad());
    }
    let term = std::str::from_utf8(term).map_err(|_| bad())?;
    Ok((term, ChunkId::new(u32::from_be_bytes(id))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_split_into_term_and_chunk() {
        let key = crate::store::term_chunk_key("leave", ChunkId::new(258));
        assert_eq!(split_key(&key).ok(), Some(("leave", ChunkId::new(258))));
        assert!(split_key(&[0, 0, 0, 1]).is_err());
        assert!(split_key(b"leave\x01\0\0\0\x01").is_err());
        assert!(split_key(b"\xff\0\0\0\0\x01").is_err());
    }
}
