//! Format v5 → v6: Word, OpenDocument, HTML and spreadsheets (issue 20).
//! v6 adds file kinds (`docx`, `odt`, `html`, `xlsx`, `xls`, `ods`, `doc`),
//! the file status `needs-conversion` and the metadata provenance
//! `properties`, which a v5 build cannot decode, and keeps a list of tables
//! per document (one per sheet) where v5 kept one CSV table.
//!
//! The step rewrites each stored table as a list of one, and marks the
//! files v5 recorded as `unsupported` that v6 reads (by extension) for
//! re-reading: their recorded size, mtime and hash are cleared, so the
//! next `index` or watcher reconcile extracts them. Nothing is
//! re-embedded: no chunk changes here. It runs in the upgrade's one write
//! transaction, so a crash leaves v5.

use heed::RwTxn;
use heed::types::SerdeJson;

use crate::error::Result;
use crate::store::{Databases, FileStatus};

/// Rewrite the tables and mark the newly readable files.
///
/// # Errors
/// LMDB errors; a stored table that is not JSON.
pub(super) fn run(dbs: &Databases, wtxn: &mut RwTxn<'_>) -> Result<()> {
    let raw_tables = dbs.tables.remap_data_type::<SerdeJson<serde_json::Value>>();
    let mut tables = Vec::new();
    for entry in raw_tables.iter(wtxn)? {
        let (id, table) = entry?;
        // A v5 table is one object; a list is already v6.
        if table.is_object() {
            tables.push((id, table));
        }
    }
    for (id, table) in tables {
        raw_tables.put(wtxn, &id, &serde_json::Value::Array(vec![table]))?;
    }
    let mut readable = Vec::new();
    for entry in dbs.files.iter(wtxn)? {
        let (path, record) = entry?;
        let kind = almirah_extract::kind_of(std::path::Path::new(path));
        if record.status == FileStatus::Unsupported && kind != almirah_extract::FileKind::Unsupported {
            readable.push((path.to_string(), record));
        }
    }
    for (path, mut record) in readable {
        record.hash.clear();
        record.size = 0;
        record.mtime_ns = 0;
        dbs.files.put(wtxn, &path, &record)?;
    }
    Ok(())
}
