//! Evidence: chunks that were retrieved and admitted by the gate, as the
//! answerer sees them.

use almirah_core::Hit;
use serde::{Deserialize, Serialize};

/// The document key of a chunk key (`circular-14@2026-27::fees#2` →
/// `circular-14@2026-27`).
pub fn document_of(chunk_key: &str) -> &str {
    chunk_key.split("::").next().unwrap_or(chunk_key)
}

/// One admitted chunk.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Evidence {
    /// Chunk key, cited as `[key]`.
    pub key: String,
    /// Document title.
    pub title: String,
    /// Source path.
    pub path: String,
    /// Pages, for PDFs.
    pub pages: Option<(u32, u32)>,
    /// Headings above the chunk.
    pub heading_path: Vec<String>,
    /// The chunk text.
    pub text: String,
    /// Fused retrieval score.
    pub score: f32,
    /// Whether the chunk is a row of a CSV table.
    #[serde(default)]
    pub table_row: bool,
    /// A mark the gate put on the document ("a newer version exists but could not be read: …").
    pub note: Option<String>,
    /// How the text was read ("read by OCR (eng+hin), page 1, confidence 93%").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_note: Option<String>,
}

impl Evidence {
    /// A chunk of `text` under `key`, titled `title`, with no path, pages,
    /// headings or notes, score 1.0, not a table row: evidence given by hand
    /// (tests, examples).
    pub fn plain(key: &str, title: &str, text: &str) -> Self {
        Self {
            key: key.into(),
            title: title.into(),
            path: String::new(),
            pages: None,
            heading_path: Vec::new(),
            text: text.into(),
            score: 1.0,
            table_row: false,
            note: None,
            source_note: None,
        }
    }

    /// [`Evidence::plain`] titled "t", for unit tests.
    #[cfg(test)]
    pub(crate) fn of(key: &str, text: &str) -> Self {
        Self::plain(key, "t", text)
    }
}

impl From<&Hit> for Evidence {
    fn from(h: &Hit) -> Self {
        Self {
            key: h.key.clone(),
            title: h.title.clone(),
            path: h.path.clone(),
            pages: h.pages,
            heading_path: h.heading_path.clone(),
            text: h.text.clone(),
            score: h.score,
            table_row: h.kind.is_table(),
            note: h.verdict.mark().map(str::to_string),
            source_note: h.source_note.clone(),
        }
    }
}
