//! Progress reporting and cancellation are values passed in (milli's
//! `Progress`, arroy's builder `progress`), never globals.

use serde::Serialize;

/// One step of an indexing run.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "event", rename_all = "kebab-case")]
pub enum ProgressEvent {
    /// The scan finished: `total` files will be processed, `deleted` removed.
    Planned {
        /// Files to process.
        total: usize,
        /// Files to remove.
        deleted: usize,
    },
    /// One file was prepared.
    FileDone {
        /// Files done so far.
        done: usize,
        /// Files to process.
        total: usize,
        /// The file.
        path: String,
    },
    /// OCR finished a page of a scan (cached pages count as finished).
    OcrPage {
        /// The file.
        path: String,
        /// Pages finished.
        done: u32,
        /// Pages in the file.
        total: u32,
    },
    /// The embedding backfill (phase 2) gave `done` of `total` queued
    /// chunks their vectors.
    Embedding {
        /// Chunks with vectors so far.
        done: usize,
        /// Chunks queued when the backfill started.
        total: usize,
    },
    /// A batch was committed.
    Committed {
        /// Files in the batch.
        files: usize,
        /// Chunks written.
        chunks: usize,
    },
}

/// Receives progress events; must be cheap (called from the writer thread).
pub trait Progress: Sync {
    /// Handle one event.
    fn on_event(&self, event: ProgressEvent);
}

/// Ignores every event.
pub struct NoProgress;

impl Progress for NoProgress {
    fn on_event(&self, _event: ProgressEvent) {}
}
