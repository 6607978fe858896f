//! The documents table and metadata overrides.

use almirah_core::Engine;
use tauri::{AppHandle, Runtime, State};

use crate::convert;
use crate::error::{CmdResult, CommandError, blocking};
use crate::payload::DocumentRow;
use crate::service;
use crate::state::AppState;

/// Fields a user may override.
const FIELDS: &[&str] =
    &["title", "series", "version", "session", "issued", "effective_from", "effective_until", "supersedes", "audience"];

/// Every document the user may see, with its status at `as_of` (ISO date; default today).
///
/// # Errors
/// `invalid-input` for a malformed date, `io` when the library is not open.
#[tauri::command]
pub async fn list_documents(state: State<'_, AppState>, as_of: Option<String>) -> CmdResult<Vec<DocumentRow>> {
    let engine = state.engine()?;
    let date = parse_date(as_of.as_deref())?;
    let inbox = state.inbox.clone();
    blocking(move || rows(&engine, date, &inbox)).await
}

/// Set (or, with `value: null`, remove) an override of one field of one
/// document (key, id, path or file name); it applies at once and survives
/// re-indexing and moves.
///
/// # Errors
/// `invalid-input` for an unknown field or a bad value, `not-found` for an unknown document.
#[tauri::command]
pub async fn set_override<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    document: String,
    field: String,
    value: Option<String>,
) -> CmdResult<DocumentRow> {
    if !FIELDS.contains(&field.as_str()) {
        return Err(CommandError::invalid(format!("unknown field {field:?}; fields: {}", FIELDS.join(", "))));
    }
    let engine = state.engine()?;
    let inbox = state.inbox.clone();
    let row = blocking(move || {
        let id = engine.find_document(&document).map_err(lookup_error)?;
        let value = value.as_deref().map(str::trim).filter(|v| !v.is_empty());
        engine.set_override(id, &field, value)?;
        rows(&engine, None, &inbox)?
            .into_iter()
            .find(|r| r.id == id.get())
            .ok_or_else(|| CommandError::new("not-found", format!("document #{id} is no longer in the library")))
    })
    .await?;
    service::library_changed(&app, "override");
    Ok(row)
}

fn rows(engine: &Engine, date: Option<chrono::NaiveDate>, inbox: &std::path::Path) -> CmdResult<Vec<DocumentRow>> {
    let as_of = engine.as_of(date, None);
    let mut rows: Vec<DocumentRow> = engine.documents(as_of)?.iter().map(|d| convert::document(d, inbox)).collect();
    rows.sort_by(|a, b| a.title.to_lowercase().cmp(&b.title.to_lowercase()).then(a.key.cmp(&b.key)));
    Ok(rows)
}

/// A failed document lookup: `not-found` when nothing matched, else as usual.
pub fn lookup_error(e: almirah_core::Error) -> CommandError {
    match e {
        almirah_core::Error::BadPath { .. } => CommandError::new("not-found", e.to_string()),
        other => other.into(),
    }
}

/// An optional ISO date; empty means today.
///
/// # Errors
/// `invalid-input` for anything else.
pub fn parse_date(text: Option<&str>) -> CmdResult<Option<chrono::NaiveDate>> {
    match text.map(str::trim).filter(|t| !t.is_empty()) {
        None => Ok(None),
        Some(t) => chrono::NaiveDate::parse_from_str(t, "%Y-%m-%d")
            .map(Some)
            .map_err(|_| CommandError::invalid(format!("{t:?} is not a date; write it as 2026-11-29"))),
    }
}
