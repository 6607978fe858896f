//! Drag and drop: the window's native drop event is handled in Rust (so it
//! works under WebKitGTK on X11 and Wayland, and the webview never touches
//! the filesystem). Dropped files and folders are copied into the library's
//! inbox, indexed, and reported with what was inferred, for the user to
//! confirm or correct. The inbox is a watched folder of its own, so a
//! reconcile of any other folder never removes its files.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use almirah_core::{Engine, Hint};
use tauri::ipc::Channel;
use tauri::{AppHandle, DragDropEvent, Emitter, Manager, Runtime, State, Window, WindowEvent};
use tauri_plugin_dialog::DialogExt;

use crate::convert;
use crate::error::{CmdResult, CommandError, blocking};
use crate::payload::{DroppedFiles, ImportReport, ImportedFile, IndexProgress};
use crate::progress::ChannelProgress;
use crate::service;
use crate::state::AppState;

/// Event: files were dropped on the window ([`DroppedFiles`]).
pub const FILES_DROPPED: &str = "files-dropped";

/// The window's drop handler: remember the paths under a job id and tell
/// the UI, which starts the import with a progress channel.
pub fn on_window_event<R: Runtime>(window: &Window<R>, event: &WindowEvent) {
    let WindowEvent::DragDrop(DragDropEvent::Drop { paths, .. }) = event else { return };
    if paths.is_empty() {
        return;
    }
    let state = window.state::<AppState>();
    let job = state.next_job();
    state.drops.lock().unwrap_or_else(|e| e.into_inner()).insert(job, paths.clone());
    let payload = DroppedFiles { job, paths: paths.iter().map(|p| p.to_string_lossy().into_owned()).collect() };
    if let Err(e) = window.emit(FILES_DROPPED, payload) {
        tracing::warn!(%e, "cannot emit {FILES_DROPPED}");
    }
}

/// Import the files of drop `job`: copy into the inbox, index, report.
///
/// # Errors
/// `not-found` for an unknown or already imported job, `io` when the inbox
/// cannot be written. A file that cannot be read is reported in the
/// result (e.g. "needs password"), never as an error.
#[tauri::command]
pub async fn import_dropped<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    job: u32,
    on_progress: Channel<IndexProgress>,
) -> CmdResult<ImportReport> {
    let paths = state.drops.lock().unwrap_or_else(|e| e.into_inner()).remove(&job);
    let paths =
        paths.ok_or_else(|| CommandError::new("not-found", format!("no dropped files wait under job {job}")))?;
    import(&app, &state, paths, on_progress).await
}

/// "Add files…": the native file picker (showing the formats Almirah
/// reads, [`almirah_core::extract::READ_EXTENSIONS`], by default), then the
/// same import as a drop.
///
/// # Errors
/// As [`import_dropped`]; `None` when the user cancelled the picker.
#[tauri::command]
pub async fn pick_and_import<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    on_progress: Channel<IndexProgress>,
) -> CmdResult<Option<ImportReport>> {
    let picker = app.clone();
    let picked = blocking(move || {
        let files = picker
            .dialog()
            .file()
            .set_title("Add files to the library")
            .add_filter("Documents Almirah reads", almirah_core::extract::READ_EXTENSIONS)
            .add_filter("All files", &["*"])
            .blocking_pick_files();
        Ok(files.unwrap_or_default().into_iter().filter_map(|f| f.into_path().ok()).collect::<Vec<_>>())
    })
    .await?;
    if picked.is_empty() {
        return Ok(None);
    }
    import(&app, &state, picked, on_progress).await.map(Some)
}

async fn import<R: Runtime>(
    app: &AppHandle<R>,
    state: &AppState,
    paths: Vec<PathBuf>,
    on_progress: Channel<IndexProgress>,
) -> CmdResult<ImportReport> {
    let engine = state.engine()?;
    let inbox = state.inbox.clone();
    let report = blocking(move || import_blocking(&engine, &inbox, &paths, on_progress)).await?;
    service::library_changed(app, "import");
    Ok(report)
}

