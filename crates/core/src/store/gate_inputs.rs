//! Reading the freshness gate's inputs from the library: the writer's
//! stored gate state or its per-document gate records ([`super::gate_records`]),
//! the failed-files set, and, for checks, every document's full metadata.
//! The gate itself is pure ([`crate::freshness::gate`]); this is where it
//! meets LMDB.

use std::collections::BTreeMap;
use std::sync::Arc;

use heed::RoTxn;

use super::{Databases, GATE_STATE, doc_facet, get_meta, meta_keys};
use crate::error::{Error, Result};
use crate::freshness::gate::{Gate, GateInputs};
use crate::freshness::record::{GateRecord, RecordView};
use crate::freshness::records::StatusRecords;
use crate::freshness::unreadable::{self, UnreadableMark};
use crate::freshness::{AsOf, DocMeta, FolderSettings, overrides};
use crate::ids::{ChunkId, DocId};

impl GateInputs {
    /// Read the writer's gate state in `rtxn` (format v8: the status records
    /// built, one value of about 60 bytes per document; built from the
    /// per-document records when absent) and the failed-files set;
    /// `folders` give each failed file's date order.
    ///
    /// # Errors
    /// LMDB errors; [`Error::DataCorruption`] for a state or record that
    /// does not decode.
    pub fn load(dbs: &Databases, rtxn: &RoTxn<'_>, folders: &[FolderSettings]) -> Result<Self> {
        let Some(bytes) = dbs.gate_state.get(rtxn, GATE_STATE)? else {
            return Self::from_gate_records(dbs, rtxn, folders);
        };
        let records =
            StatusRecords::decode(bytes).map_err(|e| Error::DataCorruption(format!("the stored gate state: {e}")))?;
        with_marks(dbs, rtxn, records, folders)
    }

    /// The inputs built from the per-document gate records, ignoring the
    /// stored gate state (format v7's read path; the benchmark's "before").
    ///
    /// # Errors
    /// As [`GateInputs::load`].
    pub fn from_gate_records(dbs: &Databases, rtxn: &RoTxn<'_>, folders: &[FolderSettings]) -> Result<Self> {
        with_marks(dbs, rtxn, stored_records(dbs, rtxn)?, folders)
    }

    /// The inputs recomputed from every document's full metadata (overrides
    /// applied) and chunk facet, ignoring the stored records: the reference
    /// the stored records are checked against.
    ///
    /// # Errors
    /// LMDB errors.
    pub fn recompute(dbs: &Databases, rtxn: &RoTxn<'_>, folders: &[FolderSettings]) -> Result<Self> {
        let mut encoded = Vec::new();
        for (id, meta) in load_metas(dbs, rtxn)? {
            let chunks = dbs.facets.get(rtxn, &doc_facet(id))?.unwrap_or_default();
            encoded.push((id, GateRecord::from_meta(&meta, chunks.iter().map(ChunkId::get)).encode()));
        }
        let mut views = Vec::with_capacity(encoded.len());
        for (id, bytes) in &encoded {
            views.push((*id, decode_record(*id, bytes)?));
        }
        with_marks(dbs, rtxn, StatusRecords::from_views(&views), folders)
    }
}

fn with_marks(
    dbs: &Databases,
    rtxn: &RoTxn<'_>,
    records: StatusRecords,
    folders: &[FolderSettings],
) -> Result<GateInputs> {
    let unreadable_newer = unreadable_marks(dbs, rtxn, &records, folders)?;
    Ok(GateInputs::new(records, unreadable_newer))
}

/// Documents with an unreadable newer version ([`unreadable::marks`]),
/// from the writer's failed-files set ([`super::gate_records`]) and the
/// folders indexed.
fn unreadable_marks(
    dbs: &Databases,
    rtxn: &RoTxn<'_>,
    records: &StatusRecords,
    folders: &[FolderSettings],
) -> Result<BTreeMap<DocId, Vec<UnreadableMark>>> {
    if dbs.gate_failed.is_empty(rtxn)? {
        return Ok(BTreeMap::new());
    }
    let roots: Vec<String> = get_meta(dbs, rtxn, meta_keys::ROOTS)?.unwrap_or_default();
    let mut failed = Vec::new();
    for entry in dbs.gate_failed.iter(rtxn)? {
        let (path, file) = entry?;
        failed.push((path, file.reason.unwrap_or_else(|| file.status.as_str().to_string())));
    }
    Ok(unreadable::marks(&failed, &roots, records, folders))
}

/// The status records built from the stored per-document gate records in
/// `txn` (what the writer stores as the gate state).
///
/// # Errors
/// LMDB errors; [`Error::DataCorruption`] for a record that does not decode.
pub fn stored_records(dbs: &Databases, txn: &RoTxn<'_>) -> Result<StatusRecords> {
    let mut views = Vec::with_capacity(dbs.gate_docs.len(txn)? as usize);
    for entry in dbs.gate_docs.iter(txn)? {
        let (id, bytes) = entry?;
        views.push((id, decode_record(id, bytes)?));
    }
    Ok(StatusRecords::from_views(&views))
}

fn decode_record(id: DocId, bytes: &[u8]) -> Result<RecordView<'_>> {
    RecordView::decode(bytes).map_err(|e| Error::DataCorruption(format!("gate record of document {id}: {e}")))
}

/// Read every document's metadata (with overrides applied) in `rtxn`.
///
/// # Errors
/// LMDB errors.
pub fn load_metas(dbs: &Databases, rtxn: &RoTxn<'_>) -> Result<BTreeMap<DocId, DocMeta>> {
    let mut metas = BTreeMap::new();
    for entry in dbs.doc_meta.iter(rtxn)? {
        let (id, mut meta) = entry?;
        if let Some(o) = dbs.overrides.get(rtxn, &id)? {
            overrides::apply(&mut meta, &o);
        }
        metas.insert(id, meta);
    }
    Ok(metas)
}

/// Build the gate for `as_of` and the user's `audiences`, in one read
/// transaction (inputs loaded afresh; a [`crate::read::Reader`] reuses them).
/// `folders` give each file's date order for the unreadable-newer-version marks.
///
/// # Errors
/// LMDB errors.
pub fn build(
    dbs: &Databases,
    rtxn: &RoTxn<'_>,
    as_of: AsOf,
    audiences: &[String],
    folders: &[FolderSettings],
) -> Result<Gate> {
    let inputs = Arc::new(GateInputs::load(dbs, rtxn, folders)?);
    Ok(Gate::from_inputs(inputs, as_of, audiences))
}
