//! The config file (TOML) and where data lives.
//!
//! Lookup: `--config FILE`, else `$ALMIRAH_CONFIG`, else
//! `<config dir>/config.toml` from `directories` (Linux:
//! `~/.config/almirah/config.toml`). The data folder: `--data-dir`, else
//! `$ALMIRAH_DATA_DIR`, else `data_dir` in the config, else
//! `<data dir>` from `directories` (Linux: `~/.local/share/almirah`).

use std::path::{Path, PathBuf};

use almirah_core::EngineConfig;
use almirah_core::embed::EmbedderConfig;
use almirah_core::extract::ChunkOptions;
use serde::{Deserialize, Serialize};

use crate::error::{Result, SettingsError, io};

/// The config file.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// Library folder.
    pub data_dir: Option<PathBuf>,
    /// Embedder, e.g. `[embedder] provider = "ollama"  model = "nomic-embed-text"`.
    pub embedder: EmbedderConfig,
    /// Chunk sizes in characters.
    pub chunking: Option<ChunkOptions>,
    /// Indexing limits.
    pub index: IndexSection,
    /// Who the user is: `[profile] audience = ["all-staff", "students"]`.
    pub profile: ProfileSection,
    /// `[sessions] start_month = 7`, optional `current = "2026-27"`.
    pub sessions: SessionsSection,
    /// The chat model: `[model] spec = "ollama:qwen2.5:1.5b"  mode = "auto"`, plus
    /// provider options (`request_timeout_ms`, `api_key_env`, `ollama_url`, …).
    pub model: ModelSection,
    /// The agent loop: `[agent] action_mode = true` (unset: on for local servers), `handover = "…"` and
    /// `[agent.budgets] max_rounds = 5  max_tool_calls = 8  max_input_tokens = 24000  max_wall_ms = 120000`.
    pub agent: almirah_answer::agent::AgentConfig,
    /// Watched folders and their settings: `[[folders]] path = "…"  recursive = true
    /// include = ["*.md"]  exclude = ["drafts/**"]  versioning = "auto"  date_order = "day-month"
    /// audience = ["hr-only"]  force_poll = false` (`almirah folders add|remove|list` edits them).
    pub folders: Vec<almirah_core::freshness::FolderSettings>,
    /// `almirah watch` timing: `[watch] debounce_ms = 300  reconcile_secs = 300  poll_interval_ms = 2000`.
    pub watch: WatchSection,
    /// OCR of scanned PDFs: `[ocr] enabled = true  languages = "eng+hin"  dpi = 300
    /// page_timeout_ms = 120000  jobs = 0  min_confidence = 60` (programs: `tesseract`,
    /// `pdftoppm`, `pdfimages`, from the packages poppler-utils and tesseract-ocr).
    pub ocr: almirah_core::update::OcrOptions,
    /// `almirah serve`: bind address, port, bearer tokens and their audience
    /// profiles, limits (see [`crate::serve`]).
    pub serve: crate::serve::ServeSection,
}

/// `[watch]` section.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct WatchSection {
    /// Quiet time after the last event on a path before it is read, in ms.
    pub debounce_ms: u64,
    /// Time between full reconciles, in seconds.
    pub reconcile_secs: u64,
    /// How often polled folders (network shares, `force_poll`) are re-read, in ms.
    pub poll_interval_ms: u64,
}

impl Default for WatchSection {
    fn default() -> Self {
        Self { debounce_ms: 300, reconcile_secs: 300, poll_interval_ms: 2000 }
    }
}

impl WatchSection {
    /// The watcher's options for `roots` with these timings (each at least
    /// 10 ms debounce, 1 s between reconciles, 100 ms between polls).
    pub fn options(&self, roots: Vec<PathBuf>) -> almirah_core::WatchOptions {
        let mut options = almirah_core::WatchOptions::new(roots);
        options.debounce = std::time::Duration::from_millis(self.debounce_ms.max(10));
        options.reconcile_every = std::time::Duration::from_secs(self.reconcile_secs.max(1));
        options.poll_interval = std::time::Duration::from_millis(self.poll_interval_ms.max(100));
        options
    }
}

