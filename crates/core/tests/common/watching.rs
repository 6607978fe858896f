//! A watched library on the real filesystem: temp folders, an engine with a
//! counting hash embedder, a running `Watcher`, and polling waits (at most
//! 30 s, never a fixed sleep standing in for an assertion).
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use almirah_core::embed::{EmbedError, Embedder, EmbedderConfig, EmbedderId, HashEmbedder, InputKind};
use almirah_core::search::SearchMode;
use almirah_core::watch::{Change, Notice, WatchOptions, Watcher};
use almirah_core::{Engine, EngineConfig, SearchOptions};

/// The longest any condition is waited for.
pub const TIMEOUT: Duration = Duration::from_secs(30);

/// The hash embedder, counting calls, optionally slowed down per call.
pub struct Counting {
    inner: HashEmbedder,
    calls: Arc<AtomicUsize>,
    delay_ms: Arc<std::sync::atomic::AtomicU64>,
}

impl Embedder for Counting {
    fn id(&self) -> &EmbedderId {
        self.inner.id()
    }
    fn max_batch(&self) -> usize {
        self.inner.max_batch()
    }
    fn embed(&self, texts: &[&str], kind: InputKind) -> Result<Vec<Vec<f32>>, EmbedError> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        std::thread::sleep(Duration::from_millis(self.delay_ms.load(Ordering::SeqCst)));
        self.inner.embed(texts, kind)
    }
}

