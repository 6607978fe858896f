//! What callers receive. Retrieved text is data, never instructions
//! (ARCHITECTURE §7): each admitted passage is one delimited block
//! `<document key="…" document="…" title="…" pages="…" status="…">…</document>`
//! whose text cannot close its block early, followed by plain notes on
//! what was withheld (names and reasons only, never text). The same
//! passages also come as JSON (`structuredContent` in MCP).

use almirah_answer::agent::exec::ToolOutcome;
use almirah_answer::classic::Answer;
use almirah_answer::evidence::Evidence;
use almirah_answer::providers::prompt::document_block_with;
use serde_json::{Value, json};

pub use almirah_answer::evidence::document_of;

/// The gate's status of an admitted passage: `current`, with its mark
/// ("a newer version exists but could not be read: …") when it has one.
pub fn status_of(e: &Evidence) -> String {
    match &e.note {
        Some(mark) => format!("current; {mark}"),
        None => "current".into(),
    }
}

/// One admitted passage as a delimited block (its `pages` attribute, for
/// PDFs, comes after the title).
pub fn passage_block(e: &Evidence) -> String {
    let status = status_of(e);
    document_block_with(e, &[("document", document_of(&e.key)), ("status", &status)])
}

/// One admitted passage as JSON.
pub fn passage_json(e: &Evidence) -> Value {
    json!({
        "key": e.key,
        "document": document_of(&e.key),
        "title": e.title,
        "section": (!e.heading_path.is_empty()).then(|| e.heading_path.join(" > ")),
        "pages": e.pages.map(|(a, b)| [a, b]),
        "status": status_of(e),
        "source_note": e.source_note,
        "text": e.text,
    })
}

/// A tool's result as text: the passages, the tool's note, then one line
/// per withheld document.
pub fn outcome_text(outcome: &ToolOutcome) -> String {
    let mut out = String::new();
    for e in &outcome.evidence {
        out.push_str(&passage_block(e));
        out.push('\n');
    }
    if !outcome.text.trim().is_empty() {
        out.push_str(outcome.text.trim());
        out.push('\n');
    }
    for w in &outcome.withheld {
        out.push_str(&format!("withheld (not in force; do not use): {w}\n"));
    }
    if out.is_empty() {
        out.push_str("nothing found\n");
    }
    out
}

/// A tool's result as JSON.
pub fn outcome_json(outcome: &ToolOutcome) -> Value {
    json!({
        "tool": outcome.name,
        "passages": outcome.evidence.iter().map(passage_json).collect::<Vec<_>>(),
        "withheld": outcome.withheld,
        "note": outcome.text.trim(),
        "error": outcome.error,
    })
}

/// An answer as text: the answer with its `[key]` citations, the sources
/// with their status, and the withheld notes.
pub fn answer_text(answer: &Answer) -> String {
    let mut out = answer.text.trim().to_string();
    if !answer.citations.is_empty() {
        out.push_str(&format!("\n\nSources (as of {}, session {}):", answer.as_of.date, answer.as_of.session));
        for c in &answer.citations {
            let pages = c.pages.map(|(a, b)| if a == b { format!(", page {a}") } else { format!(", pages {a}-{b}") });
            let note = c.note.as_deref().map(|n| format!(" ({n})")).unwrap_or_default();
            out.push_str(&format!("\n- [{}] {}{} — {}{note}", c.key, c.title, pages.unwrap_or_default(), c.status));
        }
    }
    if !answer.withheld.is_empty() {
        out.push_str("\n\nWithheld (not in force):");
        for w in &answer.withheld {
            out.push_str(&format!("\n- {w}"));
        }
    }
    out
}

/// An answer as JSON (no trace: MCP clients pass results to a model).
pub fn answer_json(answer: &Answer) -> Value {
    json!({
        "answer": answer.text,
        "abstained": answer.abstained,
        "as_of": answer.as_of,
        "citations": answer.citations.iter().map(|c| json!({
            "key": c.key,
            "document": document_of(&c.key),
            "title": c.title,
            "pages": c.pages.map(|(a, b)| [a, b]),
            "status": c.status,
            "note": c.note,
        })).collect::<Vec<_>>(),
        "withheld": answer.withheld,
        "stop_reason": answer.trace.stop_reason,
    })
}
