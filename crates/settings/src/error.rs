//! Errors of loading and editing the config file.

use std::path::PathBuf;

/// What went wrong with the config file. Every variant names the file and is
/// something the user can fix.
#[derive(Debug, thiserror::Error)]
pub enum SettingsError {
    /// The file could not be read or written.
    #[error("{action} {path}: {source}")]
    Io {
        /// `reading`, `writing` or `creating`.
        action: &'static str,
        /// The file or folder.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// The file is not valid TOML or has unknown or mistyped keys.
    #[error("invalid config {path}: {message}")]
    Parse {
        /// The file.
        path: PathBuf,
        /// The parser's message (line, column, key).
        message: String,
    },
    /// A value is out of range.
    #[error("{0}")]
    Invalid(String),
    /// An explicitly named config file does not exist.
    #[error("config file {0} does not exist")]
    Missing(PathBuf),
    /// There is no home folder to put the config or the library in.
    #[error("no home folder found: pass --data-dir (or --config) or set ALMIRAH_DATA_DIR")]
    NoHome,
}

/// Result of this crate.
pub type Result<T> = std::result::Result<T, SettingsError>;

pub(crate) fn io(action: &'static str, path: &std::path::Path) -> impl FnOnce(std::io::Error) -> SettingsError {
    let path = path.to_path_buf();
    move |source| SettingsError::Io { action, path, source }
}
