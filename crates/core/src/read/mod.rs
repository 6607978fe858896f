//! The read path (ARCHITECTURE §1, "read path"): a [`Snapshot`] is one read
//! transaction plus the freshness gate built once for an as-of date and an
//! audience. Search, `read_chunk`, `list_documents`, `lookup_table`, the
//! withheld notes and the citation check all read through it, so one
//! question sees one consistent library however many tool calls it makes,
//! and nothing can reach a caller without passing the same gate.
//!
//! Answer code, the CLI and the desktop app hold a [`Reader`] (it can only
//! open snapshots) or a snapshot; neither can write.

mod chunk;
mod documents;
mod gate_cache;
mod search;
mod table;
mod terms;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

use almirah_embed::{Embedder, EmbedderConfig};
use chrono::NaiveDate;
use heed::{RoTxn, WithoutTls};

pub use chunk::{ChunkRead, CitationCheck};
pub use documents::DocView;
pub use gate_cache::GateCache;
pub use search::{DocFilter, GatedResults, WithheldHit};
pub use table::TableLookup;

use crate::error::{Error, Result};
use crate::freshness::gate::Gate;
use crate::freshness::{AsOf, FolderSettings, Reason, Session};
use crate::ids::DocId;
use crate::search::SearchOptions;
use crate::store::{Databases, Store};

/// The audiences a reader sees (from the user's profile, never from a
/// query or a model). Documents with no audience or an open one (`all`,
/// `everyone`, `public`, `any`) are visible to every audience.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Audience(Vec<String>);

impl Audience {
    /// The audience made of these names (case-insensitive).
    pub fn new<S: Into<String>>(names: impl IntoIterator<Item = S>) -> Self {
        Self(names.into_iter().map(Into::into).collect())
    }

    /// The names.
    pub fn names(&self) -> &[String] {
        &self.0
    }
}

/// Settings every snapshot of one library reads with.
#[derive(Debug, Clone)]
pub struct ReadSettings {
    /// Default search options.
    pub search: SearchOptions,
    /// Withheld hits kept for notes per query.
    pub withheld_notes: usize,
    /// Month (1-12) sessions start in.
    pub session_start_month: u32,
    /// The pinned current session, if any.
    pub session_override: Option<Session>,
}

/// Default bound on a snapshot's life, 30 min: a read transaction pins the
/// LMDB pages it sees, so writers meanwhile grow the file instead of reusing
/// them. Long enough for a classic answer with two slow model calls (each
/// bounded by the provider's request timeout, 300 s by default).
pub const DEFAULT_SNAPSHOT_MAX_AGE: Duration = Duration::from_secs(1800);

/// Counts of read transactions and gate builds made through snapshots (for
/// the "one question, one gate" test and `status`).
#[derive(Debug, Default)]
pub struct ReadStats {
    read_txns: AtomicU64,
    gate_builds: AtomicU64,
    gate_input_loads: AtomicU64,
}

impl ReadStats {
    /// `(read transactions, gate builds)` so far.
    pub fn counts(&self) -> (u64, u64) {
        (self.read_txns.load(Ordering::Relaxed), self.gate_builds.load(Ordering::Relaxed))
    }

    /// Times the gate inputs were read from the library (the rest of the
    /// gate builds reused them: nothing had been committed in between).
    pub fn gate_input_loads(&self) -> u64 {
        self.gate_input_loads.load(Ordering::Relaxed)
    }
}

/// The embedder, built on first use (a `docs` listing never loads it).
pub(crate) struct LazyEmbedder {
    cell: OnceLock<Arc<dyn Embedder>>,
    config: EmbedderConfig,
    /// The builtin model an `auto` config settled on for a new library
    /// (see [`LazyEmbedder::settle`]).
    settled: OnceLock<almirah_embed::BuiltinModel>,
}

impl LazyEmbedder {
    /// `config`, with `auto` already resolved to the library's stored model when it has one.
    pub(crate) fn new(config: EmbedderConfig) -> Self {
        Self { cell: OnceLock::new(), config, settled: OnceLock::new() }
    }

