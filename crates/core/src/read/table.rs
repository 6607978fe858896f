//! Row lookups in the admissible tables (CSV files, and each sheet of a
//! spreadsheet), through the snapshot's gate: only tables of documents in
//! force and visible to the user are searched or listed.

use almirah_extract::Table;
use serde::Serialize;

use super::Snapshot;
use crate::error::Result;
use crate::freshness::Verdict;
use crate::search::Hit;
use crate::store::DocumentRecord;

/// The answer of [`Snapshot::lookup_table`].
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "outcome", rename_all = "kebab-case")]
pub enum TableLookup {
    /// Rows of an admissible table whose cells match the key.
    Rows {
        /// Document key of the table.
        document: String,
        /// The sheet, for a workbook of several sheets.
        #[serde(skip_serializing_if = "Option::is_none")]
        sheet: Option<String>,
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
    /// table named `table`, case-insensitive, a prefix being enough: a
    /// document's key, file name or title (its first table), or for a
    /// workbook of several sheets a sheet's name, alone or after the
    /// document's (`academic-calendar/office hours`). At most `limit` rows.
    ///
    /// # Errors
    /// [`crate::Error::SnapshotExpired`]; storage errors.
    pub fn lookup_table(&self, table: &str, key: &str, limit: usize) -> Result<TableLookup> {
        let rtxn = self.txn()?;
        let wanted = table.trim().to_lowercase();
        let mut available = Vec::new();
        let admitted = self.gate.visible_documents().filter(|(_, s)| s.is_current()).map(|(id, _)| id);
        for id in admitted.collect::<Vec<_>>() {
            let (Some(doc), Some(tables)) = (self.dbs.documents.get(&rtxn, &id)?, self.dbs.tables.get(&rtxn, &id)?)
            else {
                continue;
            };
            let Some(t) = named(&doc, &tables, &wanted) else {
                available.extend(table_names(&doc, &tables));
                continue;
            };
            let needle = key.trim().to_lowercase();
            let mark = self.mark_in(&rtxn, id)?;
            let mut rows = Vec::new();
            for chunk in doc.chunks.iter().filter(|c| self.gate.admits_chunk(**c)) {
                let Some(mut hit) = crate::search::load_hit(&self.dbs, &rtxn, *chunk, 0.0, None, None)? else {
                    continue;
                };
                let in_sheet = t.sheet.as_ref().is_none_or(|s| hit.heading_path.last() == Some(s));
                if in_sheet && hit.text.to_lowercase().contains(&needle) && rows.len() < limit {
                    hit.verdict = Verdict::Admissible { mark: mark.clone() };
                    rows.push(hit);
                }
            }
            let values = text_values(t);
            let (headers, sheet) = (t.headers.clone(), t.sheet.clone());
            return Ok(TableLookup::Rows { document: doc.key, sheet, headers, rows, values });
        }
        available.sort();
        Ok(TableLookup::NoSuchTable { table: table.into(), available })
    }
}

/// The table of `doc` that `wanted` (lower case) names, if any: a sheet by
/// its name (alone or after a name of the document), else the document's
/// first table by the document's key, file name or title.
fn named<'t>(doc: &DocumentRecord, tables: &'t [Table], wanted: &str) -> Option<&'t Table> {
    if wanted.is_empty() {
        return None;
    }
    let file = doc.path.rsplit('/').next().unwrap_or_default().to_lowercase();
    let names = [doc.key.to_lowercase(), file, doc.title.to_lowercase()];
    let by_sheet = tables.iter().find(|t| {
        t.sheet.as_ref().is_some_and(|s| {
            let s = s.to_lowercase();
            s.starts_with(wanted)
                || names.iter().any(|n| format!("{n}/{s}").starts_with(wanted) && wanted.contains('/'))
        })
    });
    by_sheet.or_else(|| names.iter().any(|n| n.starts_with(wanted)).then(|| tables.first()).flatten())
}

/// What the tables of `doc` are called in a listing: its key, or
/// `key/sheet` for each sheet of a workbook of several.
fn table_names(doc: &DocumentRecord, tables: &[Table]) -> Vec<String> {
    tables.iter().map(|t| t.sheet.as_ref().map_or_else(|| doc.key.clone(), |s| format!("{}/{s}", doc.key))).collect()
}

/// Distinct values of the columns that hold no numbers, lower case.
fn text_values(table: &Table) -> Vec<String> {
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
