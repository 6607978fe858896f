//! Format v6 → v7: the gate's inputs kept by the writer (issue 16). v7 adds
//! two databases (created on open): `gate-docs`, one compact record per
//! document (series, version, session, dates, supersession and amendment
//! references, audience, chunk runs), and `gate-failed`, the files that
//! could not be read and serve no document. A gate is built from these
//! alone, so a v6 build must not write a v7 library: it would change
//! documents without their records.
//!
//! The step computes every record from the stored metadata (overrides
//! applied) and chunk facets, and the failed-files set from the file
//! records. It reads only the library: nothing is extracted or embedded
//! again, and it runs in the upgrade's one write transaction, so a crash
//! leaves v6.

use heed::RwTxn;

use crate::error::Result;
use crate::store::{Databases, gate_records};

/// Build the gate records and the failed-files set.
///
/// # Errors
/// LMDB errors.
pub(super) fn run(dbs: &Databases, wtxn: &mut RwTxn<'_>) -> Result<()> {
    gate_records::rebuild(dbs, wtxn)
}
