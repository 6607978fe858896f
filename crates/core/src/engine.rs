//! The `Engine`: the one entry point the CLI and the desktop app call. It owns
//! the store (one LMDB env per library) and the embedder, and holds no
//! terminal or UI code (STYLE convention 1).

use std::path::{Path, PathBuf};
use std::sync::RwLock;
use std::sync::atomic::AtomicBool;

use almirah_embed::{Embedder, EmbedderConfig};
use chrono::NaiveDate;

use crate::error::{Error, Result};
use crate::freshness::{AsOf, FolderSettings, Session};
use crate::ids::DocId;
use crate::progress::Progress;
use crate::read::{
    Audience, ChunkRead, DocFilter, DocView, GatedResults, LazyEmbedder, ReadSettings, ReadStats, Reader, Snapshot,
    TableLookup,
};
use crate::search::SearchOptions;
use crate::status::LibraryStatus;
use crate::store::{self, DEFAULT_MAP_SIZE, FORMAT_VERSION, Store, get_meta, meta_keys};
use crate::update::{self, IndexParams, IngestReport};

pub use crate::embedder_choice::check_identity;

/// Everything an engine needs; the CLI fills it from flags and the config file.
#[derive(Debug, Clone)]
pub struct EngineConfig {
    /// Library folder (holds the LMDB environment).
    pub data_dir: PathBuf,
    /// Which embedder to use.
    pub embedder: EmbedderConfig,
    /// Indexing settings.
    pub index: IndexParams,
    /// Search settings.
    pub search: SearchOptions,
    /// LMDB map size in bytes (address space; sparse on Unix).
    pub map_size: usize,
    /// The user's audiences (from the profile); never widened by a query.
    pub audiences: Vec<String>,
    /// Month (1-12) sessions start in (default 7, July).
    pub session_start_month: u32,
    /// The current session, when set instead of derived from the date.
    pub session_override: Option<Session>,
    /// Withheld hits kept for notes per query (default 3).
    pub withheld_notes: usize,
}

impl EngineConfig {
    /// Defaults for a library in `data_dir`.
    pub fn new(data_dir: impl Into<PathBuf>) -> Self {
        Self {
            data_dir: data_dir.into(),
            embedder: EmbedderConfig::default(),
            index: IndexParams::default(),
            search: SearchOptions::default(),
            map_size: DEFAULT_MAP_SIZE,
            audiences: Vec::new(),
            session_start_month: 7,
            session_override: None,
            withheld_notes: 3,
        }
    }
}

/// An open library.
pub struct Engine {
    store: Store,
    config: EngineConfig,
    embedder: LazyEmbedder,
    read_settings: ReadSettings,
    audience: Audience,
    stats: ReadStats,
    /// The watched folders' settings; replaced at run time by
    /// [`Engine::set_folders`] (the config's `index.folders` is the start value).
    folders: RwLock<Vec<FolderSettings>>,
    /// The last gate inputs read, for the next snapshot on the same state.
    gate_inputs: crate::read::GateCache,
}

impl Engine {
    /// Open the library.
    ///
    /// # Errors
    /// See [`Store::open`].
    pub fn open(config: EngineConfig) -> Result<Self> {
        let store = Store::open(&config.data_dir, config.map_size)?;
        let folders = RwLock::new(config.index.folders.clone());
        let read_settings = ReadSettings {
            search: config.search,
            withheld_notes: config.withheld_notes,
            session_start_month: config.session_start_month,
            session_override: config.session_override,
        };
        let audience = Audience::new(config.audiences.clone());
        let stored = crate::embedder_choice::library_embedder(&store)?;
        let embedder = LazyEmbedder::new(crate::embedder_choice::resolve(&config.embedder, stored.as_ref()));
        Ok(Self {
            store,
            config,
            embedder,
            read_settings,
            audience,
            stats: ReadStats::default(),
            folders,
            gate_inputs: Default::default(),
        })
    }

