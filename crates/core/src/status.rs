//! `almirah status`: counts, sizes, problems and the embedder, from one read
//! transaction.

use std::collections::BTreeMap;

use crate::engine::{FileProblem, LibraryStatus};
use crate::error::Result;
use crate::store::{FORMAT_VERSION, FileStatus, Store, all_chunks, get_meta, meta_keys};

/// Build the status report.
///
/// # Errors
/// Storage errors.
pub fn status(store: &Store) -> Result<LibraryStatus> {
    let dbs = store.dbs();
    let rtxn = store.read_txn()?;
    let mut files_by_status = BTreeMap::new();
    let mut problems = Vec::new();
    for entry in dbs.files.iter(&rtxn)? {
        let (path, record) = entry?;
        *files_by_status.entry(record.status.as_str().to_string()).or_insert(0u64) += 1;
        if record.status != FileStatus::Indexed {
            problems.push(FileProblem {
                path: path.to_string(),
                status: record.status.as_str().to_string(),
                reason: record.reason.clone(),
                kept_previous: record.doc_id.is_some(),
            });
        }
    }
    Ok(LibraryStatus {
        data_dir: store.path().to_string_lossy().into_owned(),
        format_version: get_meta(dbs, &rtxn, meta_keys::FORMAT_VERSION)?.unwrap_or(FORMAT_VERSION),
        documents: dbs.documents.len(&rtxn)?,
        chunks: all_chunks(dbs, &rtxn)?.len(),
        files_by_status,
        problems,
        embedder: get_meta(dbs, &rtxn, meta_keys::EMBEDDER)?,
        disk_bytes: store.disk_size()?,
        roots: get_meta(dbs, &rtxn, meta_keys::ROOTS)?.unwrap_or_default(),
    })
}
