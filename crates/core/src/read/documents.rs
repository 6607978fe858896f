//! The document listing (`almirah docs`, `list_documents`, the desktop
//! documents table) through the snapshot's gate: only documents visible to
//! the user, with reasons that name only visible documents.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Serialize;

use super::Snapshot;
use crate::error::Result;
use crate::freshness::{DocMeta, Reason, StatusLabel};
use crate::ids::DocId;

/// One document as `almirah docs` shows it.
#[derive(Debug, Clone, Serialize)]
pub struct DocView {
    /// Internal id.
    pub id: DocId,
    /// Readable key.
    pub key: String,
    /// Title.
    pub title: String,
    /// Source path.
    pub path: String,
    /// Status labels, strongest first.
    pub statuses: Vec<StatusLabel>,
    /// Why it is withheld (`current` when it is not).
    pub reason: Reason,
    /// Keys of the visible documents that supersede it.
    pub superseded_by: Vec<String>,
    /// Chunk count.
    pub chunks: usize,
    /// Metadata with provenance (overrides applied).
    pub meta: DocMeta,
    /// User overrides in force.
    pub overrides: BTreeMap<String, String>,
    /// Set when a newer version of the file could not be read.
    pub stale_reason: Option<String>,
    /// Set when the text was read by OCR: pages and confidence.
    pub ocr: Option<crate::update::OcrSummary>,
    /// Set when a current document amends this one.
    pub amended: Option<String>,
}

impl DocView {
    /// Whether the document is in force.
    pub fn is_current(&self) -> bool {
        self.statuses == [StatusLabel::Current]
    }
}

impl Snapshot<'_> {
    /// Every document visible to the user, with its status, by key.
    ///
    /// # Errors
    /// [`crate::Error::SnapshotExpired`]; storage errors.
    pub fn documents(&self) -> Result<Vec<DocView>> {
        let rtxn = self.txn()?;
        let mut out = Vec::new();
        for (id, status) in self.gate.visible_documents() {
            let Some(doc) = self.dbs.documents.get(&rtxn, &id)? else { continue };
            let reason = self.reason_in(&rtxn, id)?;
            let overrides = self.dbs.overrides.get(&rtxn, &id)?.unwrap_or_default();
            let mut meta = self.dbs.doc_meta.get(&rtxn, &id)?.unwrap_or_default();
            crate::freshness::overrides::apply(&mut meta, &overrides);
            out.push(DocView {
                id,
                key: doc.key,
                title: meta.title.as_ref().map_or(doc.title, |t| t.value.clone()),
                path: doc.path,
                statuses: status.labels(),
                superseded_by: reason.superseded_by.clone(),
                reason,
                chunks: doc.chunks.len(),
                meta,
                overrides,
                stale_reason: doc.stale_reason.or_else(|| self.gate.unreadable_mark(id).map(str::to_string)),
                ocr: doc.ocr.as_ref().map(crate::update::OcrSummary::of),
                amended: self.gate.amendment_mark(id).map(str::to_string),
            });
        }
        out.sort_by(|a, b| a.key.cmp(&b.key));
        Ok(out)
    }

    /// The visible document a user means by `reference`: its key, its id,
    /// its path, or its file name when only one visible document's file
    /// has it. A hidden document is answered like a missing one.
    ///
    /// # Errors
    /// [`crate::Error::SnapshotExpired`]; storage errors.
    pub fn find_document(&self, reference: &str) -> Result<Option<DocId>> {
        let rtxn = self.txn()?;
        let dbs = &self.dbs;
        let by_key = dbs.doc_keys.get(&rtxn, reference)?;
        let by_id = reference.parse::<u32>().ok().map(DocId::new).filter(|id| self.gate.is_visible(*id));
        let by_path = || {
            let path = Path::new(reference).canonicalize().ok()?;
            dbs.files.get(&rtxn, &path.to_string_lossy()).ok().flatten()?.doc_id
        };
        let found = by_key.or(by_id).or_else(by_path).filter(|id| self.gate.is_visible(*id));
        match found {
            Some(id) => Ok(Some(id)),
            None => self.document_by_file_name(&rtxn, reference),
        }
    }

    /// The one visible document whose file is named `name` (no folder);
    /// `None` when no visible document's file has that name or several do.
    fn document_by_file_name(&self, rtxn: &heed::RoTxn<'_>, name: &str) -> Result<Option<DocId>> {
        if name.is_empty() || name.contains(['/', '\\']) {
            return Ok(None);
        }
        let mut found = None;
        for entry in self.dbs.files.iter(rtxn)? {
            let (path, record) = entry?;
            let Some(id) = record.doc_id.filter(|id| self.gate.is_visible(*id)) else { continue };
            if Path::new(path).file_name().is_some_and(|f| f == name) {
                if found.is_some_and(|f| f != id) {
                    return Ok(None);
                }
                found = Some(id);
            }
        }
        Ok(found)
    }
}
