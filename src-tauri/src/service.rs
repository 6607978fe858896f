//! The background service: the same watcher as `almirah watch`, running
//! inside the app. Its changes become `watch-change` events and a
//! `library-changed` broadcast that refreshes every view.

use std::sync::atomic::Ordering;
use std::time::Duration;

use almirah_core::{Notice, WatchOptions, Watcher};
use tauri::{AppHandle, Emitter, Manager, Runtime};

use crate::error::CmdResult;
use crate::payload::WatchChangeView;
use crate::state::AppState;

/// Event: something in the library changed (payload: a short reason).
pub const LIBRARY_CHANGED: &str = "library-changed";
/// Event: the watcher committed a change ([`WatchChangeView`]).
pub const WATCH_CHANGE: &str = "watch-change";
/// Without a first sync from the UI by then, the watcher starts by itself
/// (its first reconcile indexes what changed).
const START_ANYWAY_AFTER: Duration = Duration::from_secs(10);
/// Longest wait for the watcher to switch folders before a removed
/// folder's documents are dropped (it finishes its batch in progress first).
const SWITCH_WAIT: Duration = Duration::from_secs(60);

/// Tell every view to refresh.
pub fn library_changed<R: Runtime>(app: &AppHandle<R>, reason: &str) {
    if let Err(e) = app.emit(LIBRARY_CHANGED, reason) {
        tracing::warn!(%e, "cannot emit {LIBRARY_CHANGED}");
    }
}

/// Start the watcher unless it runs (after the first sync, or by itself
/// 10 s after the app started).
pub fn ensure_watching<R: Runtime>(app: &AppHandle<R>, state: &AppState) {
    let mut slot = state.watcher();
    if slot.is_some() {
        return;
    }
    let (Ok(engine), Ok(config)) = (state.engine(), state.config()) else { return };
    let mut options = WatchOptions::new(state.watch_roots(&config));
    options.debounce = Duration::from_millis(config.watch.debounce_ms.max(10));
    options.reconcile_every = Duration::from_secs(config.watch.reconcile_secs.max(1));
    options.poll_interval = Duration::from_millis(config.watch.poll_interval_ms.max(100));
    let handle = app.clone();
    let changed = coalescer(app.clone());
    let sink_changed = changed.clone();
    match Watcher::start(engine, options, Box::new(move |n| on_notice(&handle, sink_changed.as_ref(), n))) {
        Ok(w) => *slot = Some(w),
        Err(e) => {
            tracing::error!(%e, "the background watcher did not start");
            on_notice(app, changed.as_ref(), Notice::Problem { message: format!("Not watching folders: {e}") });
        }
    }
}

/// Start the watcher by itself when the UI never asked for a sync.
pub fn start_later<R: Runtime>(app: AppHandle<R>) {
    let spawned = std::thread::Builder::new().name("almirah-start".into()).spawn(move || {
        std::thread::sleep(START_ANYWAY_AFTER);
        let state = app.state::<AppState>();
        if !state.synced.swap(true, Ordering::SeqCst) {
            ensure_watching(&app, &state);
        }
    });
    if let Err(e) = spawned {
        tracing::warn!(%e, "cannot schedule the watcher start");
    }
}

/// The config's folders changed: the engine and a running watcher follow
/// (this waits until the watcher has switched, so nothing it was indexing
/// from a removed folder lands after the folder's documents are dropped).
///
/// # Errors
/// `invalid-input` when the config does not parse.
pub fn apply_folders<R: Runtime>(app: &AppHandle<R>, state: &AppState) -> CmdResult<()> {
    let config = state.config()?;
    state.engine()?.set_folders(state.folder_settings(&config));
    let ack = state.watcher().as_ref().map(|w| w.set_roots(state.watch_roots(&config)));
    match ack {
        // The watcher has switched once it answers (after the batch in progress).
        Some(ack) => {
            let _ = ack.recv_timeout(SWITCH_WAIT);
        }
        None => ensure_watching(app, state),
    }
    library_changed(app, "folders");
    Ok(())
}

/// A burst of changes becomes one `library-changed` per [`COALESCE`]
/// (the last one always sent), so views reload once, not 200 times.
const COALESCE: Duration = Duration::from_millis(250);

/// Sends `library-changed` for the watcher, coalesced.
fn coalescer<R: Runtime>(app: AppHandle<R>) -> Option<std::sync::mpsc::Sender<()>> {
    let (tx, rx) = std::sync::mpsc::channel::<()>();
    let spawned = std::thread::Builder::new().name("almirah-events".into()).spawn(move || {
        while rx.recv().is_ok() {
            std::thread::sleep(COALESCE);
            while rx.try_recv().is_ok() {}
            library_changed(&app, "watch");
        }
    });
    spawned.map_err(|e| tracing::warn!(%e, "no event thread")).ok().map(|_| tx)
}

fn on_notice<R: Runtime>(app: &AppHandle<R>, changed: Option<&std::sync::mpsc::Sender<()>>, notice: Notice) {
    match notice {
        Notice::Change(c) => {
            let view = WatchChangeView { path: c.path, action: c.action, latency_ms: c.latency_ms };
            if let Err(e) = app.emit(WATCH_CHANGE, view) {
                tracing::debug!(%e, "cannot emit {WATCH_CHANGE}");
            }
            match changed {
                Some(tx) => {
                    let _ = tx.send(());
                }
                None => library_changed(app, "watch"),
            }
        }
        Notice::Problem { message } => tracing::warn!(%message, "watcher"),
        Notice::Watching(_) | Notice::Reconciled { .. } => {}
    }
}
