//! Errors of the core, classified so a caller knows what to do with each:
//! the user can fix it ([`ErrorKind::User`]), it is a bug or corruption
//! ([`ErrorKind::Internal`]), or the operating system failed ([`ErrorKind::Io`]).
//! Modelled on milli's `error.rs`.

use std::path::PathBuf;

/// What a caller should do about an [`Error`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ErrorKind {
    /// The user can fix it (configuration, paths, a re-embed).
    User,
    /// A bug or a corrupted index.
    Internal,
    /// The operating system or a device failed.
    Io,
}

/// Errors returned by the core library.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The index folder sits on a network or synced filesystem, where LMDB is unsafe.
    #[error("the index folder {path} is on a {fs} filesystem; LMDB needs a local disk. Choose another --data-dir")]
    NetworkFilesystem {
        /// The data folder.
        path: PathBuf,
        /// What kind of filesystem was detected.
        fs: String,
    },
    /// The index was written by a newer Almirah.
    #[error("the index format is version {found}, newer than this Almirah supports ({supported}); upgrade Almirah")]
    IncompatibleIndex {
        /// Format version on disk.
        found: u32,
        /// Newest format this build reads.
        supported: u32,
    },
    /// The configured embedder differs from the one the index was built with.
    #[error(
        "the index was embedded with {stored}, but the configured embedder is {configured}; to switch the library to it, re-embed every chunk with the same settings (`almirah reindex --re-embed`, with the same --embedder flag or config file; in the desktop app, \"Re-embed\" on the Library page), or configure {stored} again"
    )]
    EmbedderMismatch {
        /// Identity stored in the index.
        stored: String,
        /// Identity configured now.
        configured: String,
    },
    /// A folder given to index does not exist or is not a folder.
    #[error("{path}: {reason}")]
    BadPath {
        /// The path.
        path: PathBuf,
        /// Why it cannot be used.
        reason: String,
    },
    /// A metadata override was refused.
    #[error("{0}")]
    BadOverride(String),
    /// The embedder failed.
    #[error(transparent)]
    Embed(#[from] almirah_embed::EmbedError),
    /// LMDB failed.
    #[error("index storage: {0}")]
    Heed(#[from] heed::Error),
    /// The vector index failed.
    #[error("vector index: {0}")]
    Arroy(#[from] arroy::Error),
    /// Stored data could not be decoded.
    #[error("index data is corrupted: {0}")]
    DataCorruption(String),
    /// The work was cancelled by the caller.
    #[error("cancelled")]
    Cancelled,
    /// A read snapshot outlived its bound (it pins LMDB pages); open a new one.
    #[error("the read snapshot expired after {age_ms} ms (limit {limit_ms} ms); ask again")]
    SnapshotExpired {
        /// Its age, ms.
        age_ms: u64,
        /// The bound it was opened with, ms.
        limit_ms: u64,
    },
    /// Another process already watches this library (one watcher per library).
    #[error("this library is already watched by {holder}; stop it first (one watcher per library)")]
    AlreadyWatched {
        /// Who holds it, e.g. "pid 4242 (almirah watch)".
        holder: String,
    },
    /// File-system error.
    #[error("{path}: {source}")]
    Io {
        /// The path involved.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
}

impl Error {
    /// Classify the error for the caller.
    pub fn kind(&self) -> ErrorKind {
        match self {
            Error::NetworkFilesystem { .. }
            | Error::IncompatibleIndex { .. }
            | Error::EmbedderMismatch { .. }
            | Error::BadPath { .. }
            | Error::BadOverride(_)
            | Error::Cancelled
            | Error::SnapshotExpired { .. }
            | Error::AlreadyWatched { .. } => ErrorKind::User,
            Error::Embed(e) => match e {
                almirah_embed::EmbedError::Unavailable { .. } => ErrorKind::Io,
                _ => ErrorKind::User,
            },
            Error::Io { .. } => ErrorKind::Io,
            Error::Heed(heed::Error::Io(_)) => ErrorKind::Io,
            Error::Heed(_) | Error::Arroy(_) | Error::DataCorruption(_) => ErrorKind::Internal,
        }
    }

    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io { path: path.into(), source }
    }
}

/// Result alias of the core.
pub type Result<T, E = Error> = std::result::Result<T, E>;
