//! The records kept in the store's databases.

use std::collections::BTreeMap;

use almirah_extract::FileKind;
use serde::{Deserialize, Serialize};

use crate::ids::{ChunkId, DocId};

/// The ingest status of one file, as shown to users.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FileStatus {
    /// Extracted, chunked, embedded and searchable.
    Indexed,
    /// Encrypted PDF that does not open with an empty password, or a
    /// password-protected Office or OpenDocument file.
    NeedsPassword,
    /// A format read once converted: a Word 97-2003 `.doc` or RTF; the
    /// reason says what to save it as (since format v6).
    NeedsConversion,
    /// PDF with no text layer (a scan).
    NoTextLayer,
    /// Extracted text was garbled; not indexed.
    LowQualityText,
    /// The file type is not read.
    Unsupported,
    /// Bytes that are not text and not a known format (since format v3).
    Binary,
    /// Readable, with nothing to index (since format v3).
    Empty,
    /// Extraction failed (parser error, panic, timeout, unreadable file).
    Failed,
}

impl FileStatus {
    /// The status as shown to users, e.g. `needs-password`.
    pub fn as_str(self) -> &'static str {
        match self {
            FileStatus::Indexed => "indexed",
            FileStatus::NeedsPassword => "needs-password",
            FileStatus::NeedsConversion => "needs-conversion",
            FileStatus::NoTextLayer => "no-text-layer",
            FileStatus::LowQualityText => "low-quality-text",
            FileStatus::Unsupported => "unsupported",
            FileStatus::Binary => "binary",
            FileStatus::Empty => "empty",
            FileStatus::Failed => "failed",
        }
    }

    /// Whether the status counts as a failure for exit codes (`unsupported`,
    /// `binary` and `empty` do not: nothing went wrong reading them).
    pub fn is_failure(self) -> bool {
        !matches!(self, FileStatus::Indexed | FileStatus::Unsupported | FileStatus::Binary | FileStatus::Empty)
    }
}

/// `files` database value: what Almirah knows of one path.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FileRecord {
    /// blake3 of the content, hex.
    pub hash: String,
    /// Size in bytes.
    pub size: u64,
    /// Modification time, nanoseconds since the Unix epoch.
    pub mtime_ns: i128,
    /// Document serving this path, if any version of it is searchable.
    pub doc_id: Option<DocId>,
    /// Ingest status of the current content.
    pub status: FileStatus,
    /// Reason for a non-indexed status.
    pub reason: Option<String>,
}

/// `documents` database value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DocumentRecord {
    /// Internal id, stable across moves, never reused.
    pub id: DocId,
    /// Readable key, unique in the library.
    pub key: String,
    /// Absolute path of the source file.
    pub path: String,
    /// Title.
    pub title: String,
    /// What the file was read as.
    pub kind: FileKind,
    /// blake3 of the content that produced the chunks, hex.
    pub content_hash: String,
    /// Chunk ids in document order.
    pub chunks: Vec<ChunkId>,
    /// PDF page count.
    pub pages: Option<u32>,
    /// Front matter, as read.
    pub front_matter: BTreeMap<String, serde_json::Value>,
    /// Extraction notes.
    pub notes: Vec<String>,
    /// Set when a newer version of the file could not be read and this one is kept.
    pub stale_reason: Option<String>,
    /// Set when the text was read by OCR (since format v4): languages and
    /// each page's outcome and confidence (0–100).
    #[serde(default)]
    pub ocr: Option<almirah_extract::ocr::OcrReport>,
}

/// `chunks` database value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChunkRecord {
    /// Owning document.
    pub doc_id: DocId,
    /// 0-based position in the document.
    pub ordinal: u32,
    /// Readable key, e.g. `leave-policy::earned-leave#1`.
    pub key: String,
    /// Headings above the chunk.
    pub heading_path: Vec<String>,
    /// The text.
    pub text: String,
    /// Byte span `[start, end)` in the source.
    pub byte_span: (u64, u64),
    /// First and last 1-based page.
    pub pages: Option<(u32, u32)>,
}

/// `chunk_terms` database value: what BM25 needs to delete a chunk without
/// re-tokenising it (milli-style).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChunkTerms {
    /// Length of the chunk in tokens.
    pub len: u32,
    /// Distinct terms of the chunk.
    pub terms: Vec<String>,
}