/// Poll `cond` every 20 ms until it holds; fail after [`TIMEOUT`].
/// Returns how long it took.
pub fn wait_until(what: &str, mut cond: impl FnMut() -> bool) -> Duration {
    let start = Instant::now();
    while !cond() {
        assert!(start.elapsed() < TIMEOUT, "timed out after {TIMEOUT:?} waiting for: {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
    start.elapsed()
}

/// A library watching one folder.
pub struct Watched {
    /// The watched folder (canonical).
    pub docs: PathBuf,
    _docs_dir: tempfile::TempDir,
    /// The library folder.
    pub data: tempfile::TempDir,
    /// The engine, shared with the watcher.
    pub engine: Arc<Engine>,
    /// The running watcher.
    pub watcher: Option<Watcher>,
    /// Every notice so far.
    pub notices: Arc<Mutex<Vec<Notice>>>,
    /// Embedder calls so far.
    pub calls: Arc<AtomicUsize>,
    /// Added to every embedder call, in ms (0 by default).
    pub embed_delay_ms: Arc<std::sync::atomic::AtomicU64>,
}

impl Watched {
    /// A fresh library over an empty temp folder; not watching yet.
    pub fn new() -> Self {
        Self::new_with(|_, _| {})
    }

    /// As [`Watched::new`], with the engine's config changed by `configure`
    /// (given the config and the watched folder).
    pub fn new_with(configure: impl FnOnce(&mut EngineConfig, &Path)) -> Self {
        let docs_dir = tempfile::tempdir().unwrap();
        let data = tempfile::tempdir().unwrap();
        let calls = Arc::new(AtomicUsize::new(0));
        let mut cfg = EngineConfig::new(data.path());
        cfg.embedder = EmbedderConfig::Hash { dimensions: 64 };
        cfg.map_size = 1 << 30;
        let docs = docs_dir.path().canonicalize().unwrap();
        configure(&mut cfg, &docs);
        let embed_delay_ms = Arc::new(std::sync::atomic::AtomicU64::new(0));
        let embedder =
            Counting { inner: HashEmbedder::new(64).unwrap(), calls: calls.clone(), delay_ms: embed_delay_ms.clone() };
        let engine = Arc::new(Engine::with_embedder(cfg, Box::new(embedder)).unwrap());
        Self { docs, _docs_dir: docs_dir, data, engine, watcher: None, notices: Arc::default(), calls, embed_delay_ms }
    }

    /// Start watching with default options changed by `configure`.
    pub fn start_with(&mut self, configure: impl FnOnce(&mut WatchOptions)) {
        let mut options = WatchOptions::new(vec![self.docs.clone()]);
        configure(&mut options);
        let notices = self.notices.clone();
        let sink = Box::new(move |n: Notice| notices.lock().unwrap().push(n));
        self.watcher = Some(Watcher::start(self.engine.clone(), options, sink).unwrap());
    }

    /// Start watching with the default options, and wait for the first
    /// reconcile and the embedding of what it indexed.
    pub fn start(&mut self) {
        self.start_with(|_| {});
        self.wait_reconciled(1);
        self.wait_vectors();
    }

    /// Wait until no chunk waits for its vector (the watcher embeds while idle).
    pub fn wait_vectors(&self) {
        wait_until("the vectors", || self.engine.status().unwrap().vectors_pending == 0);
    }

    /// Wait until `n` reconciles have finished.
    pub fn wait_reconciled(&self, n: usize) {
        wait_until("reconcile", || self.reconciles() >= n);
    }

    /// Reconciles finished so far.
    pub fn reconciles(&self) -> usize {
        self.notices.lock().unwrap().iter().filter(|n| matches!(n, Notice::Reconciled { .. })).count()
    }

    /// Stop watching.
    pub fn stop(&mut self) {
        if let Some(w) = self.watcher.take() {
            w.stop();
        }
    }

    /// A path in the watched folder.
    pub fn path(&self, rel: &str) -> PathBuf {
        self.docs.join(rel)
    }

    /// Write `text` to `rel`, creating folders.
    pub fn write(&self, rel: &str, text: &str) {
        let p = self.path(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    /// Paths of the keyword (BM25) hits for `query`, best first.
    pub fn hits(&self, query: &str) -> Vec<String> {
        let opts = SearchOptions { mode: SearchMode::Bm25, ..SearchOptions::default() };
        let as_of = self.engine.as_of(chrono::NaiveDate::from_ymd_opt(2026, 11, 29), None);
        let results = self.engine.search(query, &opts, as_of, 0).unwrap().results;
        results.hits.into_iter().map(|h| h.path).collect()
    }

    /// Whether `token` is found, in `rel`.
    pub fn found_in(&self, token: &str, rel: &str) -> bool {
        let want = self.path(rel).to_string_lossy().into_owned();
        self.hits(token).first() == Some(&want)
    }

    /// Every committed change reported so far.
    pub fn changes(&self) -> Vec<Change> {
        let notices = self.notices.lock().unwrap();
        notices.iter().filter_map(|n| if let Notice::Change(c) = n { Some(c.clone()) } else { None }).collect()
    }

    /// The document id recorded for `rel`.
    pub fn doc_id(&self, rel: &str) -> Option<almirah_core::DocId> {
        let rtxn = self.engine.store().read_txn().unwrap();
        let key = self.path(rel).to_string_lossy().into_owned();
        self.engine.store().dbs().files.get(&rtxn, &key).unwrap().and_then(|r| r.doc_id)
    }

    /// Recorded paths (the `files` database), relative to the folder.
    pub fn recorded(&self) -> Vec<String> {
        let rtxn = self.engine.store().read_txn().unwrap();
        let prefix = format!("{}/", self.docs.display());
        let files = self.engine.store().dbs().files;
        files.iter(&rtxn).unwrap().map(|e| e.unwrap().0.trim_start_matches(&prefix).to_string()).collect()
    }
}

impl Drop for Watched {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Counts per database of a clean library indexing exactly `folder`'s files
/// (copied to a fresh folder), for "nothing of a deleted file remains".
pub fn clean_counts(folder: &Path) -> std::collections::BTreeMap<String, u64> {
    let data = tempfile::tempdir().unwrap();
    let engine = super::hash_engine(data.path());
    super::index(&engine, &[folder]);
    engine.dump().unwrap().counts
}

/// The databases that hold documents and chunks (the embedding cache keeps
/// vectors by text hash on purpose, and `meta` holds counters).
pub const CONTENT_DBS: [&str; 10] = [
    "files",
    "documents",
    "chunks",
    "chunk-keys",
    "postings",
    "term-impacts",
    "chunk-terms",
    "facets",
    "doc-meta",
    "vectors",
];
