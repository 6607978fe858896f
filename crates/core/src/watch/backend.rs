//! One debounced notify watcher per folder: OS events when they work,
//! notify's `PollWatcher` when they cannot (network filesystems,
//! `force_poll`, the inotify watch limit). Both feed the same channel.

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use notify::{PollWatcher, RecommendedWatcher, RecursiveMode};
use notify_debouncer_full::{DebounceEventResult, Debouncer, NoCache, RecommendedCache, new_debouncer_opt};

use super::{Msg, WatchOptions};
use crate::error::{Error, Result};
use crate::store::health::{WatchMode, WatchedFolder};

/// What the user is told when inotify runs out of watches.
pub const WATCH_LIMIT_REASON: &str =
    "the OS watch limit is reached (raise fs.inotify.max_user_watches); changes are found by polling";

/// A live watch of one folder; dropping it stops the watch.
pub enum Backend {
    /// OS events.
    Events(Debouncer<RecommendedWatcher, RecommendedCache>),
    /// Polling.
    Poll(Debouncer<PollWatcher, NoCache>),
}

impl Backend {
    /// Stop watching and wait for the debouncer's thread (at most one tick).
    pub fn stop(self) {
        match self {
            Backend::Events(d) => d.stop(),
            Backend::Poll(d) => d.stop(),
        }
    }
}

/// Watch `root`, polling when `force_poll` is set, the probe asks for it,
/// or OS watches run out.
///
/// # Errors
/// [`Error::BadPath`] when the folder cannot be watched at all.
pub fn open(
    root: &Path,
    recursive: bool,
    force_poll: bool,
    options: &WatchOptions,
    tx: &mpsc::Sender<Msg>,
) -> Result<(Backend, WatchedFolder)> {
    let reason = if force_poll { Some("force_poll is set for this folder".to_string()) } else { (options.probe)(root) };
    if let Some(reason) = reason {
        return poll(root, recursive, options, tx, reason);
    }
    match events(root, recursive, options.debounce, tx) {
        Ok(backend) => Ok((backend, folder(root, WatchMode::Events, None))),
        Err(e) if matches!(e.kind, notify::ErrorKind::MaxFilesWatch) => {
            poll(root, recursive, options, tx, WATCH_LIMIT_REASON.to_string())
        }
        Err(e) => Err(cannot_watch(root, &e)),
    }
}

/// Watch `root` by polling.
///
/// # Errors
/// [`Error::BadPath`] when the folder cannot be read.
pub fn poll(
    root: &Path,
    recursive: bool,
    options: &WatchOptions,
    tx: &mpsc::Sender<Msg>,
    reason: String,
) -> Result<(Backend, WatchedFolder)> {
    let config = notify::Config::default().with_poll_interval(options.poll_interval);
    let mut debouncer =
        new_debouncer_opt::<_, PollWatcher, NoCache>(options.debounce, None, handler(tx), NoCache, config)
            .map_err(|e| cannot_watch(root, &e))?;
    debouncer.watch(root, mode(recursive)).map_err(|e| cannot_watch(root, &e))?;
    Ok((Backend::Poll(debouncer), folder(root, WatchMode::Poll, Some(reason))))
}

fn events(root: &Path, recursive: bool, debounce: Duration, tx: &mpsc::Sender<Msg>) -> notify::Result<Backend> {
    let config = notify::Config::default();
    let mut debouncer = new_debouncer_opt::<_, RecommendedWatcher, RecommendedCache>(
        debounce,
        None,
        handler(tx),
        RecommendedCache::new(),
        config,
    )?;
    debouncer.watch(root, mode(recursive))?;
    Ok(Backend::Events(debouncer))
}

fn handler(tx: &mpsc::Sender<Msg>) -> impl FnMut(DebounceEventResult) + Send + 'static {
    let tx = tx.clone();
    move |result: DebounceEventResult| {
        let msg = match result {
            Ok(events) => Msg::Events(events),
            Err(errors) => Msg::Errors(errors),
        };
        let _ = tx.send(msg);
    }
}

fn mode(recursive: bool) -> RecursiveMode {
    if recursive { RecursiveMode::Recursive } else { RecursiveMode::NonRecursive }
}

fn folder(root: &Path, mode: WatchMode, reason: Option<String>) -> WatchedFolder {
    WatchedFolder { path: PathBuf::from(root), mode, reason, missing_since: None }
}

fn cannot_watch(root: &Path, e: &notify::Error) -> Error {
    Error::BadPath { path: root.to_path_buf(), reason: format!("cannot watch: {e}") }
}