    pub(crate) fn preset(&self, embedder: Box<dyn Embedder>) {
        let _ = self.cell.set(Arc::from(embedder));
    }

    /// Whether the config leaves the builtin model to the library and
    /// nothing has been built or settled yet.
    pub(crate) fn undecided(&self) -> bool {
        matches!(self.config, EmbedderConfig::Builtin { model: almirah_embed::BuiltinModel::Auto, .. })
            && self.cell.get().is_none()
            && self.settled.get().is_none()
    }

    /// Settle an `auto` config on `model` (a new library's first index);
    /// no effect once the embedder is built.
    pub(crate) fn settle(&self, model: almirah_embed::BuiltinModel) {
        let _ = self.settled.set(model);
    }

    pub(crate) fn get(&self) -> Result<&dyn Embedder> {
        Ok(self.shared_ref()?.as_ref())
    }

    /// The embedder as a shared handle, for readers outside the engine.
    pub(crate) fn shared(&self) -> Result<Arc<dyn Embedder>> {
        self.shared_ref().cloned()
    }

    fn shared_ref(&self) -> Result<&Arc<dyn Embedder>> {
        if let Some(e) = self.cell.get() {
            return Ok(e);
        }
        let config = match (&self.config, self.settled.get()) {
            (EmbedderConfig::Builtin { model_dir, .. }, Some(model)) => {
                EmbedderConfig::Builtin { model_dir: model_dir.clone(), model: *model }
            }
            (config, _) => config.clone(),
        };
        let built: Arc<dyn Embedder> = Arc::from(almirah_embed::from_config(&config)?);
        Ok(self.cell.get_or_init(|| built))
    }
}

/// A read-only handle on a library for one audience: it opens snapshots and
/// nothing else.
#[derive(Clone, Copy)]
pub struct Reader<'e> {
    pub(crate) store: &'e Store,
    pub(crate) embedder: &'e LazyEmbedder,
    pub(crate) settings: &'e ReadSettings,
    pub(crate) folders: &'e std::sync::RwLock<Vec<FolderSettings>>,
    pub(crate) stats: &'e ReadStats,
    pub(crate) audience: &'e Audience,
    pub(crate) gate_inputs: &'e GateCache,
}

impl<'e> Reader<'e> {
    /// The settings snapshots read with.
    pub fn settings(&self) -> &ReadSettings {
        self.settings
    }

    /// The audience this reader sees.
    pub fn audience(&self) -> &Audience {
        self.audience
    }

    /// The library's embedder as a shared handle (built on first use), for
    /// answer code that compares sentences by meaning.
    ///
    /// # Errors
    /// [`Error`]s of loading the configured embedder (missing model files).
    pub fn embedder(&self) -> Result<Arc<dyn Embedder>> {
        self.embedder.shared()
    }

    /// When a question speaks for: `date` (default today) and `session`
    /// (default the configured override, else the session containing the
    /// date). A session without a date is a historical question: `D`
    /// becomes the earlier of today and the session's end.
    pub fn as_of(&self, date: Option<NaiveDate>, session: Option<Session>) -> AsOf {
        let month = self.settings.session_start_month;
        let today = chrono::Local::now().date_naive();
        match (date, session) {
            (None, Some(s)) => AsOf::for_session(s, today, month),
            (Some(d), s) => AsOf { historical: true, ..AsOf::at(d, s.or(self.settings.session_override), month) },
            (None, None) => AsOf::at(today, self.settings.session_override, month),
        }
    }

