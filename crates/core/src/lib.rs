//! Almirah's core: one LMDB environment (heed) holding documents, chunks, a
//! milli-style BM25 index (roaring postings and compact impact lists),
//! facets, an embedding cache and the vectors in blocks (arroy for older
//! libraries); the write path (`update`) and the read path (`search`) apart; and
//! the [`Engine`] facade that the CLI and the desktop app call.
//!
//! The core knows nothing of its callers: progress, cancellation and dates
//! are values passed in. See `ARCHITECTURE.md` in the design folder.

pub mod embedder_choice;
pub mod engine;
pub mod error;
pub mod failpoint;
pub mod freshness;
pub mod ids;
pub mod impacts;
pub mod progress;
pub mod read;
pub mod reembed;
pub mod search;
pub mod source_file;
pub mod status;
pub mod store;
#[cfg(test)]
mod test_env;
pub mod text;
pub mod update;
pub mod vectors;
pub mod watch;

pub use engine::{Engine, EngineConfig};
pub use error::{Error, ErrorKind, Result};
pub use ids::{ChunkId, ChunkSet, DocId, DocSet};
pub use progress::{NoProgress, Progress, ProgressEvent};
pub use read::{Audience, Reader, Snapshot};
pub use search::{Hit, SearchMode, SearchOptions, SearchResults};
pub use status::{FileProblem, FolderCounts, LibraryStatus};
pub use update::{ExtractorMode, FileOutcome, Hint, IndexParams, IngestReport};
pub use watch::{Notice, WatchOptions, Watcher};

pub use almirah_embed as embed;
pub use almirah_extract as extract;
