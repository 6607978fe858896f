//! Format v2 → v3: two new file statuses, `binary` (bytes that are not text
//! and not a known format) and `empty` (readable, nothing to index). A v2
//! build cannot decode them, hence the version. Files that v2 recorded as
//! `failed` with the reason "failed: empty" become `empty`. Files that v2
//! indexed as text although they were binary keep their chunks until they
//! change (telling them apart needs their bytes; an upgrade step reads
//! only the library).

use heed::RwTxn;

use crate::error::Result;
use crate::store::{Databases, FileStatus};

/// The reason v2 wrote for an empty file.
const V2_EMPTY: &str = "failed: empty";

/// Re-mark the empty files.
///
/// # Errors
/// LMDB errors.
pub(super) fn run(dbs: &Databases, wtxn: &mut RwTxn<'_>) -> Result<()> {
    let mut empty = Vec::new();
    for entry in dbs.files.iter(wtxn)? {
        let (path, record) = entry?;
        if record.status == FileStatus::Failed && record.reason.as_deref() == Some(V2_EMPTY) {
            empty.push((path.to_string(), record));
        }
    }
    for (path, mut record) in empty {
        record.status = FileStatus::Empty;
        record.reason = Some(almirah_extract::ExtractError::Empty.to_string());
        dbs.files.put(wtxn, &path, &record)?;
    }
    Ok(())
}
