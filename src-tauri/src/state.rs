//! What the app holds while it runs: the open library (one `Engine`, so one
//! LMDB environment per process), the background watcher, the config file
//! it shares with the CLI, and drops waiting to be imported.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use almirah_core::embed::{BuiltinModel, EmbedderConfig};
use almirah_core::freshness::FolderSettings;
use almirah_core::{Engine, ExtractorMode, Watcher};
use almirah_settings::Config;

use crate::error::{CmdResult, CommandError};

/// The app's state (managed by tauri; commands get it as `State<AppState>`).
pub struct AppState {
    /// The open library, or why it could not be opened (or was closed).
    engine: Mutex<Result<Arc<Engine>, String>>,
    /// The config file (shared with the CLI); it may not exist yet.
    pub config_path: PathBuf,
    /// The drag-and-drop inbox: a folder in the library that is always watched.
    pub inbox: PathBuf,
    /// The background watcher, once started.
    pub watcher: Mutex<Option<Watcher>>,
    /// Set once the first sync ran (or the watcher started without one).
    pub synced: AtomicBool,
    /// Set while a re-embed runs: a second one, and a restart, wait for it.
    pub re_embedding: AtomicBool,
    /// Dropped paths by job id, until the UI starts their import.
    pub drops: Mutex<HashMap<u32, Vec<PathBuf>>>,
    /// The config file's `[embedder]` when the library was opened: a
    /// different one in the file now applies after a restart.
    pub opened_embedder: EmbedderConfig,
    next_job: AtomicU32,
}

/// Where the app finds its config, library and built-in model.
#[derive(Debug, Clone, Default)]
pub struct Locations {
    /// The config file; default: `$ALMIRAH_CONFIG`, else the platform's
    /// config folder (`~/.config/almirah/config.toml`).
    pub config: Option<PathBuf>,
    /// The library folder; default: `$ALMIRAH_DATA_DIR`, else the config's
    /// `data_dir`, else `~/.local/share/almirah`.
    pub data_dir: Option<PathBuf>,
    /// Where the installed package keeps the built-in embedder's weights
    /// (the bundle's resource folder), used when nothing else names one.
    pub bundled_model: Option<PathBuf>,
    /// The program to run third-party parsers in, as `PROGRAM __extract FILE`
    /// (the app binary itself), with the config's time and memory limits;
    /// `None` extracts in process (tests).
    pub extractor_program: Option<PathBuf>,
}

impl AppState {
    /// Open the library the config describes. A library that cannot be
    /// opened does not stop the app: every command then reports why.
    pub fn open(locations: &Locations) -> Self {
        let config_path = almirah_settings::config_path(locations.config.as_deref())
            .unwrap_or_else(|| PathBuf::from("almirah-config.toml"));
        let file = read_config(&config_path).map_err(|e| e.to_string());
        let opened_embedder = file.as_ref().map(|c| c.embedder.clone()).unwrap_or_default();
        let opened = file.and_then(|file| open_engine(locations, &file));
        let inbox = opened.as_ref().map_or_else(|_| PathBuf::from("inbox"), |(_, inbox)| inbox.clone());
        Self {
            engine: Mutex::new(opened.map(|(engine, _)| Arc::new(engine))),
            config_path,
            inbox,
            watcher: Mutex::new(None),
            synced: AtomicBool::new(false),
            re_embedding: AtomicBool::new(false),
            drops: Mutex::new(HashMap::new()),
            opened_embedder,
            next_job: AtomicU32::new(1),
        }
    }

    /// The open library.
    ///
    /// # Errors
    /// `io` with the reason it could not be opened.
    pub fn engine(&self) -> CmdResult<Arc<Engine>> {
        self.engine.lock().unwrap_or_else(|e| e.into_inner()).clone().map_err(|m| CommandError::new("io", m))
    }

    /// Stop the watcher (waiting for its batch in progress) and let go of
    /// the library before a restart: every later command reports that the
    /// app is restarting, and the LMDB environment closes once the last
    /// command holding it returns (a restart exits the process anyway;
    /// every commit is atomic).
    pub fn close(&self) {
        if let Some(w) = self.watcher().take() {
            w.stop();
        }
        *self.engine.lock().unwrap_or_else(|e| e.into_inner()) =
            Err("the library is closed: the app is restarting".into());
    }

