//! Format v3 → v4: scans become readable by OCR. v4 adds the `ocr-cache`
//! database (created on open) and an optional OCR report on document
//! records (absent in v3 records, which decode as "not read by OCR").
//! PDFs that v3 could not read (`no-text-layer`, `low-quality-text`, or
//! `failed`) are marked for re-reading: their recorded size, mtime and hash
//! are cleared, so the next `index` or watcher reconcile extracts them again,
//! now with OCR. Nothing else changes; a crash leaves v3.

use heed::RwTxn;

use crate::error::Result;
use crate::store::{Databases, FileStatus};

/// Mark v3's unreadable PDFs for re-reading.
///
/// # Errors
/// LMDB errors.
pub(super) fn run(dbs: &Databases, wtxn: &mut RwTxn<'_>) -> Result<()> {
    let mut unread = Vec::new();
    for entry in dbs.files.iter(wtxn)? {
        let (path, record) = entry?;
        let scan_like =
            matches!(record.status, FileStatus::NoTextLayer | FileStatus::LowQualityText | FileStatus::Failed);
        if scan_like && path.to_ascii_lowercase().ends_with(".pdf") {
            unread.push((path.to_string(), record));
        }
    }
    for (path, mut record) in unread {
        record.hash.clear();
        record.size = 0;
        record.mtime_ns = 0;
        dbs.files.put(wtxn, &path, &record)?;
    }
    Ok(())
}
