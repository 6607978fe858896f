//! Search through the snapshot's gate: only admissible chunks are ranked;
//! a bounded second search over withheld chunks feeds the notes.

use almirah_embed::EmbedderId;
use serde::Serialize;

use super::Snapshot;
use crate::embedder_choice::check_identity;
use crate::error::Result;
use crate::freshness::gate::Gate;
use crate::freshness::{AsOf, Reason, Session, StatusLabel, Verdict};
use crate::ids::ChunkSet;
use crate::search::{self, Hit, Scope, SearchOptions, SearchResults};
use crate::store::{get_meta, meta_keys};

/// Narrows a search to some documents. Both fields only ever narrow the
/// admissible set; neither can admit a withheld or hidden document.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DocFilter {
    /// Keep documents of this series (case-insensitive): the series as
    /// `almirah docs` shows it, or the part of a document key before `@`.
    pub series: Option<String>,
    /// Keep documents of this session.
    pub session: Option<Session>,
}

impl DocFilter {
    /// Whether the filter keeps everything.
    pub fn is_empty(&self) -> bool {
        self.series.is_none() && self.session.is_none()
    }

    /// The chunks of `within` (admissible or withheld) whose documents this
    /// filter keeps. `keys` gives a document's key.
    pub(crate) fn narrow(&self, gate: &Gate, within: &ChunkSet, key_of: impl Fn(crate::DocId) -> String) -> ChunkSet {
        if self.is_empty() {
            return within.clone();
        }
        let mut keep = ChunkSet::new();
        for (id, _) in gate.visible_documents() {
            if self.keeps(gate, id, &key_of(id)) {
                keep.union_with(&gate.chunks_of(id).intersection(within));
            }
        }
        keep
    }

    fn keeps(&self, gate: &Gate, id: crate::DocId, key: &str) -> bool {
        let series_ok = self.series.as_ref().is_none_or(|wanted| {
            let wanted = wanted.trim().to_lowercase();
            let series = gate.series(id).map(str::to_lowercase);
            let base = key.split('@').next().unwrap_or(key).to_lowercase();
            series.as_deref() == Some(wanted.as_str()) || base == wanted
        });
        let session_ok = self.session.is_none_or(|s| gate.session(id) == Some(s));
        series_ok && session_ok
    }
}

/// A hit withheld by the gate, kept only for notes and `--all-versions`.
#[derive(Debug, Clone, Serialize)]
pub struct WithheldHit {
    /// The hit (its verdict says why it was withheld). Its text is read in
    /// process only (whether the withheld evidence alone would answer);
    /// serialized, the hit carries no text (`hit_without_text`), so a
    /// withheld chunk's words never reach a person through `--json`, the
    /// HTTP service or MCP: they see which document and why.
    #[serde(serialize_with = "hit_without_text")]
    pub hit: Hit,
    /// Every status that applies, strongest first.
    pub statuses: Vec<StatusLabel>,
    /// Why: "superseded by circular-14@2026-27; other session 2024-25 …".
    pub reason: Reason,
}

/// Admissible hits plus the withheld notes.
#[derive(Debug, Clone, Serialize)]
pub struct GatedResults {
    /// When the answer speaks for.
    pub as_of: AsOf,
    /// Admissible hits, best first.
    pub results: SearchResults,
    /// Withheld hits (a bounded second search), best first.
    pub withheld: Vec<WithheldHit>,
}

impl GatedResults {
    /// No hits and no withheld notes (an empty library).
    pub fn empty(as_of: AsOf) -> Self {
        Self {
            as_of,
            results: SearchResults {
                hits: Vec::new(),
                candidates: 0,
                vector_strategy: crate::search::VectorStrategy::Exact,
                elapsed_ms: 0.0,
            },
            withheld: Vec::new(),
        }
    }
}

impl Snapshot<'_> {
    /// Hybrid search through the gate, narrowed by `filter`; `withheld_k`
    /// withheld hits (0 for none) feed the notes.
    ///
    /// # Errors
    /// [`crate::Error::EmbedderMismatch`] when the index was built with another
    /// embedder; [`crate::Error::SnapshotExpired`]; embedder and storage errors.
    pub fn search(
        &self,
        query: &str,
        opts: &SearchOptions,
        withheld_k: usize,
        filter: &DocFilter,
    ) -> Result<GatedResults> {
        let embedder = self.embedder.get()?;
        let rtxn = self.txn()?;
        let dbs = &self.dbs;
        let Some(stored) = get_meta::<EmbedderId>(dbs, &rtxn, meta_keys::EMBEDDER)? else {
            return Ok(GatedResults::empty(self.as_of()));
        };
        check_identity(&stored, &embedder.resolve_id()?)?;
        let index: u16 = get_meta(dbs, &rtxn, meta_keys::VECTOR_INDEX)?.unwrap_or(0);
        let key_of = |id| dbs.documents.get(&rtxn, &id).ok().flatten().map(|d| d.key).unwrap_or_default();
        let admissible = filter.narrow(&self.gate, self.gate.admissible(), key_of);
        let scope = Scope { candidates: &admissible, visible: self.gate.visible_chunks() };
        // Embedded once for both searches (the withheld one feeds the notes).
        let qv = match opts.mode {
            search::SearchMode::Bm25 => None,
            _ => Some(search::embed_query(
                embedder,
                &search::vector_query(dbs, &rtxn, embedder, query, self.gate.admissible())?,
            )?),
        };
        let mut results = search::search_embedded(dbs, &rtxn, embedder, index, query, qv.as_deref(), scope, opts)?;
        for hit in &mut results.hits {
            hit.verdict = Verdict::Admissible { mark: self.mark_in(&rtxn, hit.doc_id)? };
        }
        let mut withheld = Vec::new();
        if withheld_k > 0 && !self.gate.withheld().is_empty() {
            let within = filter.narrow(&self.gate, self.gate.withheld(), key_of);
            let w_opts = SearchOptions { k: withheld_k, ..*opts };
            let scope = Scope { candidates: &within, visible: self.gate.visible_chunks() };
            let w = search::search_embedded(dbs, &rtxn, embedder, index, query, qv.as_deref(), scope, &w_opts)?;
            for mut hit in w.hits {
                let Some(status) = self.gate.status(hit.doc_id) else { continue };
                let reason = self.reason_in(&rtxn, hit.doc_id)?;
                hit.verdict = Verdict::Withheld(reason.clone());
                withheld.push(WithheldHit { hit, statuses: status.labels(), reason });
            }
        }
        Ok(GatedResults { as_of: self.as_of(), results, withheld })
    }
}

/// Serializes a withheld hit with an empty `text`.
fn hit_without_text<S: serde::Serializer>(hit: &Hit, serializer: S) -> std::result::Result<S::Ok, S::Error> {
    let shown = Hit { text: String::new(), ..hit.clone() };
    serde::Serialize::serialize(&shown, serializer)
}
