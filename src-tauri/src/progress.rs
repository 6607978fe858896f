//! Indexing progress over a per-job `ipc::Channel` (STYLE convention 9):
//! throttled to one update per [`EVERY`], the first and the last always sent.

use std::path::Path;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use almirah_core::{IngestReport, Progress, ProgressEvent};
use tauri::ipc::Channel;

use crate::payload::IndexProgress;

/// Least time between two updates (10 per second).
pub const EVERY: Duration = Duration::from_millis(100);

/// A [`Progress`] that streams [`IndexProgress`] to one channel.
pub struct ChannelProgress {
    channel: Channel<IndexProgress>,
    started: Instant,
    unit: Unit,
    state: Mutex<Sent>,
}

/// What `done` and `total` count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Unit {
    /// Files of an index or an import.
    Files,
    /// Chunks of a re-embed (an `Embedding` event after each batch).
    Chunks,
}

#[derive(Default)]
struct Sent {
    last: Option<Instant>,
    done: u64,
    total: u64,
    current: Option<String>,
}

impl ChannelProgress {
    /// Start a job: sends the first update (`scanning`, 0 of 0) at once.
    pub fn start(channel: Channel<IndexProgress>) -> Self {
        Self::with_unit(channel, Unit::Files, "scanning")
    }

    /// Start a re-embed: `done` and `total` count chunks, phase `re-embedding`.
    pub fn start_chunks(channel: Channel<IndexProgress>) -> Self {
        Self::with_unit(channel, Unit::Chunks, "re-embedding")
    }

    fn with_unit(channel: Channel<IndexProgress>, unit: Unit, phase: &str) -> Self {
        let p = Self { channel, started: Instant::now(), unit, state: Mutex::new(Sent::default()) };
        p.send(phase, true);
        p
    }

    /// The last update of a re-embed: `done` (every chunk) or `error`.
    pub fn finish_chunks(&self, ok: bool) {
        if ok {
            let mut s = self.lock();
            s.done = s.total;
            s.current = None;
        }
        self.send(if ok { "done" } else { "error" }, true);
    }

    /// The last update: `done` with the report's file counts, or `error`
    /// when the job failed (the command's error says why).
    pub fn finish(&self, report: Option<&IngestReport>) {
        let Some(r) = report else {
            self.send("error", true);
            return;
        };
        {
            let mut s = self.lock();
            s.total = s.total.max(r.outcomes.len() as u64);
            s.done = s.total;
            s.current = None;
        }
        self.send("done", true);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Sent> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn send(&self, phase: &str, force: bool) {
        let mut s = self.lock();
        let now = Instant::now();
        if !force && s.last.is_some_and(|t| now.duration_since(t) < EVERY) {
            return;
        }
        s.last = Some(now);
        let elapsed = now.duration_since(self.started);
        let rate = if elapsed.as_secs_f64() > 0.0 { s.done as f64 / elapsed.as_secs_f64() } else { 0.0 };
        let update = IndexProgress {
            phase: phase.to_string(),
            done: s.done,
            total: s.total,
            current: s.current.clone(),
            rate,
            elapsed_ms: elapsed.as_millis() as u64,
        };
        drop(s);
        if let Err(e) = self.channel.send(update) {
            tracing::debug!(%e, "progress channel closed");
        }
    }
}

impl Progress for ChannelProgress {
    fn on_event(&self, event: ProgressEvent) {
        let phase = {
            let mut s = self.lock();
            match event {
                ProgressEvent::Planned { total, .. } => {
                    s.total = total as u64;
                    "indexing"
                }
                ProgressEvent::FileDone { done, total, path } => {
                    (s.done, s.total) = (done as u64, total as u64);
                    s.current = Path::new(&path).file_name().map(|n| n.to_string_lossy().into_owned());
                    "indexing"
                }
                ProgressEvent::OcrPage { path, done, total } => {
                    let name = Path::new(&path).file_name().map(|n| n.to_string_lossy().into_owned());
                    s.current = Some(format!("{} (OCR page {done}/{total})", name.unwrap_or(path)));
                    "ocr"
                }
                ProgressEvent::Embedding { done, total } if self.unit == Unit::Chunks => {
                    (s.done, s.total) = (done as u64, total as u64);
                    "re-embedding"
                }
                ProgressEvent::Embedding { done, total } => {
                    s.current = Some(format!("vectors {done} of {total} chunks (already searchable)"));
                    "embedding"
                }
                ProgressEvent::Committed { .. } if self.unit == Unit::Chunks => "re-embedding",
                ProgressEvent::Committed { .. } => "committing",
            }
        };
        self.send(phase, false);
    }
}
