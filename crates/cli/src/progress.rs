//! The indexing progress bar (indicatif), drawn on stderr only when it is a terminal.

use almirah_core::{Progress, ProgressEvent};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A progress bar fed by core progress events.
pub struct Bar {
    bar: ProgressBar,
}

impl Bar {
    /// A bar, hidden when `quiet`.
    pub fn new(quiet: bool) -> Self {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
        if quiet {
            bar.set_draw_target(ProgressDrawTarget::hidden());
        }
        let style = ProgressStyle::with_template(
            "{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} files {per_sec} {wide_msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar());
        bar.set_style(style);
        Self { bar }
    }

    /// Remove the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
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
                self.bar.set_message(format!("vectors {done}/{total} chunks (already searchable by keywords)"));
            }
            ProgressEvent::Committed { .. } => {}
        }
    }
}
