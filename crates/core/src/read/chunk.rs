//! One chunk by its readable key, and the citation check, through the
//! snapshot's gate. A chunk of a document outside the user's audience is
//! answered exactly like a key that does not exist.

use serde::Serialize;

use super::Snapshot;
use crate::error::Result;
use crate::freshness::{Reason, Verdict};
use crate::ids::ChunkId;
use crate::search::Hit;

/// The answer of [`Snapshot::read_chunk`].
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "outcome", rename_all = "kebab-case")]
pub enum ChunkRead {
    /// The chunk, from an admissible document.
    Admitted {
        /// The chunk as a hit (score 0; its verdict carries any mark).
        hit: Box<Hit>,
    },
    /// The chunk exists, the user may see its document, but it is not in
    /// force at the snapshot's as-of date.
    Withheld {
        /// Chunk key.
        key: String,
        /// Why ("superseded by circular-14@2026-27").
        reason: Reason,
    },
    /// No chunk the user may see has this key.
    NotFound {
        /// The key asked for.
        key: String,
    },
}

/// What the gate says of a cited key (ARCHITECTURE §2, "Citations").
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CitationCheck {
    /// Admissible; `mark` when a newer version could not be read.
    Admitted {
        /// "a newer version exists but could not be read: …".
        mark: Option<String>,
    },
    /// Visible but not in force.
    Withheld(Reason),
    /// No chunk the user may see has this key.
    Unknown,
}

impl Snapshot<'_> {
    /// Read one chunk by its readable key.
    ///
    /// # Errors
    /// [`crate::Error::SnapshotExpired`]; storage errors.
    pub fn read_chunk(&self, key: &str) -> Result<ChunkRead> {
        let not_found = || ChunkRead::NotFound { key: key.to_string() };
        let rtxn = self.txn()?;
        let Some(id) = self.visible_chunk(&rtxn, key)? else { return Ok(not_found()) };
        if !self.gate.admits_chunk(id) {
            let Some(doc) = self.dbs.chunks.get(&rtxn, &id)?.map(|c| c.doc_id) else { return Ok(not_found()) };
            return Ok(ChunkRead::Withheld { key: key.to_string(), reason: self.reason_in(&rtxn, doc)? });
        }
        let Some(mut hit) = crate::search::load_hit(&self.dbs, &rtxn, id, 0.0, None, None)? else {
            return Ok(not_found());
        };
        hit.verdict = Verdict::Admissible { mark: self.mark_in(&rtxn, hit.doc_id)? };
        Ok(ChunkRead::Admitted { hit: Box::new(hit) })
    }

    /// Re-check a cited key against the gate.
    ///
    /// # Errors
    /// [`crate::Error::SnapshotExpired`]; storage errors.
    pub fn check_citation(&self, key: &str) -> Result<CitationCheck> {
        let rtxn = self.txn()?;
        let Some(id) = self.visible_chunk(&rtxn, key)? else { return Ok(CitationCheck::Unknown) };
        let Some(doc) = self.dbs.chunks.get(&rtxn, &id)?.map(|c| c.doc_id) else { return Ok(CitationCheck::Unknown) };
        if self.gate.admits_chunk(id) {
            return Ok(CitationCheck::Admitted { mark: self.mark_in(&rtxn, doc)? });
        }
        Ok(CitationCheck::Withheld(self.reason_in(&rtxn, doc)?))
    }

    /// The chunk id of `key` if its document is visible to the user.
    fn visible_chunk(&self, rtxn: &heed::RoTxn<'_>, key: &str) -> Result<Option<ChunkId>> {
        let Some(id) = self.dbs.chunk_keys.get(rtxn, key)? else { return Ok(None) };
        let visible = self.gate.admits_chunk(id) || self.gate.withheld().contains(id);
        Ok(visible.then_some(id))
    }

    /// The marks on an admitted document: a newer version could not be
    /// read, or a current document amends it.
    pub(super) fn mark_in(&self, rtxn: &heed::RoTxn<'_>, doc: crate::DocId) -> Result<Option<String>> {
        let kept = self.dbs.documents.get(rtxn, &doc)?.and_then(|d| d.stale_reason);
        let unreadable = kept.or_else(|| self.gate.unreadable_mark(doc).map(str::to_string));
        let marks: Vec<String> =
            unreadable.into_iter().chain(self.gate.amendment_mark(doc).map(str::to_string)).collect();
        Ok((!marks.is_empty()).then(|| marks.join("; ")))
    }
}
