//! The freshness gate (ARCHITECTURE §2): admissible = current and visible to
//! the user's audience. It fills the candidate set *before* ranking, so a
//! withheld chunk never influences a search; a separate bounded search over
//! the withheld set feeds only the notes. Documents outside the audience are
//! *hidden*: the gate keeps no status or metadata for them, so nothing built
//! from a gate can name them.
//!
//! The gate is pure: its inputs are read from the library by
//! [`crate::store::gate_inputs`].

use std::collections::BTreeMap;
use std::sync::Arc;

use super::records::{StatusRecords, StatusTable};
use super::session::Session;
use super::status::{AsOf, DocStatus};
use super::unreadable::UnreadableMark;
use crate::ids::{ChunkId, ChunkSet, DocId};

/// What every gate of one committed library state is built from: the
/// writer's per-document gate records and its failed-files set (issue 16;
/// never the full metadata). A reader keeps the last one for its LMDB
/// transaction id, so building a gate for another as-of date or audience
/// on the same state costs only the status computation.
#[derive(Debug, Default)]
pub struct GateInputs {
    records: StatusRecords,
    unreadable_newer: BTreeMap<DocId, Vec<UnreadableMark>>,
}

impl GateInputs {
    /// The inputs made of the status `records` and the unreadable-newer-
    /// version marks of their documents (read from the library by
    /// [`crate::store::gate_inputs`]).
    pub(crate) fn new(records: StatusRecords, unreadable_newer: BTreeMap<DocId, Vec<UnreadableMark>>) -> Self {
        Self { records, unreadable_newer }
    }
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
