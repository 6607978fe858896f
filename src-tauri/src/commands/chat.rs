//! The chat pane: questions (with follow-ups), cited sources, export.

use std::str::FromStr;
use std::sync::Arc;

use almirah_answer::mode::Mode;
use almirah_core::read::ChunkRead;
use tauri::ipc::Channel;
use tauri::{AppHandle, Runtime, State};
use tauri_plugin_dialog::DialogExt;
use tauri_plugin_opener::OpenerExt;

use super::documents::parse_date;
use crate::convert;
use crate::error::{CmdResult, CommandError, blocking};
use crate::payload::{AnswerView, AskRequest, SourceView};
use crate::state::AppState;

/// Answer a question from the documents in force at its as-of date
/// (default today; a past session named in the question moves it). A
/// follow-up ("and for 2024-25?") is resolved against the last turn first.
/// Status lines stream over `on_status` while it works.
///
/// # Errors
/// `invalid-input` for an empty question, a bad mode or date, or a model
/// spec that cannot be set up (e.g. no API key); `io` for storage errors.
/// A model server that fails mid-answer gives an answer saying so
/// (stop reason `provider-unavailable`), not an error.
#[tauri::command]
pub async fn ask(state: State<'_, AppState>, request: AskRequest, on_status: Channel<String>) -> CmdResult<AnswerView> {
    let question = request.question.trim().to_string();
    if question.is_empty() {
        return Err(CommandError::invalid("type a question first"));
    }
    let mode = Mode::from_str(&request.mode).map_err(CommandError::invalid)?;
    let today = parse_date(request.as_of.as_deref())?.unwrap_or_else(|| chrono::Local::now().date_naive());
    let config = state.config()?;
    let previous = request.history.last().map(|t| t.resolved.clone());
    let resolved = almirah_answer::followup::resolve(&question, previous.as_deref());
    let engine = state.engine()?;
    // The HTTP providers hold a blocking client, which must be built and
    // dropped off the async runtime (reqwest panics otherwise).
    blocking(move || {
        let model = almirah_answer::providers::for_library(&config.model.spec, &config.model.options, &engine.reader())
            .map_err(|e| CommandError::invalid(format!("model {:?}: {e}", config.model.spec)))?;
        let model: Arc<dyn almirah_answer::model::ChatModel> = Arc::from(model);
        let status = move |line: &str| {
            let _ = on_status.send(line.to_string());
        };
        let answer =
            almirah_answer::mode::answer(&engine.reader(), model, &resolved, today, &status, mode, &config.agent)?;
        let section_of = |key: &str| match engine.read_chunk(key, answer.as_of) {
            Ok(ChunkRead::Admitted { hit }) if !hit.heading_path.is_empty() => Some(hit.heading_path.join(" › ")),
            _ => None,
        };
        let mut view = convert::answer(&answer, &resolved, &section_of);
        view.question = question;
        view.markdown = convert::markdown(&view);
        Ok(view)
    })
    .await
}

/// A cited chunk, opened from its chip: the text at its section or page,
/// read at the answer's as-of date (ISO; default today), so a chip of an
/// answer about a past session still opens.
///
/// # Errors
/// `not-found` for an unknown key or one withheld at that date;
/// `invalid-input` for a malformed date.
#[tauri::command]
pub async fn read_source(state: State<'_, AppState>, key: String, as_of: Option<String>) -> CmdResult<SourceView> {
    let engine = state.engine()?;
    let date = parse_date(as_of.as_deref())?;
    blocking(move || {
        let snapshot = engine.snapshot(engine.as_of(date, None))?;
        let hit = match snapshot.read_chunk(&key)? {
            ChunkRead::Admitted { hit } => hit,
            ChunkRead::Withheld { reason, .. } => {
                return Err(CommandError::new("not-found", format!("{key} is withheld now: {reason}")));
            }
            ChunkRead::NotFound { key } => return Err(CommandError::new("not-found", format!("no chunk {key}"))),
        };
        let label = snapshot.gate().status(hit.doc_id).and_then(|s| s.labels().first().copied());
        let status = match (label, hit.verdict.mark()) {
            (Some(label), Some(mark)) => format!("{label}; {mark}"),
            (Some(label), None) => label.to_string(),
            (None, _) => return Err(CommandError::new("not-found", format!("no chunk {key}"))),
        };
        Ok(SourceView {
            key: hit.key.clone(),
            title: hit.title.clone(),
            path: hit.path.clone(),
            section: (!hit.heading_path.is_empty()).then(|| hit.heading_path.join(" › ")),
            pages: convert::pages(hit.pages),
            text: hit.text.clone(),
            status,
        })
    })
    .await
}

/// Open a cited chunk's file in the system's viewer.
///
/// # Errors
/// `not-found` for an unknown key, `io` when no viewer opens it.
#[tauri::command]
pub async fn open_source_file<R: Runtime>(app: AppHandle<R>, state: State<'_, AppState>, key: String) -> CmdResult<()> {
    let engine = state.engine()?;
    let path = blocking(move || {
        let doc = key.split("::").next().unwrap_or(&key).to_string();
        let id = engine.find_document(&doc).map_err(super::documents::lookup_error)?;
        let docs = engine.documents(engine.as_of(None, None))?;
        docs.into_iter()
            .find(|d| d.id == id)
            .map(|d| d.path)
            .ok_or_else(|| CommandError::new("not-found", format!("{doc} is not in the library")))
    })
    .await?;
    app.opener().open_path(&path, None::<&str>).map_err(|e| CommandError::new("io", format!("cannot open {path}: {e}")))
}

/// Save an answer with its sources as a Markdown file the user picks.
///
/// # Errors
/// `io` when the file cannot be written; `None` when the user cancelled.
#[tauri::command]
pub async fn export_answer<R: Runtime>(app: AppHandle<R>, markdown: String) -> CmdResult<Option<String>> {
    blocking(move || {
        let picked = app
            .dialog()
            .file()
            .set_title("Export the answer")
            .set_file_name("almirah-answer.md")
            .add_filter("Markdown", &["md"])
            .blocking_save_file();
        let Some(path) = picked.and_then(|p| p.into_path().ok()) else { return Ok(None) };
        std::fs::write(&path, markdown)
            .map_err(|e| CommandError::new("io", format!("cannot write {}: {e}", path.display())))?;
        Ok(Some(path.to_string_lossy().into_owned()))
    })
    .await
}
