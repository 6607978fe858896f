//! Row lookups in the admissible CSV tables, through the snapshot's gate:
//! only tables of documents in force and visible to the user are searched
//! or listed.

use serde::Serialize;

use super::Snapshot;
use crate::error::Result;
use crate::freshness::Verdict;
use crate::search::Hit;

/// The answer of [`Snapshot::lookup_table`].
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

impl Snapshot<'_> {
    /// Rows whose cells contain `key` (case-insensitive) in the admissible
    /// CSV table named `table` (its document key, file name or title,
    /// case-insensitive, a prefix is enough). At most `limit` rows.
    ///
    /// # Errors
    /// [`crate::Error::SnapshotExpired`]; storage errors.
    pub fn lookup_table(&self, table: &str, key: &str, limit: usize) -> Result<TableLookup> {
        let rtxn = self.txn()?;
        let wanted = table.trim().to_lowercase();
        let mut available = Vec::new();
        let admitted = self.gate.visible_documents().filter(|(_, s)| s.is_current()).map(|(id, _)| id);
        for id in admitted.collect::<Vec<_>>() {
            let (Some(doc), Some(t)) = (self.dbs.documents.get(&rtxn, &id)?, self.dbs.tables.get(&rtxn, &id)?) else {
                continue;
            };
            let file = doc.path.rsplit('/').next().unwrap_or_default().to_lowercase();
            let names = [doc.key.to_lowercase(), file, doc.title.to_lowercase()];
            if wanted.is_empty() || !names.iter().any(|n| n.starts_with(&wanted)) {
                available.push(doc.key);
                continue;
            }
            let needle = key.trim().to_lowercase();
            let mark = self.mark_in(&rtxn, id)?;
            let mut rows = Vec::new();
            for chunk in doc.chunks.iter().filter(|c| self.gate.admits_chunk(**c)) {
                let Some(mut hit) = crate::search::load_hit(&self.dbs, &rtxn, *chunk, 0.0, None, None)? else {
                    continue;
                };
                if hit.text.to_lowercase().contains(&needle) && rows.len() < limit {
                    hit.verdict = Verdict::Admissible { mark: mark.clone() };
                    rows.push(hit);
                }
            }
            let values = text_values(&t);
            return Ok(TableLookup::Rows { document: doc.key, headers: t.headers, rows, values });
        }
        available.sort();
        Ok(TableLookup::NoSuchTable { table: table.into(), available })
    }
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