    /// The config file as it is now (defaults when it does not exist).
    ///
    /// # Errors
    /// `invalid-input` when it does not parse.
    pub fn config(&self) -> CmdResult<Config> {
        Ok(read_config(&self.config_path)?)
    }

    /// Every folder to index and watch: the configured ones that exist, and the inbox.
    pub fn roots(&self, config: &Config) -> Vec<PathBuf> {
        let mut roots: Vec<PathBuf> = config.folders.iter().map(|f| f.path.clone()).filter(|p| p.is_dir()).collect();
        if self.inbox.is_dir() && !roots.contains(&self.inbox) {
            roots.push(self.inbox.clone());
        }
        roots
    }

    /// The folders the watcher follows: every configured folder, present or
    /// not (a missing one is looked for at each reconcile), and the inbox.
    pub fn watch_roots(&self, config: &Config) -> Vec<PathBuf> {
        let mut roots: Vec<PathBuf> = config.folders.iter().map(|f| f.path.clone()).collect();
        if self.inbox.is_dir() && !roots.contains(&self.inbox) {
            roots.push(self.inbox.clone());
        }
        roots
    }

    /// The folder settings the engine applies: the config's, plus the inbox
    /// (versioning on, never removed by a folder reconcile of another folder).
    pub fn folder_settings(&self, config: &Config) -> Vec<FolderSettings> {
        with_inbox(&config.folders, &self.inbox)
    }

    /// A fresh job id for a drop.
    pub fn next_job(&self) -> u32 {
        self.next_job.fetch_add(1, Ordering::SeqCst)
    }

    /// The watcher slot.
    pub fn watcher(&self) -> MutexGuard<'_, Option<Watcher>> {
        self.watcher.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The config file, or the defaults when it does not exist.
fn read_config(path: &Path) -> Result<Config, almirah_settings::SettingsError> {
    if path.exists() { almirah_settings::read(path) } else { Ok(Config::default()) }
}

/// `folders` plus the inbox with the default settings, unless listed.
fn with_inbox(folders: &[FolderSettings], inbox: &Path) -> Vec<FolderSettings> {
    let mut folders = folders.to_vec();
    if !folders.iter().any(|f| f.path == inbox) {
        folders.push(FolderSettings { path: inbox.to_path_buf(), ..FolderSettings::default() });
    }
    folders
}

/// The engine, and its inbox (canonical).
fn open_engine(locations: &Locations, file: &Config) -> Result<(Engine, PathBuf), String> {
    let data_dir = almirah_settings::data_dir(locations.data_dir.as_deref(), file).map_err(|e| e.to_string())?;
    let mut cfg = almirah_settings::engine_config(file, &data_dir).map_err(|e| e.to_string())?;
    // The bundled all-MiniLM-L6-v2 folder; multilingual-e5-small is found
    // under /usr/lib/Almirah/models/ by the embedder itself.
    if let (EmbedderConfig::Builtin { model_dir: None, model: BuiltinModel::MiniLm }, Some(bundled)) =
        (&cfg.embedder, &locations.bundled_model)
        && std::env::var_os("ALMIRAH_MODEL_DIR").is_none()
        && bundled.join("model.safetensors").is_file()
    {
        cfg.embedder = EmbedderConfig::Builtin { model_dir: Some(bundled.clone()), model: BuiltinModel::MiniLm };
    }
    if let Some(program) = &locations.extractor_program {
        cfg.index.extractor = ExtractorMode::Subprocess {
            program: program.clone(),
            args: vec!["__extract".into()],
            timeout_ms: file.index.extract_timeout_secs.saturating_mul(1000),
            memory_limit_bytes: file.index.extract_memory_mib.saturating_mul(1 << 20),
        };
    }
    let inbox = data_dir.join("inbox");
    std::fs::create_dir_all(&inbox).map_err(|e| format!("cannot create the inbox {}: {e}", inbox.display()))?;
    let engine = Engine::open(cfg).map_err(|e| format!("cannot open the library in {}: {e}", data_dir.display()))?;
    let inbox = inbox.canonicalize().unwrap_or(inbox);
    engine.set_folders(with_inbox(&file.folders, &inbox));
    Ok((engine, inbox))
}
