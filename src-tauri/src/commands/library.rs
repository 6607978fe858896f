//! The library view: watched folders with counts, problems, sync with progress.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

use almirah_core::watch::WatchMode;
use tauri::ipc::Channel;
use tauri::{AppHandle, Manager, Runtime, State};
use tauri_plugin_dialog::DialogExt;

use crate::convert;
use crate::error::{CmdResult, CommandError, blocking};
use crate::payload::{FolderView, IndexProgress, IndexSummary, LibraryOverview};
use crate::progress::ChannelProgress;
use crate::service;
use crate::state::AppState;

/// The library at a glance: folders with counts, problems, totals.
///
/// # Errors
/// `io` when the library could not be opened, `invalid-input` for a bad config.
#[tauri::command]
pub async fn library_overview<R: Runtime>(app: AppHandle<R>) -> CmdResult<LibraryOverview> {
    blocking(move || overview(&app.state::<AppState>())).await
}

/// The overview, computed now.
///
/// # Errors
/// As [`library_overview`].
pub fn overview(state: &AppState) -> CmdResult<LibraryOverview> {
    let engine = state.engine()?;
    let config = state.config()?;
    let status = engine.status()?;
    let health = state.watcher().as_ref().map(|w| w.health()).or(status.watch.clone());
    let mut folders: Vec<FolderView> = config
        .folders
        .iter()
        .map(|f| f.path.clone())
        .collect::<Vec<_>>()
        .into_iter()
        .chain(std::iter::once(state.inbox.clone()))
        .map(|path| {
            let canonical = path.canonicalize().unwrap_or_else(|_| path.clone());
            let key = canonical.to_string_lossy().into_owned();
            let counts = status.folders.iter().find(|c| c.path == key).cloned().unwrap_or_default();
            let watched = health.as_ref().and_then(|h| h.folders.iter().find(|w| w.path == canonical).cloned());
            FolderView {
                inbox: canonical == state.inbox,
                exists: path.is_dir(),
                mode: match watched.as_ref().map(|w| w.mode) {
                    Some(WatchMode::Poll) => "polling".into(),
                    Some(WatchMode::Missing) => "missing".into(),
                    Some(_) => "events".into(),
                    None => "not watched".into(),
                },
                poll_reason: watched.and_then(|w| w.reason),
                files: counts.files,
                documents: counts.documents,
                chunks: counts.chunks,
                failing: counts.failing,
                path: path.to_string_lossy().into_owned(),
            }
        })
        .collect();
    folders.dedup_by(|a, b| a.path == b.path);
    let watcher_running = state.watcher().is_some();
    Ok(LibraryOverview {
        data_dir: status.data_dir,
        config_path: Some(state.config_path.to_string_lossy().into_owned()),
        folders,
        documents: status.documents,
        chunks: status.chunks,
        vectors_pending: status.vectors_pending,
        files_by_status: status.files_by_status.into_iter().collect(),
        problems: status.problems.iter().map(convert::problem).collect(),
        disk_bytes: status.disk_bytes,
        embedder: engine
            .library_embedder()?
            .map_or_else(|| "not chosen yet".into(), |e| format!("{} ({}-d)", e.model, e.dimensions)),
        model: config.model.spec.clone(),
        watching: watcher_running,
        queue: health.as_ref().map_or(0, |h| h.queue_len as u64),
        last_reconcile: health.and_then(|h| h.last_reconcile_at).map(|t| t.to_rfc3339()),
    })
}

/// Index every watched folder now (new and changed files; deleted ones are
/// removed), streaming progress; then make sure the watcher runs.
///
/// # Errors
/// `io` when the library could not be opened, `invalid-input` for a bad
/// config or a missing embedder model.
#[tauri::command]
pub async fn sync_library<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    on_progress: Channel<IndexProgress>,
) -> CmdResult<IndexSummary> {
    let engine = state.engine()?;
    let config = state.config()?;
    let roots = state.roots(&config);
    state.synced.store(true, Ordering::SeqCst);
    let summary = blocking(move || {
        let progress = ChannelProgress::start(on_progress);
        let report = engine.index(&roots, &progress, &AtomicBool::new(false));
        progress.finish(report.as_ref().ok());
        Ok(convert::summary(&report?))
    })
    .await?;
    service::ensure_watching(&app, &state);
    service::library_changed(&app, "sync");
    Ok(summary)
}

/// The native folder picker (in Rust: the webview gets no dialog permission).
///
/// # Errors
/// `bug` when the picker could not run.
#[tauri::command]
pub async fn pick_folder<R: Runtime>(app: AppHandle<R>) -> CmdResult<Option<String>> {
    blocking(move || {
        let picked = app.dialog().file().set_title("Add a folder to the library").blocking_pick_folder();
        Ok(picked.and_then(|p| p.into_path().ok()).map(|p| p.to_string_lossy().into_owned()))
    })
    .await
}

/// Add a watched folder (to the shared config file), then watch and index it.
///
/// # Errors
/// `invalid-input` when it is not a folder or the config cannot be edited.
#[tauri::command]
pub async fn add_folder<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    path: String,
) -> CmdResult<LibraryOverview> {
    let folder = PathBuf::from(path.trim());
    if !folder.is_dir() {
        return Err(CommandError::invalid(format!("{} is not a folder", folder.display())));
    }
    let settings = almirah_core::freshness::FolderSettings {
        path: almirah_settings::folders::normalise(&folder),
        ..Default::default()
    };
    almirah_settings::folders::add(&state.config_path, &settings)?;
    blocking(move || {
        let state = app.state::<AppState>();
        service::apply_folders(&app, &state)?;
        overview(&state)
    })
    .await
}

/// Stop watching a folder; its documents leave the library unless `keep_documents`.
///
/// # Errors
/// `invalid-input` when it is not a watched folder (the inbox cannot be removed).
#[tauri::command]
pub async fn remove_folder<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    path: String,
    keep_documents: bool,
) -> CmdResult<LibraryOverview> {
    let folder = almirah_settings::folders::normalise(std::path::Path::new(path.trim()));
    if folder == state.inbox {
        return Err(CommandError::invalid("the inbox is part of the library and cannot be removed"));
    }
    let in_config = almirah_settings::folders::remove(&state.config_path, &folder)?;
    if !in_config {
        return Err(CommandError::invalid(format!("{} is not a watched folder", folder.display())));
    }
    blocking(move || {
        let state = app.state::<AppState>();
        service::apply_folders(&app, &state)?;
        // A folder inside another watched folder: its files stay in the
        // library through the outer one.
        let config = state.config()?;
        let covered = config.folders.iter().any(|f| folder.starts_with(almirah_settings::folders::normalise(&f.path)));
        if !keep_documents && !covered {
            state.engine()?.remove_folder(&folder)?;
        }
        service::library_changed(&app, "folder-removed");
        overview(&state)
    })
    .await
}
