//! The watcher's thread: collect hints, reconcile when due, index what is
//! ready through the engine's ordinary write path, report and record health.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

use chrono::Utc;

use super::backend::{self, Backend, WATCH_LIMIT_REASON};
use super::clock::CommitClock;
use super::hints::{self, Pending};
use super::{Change, ChangeSource, Msg, Notice, NoticeSink, WatchOptions};
use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::freshness::FolderSettings;
use crate::store::health::{self, WatchHealth, WatchMode, WatchedFolder};
use crate::update::filter::Filters;
use crate::update::{Hint, IngestReport};

/// Back-off before retrying paths whose run failed (e.g. the embedder is down).
const RETRY_DELAY: Duration = Duration::from_secs(5);
/// Longest sleep between checks when nothing waits (health heartbeat).
const IDLE_WAIT: Duration = Duration::from_secs(1);
/// Chunks the watcher embeds between two looks at its queue of changes
/// (about 1-2 s of MiniLM on two cores).
const BACKFILL_SLICE: usize = 16;
/// Health is written at most this often, except after a batch or reconcile.
const HEALTH_EVERY: Duration = Duration::from_secs(1);

/// Everything the watcher's thread owns.
pub struct Service {
    engine: Arc<Engine>,
    options: WatchOptions,
    filters: Filters,
    folders: Vec<FolderSettings>,
    /// One per folder; `None` while the folder is missing.
    backends: Vec<Option<Backend>>,
    tx: mpsc::Sender<Msg>,
    rx: mpsc::Receiver<Msg>,
    sink: NoticeSink,
    pending: Pending,
    cancel: Arc<AtomicBool>,
    health: Arc<Mutex<WatchHealth>>,
    next_reconcile: Instant,
    rescan: bool,
    /// Per folder: whether it was missing at the last reconcile.
    missing: Vec<bool>,
    /// When health was last written, and what (without its time stamp).
    health_written: Option<(Instant, WatchHealth)>,
    /// Chunks wait for vectors: embed a slice whenever no change is ready.
    vectors_pending: bool,
}

impl Service {
    /// Canonicalise the roots and open a watch on each.
    ///
    /// # Errors
    /// See [`super::Watcher::start`].
    pub fn new(
        engine: Arc<Engine>,
        mut options: WatchOptions,
        tx: mpsc::Sender<Msg>,
        rx: mpsc::Receiver<Msg>,
        sink: NoticeSink,
        cancel: Arc<AtomicBool>,
        health: Arc<Mutex<WatchHealth>>,
    ) -> Result<Self> {
        options.roots = canonical(&options.roots)?;
        let Watches { filters, folders, backends, watched } = open_watches(&engine, &options, &tx)?;
        if let Ok(mut h) = health.lock() {
            *h = WatchHealth { pid: std::process::id(), started_at: Some(Utc::now()), folders: watched, ..h.clone() };
        }
        let next_reconcile = Instant::now();
        let (health_written, rescan, pending) = (None, false, Pending::default());
        let missing = folders.iter().map(|f| !f.path.is_dir()).collect();
        Ok(Self {
            engine,
            options,
            filters,
            folders,
            backends,
            tx,
            rx,
            sink,
            pending,
            cancel,
            health,
            next_reconcile,
            rescan,
            missing,
            health_written,
            vectors_pending: false,
        })
    }

