//! Dropping a folder from the library (`almirah folders remove`): every
//! recorded file below it leaves every database, through the same writer
//! as a deletion found by a scan. The embedder is not needed, so removing a
//! folder never loads a model.

use std::path::Path;

use almirah_embed::EmbedderId;

use super::write::{self, WriteContext};
use super::{FileOutcome, IngestReport, scan};
use crate::error::Result;
use crate::store::{Store, get_meta, meta_keys};

/// Files deleted per transaction, so a large folder never holds the writer long.
const FILES_PER_BATCH: usize = 200;

/// Remove every document recorded at or below `folder` (absolute; it may no
/// longer exist on disk).
///
/// # Errors
/// LMDB errors; batches committed before an error stay committed.
pub(crate) fn remove_folder(store: &Store, folder: &Path) -> Result<IngestReport> {
    let started = std::time::Instant::now();
    let (records, identity, vector_index) = {
        let rtxn = store.read_txn()?;
        let dbs = store.dbs();
        let records = scan::records_under(dbs, &rtxn, folder)?;
        let identity: Option<EmbedderId> = get_meta(dbs, &rtxn, meta_keys::EMBEDDER)?;
        let index: u16 = get_meta(dbs, &rtxn, meta_keys::VECTOR_INDEX)?.unwrap_or(0);
        (records, identity, index)
    };
    let mut report = IngestReport::default();
    let Some(identity) = identity.filter(|_| !records.is_empty()) else {
        return Ok(report);
    };
    let ctx = WriteContext { dimensions: identity.dimensions, vector_index, folders: Vec::new() };
    for batch in records.chunks(FILES_PER_BATCH) {
        let outcome = write::write_batch(store, &ctx, Vec::new(), batch.to_vec())?;
        report.chunks_removed += outcome.chunks_removed;
        report.outcomes.extend(batch.iter().map(|(path, _)| deleted(path)));
    }
    report.elapsed_ms = started.elapsed().as_millis() as u64;
    Ok(report)
}

fn deleted(path: &str) -> FileOutcome {
    FileOutcome {
        path: path.to_string(),
        action: "deleted".into(),
        status: None,
        reason: None,
        chunks: 0,
        kept_previous: false,
        ocr: None,
    }
}