    /// Open with an embedder already built (tests, benchmarks).
    ///
    /// # Errors
    /// See [`Store::open`].
    pub fn with_embedder(config: EngineConfig, embedder: Box<dyn Embedder>) -> Result<Self> {
        let engine = Self::open(config)?;
        engine.embedder.preset(embedder);
        Ok(engine)
    }

    /// The store, for reads (tools, the benchmark and tests): outside the
    /// core a [`Store`] opens read transactions and nothing else.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The configuration.
    pub fn config(&self) -> &EngineConfig {
        &self.config
    }

    /// The embedder, loaded on first use.
    ///
    /// # Errors
    /// [`Error::Embed`] when it cannot be built (e.g. the model is missing).
    pub fn embedder(&self) -> Result<&dyn Embedder> {
        self.embedder.get()
    }

    /// The same embedder as a shared handle (loaded on first use), for a
    /// component that outlives a borrow of the engine: the builtin model
    /// compares sentences with questions by meaning with it.
    ///
    /// # Errors
    /// [`Error::Embed`] when it cannot be built (e.g. the model is missing).
    pub fn shared_embedder(&self) -> Result<std::sync::Arc<dyn Embedder>> {
        self.embedder.shared()
    }

    /// A read-only handle for the configured audience (the user's profile).
    pub fn reader(&self) -> Reader<'_> {
        self.reader_as(&self.audience)
    }

    /// A read-only handle for another audience (one process serving
    /// several profiles from one library).
    pub fn reader_as<'e>(&'e self, audience: &'e Audience) -> Reader<'e> {
        Reader {
            store: &self.store,
            embedder: &self.embedder,
            settings: &self.read_settings,
            folders: &self.folders,
            stats: &self.stats,
            audience,
            gate_inputs: &self.gate_inputs,
        }
    }

    /// One snapshot for the configured audience at `as_of` (see [`Reader::snapshot`]).
    ///
    /// # Errors
    /// LMDB errors.
    pub fn snapshot(&self, as_of: AsOf) -> Result<Snapshot<'_>> {
        self.reader().snapshot(as_of)
    }

    /// Read transactions opened and gates built through snapshots so far.
    pub fn read_stats(&self) -> &ReadStats {
        &self.stats
    }

    /// Index folders: new and changed files are processed, deleted ones removed.
    ///
    /// # Errors
    /// [`Error::BadPath`] for a missing folder or a bad glob in its settings,
    /// store and embedder errors, and [`Error::Cancelled`]. Per-file problems
    /// are in the report, never errors.
    pub fn index(&self, roots: &[PathBuf], progress: &dyn Progress, cancel: &AtomicBool) -> Result<IngestReport> {
        self.index_with(roots, self.config.index.wait_for_vectors, progress, cancel)
    }

    /// [`Engine::index`], choosing whether to wait for the embedding
    /// backfill (`false`: return once every file is searchable by keywords).
    ///
    /// # Errors
    /// As [`Engine::index`].
    pub fn index_with(
        &self,
        roots: &[PathBuf],
        wait_for_vectors: bool,
        progress: &dyn Progress,
        cancel: &AtomicBool,
    ) -> Result<IngestReport> {
        let roots = canonical_roots(roots)?;
        self.settle_builtin_model(&roots)?;
        let embedder = self.embedder()?;
        remember_roots(&self.store, &roots)?;
        let params = IndexParams { wait_for_vectors, ..self.index_params() };
        update::index(&self.store, embedder, &params, &roots, progress, cancel)
    }

    /// A new library under an `auto` builtin model: choose the model from
    /// the files of `roots` (see [`crate::embedder_choice`]) before the
    /// embedder is built. Nothing happens once the library has an identity.
    fn settle_builtin_model(&self, roots: &[PathBuf]) -> Result<()> {
        if !self.embedder.undecided() {
            return Ok(());
        }
        let model = match crate::embedder_choice::library_embedder(&self.store)?
            .as_ref()
            .and_then(almirah_embed::BuiltinModel::of_id)
        {
            Some(model) => model,
            None => match crate::embedder_choice::for_new_library(roots) {
                Some(model) => model,
                // Nothing to read yet (an empty folder): decide on the next index.
                None => return Ok(()),
            },
        };
        tracing::info!(model = model.name(), "builtin embedder for this library");
        self.embedder.settle(model);
        Ok(())
    }

    /// Embed every chunk still waiting for a vector (phase 2 of ingest).
    /// Progress goes out as [`crate::ProgressEvent::Embedding`]; `cancel`
    /// stops between batches.
    ///
    /// # Errors
    /// [`Error::Cancelled`], embedder errors (the batch in hand is not
    /// committed; the queue keeps it) and storage errors.
    pub fn backfill(&self, progress: &dyn Progress, cancel: &AtomicBool) -> Result<update::backfill::BackfillReport> {
        update::backfill::backfill(&self.store, self.embedder()?, progress, cancel)
    }

    /// Bring the paths in `hints` up to date within `roots` (the watcher's
    /// entry point): each is re-stat'ed and, when it may have changed,
    /// hashed; files are indexed, moved or deleted through the same pipeline
    /// and writer as [`Engine::index`]. Roots must be canonical.
    ///
    /// # Errors
    /// As [`Engine::index`]. Nothing is written when no hint needs work.
    pub fn index_paths(
        &self,
        roots: &[PathBuf],
        hints: &[update::Hint],
        progress: &dyn Progress,
        cancel: &AtomicBool,
    ) -> Result<IngestReport> {
        self.index_paths_with(roots, hints, self.config.index.wait_for_vectors, progress, cancel)
    }

    /// [`Engine::index_paths`], choosing whether to wait for the embedding
    /// backfill (the watcher does not: it embeds in slices while idle).
    ///
    /// # Errors
    /// As [`Engine::index_paths`].
    pub fn index_paths_with(
        &self,
        roots: &[PathBuf],
        hints: &[update::Hint],
        wait_for_vectors: bool,
        progress: &dyn Progress,
        cancel: &AtomicBool,
    ) -> Result<IngestReport> {
        self.settle_builtin_model(roots)?;
        let embedder = self.embedder()?;
        let params = IndexParams { wait_for_vectors, ..self.index_params() };
        update::index_paths(&self.store, embedder, &params, roots, hints, progress, cancel)
    }

    /// Embed at most `limit` queued chunks (whole batches of at most
    /// `limit`), oldest first: a watcher's slice of background work between
    /// its first-phase batches, so new files never wait for the backfill.
    /// Trees are built only when the queue is empty.
    ///
    /// # Errors
    /// As [`Engine::backfill`].
    pub fn backfill_up_to(
        &self,
        limit: usize,
        progress: &dyn Progress,
        cancel: &AtomicBool,
    ) -> Result<update::backfill::BackfillReport> {
        update::backfill::backfill_up_to(&self.store, self.embedder()?, progress, cancel, limit)
    }

    /// Drop a folder from the library: every document recorded at or below
    /// it leaves every database, and it is no longer listed as indexed. The
    /// folder may be gone from disk; the embedder is not loaded.
    ///
    /// # Errors
    /// Storage errors.
    pub fn remove_folder(&self, folder: &Path) -> Result<IngestReport> {
        let folder = folder.canonicalize().unwrap_or_else(|_| std::path::absolute(folder).unwrap_or(folder.into()));
        let report = update::remove_folder(&self.store, &folder)?;
        forget_root(&self.store, &folder)?;
        Ok(report)
    }

    /// The indexing settings in force: the config's, with the folder
    /// settings as last set by [`Engine::set_folders`].
    pub fn index_params(&self) -> IndexParams {
        IndexParams { folders: self.folders(), ..self.config.index.clone() }
    }

    /// The watched folders' settings now.
    pub fn folders(&self) -> Vec<FolderSettings> {
        self.folders.read().map(|f| f.clone()).unwrap_or_else(|e| e.into_inner().clone())
    }

    /// Replace the watched folders' settings (the user added, removed or
    /// changed a folder while the library is open). Later indexing, and a
    /// watcher told with [`crate::Watcher::set_roots`], use them.
    pub fn set_folders(&self, folders: Vec<FolderSettings>) {
        match self.folders.write() {
            Ok(mut f) => *f = folders,
            Err(e) => *e.into_inner() = folders,
        }
    }

    /// When a question speaks for (see [`Reader::as_of`]).
    pub fn as_of(&self, date: Option<NaiveDate>, session: Option<Session>) -> AsOf {
        self.reader().as_of(date, session)
    }

    /// Hybrid search through the freshness gate: only admissible chunks are
    /// ranked; a bounded second search over withheld chunks feeds the notes
    /// (`withheld_k` hits; 0 for none).
    ///
    /// # Errors
    /// [`Error::EmbedderMismatch`] when the index was built with another embedder;
    /// embedder and storage errors.
    pub fn search(&self, query: &str, opts: &SearchOptions, as_of: AsOf, withheld_k: usize) -> Result<GatedResults> {
        self.search_in(query, opts, as_of, withheld_k, &DocFilter::default())
    }

    /// [`Engine::search`] narrowed to the admissible documents `filter`
    /// keeps (a series, a session). The filter can only narrow: a withheld
    /// document stays withheld whatever it asks for.
    ///
    /// # Errors
    /// As [`Engine::search`].
    pub fn search_in(
        &self,
        query: &str,
        opts: &SearchOptions,
        as_of: AsOf,
        withheld_k: usize,
        filter: &DocFilter,
    ) -> Result<GatedResults> {
        self.snapshot(as_of)?.search(query, opts, withheld_k, filter)
    }

    /// One chunk by its readable key, through the gate (admitted, withheld
    /// with its reason, or not found; hidden is not found).
    ///
    /// # Errors
    /// Storage errors.
    pub fn read_chunk(&self, key: &str, as_of: AsOf) -> Result<ChunkRead> {
        self.snapshot(as_of)?.read_chunk(key)
    }

    /// Rows of the admissible CSV table `table` whose cells contain `key`,
    /// at most `limit` rows, each as its citable chunk.
    ///
    /// # Errors
    /// Storage errors.
    pub fn lookup_table(&self, table: &str, key: &str, limit: usize, as_of: AsOf) -> Result<TableLookup> {
        self.snapshot(as_of)?.lookup_table(table, key, limit)
    }

    /// Every document visible to the user, with status, reasons and provenance.
    ///
    /// # Errors
    /// Storage errors.
    pub fn documents(&self, as_of: AsOf) -> Result<Vec<DocView>> {
        self.snapshot(as_of)?.documents()
    }

    /// Find a document by key, id or path.
    ///
    /// # Errors
    /// [`Error::BadPath`] when nothing matches; storage errors.
    pub fn find_document(&self, reference: &str) -> Result<DocId> {
        self.snapshot(self.as_of(None, None))?.find_document(reference)?.ok_or_else(|| Error::BadPath {
            path: reference.into(),
            reason: "no such document (give a key from `almirah docs`, an id, a path, or a file name that only one document has)".into(),
        })
    }

    /// Set (`Some`) or remove (`None`) a metadata override on a document.
    /// Takes effect at once and survives re-indexing and moves.
    ///
    /// # Errors
    /// [`Error::BadOverride`] for an unknown field or a bad value; storage errors.
    pub fn set_override(&self, doc: DocId, field: &str, value: Option<&str>) -> Result<()> {
        if let Some(v) = value {
            crate::freshness::overrides::validate(field, v).map_err(|e| Error::BadOverride(e.to_string()))?;
        } else if !crate::freshness::meta::OVERRIDABLE.contains(&field) {
            return Err(Error::BadOverride(format!("unknown field {field:?}")));
        }
        let (field, value) = (field.to_string(), value.map(str::to_string));
        self.store.write(move |mut wtxn, dbs| {
            let mut current = dbs.overrides.get(&wtxn, &doc)?.unwrap_or_default();
            match value {
                Some(v) => current.insert(field, v),
                None => current.remove(&field),
            };
            if current.is_empty() {
                dbs.overrides.delete(&mut wtxn, &doc)?;
            } else {
                dbs.overrides.put(&mut wtxn, &doc, &current)?;
            }
            store::gate_records::refresh_doc(dbs, &mut wtxn, doc)?;
            store::gate_records::refresh_state(dbs, &mut wtxn)?;
            Ok(wtxn.commit()?)
        })
    }

    /// Counts, sizes, problems and the embedder.
    ///
    /// # Errors
    /// Storage errors.
    pub fn status(&self) -> Result<LibraryStatus> {
        self.status_as(&self.audience)
    }

    /// [`Engine::status`] for another audience (a server answering
    /// several profiles): only what `audience` may see is counted or listed.
    ///
    /// # Errors
    /// Storage errors.
    pub fn status_as(&self, audience: &Audience) -> Result<LibraryStatus> {
        crate::status::status(&self.store, audience, &self.folders())
    }

    /// The identity the library's vectors were made with: `None` for a new
    /// library, and for one that holds no chunk (an identity recorded by an
    /// index that added nothing binds nothing: the next index may choose).
    ///
    /// # Errors
    /// Storage errors.
    pub fn library_embedder(&self) -> Result<Option<almirah_embed::EmbedderId>> {
        crate::embedder_choice::library_embedder(&self.store)
    }

    /// Re-embed every chunk with the configured embedder into a new vector
    /// index and switch over when it is complete.
    ///
    /// # Errors
    /// Embedder and storage errors; the old index stays in use on failure.
    pub fn reindex_re_embed(&self, progress: &dyn Progress) -> Result<crate::reembed::ReembedReport> {
        crate::reembed::re_embed(&self.store, self.embedder()?, &self.index_params(), progress)
    }

    /// Logical dump (counts and hash) for tests.
    ///
    /// # Errors
    /// Storage errors.
    pub fn dump(&self) -> Result<store::dump::Dump> {
        store::dump::dump(&self.store)
    }
}

