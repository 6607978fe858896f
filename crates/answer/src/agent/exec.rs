//! Running validated tool calls against the engine. Every tool reads
//! through the freshness gate at the loop's as-of date, so only admitted
//! chunks become evidence; withheld ones come back as notes with their
//! reasons and never with their text (ARCHITECTURE §2, §7).

use std::time::Instant;

use almirah_core::Snapshot;
use almirah_core::read::{ChunkRead, DocFilter, TableLookup};
use serde::{Deserialize, Serialize};

use super::tools::ToolRequest;
use crate::evidence::Evidence;
use crate::trace::{Step, TraceHit};

/// What one tool call produced.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ToolOutcome {
    /// Tool name.
    pub name: String,
    /// Arguments (clamped).
    pub arguments: serde_json::Value,
    /// Admitted chunks it returned, best first.
    pub evidence: Vec<Evidence>,
    /// Withheld notes: "circular-09@2024-25: superseded by circular-14@2026-27".
    pub withheld: Vec<String>,
    /// Plain-text result for listings and errors (no document text).
    pub text: String,
    /// For `lookup_table`: the table's text values that can be looked up.
    pub cells: Vec<String>,
    /// Whether the call failed.
    pub error: bool,
    /// Time, ms.
    pub ms: f64,
    /// The search step for the trace, when the tool searched.
    pub search_step: Option<Step>,
}

/// Run one request against the question's snapshot (its as-of date and
/// audience were set in code; no argument can change them).
pub fn execute(snapshot: &Snapshot<'_>, request: &ToolRequest) -> ToolOutcome {
    let started = Instant::now();
    let mut out = ToolOutcome { name: request.name().into(), arguments: request.arguments(), ..Default::default() };
    let result = match request {
        ToolRequest::Search { query, series, session, k } => {
            let filter = DocFilter { series: series.clone(), session: *session };
            search(snapshot, query, &filter, *k, &mut out)
        }
        ToolRequest::ReadChunk { key } => read(snapshot, key, &mut out),
        ToolRequest::ListDocuments { filter } => list(snapshot, filter, &mut out),
        ToolRequest::LookupTable { table, key } => lookup(snapshot, table, key, &mut out),
    };
    if let Err(e) = result {
        out.error = true;
        out.text = format!("error: {e}");
    }
    out.ms = started.elapsed().as_secs_f64() * 1000.0;
    out
}

fn search(
    snapshot: &Snapshot<'_>,
    query: &str,
    filter: &DocFilter,
    k: usize,
    out: &mut ToolOutcome,
) -> almirah_core::Result<()> {
    let settings = snapshot.settings();
    let opts = almirah_core::SearchOptions { k, ..settings.search };
    let results = snapshot.search(query, &opts, settings.withheld_notes, filter)?;
    let as_of = snapshot.as_of();
    out.evidence = results.results.hits.iter().map(Evidence::from).collect();
    out.withheld = crate::classic::withheld_notes(&results);
    let hit = |key: &str, path: &str, score: f32, verdict: String| TraceHit {
        key: key.into(),
        path: path.into(),
        score,
        verdict,
    };
    out.search_step = Some(Step::Search {
        query: query.into(),
        as_of: as_of.date.to_string(),
        session: as_of.session.to_string(),
        hits: results.results.hits.iter().map(|h| hit(&h.key, &h.path, h.score, "admitted".into())).collect(),
        withheld: results
            .withheld
            .iter()
            .map(|w| hit(&w.hit.key, &w.hit.path, w.hit.score, w.hit.verdict.to_string()))
            .collect(),
        ms: results.results.elapsed_ms,
    });
    if out.evidence.is_empty() {
        out.text = "no passage in force matches".into();
    }
    Ok(())
}

fn read(snapshot: &Snapshot<'_>, key: &str, out: &mut ToolOutcome) -> almirah_core::Result<()> {
    let as_of = snapshot.as_of();
    match snapshot.read_chunk(key)? {
        ChunkRead::Admitted { hit } => out.evidence.push(Evidence::from(hit.as_ref())),
        ChunkRead::Withheld { key, reason } => {
            out.withheld.push(format!("{}: {reason}", crate::evidence::document_of(&key)));
            out.text = format!("[{key}] is not in force as of {}: {reason}", as_of.date);
        }
        ChunkRead::NotFound { key } => {
            out.error = true;
            out.text = format!("error: no passage has the key [{key}]; use a key from a search result");
        }
    }
    Ok(())
}

fn list(snapshot: &Snapshot<'_>, filter: &str, out: &mut ToolOutcome) -> almirah_core::Result<()> {
    let needle = filter.to_lowercase();
    let docs = snapshot.documents()?;
    let (current, other): (Vec<_>, Vec<_>) = docs
        .into_iter()
        .filter(|d| d.key.to_lowercase().contains(&needle) || d.title.to_lowercase().contains(&needle))
        .partition(|d| d.is_current());
    let mut lines: Vec<String> = current
        .iter()
        .take(30)
        .map(|d| {
            let session = d.meta.session.as_ref().map(|s| format!(", session {}", s.value)).unwrap_or_default();
            format!("{} — {}{session}", d.key, d.title)
        })
        .collect();
    if current.len() > 30 {
        lines.push(format!("… and {} more", current.len() - 30));
    }
    if !other.is_empty() {
        lines.push(format!("({} matching documents are not in force and are not listed)", other.len()));
    }
    out.text = if lines.is_empty() { "no document in force matches".into() } else { lines.join("\n") };
    Ok(())
}

fn lookup(snapshot: &Snapshot<'_>, table: &str, key: &str, out: &mut ToolOutcome) -> almirah_core::Result<()> {
    match snapshot.lookup_table(table, key, 12)? {
        TableLookup::Rows { document, sheet, headers, rows, values } => {
            let document = sheet.map_or_else(|| document.clone(), |s| format!("{document}/{s}"));
            out.evidence = rows.iter().map(Evidence::from).collect();
            if rows.is_empty() {
                out.text = format!("no row of {document} ({}) contains {key:?}", headers.join(", "));
            }
            out.text.push_str(&format!("\nother values in {document}: {}", values.join(", ")));
            out.cells = values;
        }
        TableLookup::NoSuchTable { table, available } => {
            out.error = true;
            out.text = format!("error: no table in force is called {table:?}; tables: {}", available.join(", "));
        }
    }
    Ok(())
}

/// The result as the model reads it: admitted passages in delimited data
/// blocks (their text is data, not instructions), then notes.
pub fn render(outcome: &ToolOutcome) -> String {
    let mut out = format!("RESULT of {} {}:\n", outcome.name, outcome.arguments);
    for e in &outcome.evidence {
        out.push_str(&crate::providers::prompt::document_block(e));
        out.push('\n');
    }
    if !outcome.text.is_empty() {
        out.push_str(&outcome.text);
        out.push('\n');
    }
    for w in &outcome.withheld {
        out.push_str(&format!("withheld (not in force, do not use): {w}\n"));
    }
    out
}
