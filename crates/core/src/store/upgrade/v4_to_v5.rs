//! Format v4 → v5: two-phase ingest. v5 adds the `vector-queue` database
//! (created on open): chunks whose text and BM25 postings are committed but
//! whose vector is not yet in arroy. Every chunk of a v4 library already has
//! its vector, so the queue starts empty and nothing is re-embedded. A v4
//! build must not open a v5 library: it would not know that queued chunks
//! still lack vectors, and would never embed them.

use heed::RwTxn;

use crate::error::Result;
use crate::store::Databases;

/// Nothing to move: the queue of a v4 library is empty.
///
/// # Errors
/// None today; the signature is every step's.
pub(super) fn run(_dbs: &Databases, _wtxn: &mut RwTxn<'_>) -> Result<()> {
    Ok(())
}
