//! The gate's inputs, kept by the writer (issue 16, format v7): one
//! compact record per document ([`crate::freshness::record`]) in
//! `gate-docs`, and the failed-files set in `gate-failed` (files whose
//! content could not be read and that serve no document: the only files
//! that can mark a document "a newer version exists but could not be
//! read"). Every writer operation that changes a document's metadata,
//! overrides or chunks, or a file's status, refreshes them from what it
//! wrote, in the same write transaction, so a reader never sees a record
//! that disagrees with the state it describes, and a crash loses both or
//! neither.
//!
//! Since format v8 the writer also keeps the gate state (`gate-state`):
//! the status records built from all of them ([`refresh_state`]), rebuilt in
//! every transaction that changes a record, so a reader decodes it instead
//! of resolving references.
//!
//! A record is a pure function of the stored metadata, overrides and chunk
//! facet ([`expected_record`]), so a library's records are canonical: a
//! fresh index, an upgrade and any sequence of edits that reach the same
//! documents store the same bytes.

use heed::{RoTxn, RwTxn};
use serde::{Deserialize, Serialize};

use super::gate_inputs::stored_records;
use super::{Databases, FileRecord, FileStatus, GATE_STATE, doc_facet};
use crate::error::Result;
use crate::freshness::overrides;
use crate::freshness::record::GateRecord;
use crate::freshness::records::StatusRecords;
use crate::ids::{ChunkId, DocId};

/// `gate-failed` value: why a file that serves no document could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FailedFile {
    /// Its ingest status (a failure, [`FileStatus::is_failure`]).
    pub status: FileStatus,
    /// The recorded reason.
    pub reason: Option<String>,
}

impl FailedFile {
    /// The failed-files entry of a file record, if it belongs in the set.
    pub fn of(record: &FileRecord) -> Option<Self> {
        (record.status.is_failure() && record.doc_id.is_none())
            .then(|| Self { status: record.status, reason: record.reason.clone() })
    }
}

/// The gate record `doc` should have in `txn`, recomputed from its full
/// metadata (overrides applied) and its chunk facet; `None` when it has no
/// metadata.
///
/// # Errors
/// LMDB errors.
pub fn expected_record(dbs: &Databases, txn: &RoTxn<'_>, doc: DocId) -> Result<Option<GateRecord>> {
    let Some(mut meta) = dbs.doc_meta.get(txn, &doc)? else { return Ok(None) };
    if let Some(o) = dbs.overrides.get(txn, &doc)? {
        overrides::apply(&mut meta, &o);
    }
    let chunks = dbs.facets.get(txn, &doc_facet(doc))?.unwrap_or_default();
    Ok(Some(GateRecord::from_meta(&meta, chunks.iter().map(ChunkId::get))))
}

/// Store the gate record of `doc` as it now is in `wtxn` (delete it when
/// the document is gone). Call after the chunk facets of the transaction
/// are written.
///
/// # Errors
/// LMDB errors.
pub fn refresh_doc(dbs: &Databases, wtxn: &mut RwTxn<'_>, doc: DocId) -> Result<()> {
    match expected_record(dbs, wtxn, doc)? {
        Some(record) => dbs.gate_docs.put(wtxn, &doc, &record.encode())?,
        None => {
            dbs.gate_docs.delete(wtxn, &doc)?;
        }
    }
    Ok(())
}

/// Rebuild the gate state from the gate records as they now are in
/// `wtxn` (about 2 ms at 5,000 documents on this class of machine). Call
/// after the transaction's records are refreshed.
///
/// # Errors
/// LMDB errors; [`crate::Error::DataCorruption`] for a record that does
/// not decode.
pub fn refresh_state(dbs: &Databases, wtxn: &mut RwTxn<'_>) -> Result<()> {
    let state = stored_records(dbs, wtxn)?.encode();
    dbs.gate_state.put(wtxn, GATE_STATE, &state)?;
    Ok(())
}

