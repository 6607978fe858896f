//! Keeping the library current by itself (`almirah watch`, and the same
//! service in the desktop app).
//!
//! OS events are **hints**, never facts. notify's debouncer (300 ms) turns a
//! burst of raw events into paths; each path is re-stat'ed and hashed and
//! goes through the ordinary write path ([`crate::Engine::index_paths`]): the
//! producer thread extracts and embeds, the one writer commits batches. So an
//! atomic save (temp file renamed over the target) is one update of the
//! target, a move inside the library keeps the document (hash-based move
//! detection, vectors from the embedding cache), and a path that is gone is
//! deleted from every database.
//!
//! Because events can be lost (inotify queue overflow, changes made while
//! Almirah was closed, filesystems that never send events), a **reconcile**
//! compares every folder with the `files` database by size, mtime and then
//! hash: at start, every [`WatchOptions::reconcile_every`], and at once
//! after an overflow or rescan signal. It is the incremental
//! [`crate::Engine::index`] over the folders.
//!
//! Folders on network filesystems, folders with `force_poll`, and folders
//! that hit the inotify watch limit are polled instead; the caller is told
//! with [`Notice::Watching`]. The filesystem check ([`WatchOptions::probe`])
//! and the event delivery ([`WatchOptions::event_filter`]) are injectable so
//! tests can simulate both.

mod backend;
mod clock;
mod hints;
mod lock;
mod service;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::thread::JoinHandle;
use std::time::Duration;

use serde::Serialize;

pub use crate::store::health::{WatchHealth, WatchMode, WatchedFolder};

use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::store::{FileStatus, FsClass};

/// Decides whether a folder must be polled: `Some(reason)` to poll, `None`
/// to use OS events.
pub type FsProbe = Arc<dyn Fn(&Path) -> Option<String> + Send + Sync>;

/// Decides whether an event's path is delivered (`true`) or dropped; tests
/// drop everything to prove that reconciliation catches up.
pub type EventFilter = Arc<dyn Fn(&Path) -> bool + Send + Sync>;

/// Receives what the watcher does; called from the watcher's thread, so it
/// must be quick (log, or send on a channel).
pub type NoticeSink = Box<dyn FnMut(Notice) + Send>;

/// How to watch.
#[derive(Clone)]
pub struct WatchOptions {
    /// Folders to watch; their settings (recursion, globs, `force_poll`,
    /// versioning…) come from the engine's [`crate::IndexParams::folders`].
    pub roots: Vec<PathBuf>,
    /// Quiet time after the last event on a path before it is looked at (default 300 ms).
    pub debounce: Duration,
    /// A file whose mtime is younger than this is re-checked until its size
    /// and mtime hold still this long (half-written files; default 250 ms).
    pub settle: Duration,
    /// Time between reconciles (default 5 min).
    pub reconcile_every: Duration,
    /// Poll interval of polled folders (default 2 s).
    pub poll_interval: Duration,
    /// Which folders need polling (default [`default_probe`]).
    pub probe: FsProbe,
    /// Which event paths are delivered (default: all).
    pub event_filter: EventFilter,
    /// Who watches, as a second watcher is told (e.g. `almirah serve`);
    /// default: the program's file name.
    pub owner: Option<String>,
}

impl WatchOptions {
    /// Defaults for `roots`.
    pub fn new(roots: Vec<PathBuf>) -> Self {
        Self {
            roots,
            debounce: Duration::from_millis(300),
            settle: Duration::from_millis(250),
            reconcile_every: Duration::from_secs(300),
            poll_interval: Duration::from_secs(2),
            probe: Arc::new(default_probe),
            event_filter: Arc::new(|_| true),
            owner: None,
        }
    }
}

/// Poll folders on NFS or SMB: OS events there only report changes made by
/// this machine, never by the file server or other clients.
pub fn default_probe(path: &Path) -> Option<String> {
    match crate::store::filesystem_class(path) {
        fs @ (FsClass::Nfs | FsClass::Smb) => Some(format!(
            "{} filesystem: OS events miss changes made on other machines",
            fs.network_name().unwrap_or("network")
        )),
        _ => None,
    }
}

/// Where a change was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ChangeSource {
    /// A debounced OS event (or poll) about the path.
    Event,
    /// A reconcile of the whole folder.
    Reconcile,
}