fn import_blocking(
    engine: &Engine,
    inbox: &Path,
    paths: &[PathBuf],
    on_progress: Channel<IndexProgress>,
) -> CmdResult<ImportReport> {
    std::fs::create_dir_all(inbox)?;
    let mut copies = Vec::new();
    let mut failed = Vec::new();
    for source in paths {
        copy_into(source, inbox, inbox, &mut copies, &mut failed);
    }
    let progress = ChannelProgress::start(on_progress);
    let hints: Vec<Hint> = copies.iter().map(|(_, copy)| Hint { path: copy.clone(), content: true }).collect();
    let report = engine.index_paths(&[inbox.to_path_buf()], &hints, &progress, &AtomicBool::new(false));
    progress.finish(report.as_ref().ok());
    let report = report?;
    let docs = engine.documents(engine.as_of(None, None))?;
    let status = engine.status()?;
    let files = copies
        .iter()
        .map(|(source, copy)| {
            let key = copy.to_string_lossy();
            let outcome = report.outcomes.iter().find(|o| o.path == key);
            let problem = status.problems.iter().find(|p| p.path == key);
            let document = docs.iter().find(|d| d.path == key).map(|d| convert::document(d, inbox));
            let (status, reason) = match (outcome.and_then(|o| o.status), problem) {
                (Some(s), _) => (s.as_str().to_string(), outcome.and_then(|o| o.reason.clone())),
                (None, Some(p)) => (p.status.clone(), p.reason.clone()),
                (None, None) if document.is_some() => ("indexed".to_string(), None),
                (None, None) => ("pending".to_string(), None),
            };
            let message = (status != "indexed").then(|| convert::problem_message(&status, reason.as_deref()));
            ImportedFile {
                source: source.to_string_lossy().into_owned(),
                copy: copy.to_string_lossy().into_owned(),
                status,
                message,
                document,
            }
        })
        .chain(failed.into_iter().map(|(source, message)| ImportedFile {
            source: source.to_string_lossy().into_owned(),
            copy: String::new(),
            status: "failed".into(),
            message: Some(message),
            document: None,
        }))
        .collect();
    Ok(ImportReport { files, summary: convert::summary(&report) })
}

/// Copy a file, or a folder's files, into `into` (the inbox or a folder in
/// it); each copy gets a name that is free there (`name (2).pdf`). The
/// inbox itself, anything holding it, and symbolic links are never copied
/// (no copy of a copy, no loops). A file that cannot be copied is recorded
/// in `failed` with the reason; the others go on.
fn copy_into(
    source: &Path,
    into: &Path,
    inbox: &Path,
    copies: &mut Vec<(PathBuf, PathBuf)>,
    failed: &mut Vec<(PathBuf, String)>,
) {
    let mut fail = |message: String| failed.push((source.to_path_buf(), message));
    let meta = match std::fs::symlink_metadata(source) {
        Ok(m) => m,
        Err(e) => return fail(format!("cannot read it: {e}")),
    };
    let real = source.canonicalize().unwrap_or_else(|_| source.to_path_buf());
    if meta.file_type().is_symlink() || real.starts_with(inbox) || inbox.starts_with(&real) {
        return;
    }
    let name = source.file_name().map_or_else(|| "dropped".into(), |n| n.to_os_string());
    let target = free_name(&into.join(name));
    if meta.is_dir() {
        let entries = std::fs::create_dir_all(&target).and_then(|()| std::fs::read_dir(source));
        let mut entries: Vec<PathBuf> = match entries {
            Ok(list) => list.filter_map(|e| e.ok().map(|e| e.path())).collect(),
            Err(e) => return fail(format!("cannot read the folder: {e}")),
        };
        entries.sort();
        for entry in entries {
            copy_into(&entry, &target, inbox, copies, failed);
        }
        return;
    }
    match std::fs::copy(source, &target) {
        Ok(_) => copies.push((source.to_path_buf(), target.canonicalize().unwrap_or(target))),
        Err(e) => fail(format!("cannot copy it into the inbox: {e}")),
    }
}

fn free_name(path: &Path) -> PathBuf {
    if !path.exists() {
        return path.to_path_buf();
    }
    let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let ext = path.extension().map(|e| format!(".{}", e.to_string_lossy())).unwrap_or_default();
    (2..)
        .map(|n| path.with_file_name(format!("{stem} ({n}){ext}")))
        .find(|p| !p.exists())
        .unwrap_or_else(|| path.to_path_buf())
}