/// Put `path` in the failed-files set or take it out, as its file record
/// now is in `wtxn`.
///
/// # Errors
/// LMDB errors.
pub fn refresh_file(dbs: &Databases, wtxn: &mut RwTxn<'_>, path: &str) -> Result<()> {
    match dbs.files.get(wtxn, path)?.as_ref().and_then(FailedFile::of) {
        Some(failed) => dbs.gate_failed.put(wtxn, path, &failed)?,
        None => {
            dbs.gate_failed.delete(wtxn, path)?;
        }
    }
    Ok(())
}

/// Rebuild every gate record and the failed-files set from the library
/// (the v6 → v7 upgrade).
///
/// # Errors
/// LMDB errors.
pub fn rebuild(dbs: &Databases, wtxn: &mut RwTxn<'_>) -> Result<()> {
    dbs.gate_docs.clear(wtxn)?;
    dbs.gate_failed.clear(wtxn)?;
    let docs: Vec<DocId> = dbs.doc_meta.iter(wtxn)?.map(|e| e.map(|(id, _)| id)).collect::<heed::Result<_>>()?;
    for doc in docs {
        refresh_doc(dbs, wtxn, doc)?;
    }
    let mut failed = Vec::new();
    for entry in dbs.files.iter(wtxn)? {
        let (path, record) = entry?;
        if let Some(f) = FailedFile::of(&record) {
            failed.push((path.to_string(), f));
        }
    }
    for (path, f) in failed {
        dbs.gate_failed.put(wtxn, &path, &f)?;
    }
    Ok(())
}

/// Whether the stored gate state differs from the one built from the
/// stored records (a library with no document may have none).
fn state_disagreement(dbs: &Databases, txn: &RoTxn<'_>) -> Result<Option<String>> {
    let expected = stored_records(dbs, txn)?;
    let stored = match dbs.gate_state.get(txn, GATE_STATE)? {
        None if expected.is_empty() => return Ok(None),
        None => return Ok(Some("the gate state is missing".into())),
        Some(bytes) => StatusRecords::decode(bytes),
    };
    Ok(match stored {
        Ok(state) if state == expected => None,
        Ok(_) => Some("the stored gate state differs from the one built from the gate records".into()),
        Err(e) => Some(format!("the stored gate state does not decode: {e}")),
    })
}

/// Where the stored gate records, failed-files set and gate state disagree with
/// recomputing them from the library in `txn`, one line per difference
/// (empty when they agree).
///
/// # Errors
/// LMDB errors.
pub fn disagreements(dbs: &Databases, txn: &RoTxn<'_>) -> Result<Vec<String>> {
    let mut out = Vec::new();
    let mut docs: std::collections::BTreeSet<DocId> = std::collections::BTreeSet::new();
    for entry in dbs.doc_meta.iter(txn)? {
        docs.insert(entry?.0);
    }
    for entry in dbs.gate_docs.iter(txn)? {
        docs.insert(entry?.0);
    }
    for doc in docs {
        let stored = match dbs.gate_docs.get(txn, &doc)? {
            None => None,
            Some(bytes) => match crate::freshness::record::RecordView::decode(bytes) {
                Ok(view) => Some(view.to_owned_record()),
                Err(e) => {
                    out.push(format!("document {doc}: stored record does not decode: {e}"));
                    continue;
                }
            },
        };
        let expected = expected_record(dbs, txn, doc)?;
        if stored != expected {
            out.push(format!("document {doc}: stored {stored:?}, expected {expected:?}"));
        }
    }
    out.extend(state_disagreement(dbs, txn)?);
    let mut paths: std::collections::BTreeSet<String> = std::collections::BTreeSet::new();
    for entry in dbs.files.iter(txn)? {
        paths.insert(entry?.0.to_string());
    }
    for entry in dbs.gate_failed.iter(txn)? {
        paths.insert(entry?.0.to_string());
    }
    for path in paths {
        let stored = dbs.gate_failed.get(txn, &path)?;
        let expected = dbs.files.get(txn, &path)?.as_ref().and_then(FailedFile::of);
        if stored != expected {
            out.push(format!("file {path}: stored {stored:?}, expected {expected:?}"));
        }
    }
    Ok(out)
}
