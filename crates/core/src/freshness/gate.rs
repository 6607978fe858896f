//! The freshness gate (ARCHITECTURE §2): admissible = current and visible to
//! the user's audience. It fills the candidate set *before* ranking, so a
//! withheld chunk never influences a search; a separate bounded search over
//! the withheld set feeds only the notes. Documents outside the audience are
//! *hidden*: the gate keeps no status or metadata for them, so nothing built
//! from a gate can name them.

use std::collections::BTreeMap;
use std::sync::Arc;

use heed::RoTxn;

use super::describe::FolderSettings;
use super::meta::DocMeta;
use super::overrides;
use super::record::{GateRecord, RecordView};
use super::records::{StatusRecords, StatusTable};
use super::session::Session;
use super::status::{AsOf, DocStatus};
use crate::error::{Error, Result};
use crate::ids::{ChunkId, ChunkSet, DocId};
use crate::store::{Databases, doc_facet};

/// What every gate of one committed library state is built from: the
/// writer's per-document gate records and its failed-files set (issue 16;
/// never the full metadata). A reader keeps the last one for its LMDB
/// transaction id, so building a gate for another as-of date or audience
/// on the same state costs only the status computation.
#[derive(Debug, Default)]
pub struct GateInputs {
    records: StatusRecords,
    unreadable_newer: BTreeMap<DocId, Vec<super::unreadable::UnreadableMark>>,
}

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
        Self::with_marks(dbs, rtxn, records, folders)
    }

    /// The inputs built from the per-document gate records, ignoring the
    /// stored gate state (format v7's read path; the benchmark's "before").
    ///
    /// # Errors
    /// As [`GateInputs::load`].
    pub fn from_gate_records(dbs: &Databases, rtxn: &RoTxn<'_>, folders: &[FolderSettings]) -> Result<Self> {
        Self::with_marks(dbs, rtxn, stored_records(dbs, rtxn)?, folders)
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
        Self::with_marks(dbs, rtxn, StatusRecords::from_views(&views), folders)
    }

    fn with_marks(
        dbs: &Databases,
        rtxn: &RoTxn<'_>,
        records: StatusRecords,
        folders: &[FolderSettings],
    ) -> Result<Self> {
        let unreadable_newer = super::unreadable::marks(dbs, rtxn, &records, folders)?;
        Ok(Self { records, unreadable_newer })
    }
}

/// Key of the one entry of [`Databases::gate_state`].
pub const GATE_STATE: &str = "state";

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

/// The gate's verdicts for one as-of date and one audience.
#[derive(Debug, Clone)]
pub struct Gate {
    as_of: AsOf,
    inputs: Arc<GateInputs>,
    admissible: ChunkSet,
    withheld: ChunkSet,
    visible: ChunkSet,
    statuses: StatusTable,
    amended_by: BTreeMap<DocId, String>,
    /// The unreadable-newer-version mark of each visible document, from
    /// failed files the user may know of.
    unreadable: BTreeMap<DocId, String>,
}

impl Gate {
    /// When the question speaks for.
    pub fn as_of(&self) -> AsOf {
        self.as_of
    }

    /// Chunks that may be searched, read and cited.
    pub fn admissible(&self) -> &ChunkSet {
        &self.admissible
    }

    /// Chunks of visible documents that are not current (notes only).
    pub fn withheld(&self) -> &ChunkSet {
        &self.withheld
    }

    /// Chunks of every visible document (admissible or withheld).
    pub fn visible_chunks(&self) -> &ChunkSet {
        &self.visible
    }

    /// Whether the user may see that `doc` exists.
    pub fn is_visible(&self, doc: DocId) -> bool {
        self.statuses.contains(doc)
    }

    /// Whether `doc` is visible and current.
    pub fn admits(&self, doc: DocId) -> bool {
        self.statuses.get(doc).is_some_and(DocStatus::is_current)
    }

    /// Whether `chunk` may be shown, quoted and cited.
    pub fn admits_chunk(&self, chunk: ChunkId) -> bool {
        self.admissible.contains(chunk)
    }

    /// The status of a visible document; `None` for a hidden or unknown one.
    pub fn status(&self, doc: DocId) -> Option<&DocStatus> {
        self.statuses.get(doc)
    }

    /// The series key of a visible document, as stored (the full metadata
    /// is read from the snapshot's transaction, see `Snapshot::documents`).
    pub fn series(&self, doc: DocId) -> Option<&str> {
        self.statuses.find(doc).and_then(|(pos, _)| self.inputs.records.series(pos))
    }

    /// The session of a visible document.
    pub fn session(&self, doc: DocId) -> Option<Session> {
        self.statuses.find(doc).and_then(|(pos, _)| self.inputs.records.session(pos))
    }

    /// Every visible document with its status, by id.
    pub fn visible_documents(&self) -> impl Iterator<Item = (DocId, &DocStatus)> + '_ {
        self.statuses.iter()
    }

    /// The chunks of a visible document (empty for a hidden or unknown one).
    pub fn chunks_of(&self, doc: DocId) -> ChunkSet {
        self.statuses.find(doc).map(|(pos, _)| self.inputs.records.chunks(pos)).unwrap_or_default()
    }

    /// The mark of a visible document whose newer version could not be read.
    pub fn unreadable_mark(&self, doc: DocId) -> Option<&str> {
        self.visible(doc).and_then(|d| self.unreadable.get(&d)).map(String::as_str)
    }

    /// The mark of a current document that a current one amends
    /// ("amended by circular 2.2.14 (issued 2025-02-28): …").
    pub fn amendment_mark(&self, doc: DocId) -> Option<&str> {
        self.amended_by.get(&doc).map(String::as_str)
    }

    /// `doc` when the user may see it: every accessor of the shared inputs
    /// goes through here, so nothing of a hidden document leaves the gate.
    fn visible(&self, doc: DocId) -> Option<DocId> {
        self.is_visible(doc).then_some(doc)
    }

    /// The gate for `as_of` and the user's `audiences` over `inputs`.
    pub fn from_inputs(inputs: Arc<GateInputs>, as_of: AsOf, audiences: &[String]) -> Self {
        let statuses = inputs.records.statuses(&as_of, audiences);
        let current = statuses.positions().filter(|(_, s)| s.is_current()).map(|(pos, _)| pos);
        let admissible = inputs.records.chunks_of(current);
        let other = statuses.positions().filter(|(_, s)| !s.is_current()).map(|(pos, _)| pos);
        let withheld = inputs.records.chunks_of(other);
        let visible = ChunkSet::union_of([&admissible, &withheld]);
        let records = &inputs.records;
        let amended_by = super::amendments::marks(records.amended(&statuses), |by| records.amender_label(by));
        let unreadable = inputs
            .unreadable_newer
            .iter()
            .filter(|(doc, _)| statuses.contains(**doc))
            .filter_map(|(doc, marks)| Some((*doc, marks.iter().rev().find(|m| m.shown_to(audiences))?.text.clone())))
            .collect();
        Self { as_of, inputs, admissible, withheld, visible, statuses, amended_by, unreadable }
    }
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
