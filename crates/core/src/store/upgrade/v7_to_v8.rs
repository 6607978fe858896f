//! Format v7 → v8: the gate state kept built by the writer (issue 16). v8
//! adds the `gate-state` database (created on open): every document's
//! status record with its references resolved to positions and its series
//! ranked, so the first gate after a commit decodes one value instead of
//! resolving every document's references. A v7 build must not write a v8
//! library: it would change gate records without the state.
//!
//! The step builds the state from the stored gate records (format v7). It
//! reads only the library: nothing is extracted or embedded again, and it
//! runs in the upgrade's one write transaction, so a crash leaves v7.

use heed::RwTxn;

use crate::error::Result;
use crate::store::{Databases, gate_records};

/// Build the gate state.
///
/// # Errors
/// LMDB errors; [`crate::Error::DataCorruption`] for a gate record that
/// does not decode.
pub(super) fn run(dbs: &Databases, wtxn: &mut RwTxn<'_>) -> Result<()> {
    gate_records::refresh_state(dbs, wtxn)
}
