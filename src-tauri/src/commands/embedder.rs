//! The library's embedder in the app: the first-run choice of builtin
//! model, a restart to apply a new one, and the re-embed it needs (the same
//! as `almirah index --embedder …` and `almirah reindex --re-embed`).

use std::sync::atomic::Ordering;
use std::time::Instant;

use almirah_core::embed::{EmbedderConfig, EmbedderId};
use tauri::ipc::Channel;
use tauri::{AppHandle, Manager, Runtime, State};
use toml_edit::Value;

use crate::commands::settings::builtin_embedder_values;
use crate::error::{CmdResult, CommandError, blocking};
use crate::payload::{EmbedderView, IndexProgress, ReembedSummary};
use crate::progress::ChannelProgress;
use crate::service;
use crate::state::AppState;

/// The library's embedder against the configured one.
///
/// # Errors
/// `io` when the library could not be opened, `invalid-input` for a bad config.
#[tauri::command]
pub async fn embedder_status<R: Runtime>(app: AppHandle<R>) -> CmdResult<EmbedderView> {
    blocking(move || view(&app.state::<AppState>())).await
}

/// Choose the builtin model (`auto`, `all-MiniLM-L6-v2`,
/// `multilingual-e5-small`): written to the config file (other keys and
/// comments stay); it applies after a restart ([`restart_app`]).
///
/// # Errors
/// `invalid-input` for an unknown model or a config that does not parse;
/// `io` when the config cannot be written.
#[tauri::command]
pub async fn choose_builtin_embedder<R: Runtime>(app: AppHandle<R>, model: String) -> CmdResult<EmbedderView> {
    blocking(move || {
        let state = app.state::<AppState>();
        choose(&state, &model)?;
        view(&state)
    })
    .await
}

/// Re-embed every chunk with the configured embedder, streaming progress
/// (chunks done of all), then switch the library over in one transaction;
/// a failed or killed re-embed leaves the old vectors as they were. The
/// background watcher waits meanwhile (restarted after, whatever the result).
///
/// # Errors
/// `invalid-input` when the config names an embedder the app has not
/// restarted with yet, when a re-embed already runs, or the model is
/// missing; `io` for storage errors.
#[tauri::command]
pub async fn re_embed_library<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    on_progress: Channel<IndexProgress>,
) -> CmdResult<ReembedSummary> {
    if state.config()?.embedder != state.opened_embedder {
        return Err(CommandError::invalid("the settings name another embedder: restart the app first"));
    }
    let engine = state.engine()?;
    let job = ReembedJob::start(&app)?;
    let stopping = app.clone();
    let summary = blocking(move || {
        let _job = job;
        // The watcher would add chunks the new index never sees: it waits.
        if let Some(w) = stopping.state::<AppState>().watcher().take() {
            w.stop();
        }
        let started = Instant::now();
        let progress = ChannelProgress::start_chunks(on_progress);
        let report = engine.reindex_re_embed(&progress);
        progress.finish_chunks(report.is_ok());
        let report = report?;
        Ok(ReembedSummary {
            chunks: report.chunks,
            cache_hits: report.cache_hits,
            elapsed_ms: started.elapsed().as_millis() as u64,
            embedder: engine.embedder().map(|e| describe(e.id()))?,
        })
    })
    .await;
    service::ensure_watching(&app, &state);
    let summary = summary?;
    service::library_changed(&app, "re-embed");
    Ok(summary)
}

/// Stop the watcher, let go of the library and start the app again (a new
/// embedder applies).
///
/// # Errors
/// `invalid-input` while a re-embed runs (restarting would throw its work away).
#[tauri::command]
pub async fn restart_app<R: Runtime>(app: AppHandle<R>) -> CmdResult<()> {
    if app.state::<AppState>().re_embedding.load(Ordering::SeqCst) {
        return Err(CommandError::invalid("a re-embed is running: restart when it has finished"));
    }
    let closing = app.clone();
    blocking(move || {
        closing.state::<AppState>().close();
        Ok(())
    })
    .await?;
    app.restart()
}

/// The one re-embed of the app, while it runs (the flag clears when dropped).
struct ReembedJob<R: Runtime>(AppHandle<R>);

impl<R: Runtime> ReembedJob<R> {
    /// # Errors
    /// `invalid-input` when a re-embed already runs.
    fn start(app: &AppHandle<R>) -> CmdResult<Self> {
        let flag = &app.state::<AppState>().re_embedding;
        if flag.compare_exchange(false, true, Ordering::SeqCst, Ordering::SeqCst).is_err() {
            return Err(CommandError::invalid("a re-embed is already running"));
        }
        Ok(Self(app.clone()))
    }
}

impl<R: Runtime> Drop for ReembedJob<R> {
    fn drop(&mut self) {
        self.0.state::<AppState>().re_embedding.store(false, Ordering::SeqCst);
    }
}

/// Write the builtin `model` into the config file.
///
/// # Errors
/// As [`choose_builtin_embedder`].
pub fn choose(state: &AppState, model: &str) -> CmdResult<()> {
    state.config()?;
    let values = builtin_embedder_values(model)?;
    let refs: Vec<(&str, Option<Value>)> = values.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
    almirah_settings::edit::set_values(&state.config_path, &refs)?;
    Ok(())
}

/// The embedder view, computed now (loads the configured model when the
/// library already has vectors, to compare their identities).
///
/// # Errors
/// As [`embedder_status`].
pub fn view(state: &AppState) -> CmdResult<EmbedderView> {
    let engine = state.engine()?;
    let config = state.config()?;
    let status = engine.status()?;
    let restart_required = config.embedder != state.opened_embedder;
    let stored = engine.library_embedder()?;
    let (configured_id, problem) = match (&stored, restart_required) {
        (Some(_), false) => match engine.embedder() {
            Ok(e) => (Some(e.id().clone()), None),
            Err(e) => (None, Some(e.to_string())),
        },
        _ => (None, None),
    };
    Ok(EmbedderView {
        library: stored.as_ref().map(describe),
        configured: configured_name(&config.embedder),
        builtin_model: match &config.embedder {
            EmbedderConfig::Builtin { model, .. } => Some(model.name().to_string()),
            _ => None,
        },
        first_run: stored.is_none(),
        restart_required,
        re_embed_required: matches!((&stored, &configured_id), (Some(s), Some(c)) if s != c),
        chunks: status.chunks,
        problem,
    })
}

/// "multilingual-e5-small, 384-d".
fn describe(id: &EmbedderId) -> String {
    format!("{}, {}-d", id.model, id.dimensions)
}

fn configured_name(c: &EmbedderConfig) -> String {
    match c {
        EmbedderConfig::Builtin { model, .. } => format!("builtin {}", model.name()),
        EmbedderConfig::Hash { dimensions } => format!("hash {dimensions}-d"),
        EmbedderConfig::Ollama { model, .. } => format!("ollama {model}"),
        EmbedderConfig::Openai { model, .. } => format!("openai {model}"),
        EmbedderConfig::Gemini { model, .. } => format!("gemini {model}"),
    }
}