/// `[model]` section.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct ModelSection {
    /// `builtin`, `ollama:NAME`, `openai:URL:NAME` or `gemini:NAME`.
    pub spec: String,
    /// `classic`, `agent` or `auto` (default).
    pub mode: almirah_answer::mode::Mode,
    /// Timeouts (ms), retries, base URLs, key variable, temperature, output tokens.
    #[serde(flatten)]
    pub options: almirah_answer::providers::ProviderOptions,
}

impl Default for ModelSection {
    fn default() -> Self {
        Self { spec: "builtin".into(), mode: Default::default(), options: Default::default() }
    }
}

/// `[profile]` section.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ProfileSection {
    /// The user's audiences. Documents with another audience never appear.
    pub audience: Vec<String>,
}

impl Default for ProfileSection {
    fn default() -> Self {
        Self { audience: vec!["all-staff".into(), "staff".into(), "students".into()] }
    }
}

/// `[sessions]` section.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SessionsSection {
    /// Month (1-12) a session starts in.
    pub start_month: u32,
    /// The current session, instead of the one containing today.
    pub current: Option<String>,
}

impl Default for SessionsSection {
    fn default() -> Self {
        Self { start_month: 7, current: None }
    }
}

/// `[index]` section.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct IndexSection {
    /// Extraction time limit per file, in seconds.
    pub extract_timeout_secs: u64,
    /// Extraction memory limit per file, in MiB.
    pub extract_memory_mib: u64,
    /// Commit after this many chunks.
    pub batch_max_chunks: usize,
}

impl Default for IndexSection {
    fn default() -> Self {
        Self { extract_timeout_secs: 120, extract_memory_mib: 2048, batch_max_chunks: 500 }
    }
}

fn project_dirs() -> Option<directories::ProjectDirs> {
    directories::ProjectDirs::from("", "", "almirah")
}

/// The config file path in use.
pub fn config_path(flag: Option<&Path>) -> Option<PathBuf> {
    flag.map(Path::to_path_buf)
        .or_else(|| std::env::var_os("ALMIRAH_CONFIG").map(PathBuf::from))
        .or_else(|| project_dirs().map(|d| d.config_dir().join("config.toml")))
}

/// Load the config; a missing default file means defaults, a missing
/// explicit file is an error. Returns the config and the path it came from
/// (`None` when defaults were used).
///
/// # Errors
/// [`SettingsError::Missing`] for a named file that is not there,
/// [`SettingsError::Io`] and [`SettingsError::Parse`] (unknown keys included).
pub fn load(flag: Option<&Path>) -> Result<(Config, Option<PathBuf>)> {
    let Some(path) = config_path(flag) else {
        return Ok((Config::default(), None));
    };
    if !path.exists() {
        if flag.is_some() {
            return Err(SettingsError::Missing(path));
        }
        return Ok((Config::default(), None));
    }
    Ok((read(&path)?, Some(path)))
}

/// Read and parse one config file.
///
/// # Errors
/// [`SettingsError::Io`] and [`SettingsError::Parse`].
pub fn read(path: &Path) -> Result<Config> {
    let text = std::fs::read_to_string(path).map_err(io("reading", path))?;
    toml::from_str(&text).map_err(|e| SettingsError::Parse { path: path.to_path_buf(), message: e.to_string() })
}