    /// Open a snapshot for `as_of` that lives at most
    /// [`DEFAULT_SNAPSHOT_MAX_AGE`].
    ///
    /// # Errors
    /// LMDB errors (e.g. too many readers).
    pub fn snapshot(&self, as_of: AsOf) -> Result<Snapshot<'e>> {
        self.snapshot_with_max_age(as_of, DEFAULT_SNAPSHOT_MAX_AGE)
    }

    /// Open a snapshot for `as_of`: one read transaction and the gate built
    /// once. Every read after `max_age` fails with
    /// [`Error::SnapshotExpired`] (the agent passes its wall-clock budget).
    ///
    /// # Errors
    /// LMDB errors (e.g. too many readers).
    pub fn snapshot_with_max_age(&self, as_of: AsOf, max_age: Duration) -> Result<Snapshot<'e>> {
        let rtxn = self.store.read_txn()?;
        self.stats.read_txns.fetch_add(1, Ordering::Relaxed);
        let folders = self.folders.read().map(|f| f.clone()).unwrap_or_else(|e| e.into_inner().clone());
        let gate = self.gate_inputs.gate(self.store, &rtxn, &folders, as_of, self.audience.names(), self.stats)?;
        self.stats.gate_builds.fetch_add(1, Ordering::Relaxed);
        Ok(Snapshot {
            dbs: *self.store.dbs(),
            rtxn: Mutex::new(rtxn),
            gate,
            embedder: self.embedder,
            settings: self.settings,
            opened: Instant::now(),
            max_age,
        })
    }
}

/// One consistent, gated view of the library: a read transaction and the
/// gate built once in it. `Send` and `Sync`, so it can be held across
/// `.await`s; every read fails once it is older than its bound.
pub struct Snapshot<'e> {
    dbs: Databases,
    rtxn: Mutex<RoTxn<'e, WithoutTls>>,
    gate: Arc<Gate>,
    embedder: &'e LazyEmbedder,
    settings: &'e ReadSettings,
    opened: Instant,
    max_age: Duration,
}

impl<'e> Snapshot<'e> {
    /// When the snapshot speaks for.
    pub fn as_of(&self) -> AsOf {
        self.gate.as_of()
    }

    /// The gate (read-only).
    pub fn gate(&self) -> &Gate {
        &self.gate
    }

    /// The settings it reads with.
    pub fn settings(&self) -> &ReadSettings {
        self.settings
    }

    /// The read transaction, after checking the snapshot's age.
    ///
    /// # Errors
    /// [`Error::SnapshotExpired`]; [`Error::DataCorruption`] if a reader panicked.
    fn txn(&self) -> Result<MutexGuard<'_, RoTxn<'e, WithoutTls>>> {
        let age = self.opened.elapsed();
        if age > self.max_age {
            return Err(Error::SnapshotExpired {
                age_ms: age.as_millis() as u64,
                limit_ms: self.max_age.as_millis() as u64,
            });
        }
        self.rtxn.lock().map_err(|_| Error::DataCorruption("a reader panicked holding the snapshot".into()))
    }

    /// Why a visible document is withheld, naming only visible superseding
    /// documents ("superseded by a newer document" for hidden ones).
    ///
    /// # Errors
    /// Storage errors.
    pub fn reason(&self, doc: DocId) -> Result<Reason> {
        let rtxn = self.txn()?;
        self.reason_in(&rtxn, doc)
    }

    fn reason_in(&self, rtxn: &RoTxn<'_>, doc: DocId) -> Result<Reason> {
        let Some(status) = self.gate.status(doc) else { return Ok(Reason::default()) };
        let as_of = self.gate.as_of();
        let mut reason = Reason {
            expired: status.expired,
            pending_on: status.pending.then_some(as_of.date),
            other_session: status.other_session.map(|s| (s, as_of.session)),
            ..Reason::default()
        };
        for by in &status.superseded_by {
            match self.dbs.documents.get(rtxn, by)?.filter(|_| self.gate.is_visible(*by)) {
                Some(d) => reason.superseded_by.push(d.key),
                None => reason.superseded_by_hidden = true,
            }
        }
        reason.superseded_by.sort();
        Ok(reason)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_send_sync<T: Send + Sync>() {}

    #[test]
    fn snapshots_and_readers_move_across_tasks() {
        assert_send_sync::<Snapshot<'static>>();
        assert_send_sync::<Reader<'static>>();
    }
}
