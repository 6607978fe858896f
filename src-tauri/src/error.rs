//! Every command error reaches the UI as `{kind, message}` ([`CommandError`]).

use almirah_core::error::ErrorKind;

pub use crate::payload::CommandError;

/// Result of every command.
pub type CmdResult<T> = Result<T, CommandError>;

impl CommandError {
    /// An error of `kind` with a message for the user.
    pub fn new(kind: &str, message: impl Into<String>) -> Self {
        Self { kind: kind.to_string(), message: message.into() }
    }

    /// The user can fix it (a bad path, value or setting).
    pub fn invalid(message: impl Into<String>) -> Self {
        Self::new("invalid-input", message)
    }

    /// A bug: a panic or a task that did not finish.
    pub fn bug(message: impl Into<String>) -> Self {
        Self::new("bug", message)
    }
}

impl std::fmt::Display for CommandError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.kind, self.message)
    }
}

impl From<almirah_core::Error> for CommandError {
    fn from(e: almirah_core::Error) -> Self {
        let kind = match (&e, e.kind()) {
            (almirah_core::Error::Cancelled, _) => "cancelled",
            (_, ErrorKind::User) => "invalid-input",
            (_, ErrorKind::Io) => "io",
            (_, ErrorKind::Internal) => "bug",
        };
        Self::new(kind, e.to_string())
    }
}

impl From<almirah_settings::SettingsError> for CommandError {
    fn from(e: almirah_settings::SettingsError) -> Self {
        let kind = match e {
            almirah_settings::SettingsError::Io { .. } => "io",
            _ => "invalid-input",
        };
        Self::new(kind, e.to_string())
    }
}

impl From<std::io::Error> for CommandError {
    fn from(e: std::io::Error) -> Self {
        Self::new("io", e.to_string())
    }
}

impl From<tauri::Error> for CommandError {
    fn from(e: tauri::Error) -> Self {
        Self::bug(e.to_string())
    }
}

/// Run blocking work (indexing, answering, LMDB reads) off the async
/// runtime; a panic in it becomes a `bug` error instead of a crash.
///
/// # Errors
/// The work's own error, or `bug` when it panicked.
pub async fn blocking<T: Send + 'static>(work: impl FnOnce() -> CmdResult<T> + Send + 'static) -> CmdResult<T> {
    match tauri::async_runtime::spawn_blocking(work).await {
        Ok(result) => result,
        Err(e) => Err(CommandError::bug(format!("the work stopped unexpectedly: {e}"))),
    }
}
