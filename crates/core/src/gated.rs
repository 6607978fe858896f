//! Search through the freshness gate, and the document listing, for an
//! as-of date and the user's audience. Everything a query needs is read in
//! one read transaction, so statuses and hits agree.

use std::collections::BTreeMap;

use almirah_embed::Embedder;
use heed::RoTxn;
use serde::Serialize;

use crate::error::Result;
use crate::freshness::gate::{self, Gate};
use crate::freshness::{AsOf, DocMeta, DocStatus};
use crate::search::{self, Hit, SearchOptions, SearchResults};
use crate::store::Databases;

/// Hits withheld by the gate, kept only for notes and `--all-versions`.
#[derive(Debug, Clone, Serialize)]
pub struct WithheldHit {
    /// The hit (its verdict says why it was withheld).
    pub hit: Hit,
    /// Every status that applies, strongest first.
    pub statuses: Vec<String>,
    /// A readable reason: "superseded by circular-14@2026-27; other session 2024-25".
    pub reason: String,
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

/// Run the gated search.
///
/// # Errors
/// Embedder and storage errors.
#[allow(clippy::too_many_arguments)]
pub fn search(
    dbs: &Databases,
    rtxn: &RoTxn<'_>,
    embedder: &dyn Embedder,
    vector_index: u16,
    query: &str,
    opts: &SearchOptions,
    as_of: AsOf,
    audiences: &[String],
    withheld_k: usize,
    filter: &crate::lookup::DocFilter,
) -> Result<GatedResults> {
    let gate = gate::build(dbs, rtxn, as_of, audiences)?;
    let admissible = filter.narrow(&gate);
    let mut results = search::search(dbs, rtxn, embedder, vector_index, query, &admissible, opts)?;
    for hit in &mut results.hits {
        let kept = dbs.documents.get(rtxn, &hit.doc_id)?.and_then(|d| d.stale_reason);
        hit.verdict = match kept.or_else(|| gate.unreadable_newer.get(&hit.doc_id).cloned()) {
            Some(mark) => format!("admissible; {mark}"),
            None => "admissible".into(),
        };
    }
    let mut withheld = Vec::new();
    if withheld_k > 0 && !gate.withheld.is_empty() {
        let w_opts = SearchOptions { k: withheld_k, ..*opts };
        let w = search::search(dbs, rtxn, embedder, vector_index, query, &gate.withheld, &w_opts)?;
        for mut hit in w.hits {
            let Some(status) = gate.status(hit.doc_id) else { continue };
            let reason = reason(&gate, status, dbs, rtxn)?;
            hit.verdict = format!("withheld: {reason}");
            let statuses = status.labels().iter().map(|s| s.to_string()).collect();
            withheld.push(WithheldHit { hit, statuses, reason });
        }
    }
    Ok(GatedResults { as_of, results, withheld })
}

/// A readable reason for a status, naming superseding documents by key.
///
/// # Errors
/// Storage errors.
pub fn reason(gate: &Gate, status: &DocStatus, dbs: &Databases, rtxn: &RoTxn<'_>) -> Result<String> {
    let mut parts = Vec::new();
    if !status.superseded_by.is_empty() {
        let mut keys = Vec::new();
        for id in &status.superseded_by {
            keys.push(dbs.documents.get(rtxn, id)?.map_or_else(|| format!("#{id}"), |d| d.key));
        }
        keys.sort();
        parts.push(format!("superseded by {}", keys.join(", ")));
    }
    if status.expired {
        parts.push("expired".to_string());
    }
    if status.pending {
        parts.push(format!("pending (not in force on {})", gate.as_of.date));
    }
    if let Some(s) = status.other_session {
        parts.push(format!("other session {s} (current session {})", gate.as_of.session));
    }
    Ok(if parts.is_empty() { "current".into() } else { parts.join("; ") })
}

/// One document as `almirah docs` shows it.
#[derive(Debug, Clone, Serialize)]
pub struct DocView {
    /// Internal id.
    pub id: u32,
    /// Readable key.
    pub key: String,
    /// Title.
    pub title: String,
    /// Source path.
    pub path: String,
    /// Status labels, strongest first.
    pub statuses: Vec<String>,
    /// Readable reason.
    pub reason: String,
    /// Keys of the documents that supersede it.
    pub superseded_by: Vec<String>,
    /// Chunk count.
    pub chunks: usize,
    /// Metadata with provenance (overrides applied).
    pub meta: DocMeta,
    /// User overrides in force.
    pub overrides: BTreeMap<String, String>,
    /// Set when a newer version of the file could not be read.
    pub stale_reason: Option<String>,
}

/// Every document visible to the user, with its status at `as_of`.
///
/// # Errors
/// Storage errors.
pub fn documents(dbs: &Databases, rtxn: &RoTxn<'_>, as_of: AsOf, audiences: &[String]) -> Result<Vec<DocView>> {
    let gate = gate::build(dbs, rtxn, as_of, audiences)?;
    let mut out = Vec::new();
    for (id, status) in gate.statuses.iter().filter(|(_, s)| s.audience_allowed) {
        let Some(doc) = dbs.documents.get(rtxn, id)? else { continue };
        let mut superseded_by = Vec::new();
        for by in &status.superseded_by {
            superseded_by.push(dbs.documents.get(rtxn, by)?.map_or_else(|| format!("#{by}"), |d| d.key));
        }
        out.push(DocView {
            id: *id,
            key: doc.key,
            title: doc.title,
            path: doc.path,
            statuses: status.labels().iter().map(|s| s.to_string()).collect(),
            reason: reason(&gate, status, dbs, rtxn)?,
            superseded_by,
            chunks: doc.chunks.len(),
            meta: gate.metas.get(id).cloned().unwrap_or_default(),
            overrides: dbs.overrides.get(rtxn, id)?.unwrap_or_default(),
            stale_reason: doc.stale_reason.or_else(|| gate.unreadable_newer.get(id).cloned()),
        });
    }
    out.sort_by(|a, b| a.key.cmp(&b.key));
    Ok(out)
}
