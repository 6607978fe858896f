//! Upgrading an older on-disk format in ordered steps (milli's
//! `update/upgrade/`, STYLE convention 7). Each step moves the library from
//! one format version to the next and lives in its own file; a later format
//! change appends a step and never rewrites an earlier one. All steps run in
//! the one write transaction that stamps the new version, so a crash during
//! an upgrade leaves the old format intact and the next open starts again.

mod v1_to_v2;
mod v2_to_v3;
mod v3_to_v4;
mod v4_to_v5;
mod v5_to_v6;
mod v6_to_v7;
mod v7_to_v8;
mod v8_to_v9;
mod v9_to_v10;

use heed::RwTxn;

use super::{Databases, FORMAT_VERSION, meta_keys};
use crate::error::{Error, Result};

/// One upgrade step: from format `from` to `from + 1`.
pub(crate) struct Step {
    /// The version this step reads.
    pub from: u32,
    /// What it changes, for logs.
    pub name: &'static str,
    /// The change, inside the upgrade's write transaction.
    pub run: fn(&Databases, &mut RwTxn<'_>) -> Result<()>,
}

/// Every step, oldest first. Append; never reorder or edit a released step.
pub(crate) const STEPS: &[Step] = &[
    Step { from: 1, name: "v1 → v2: document keys move to their own table", run: v1_to_v2::run },
    Step { from: 2, name: "v2 → v3: file statuses binary and empty", run: v2_to_v3::run },
    Step { from: 3, name: "v3 → v4: OCR cache; unreadable PDFs are read again", run: v3_to_v4::run },
    Step { from: 4, name: "v4 → v5: the embedding queue (two-phase ingest)", run: v4_to_v5::run },
    Step { from: 5, name: "v5 → v6: office formats; a list of tables per document", run: v5_to_v6::run },
    Step {
        from: 6, name: "v6 → v7: the gate's records and failed-files set, kept by the writer", run: v6_to_v7::run
    },
    Step { from: 7, name: "v7 → v8: the gate state, kept built by the writer", run: v7_to_v8::run },
    Step { from: 8, name: "v8 → v9: vector codes laid out for scanning", run: v8_to_v9::run },
    Step {
        from: 9,
        name: "v9 → v10: BM25 impact lists (term frequencies and lengths in one value a term)",
        run: v9_to_v10::run,
    },
];

/// Run every step from `found` up to [`FORMAT_VERSION`] and stamp the new
/// version, in `wtxn` (the caller commits).
///
/// # Errors
/// [`Error::DataCorruption`] when no step starts at some version between
/// `found` and the current one; LMDB errors and the steps' own errors.
pub(crate) fn upgrade(dbs: &Databases, wtxn: &mut RwTxn<'_>, found: u32) -> Result<()> {
    let mut version = found;
    while version < FORMAT_VERSION {
        let step = STEPS
            .iter()
            .find(|s| s.from == version)
            .ok_or_else(|| Error::DataCorruption(format!("no upgrade step from format {version}")))?;
        tracing::info!(step = step.name, "upgrading the library format");
        (step.run)(dbs, wtxn)?;
        version += 1;
    }
    dbs.meta.put(wtxn, meta_keys::FORMAT_VERSION, &FORMAT_VERSION.into())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_are_ordered_and_reach_the_current_format() {
        for (i, step) in STEPS.iter().enumerate() {
            assert_eq!(step.from, i as u32 + 1, "step {} is out of order", step.name);
        }
        assert_eq!(STEPS.len() as u32 + 1, FORMAT_VERSION);
    }
}
