//! The indexing progress bar (indicatif), drawn on stderr only when it is
//! a terminal. It counts files while they are read, then switches to the
//! embedding phase and counts vectors, with their rate and time left, since
//! the files are already searchable by keywords by then.

use std::sync::atomic::{AtomicBool, Ordering};

use almirah_core::{Progress, ProgressEvent};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

/// A progress bar fed by core progress events.
pub struct Bar {
    bar: ProgressBar,
    /// Whether the bar counts vectors (the embedding phase) instead of files.
    embedding: AtomicBool,
}

/// `{rate}`: items per second with one decimal (`{per_sec}` prints four).
fn rate(state: &ProgressState, w: &mut dyn std::fmt::Write) {
    let _ = write!(w, "{:.1}/s", state.per_sec());
}

fn style(template: &str) -> ProgressStyle {
    ProgressStyle::with_template(template)
        .map(|s| s.with_key("rate", rate))
        .unwrap_or_else(|_| ProgressStyle::default_bar())
}

impl Bar {
    /// A bar, hidden when `quiet`.
    pub fn new(quiet: bool) -> Self {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
        if quiet {
            bar.set_draw_target(ProgressDrawTarget::hidden());
        }
        bar.set_style(style("{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} files {rate} {wide_msg}"));
        Self { bar, embedding: AtomicBool::new(false) }
    }

    /// Remove the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }

    /// Switch to counting vectors (once).
    fn start_embedding(&self, total: u64) {
        if !self.embedding.swap(true, Ordering::Relaxed) {
            self.bar.reset();
            self.bar.set_message("");
            self.bar.set_style(style(
                "{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} vectors {rate}, about {eta} left \
                 (searchable by keywords already)",
            ));
        }
        self.bar.set_length(total);
    }
}

impl Progress for Bar {
    fn on_event(&self, event: ProgressEvent) {
        match event {
            ProgressEvent::Planned { total, .. } => self.bar.set_length(total as u64),
            ProgressEvent::FileDone { done, path, .. } => {
                self.bar.set_position(done as u64);
                let name = std::path::Path::new(&path).file_name().map(|n| n.to_string_lossy().into_owned());
                self.bar.set_message(name.unwrap_or(path));
            }
            ProgressEvent::OcrPage { path, done, total } => {
                let name = std::path::Path::new(&path).file_name().map(|n| n.to_string_lossy().into_owned());
                self.bar.set_message(format!("{} (OCR page {done}/{total})", name.unwrap_or(path)));
            }
            ProgressEvent::Embedding { done, total } => {
                self.start_embedding(total as u64);
                self.bar.set_position(done as u64);
            }
            ProgressEvent::Committed { .. } => {}
        }
    }
}