/// One committed change.
#[derive(Debug, Clone, Serialize)]
pub struct Change {
    /// The file.
    pub path: String,
    /// `indexed`, `moved from <old path>`, `deleted`, or a failure status.
    pub action: String,
    /// The file's status now (`None` once deleted).
    pub status: Option<FileStatus>,
    /// Why it failed.
    pub reason: Option<String>,
    /// How it was found.
    pub source: ChangeSource,
    /// From the event being seen (or the reconcile starting) to the commit, in ms.
    pub latency_ms: u64,
}

/// What the watcher reports.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "notice", rename_all = "kebab-case")]
pub enum Notice {
    /// A folder is watched (sent at start and when it falls back to polling).
    Watching(WatchedFolder),
    /// A change was committed.
    Change(Change),
    /// A reconcile finished.
    Reconciled {
        /// Files on disk.
        files_seen: usize,
        /// Changes it committed.
        changes: usize,
        /// Wall time, in ms.
        elapsed_ms: u64,
    },
    /// Something went wrong; the watcher goes on (and retries).
    Problem {
        /// What.
        message: String,
    },
}

/// Messages to the watcher's thread.
pub(crate) enum Msg {
    Events(Vec<notify_debouncer_full::DebouncedEvent>),
    Errors(Vec<notify::Error>),
    Reconcile,
    SetRoots(Vec<PathBuf>, mpsc::Sender<()>),
    Stop,
}

/// A running watcher. Dropping it stops it without waiting; prefer [`Watcher::stop`].
pub struct Watcher {
    tx: mpsc::Sender<Msg>,
    cancel: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
    health: Arc<Mutex<WatchHealth>>,
    /// Held while watching: one watcher per library across processes.
    _lock: lock::WatchLock,
}

impl Watcher {
    /// Start watching: set up the OS watches (or polling) for every root,
    /// then, on the watcher's own thread, reconcile once and follow events.
    ///
    /// # Errors
    /// [`Error::BadPath`] when a root is not a folder, cannot be watched, or
    /// its settings hold a bad glob; [`Error::AlreadyWatched`] when another
    /// process (or watcher) already watches this library; [`Error::Io`] when
    /// the thread cannot start.
    pub fn start(engine: Arc<Engine>, options: WatchOptions, sink: NoticeSink) -> Result<Self> {
        let lock = lock::WatchLock::acquire(engine.store().path(), options.owner.as_deref())?;
        let (tx, rx) = mpsc::channel();
        let cancel = Arc::new(AtomicBool::new(false));
        let health = Arc::new(Mutex::new(WatchHealth::default()));
        let service = service::Service::new(engine, options, tx.clone(), rx, sink, cancel.clone(), health.clone())?;
        let thread = std::thread::Builder::new()
            .name("almirah-watch".into())
            .spawn(move || service.run())
            .map_err(|e| Error::io("almirah-watch thread", e))?;
        Ok(Self { tx, cancel, thread: Some(thread), health, _lock: lock })
    }

    /// Ask for a reconcile now (e.g. a "refresh" button).
    pub fn request_reconcile(&self) {
        let _ = self.tx.send(Msg::Reconcile);
    }

    /// Watch `roots` from now on (folders added or removed while running;
    /// call [`Engine::set_folders`] first so their settings apply). The
    /// watches are replaced and a reconcile follows; a root that is gone is
    /// skipped, one that cannot be watched is reported as [`Notice::Problem`]
    /// and the old watches stay. The returned receiver gets `()` once the
    /// watcher has switched (after the batch it is writing, if any); it is
    /// disconnected if the watcher has stopped.
    pub fn set_roots(&self, roots: Vec<PathBuf>) -> mpsc::Receiver<()> {
        let (ack, done) = mpsc::channel();
        let _ = self.tx.send(Msg::SetRoots(roots, ack));
        done
    }

    /// The current health (queue length, last reconcile, folder modes).
    pub fn health(&self) -> WatchHealth {
        self.health.lock().map(|h| h.clone()).unwrap_or_else(|e| e.into_inner().clone())
    }

    /// Stop: cancel the work in progress (the last committed batch stays),
    /// drop the OS watches, record a clean stop, and wait for the thread.
    pub fn stop(mut self) {
        self.shutdown();
    }

    fn shutdown(&mut self) {
        self.cancel.store(true, Ordering::SeqCst);
        let _ = self.tx.send(Msg::Stop);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for Watcher {
    fn drop(&mut self) {
        self.cancel.store(true, Ordering::SeqCst);
        let _ = self.tx.send(Msg::Stop);
    }
}