fn canonical_roots(roots: &[PathBuf]) -> Result<Vec<PathBuf>> {
    roots
        .iter()
        .map(|r| {
            let c = r.canonicalize().map_err(|e| Error::BadPath { path: r.clone(), reason: e.to_string() })?;
            if c.is_dir() { Ok(c) } else { Err(Error::BadPath { path: r.clone(), reason: "not a folder".into() }) }
        })
        .collect()
}

fn remember_roots(store: &Store, roots: &[PathBuf]) -> Result<()> {
    let roots: Vec<String> = roots.iter().map(|r| r.to_string_lossy().into_owned()).collect();
    store.write(move |mut wtxn, dbs| {
        let mut known: Vec<String> = get_meta(dbs, &wtxn, meta_keys::ROOTS)?.unwrap_or_default();
        let before = known.len();
        for root in roots {
            if !known.contains(&root) {
                known.push(root);
            }
        }
        if known.len() == before {
            return Ok(());
        }
        known.sort();
        dbs.meta.put(&mut wtxn, meta_keys::ROOTS, &serde_json::Value::from(known))?;
        Ok(wtxn.commit()?)
    })
}

fn forget_root(store: &Store, folder: &Path) -> Result<()> {
    let folder = folder.to_path_buf();
    store.write(move |mut wtxn, dbs| {
        let mut known: Vec<String> = get_meta(dbs, &wtxn, meta_keys::ROOTS)?.unwrap_or_default();
        let before = known.len();
        known.retain(|r| !Path::new(r).starts_with(&folder));
        if known.len() == before {
            return Ok(());
        }
        dbs.meta.put(&mut wtxn, meta_keys::ROOTS, &serde_json::Value::from(known))?;
        Ok(wtxn.commit()?)
    })
}

/// The format version this build writes.
pub fn format_version() -> u32 {
    FORMAT_VERSION
}

/// Whether `path` looks like a library folder (has an LMDB data file).
pub fn is_library(path: &Path) -> bool {
    path.join("data.mdb").is_file()
}