    /// Run until stopped.
    pub fn run(mut self) {
        for w in self.with_health(|h| h.folders.clone()) {
            if w.mode == WatchMode::Missing {
                let message = format!("{} is missing; its documents are kept until it returns", w.path.display());
                (self.sink)(Notice::Problem { message });
            } else {
                (self.sink)(Notice::Watching(w));
            }
        }
        while !self.cancelled() {
            if self.rescan || Instant::now() >= self.next_reconcile {
                self.reconcile();
            }
            self.process_ready();
            self.backfill_slice();
            self.write_health(false);
            match self.rx.recv_timeout(self.wait_time()) {
                Ok(msg) => {
                    self.handle(msg);
                    while let Ok(more) = self.rx.try_recv() {
                        self.handle(more);
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
        }
        for b in self.backends.drain(..).flatten() {
            b.stop();
        }
        self.with_health(|h| h.stopped = true);
        self.write_health(true);
    }

    fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::SeqCst)
    }

    fn wait_time(&self) -> Duration {
        if !self.pending.is_empty() {
            return (self.options.settle / 4).max(Duration::from_millis(10));
        }
        if self.vectors_pending {
            return Duration::ZERO;
        }
        self.next_reconcile.saturating_duration_since(Instant::now()).min(IDLE_WAIT)
    }

    fn handle(&mut self, msg: Msg) {
        match msg {
            Msg::Events(events) => self.take_events(&events),
            Msg::Errors(errors) => self.take_errors(errors),
            Msg::Reconcile => self.rescan = true,
            Msg::SetRoots(roots, ack) => {
                self.set_roots(&roots);
                let _ = ack.send(());
            }
            Msg::Stop => self.cancel.store(true, Ordering::SeqCst),
        }
    }

    /// Watch `roots` instead (folders added or removed while running), with
    /// the engine's folder settings now; a reconcile follows. On error the
    /// old watches stay and the problem is reported.
    fn set_roots(&mut self, roots: &[PathBuf]) {
        let opened = canonical(roots).and_then(|roots| {
            let options = WatchOptions { roots, ..self.options.clone() };
            open_watches(&self.engine, &options, &self.tx).map(|w| (options, w))
        });
        match opened {
            Ok((options, Watches { filters, folders, backends, watched })) => {
                for b in std::mem::replace(&mut self.backends, backends).into_iter().flatten() {
                    b.stop();
                }
                self.missing = folders.iter().map(|f| !f.path.is_dir()).collect();
                (self.options, self.filters, self.folders) = (options, filters, folders);
                self.with_health(|h| h.folders = watched.clone());
                for w in watched {
                    (self.sink)(Notice::Watching(w));
                }
                self.rescan = true;
            }
            Err(e) => (self.sink)(Notice::Problem { message: format!("cannot watch the new folders: {e}") }),
        }
    }

    fn take_events(&mut self, events: &[notify_debouncer_full::DebouncedEvent]) {
        let data_dir = self.engine.config().data_dir.clone();
        let data_dir = data_dir.canonicalize().unwrap_or(data_dir);
        // The library's own files are never watched, but a watched folder
        // inside it (the desktop app's drag-and-drop inbox) is.
        let roots = &self.options.roots;
        let own =
            |p: &Path| p.starts_with(&data_dir) && !roots.iter().any(|r| r.starts_with(&data_dir) && p.starts_with(r));
        for event in events {
            let intake = hints::intake(event, &self.filters, self.options.event_filter.as_ref(), &own);
            self.rescan |= intake.rescan;
            for (path, content) in intake.paths {
                self.pending.add(path, event.time, content);
            }
        }
    }

    fn take_errors(&mut self, errors: Vec<notify::Error>) {
        let out_of_watches = errors.iter().any(|e| matches!(e.kind, notify::ErrorKind::MaxFilesWatch));
        for e in errors {
            (self.sink)(Notice::Problem { message: format!("watch error: {e}; reconciling") });
        }
        if out_of_watches {
            self.fall_back_to_polling();
        }
        self.rescan = true;
    }

    /// The OS ran out of watches while folders grew: poll every folder that used events.
    fn fall_back_to_polling(&mut self) {
        let mut watched = self.with_health(|h| h.folders.clone());
        for (i, f) in self.folders.iter().enumerate() {
            if watched[i].mode != WatchMode::Events {
                continue;
            }
            match backend::poll(&f.path, f.recursive, &self.options, &self.tx, WATCH_LIMIT_REASON.into()) {
                Ok((b, w)) => {
                    if let Some(old) = self.backends[i].replace(b) {
                        old.stop();
                    }
                    watched[i] = w.clone();
                    (self.sink)(Notice::Watching(w));
                }
                Err(e) => (self.sink)(Notice::Problem { message: e.to_string() }),
            }
        }
        self.with_health(|h| h.folders = watched);
    }

    fn reconcile(&mut self) {
        self.rescan = false;
        self.next_reconcile = Instant::now() + self.options.reconcile_every;
        self.check_roots();
        let roots: Vec<PathBuf> = self.options.roots.iter().filter(|r| r.is_dir()).cloned().collect();
        let started = Instant::now();
        let clock = CommitClock::default();
        match self.engine.index_with(&roots, false, &clock, &self.cancel) {
            Ok(report) => {
                self.vectors_pending = report.vectors_pending > 0;
                let changes = self.report(&report, &clock, ChangeSource::Reconcile, &|_| started);
                let elapsed_ms = started.elapsed().as_millis() as u64;
                self.with_health(|h| {
                    h.last_reconcile_at = Some(Utc::now());
                    h.last_reconcile_ms = Some(elapsed_ms);
                });
                (self.sink)(Notice::Reconciled { files_seen: report.files_seen, changes, elapsed_ms });
                self.write_health(true);
            }
            Err(Error::Cancelled) => {}
            Err(e) => {
                (self.sink)(Notice::Problem { message: format!("reconcile failed: {e}") });
                self.next_reconcile = Instant::now() + RETRY_DELAY;
            }
        }
    }

    /// A folder that vanished (unmounted share, removed disk) keeps its
    /// documents and is reported once; when it returns it is watched again.
    fn check_roots(&mut self) {
        for i in 0..self.folders.len() {
            let present = self.folders[i].path.is_dir();
            if !present && !self.missing[i] {
                let message =
                    format!("{} is missing; its documents are kept until it returns", self.folders[i].path.display());
                (self.sink)(Notice::Problem { message });
                if let Some(old) = self.backends[i].take() {
                    old.stop();
                }
                let gone = WatchedFolder::missing(self.folders[i].path.clone());
                self.with_health(|h| h.folders[i] = gone.clone());
            } else if present && self.missing[i] {
                self.rewatch(i);
            }
            self.missing[i] = !present;
        }
    }

    fn rewatch(&mut self, i: usize) {
        let f = &self.folders[i];
        match backend::open(&f.path, f.recursive, f.force_poll, &self.options, &self.tx) {
            Ok((b, w)) => {
                if let Some(old) = self.backends[i].replace(b) {
                    old.stop();
                }
                self.with_health(|h| h.folders[i] = w.clone());
                (self.sink)(Notice::Watching(w));
            }
            Err(e) => (self.sink)(Notice::Problem { message: e.to_string() }),
        }
    }

    /// Embed one slice of the queue ([`BACKFILL_SLICE`] chunks) when no
    /// file change is ready, so a change never waits for more than one slice.
    fn backfill_slice(&mut self) {
        if !self.vectors_pending || !self.pending.is_empty() {
            return;
        }
        match self.engine.backfill_up_to(BACKFILL_SLICE, &crate::progress::NoProgress, &self.cancel) {
            Ok(r) => self.vectors_pending = r.pending > 0,
            Err(Error::Cancelled) => {}
            Err(e) => {
                (self.sink)(Notice::Problem { message: format!("embedding the queue failed: {e}; retrying later") });
                self.vectors_pending = false;
                self.next_reconcile = self.next_reconcile.min(Instant::now() + RETRY_DELAY);
            }
        }
    }

    fn process_ready(&mut self) {
        let now = Instant::now();
        let ready = self.pending.take_ready(now, self.options.settle);
        if ready.is_empty() {
            return;
        }
        self.with_health(|h| h.queue_len = ready.len() + self.pending.len());
        let hints: Vec<Hint> = ready.iter().map(|(h, _)| h.clone()).collect();
        let seen: HashMap<PathBuf, Instant> = ready.iter().map(|(h, t)| (h.path.clone(), *t)).collect();
        let earliest = ready.iter().map(|(_, t)| *t).min().unwrap_or(now);
        let clock = CommitClock::default();
        let roots = self.options.roots.clone();
        match self.engine.index_paths_with(&roots, &hints, false, &clock, &self.cancel) {
            Ok(report) => {
                self.vectors_pending |= report.vectors_pending > 0;
                let seen_at = |path: &Path| seen_for(&seen, path).unwrap_or(earliest);
                self.report(&report, &clock, ChangeSource::Event, &seen_at);
                self.with_health(|h| h.queue_len = self.pending.len());
                self.write_health(true);
            }
            Err(Error::Cancelled) => {}
            Err(e) => {
                (self.sink)(Notice::Problem {
                    message: format!("indexing {} paths failed: {e}; retrying", hints.len()),
                });
                self.pending.retry(ready, Instant::now(), RETRY_DELAY);
            }
        }
    }

    /// Send one notice per real change; returns how many.
    fn report(
        &mut self,
        report: &IngestReport,
        clock: &CommitClock,
        source: ChangeSource,
        seen_at: &dyn Fn(&Path) -> Instant,
    ) -> usize {
        let end = Instant::now();
        let mut n = 0;
        for o in report.outcomes.iter().filter(|o| o.action != "unchanged-content") {
            let committed = clock.committed_at(&o.path).unwrap_or(end);
            let latency_ms = committed.saturating_duration_since(seen_at(Path::new(&o.path))).as_millis() as u64;
            let change = Change {
                path: o.path.clone(),
                action: o.action.clone(),
                status: o.status,
                reason: o.reason.clone(),
                source,
                latency_ms,
            };
            self.with_health(|h| {
                h.changes += 1;
                h.last_change_latency_ms = Some(latency_ms);
            });
            (self.sink)(Notice::Change(change));
            n += 1;
        }
        n
    }

    fn with_health<T>(&self, f: impl FnOnce(&mut WatchHealth) -> T) -> T {
        let mut guard = self.health.lock().unwrap_or_else(|e| e.into_inner());
        f(&mut guard)
    }

    /// Record health when it changed (at most once a second unless
    /// `force`); an idle watcher writes nothing, so the disk can sleep.
    fn write_health(&mut self, force: bool) {
        let due = self.health_written.as_ref().is_none_or(|(t, _)| t.elapsed() >= HEALTH_EVERY);
        let queue_len = self.pending.len();
        let current = self.with_health(|h| {
            h.queue_len = queue_len;
            h.clone()
        });
        let unchanged = self.health_written.as_ref().is_some_and(|(_, last)| *last == current);
        if unchanged || (!force && !due) {
            return;
        }
        let snapshot = WatchHealth { updated_at: Some(Utc::now()), ..current.clone() };
        if let Err(e) = health::write(self.engine.store(), &snapshot) {
            (self.sink)(Notice::Problem { message: format!("cannot record watch health: {e}") });
        }
        self.health_written = Some((Instant::now(), current));
    }
}

/// The hint time of `path`, or of the nearest folder hint above it.
fn seen_for(seen: &HashMap<PathBuf, Instant>, path: &Path) -> Option<Instant> {
    path.ancestors().find_map(|p| seen.get(p).copied())
}

/// The filters and OS watches (or pollers) for `options.roots`.
struct Watches {
    filters: Filters,
    folders: Vec<FolderSettings>,
    backends: Vec<Option<Backend>>,
    watched: Vec<super::WatchedFolder>,
}

fn open_watches(engine: &Engine, options: &WatchOptions, tx: &mpsc::Sender<Msg>) -> Result<Watches> {
    let all = crate::update::folder_settings(&engine.index_params(), &options.roots);
    let filters = Filters::new(&all)?;
    let folders = watch_settings(&all, &options.roots);
    let mut backends = Vec::new();
    let mut watched = Vec::new();
    for f in &folders {
        if !f.path.is_dir() {
            backends.push(None);
            watched.push(WatchedFolder::missing(f.path.clone()));
            continue;
        }
        match backend::open(&f.path, f.recursive, f.force_poll, options, tx) {
            Ok((b, w)) => {
                backends.push(Some(b));
                watched.push(w);
            }
            Err(e) => {
                for b in backends.into_iter().flatten() {
                    b.stop();
                }
                return Err(e);
            }
        }
    }
    Ok(Watches { filters, folders, backends, watched })
}

/// Canonical roots; a folder that does not exist (yet, or any more) is kept
/// as an absolute path and watched for at every reconcile.
fn canonical(roots: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut out = Vec::with_capacity(roots.len());
    for r in roots {
        let c = match r.canonicalize() {
            Ok(c) => c,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                std::path::absolute(r).map_err(|e| Error::BadPath { path: r.clone(), reason: e.to_string() })?
            }
            Err(e) => return Err(Error::BadPath { path: r.clone(), reason: e.to_string() }),
        };
        if c.exists() && !c.is_dir() {
            return Err(Error::BadPath { path: r.clone(), reason: "not a folder".into() });
        }
        if !out.contains(&c) {
            out.push(c);
        }
    }
    Ok(out)
}

/// How each root is watched: the settings of the innermost folder holding it.
fn watch_settings(folders: &[FolderSettings], roots: &[PathBuf]) -> Vec<FolderSettings> {
    roots
        .iter()
        .map(|root| {
            let (best, _) = crate::update::folder_for(folders, root);
            FolderSettings { path: root.clone(), ..best.cloned().unwrap_or_default() }
        })
        .collect()
}