/// The engine settings the config describes, for the library in `data_dir`
/// (the caller sets the extractor: in-process or a child process).
///
/// # Errors
/// [`SettingsError::Invalid`] for chunk sizes or a session start month out of range.
pub fn engine_config(file: &Config, data_dir: &Path) -> Result<EngineConfig> {
    let mut cfg = EngineConfig::new(data_dir);
    cfg.embedder = file.embedder.clone();
    cfg.index.chunking = file.chunking.unwrap_or_default();
    let c = &cfg.index.chunking;
    if c.min_chars > c.max_chars || c.max_chars < 100 {
        return Err(SettingsError::Invalid("[chunking] needs min_chars <= max_chars and max_chars >= 100".into()));
    }
    cfg.index.batch_max_chunks = file.index.batch_max_chunks.max(1);
    cfg.index.folders = file.folders.clone();
    cfg.index.ocr = file.ocr.clone();
    let bad_language = |l: &str| l.is_empty() || !l.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if file.ocr.languages.split('+').any(bad_language) || file.ocr.dpi < 70 {
        return Err(SettingsError::Invalid("[ocr] needs languages like \"eng+hin\" and dpi >= 70".into()));
    }
    cfg.audiences = file.profile.audience.clone();
    if !(1..=12).contains(&file.sessions.start_month) {
        let month = file.sessions.start_month;
        return Err(SettingsError::Invalid(format!("[sessions] start_month must be 1-12, not {month}")));
    }
    cfg.session_start_month = file.sessions.start_month;
    cfg.session_override =
        match file.sessions.current.as_deref() {
            None => None,
            Some(s) => Some(almirah_core::freshness::Session::parse(s).ok_or_else(|| {
                SettingsError::Invalid(format!("[sessions] current must look like 2026-27, not {s:?}"))
            })?),
        };
    Ok(cfg)
}

/// The data folder in use: `flag`, else `$ALMIRAH_DATA_DIR`, else the
/// config's `data_dir`, else the platform's data folder.
///
/// # Errors
/// [`SettingsError::NoHome`] when none of them gives a folder.
pub fn data_dir(flag: Option<&Path>, config: &Config) -> Result<PathBuf> {
    if let Some(p) = flag {
        return Ok(p.to_path_buf());
    }
    if let Some(p) = std::env::var_os("ALMIRAH_DATA_DIR") {
        return Ok(PathBuf::from(p));
    }
    if let Some(p) = &config.data_dir {
        return Ok(p.clone());
    }
    project_dirs().map(|d| d.data_dir().to_path_buf()).ok_or(SettingsError::NoHome)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn parses_a_full_config() {
        let text = r#"
data_dir = "/tmp/lib"
[embedder]
provider = "ollama"
model = "nomic-embed-text"
[chunking]
min_chars = 300
max_chars = 900
[index]
extract_timeout_secs = 30
"#;
        let c: Config = toml::from_str(text).unwrap();
        assert_eq!(c.data_dir, Some(PathBuf::from("/tmp/lib")));
        assert!(matches!(c.embedder, EmbedderConfig::Ollama { ref model, .. } if model == "nomic-embed-text"));
        assert_eq!(c.index.extract_timeout_secs, 30);
        assert_eq!(c.index.extract_memory_mib, 2048);
    }

    #[test]
    fn older_folder_entries_stay_valid_and_get_the_new_defaults() {
        let c: Config = toml::from_str("[[folders]]\npath = \"/srv/circulars\"\nversioning = \"off\"\n").unwrap();
        let f = &c.folders[0];
        assert!(f.recursive && !f.force_poll && f.include.is_empty());
        assert_eq!(c.watch.debounce_ms, 300);
    }

    #[test]
    fn ocr_languages_must_be_tesseract_language_names() {
        let dir = std::path::Path::new("/tmp/lib");
        for bad in ["eng; rm -rf /", "eng++hin", "", "../eng"] {
            let c: Config = toml::from_str(&format!("[ocr]\nlanguages = {bad:?}\n")).unwrap();
            assert!(engine_config(&c, dir).is_err(), "{bad:?} was accepted");
        }
        let c: Config = toml::from_str("[ocr]\nlanguages = \"eng+hin+chi_sim\"\n").unwrap();
        assert_eq!(engine_config(&c, dir).unwrap().index.ocr.languages, "eng+hin+chi_sim");
    }

    #[test]
    fn unknown_keys_are_rejected() {
        assert!(toml::from_str::<Config>("colour = 1").is_err());
    }
}
