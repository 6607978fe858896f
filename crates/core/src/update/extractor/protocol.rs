//! The messages between the indexer and its extraction child, one JSON
//! object per line. The parent writes a [`Job`] to the child's stdin; the
//! child may ask for cached OCR pages with [`ChildMessage::Plan`] (the
//! parent answers with one [`CacheReply`] line), reports OCR progress with
//! [`ChildMessage::Page`], and ends with [`ChildMessage::Result`]. The
//! parent keeps stdin open until the child exits; the child takes its end
//! of file as the parent's death and kills its process group.

use almirah_extract::ocr::{OcrOptions, OcrPage, PageKey};
use almirah_extract::{ChunkOptions, ExtractError};
use serde::{Deserialize, Serialize};

use super::ChildOutput;

/// What to extract with.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Job {
    /// Chunk sizes.
    pub chunking: ChunkOptions,
    /// `None`: read the text layer. Some: read the file as a scan with these
    /// OCR settings; the error is why its text layer was not used.
    pub scan: Option<(OcrOptions, ExtractError)>,
}

/// One line from the child. The result is by far the largest variant and
/// there is one per child, so it is not boxed.
#[derive(Debug, Serialize, Deserialize)]
#[allow(clippy::large_enum_variant)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum ChildMessage {
    /// The pages OCR will read; the parent answers with the cached ones.
    Plan {
        /// Content keys of every page.
        keys: Vec<PageKey>,
    },
    /// `done` of `total` pages are finished.
    Page {
        /// Pages finished.
        done: u32,
        /// Pages in the file.
        total: u32,
    },
    /// The extraction result; the last line.
    Result(ChildOutput),
}

/// The parent's answer to [`ChildMessage::Plan`].
#[derive(Debug, Default, Serialize, Deserialize)]
pub(crate) struct CacheReply {
    /// Cached pages, by key.
    pub pages: Vec<(PageKey, OcrPage)>,
}
