//! Gated reads for the agent's tools: a chunk by key, a row lookup in an
//! ingested CSV table, and the document filter (series, session) that
//! narrows a search. Each one builds the freshness gate for the as-of date
//! first, so a tool can never return a chunk the gate withholds
//! (ARCHITECTURE §2, §5). Read-only; one read transaction per call.

use heed::RoTxn;
use roaring::RoaringBitmap;
use serde::Serialize;

use crate::error::Result;
use crate::freshness::gate::{self, Gate};
use crate::freshness::{AsOf, Session};
use crate::gated;
use crate::search::Hit;
use crate::store::Databases;

/// Narrows a search to some documents. Both fields only ever narrow the
/// admissible set; neither can admit a withheld document.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DocFilter {
    /// Keep documents of this series (case-insensitive), e.g. `circular`.
    pub series: Option<String>,
    /// Keep documents of this session.
    pub session: Option<Session>,
}

impl DocFilter {
    /// Whether the filter keeps everything.
    pub fn is_empty(&self) -> bool {
        self.series.is_none() && self.session.is_none()
    }

    /// The admissible documents this filter keeps.
    pub fn narrow(&self, gate: &Gate) -> RoaringBitmap {
        if self.is_empty() {
            return gate.admissible.clone();
        }
        let mut keep = RoaringBitmap::new();
        for id in gate.admissible.iter() {
            let meta = gate.metas.get(&id);
            let series = meta.and_then(|m| m.series.as_ref()).map(|f| f.value.to_lowercase());
            let session = meta.and_then(|m| m.session.as_ref()).map(|f| f.value);
            let series_ok = self.series.as_ref().is_none_or(|s| series.as_deref() == Some(&s.to_lowercase()));
            let session_ok = self.session.is_none_or(|s| session == Some(s));
            if series_ok && session_ok {
                keep.insert(id);
            }
        }
        keep
    }
}

/// The answer of [`read_chunk`].
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "outcome", rename_all = "kebab-case")]
pub enum ChunkRead {
    /// The chunk, from an admissible document.
    Admitted {
        /// The chunk as a hit (score 0).
        hit: Box<Hit>,
    },
    /// The chunk exists but its document is withheld at this as-of.
    Withheld {
        /// Chunk key.
        key: String,
        /// Why ("superseded by circular-14@2026-27").
        reason: String,
    },
    /// No chunk has this key.
    NotFound {
        /// The key asked for.
        key: String,
    },
}

/// Read one chunk by its readable key, through the gate.
///
/// # Errors
/// Storage errors.
pub fn read_chunk(
    dbs: &Databases,
    rtxn: &RoTxn<'_>,
    key: &str,
    as_of: AsOf,
    audiences: &[String],
) -> Result<ChunkRead> {
    let Some(id) = dbs.chunk_keys.get(rtxn, key)? else {
        return Ok(ChunkRead::NotFound { key: key.into() });
    };
    let Some(hit) = crate::search::load_hit(dbs, rtxn, id, 0.0, None, None)? else {
        return Ok(ChunkRead::NotFound { key: key.into() });
    };
    let gate = gate::build(dbs, rtxn, as_of, audiences)?;
    if gate.admissible.contains(hit.doc_id) {
        return Ok(ChunkRead::Admitted { hit: Box::new(hit) });
    }
    let reason = match gate.status(hit.doc_id) {
        Some(status) => gated::reason(&gate, status, dbs, rtxn)?,
        None => "not visible to your audience".into(),
    };
    Ok(ChunkRead::Withheld { key: key.into(), reason })
}

/// The answer of [`lookup_table`].
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "outcome", rename_all = "kebab-case")]
pub enum TableLookup {
    /// Rows of an admissible table whose cells match the key.
    Rows {
        /// Document key of the table.
        document: String,
        /// Header row.
        headers: Vec<String>,
        /// Matching rows, each as its chunk (cite its key).
        rows: Vec<Hit>,
        /// Distinct values of the table's text columns (lower case): what
        /// else can be looked up.
        values: Vec<String>,
    },
    /// No admissible table matches the name.
    NoSuchTable {
        /// The name asked for.
        table: String,
        /// Document keys of the admissible tables.
        available: Vec<String>,
    },
}

/// Look up rows whose cells contain `key` (case-insensitive) in the
/// admissible CSV table named `table` (its document key, file name or
/// title, case-insensitive, a prefix is enough). At most `limit` rows.
///
/// # Errors
/// Storage errors.
pub fn lookup_table(
    dbs: &Databases,
    rtxn: &RoTxn<'_>,
    table: &str,
    key: &str,
    limit: usize,
    as_of: AsOf,
    audiences: &[String],
) -> Result<TableLookup> {
    let gate = gate::build(dbs, rtxn, as_of, audiences)?;
    let wanted = table.trim().to_lowercase();
    let mut available = Vec::new();
    for id in gate.admissible.iter() {
        let (Some(doc), Some(t)) = (dbs.documents.get(rtxn, &id)?, dbs.tables.get(rtxn, &id)?) else { continue };
        let file = doc.path.rsplit('/').next().unwrap_or_default().to_lowercase();
        let names = [doc.key.to_lowercase(), file, doc.title.to_lowercase()];
        if wanted.is_empty() || !names.iter().any(|n| n.starts_with(&wanted)) {
            available.push(doc.key);
            continue;
        }
        let needle = key.trim().to_lowercase();
        let mut rows = Vec::new();
        for chunk in &doc.chunks {
            let Some(hit) = crate::search::load_hit(dbs, rtxn, *chunk, 0.0, None, None)? else { continue };
            if hit.text.to_lowercase().contains(&needle) && rows.len() < limit {
                rows.push(hit);
            }
        }
        let values = text_values(&t);
        return Ok(TableLookup::Rows { document: doc.key, headers: t.headers, rows, values });
    }
    available.sort();
    Ok(TableLookup::NoSuchTable { table: table.into(), available })
}

/// Distinct values of the columns that hold no numbers, lower case.
fn text_values(table: &almirah_extract::Table) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for col in 0..table.headers.len() {
        let cells: Vec<&str> = table.rows.iter().filter_map(|r| r.get(col)).map(|c| c.trim()).collect();
        if cells.iter().any(|c| c.chars().any(|ch| ch.is_ascii_digit())) {
            continue;
        }
        for c in cells {
            let c = c.to_lowercase();
            if !c.is_empty() && !out.contains(&c) {
                out.push(c);
            }
        }
    }
    out
}
