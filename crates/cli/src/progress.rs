//! The indexing progress bars (indicatif), drawn on stderr only when it is
//! a terminal: one counts files while they are read; a second one, shown
//! from the first embedding event, counts vectors with their rate and the
//! time left (the files are searchable by keywords by then). The two phases
//! interleave (each batch of files is embedded after it commits), so each
//! bar keeps its own count.

use std::sync::OnceLock;

use almirah_core::{Progress, ProgressEvent};
use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

/// Progress bars fed by core progress events.
pub struct Bar {
    multi: MultiProgress,
    files: ProgressBar,
    vectors: OnceLock<ProgressBar>,
    /// What the vectors bar says it counts.
    vectors_template: &'static str,
}

/// The vectors bar of an index: the files are searchable by keywords by then.
const INDEX_VECTORS: &str = "{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} vectors {rate}, about {eta} left (searchable by keywords already)";
/// The one bar of a re-embed: every chunk, with the new model.
const RE_EMBED_CHUNKS: &str =
    "{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} chunks re-embedded {rate}, about {eta} left";

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
    /// The bars, hidden when `quiet`.
    pub fn new(quiet: bool) -> Self {
        let bar = Self::drawn(quiet, INDEX_VECTORS);
        let files = bar.multi.add(ProgressBar::new(0));
        files.set_style(style("{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} files {rate} {wide_msg}"));
        Self { files, ..bar }
    }

    /// The bar of `reindex --re-embed`: chunks re-embedded of all, with
    /// the rate and the time left (no files bar: no file is read).
    pub fn re_embed(quiet: bool) -> Self {
        Self::drawn(quiet, RE_EMBED_CHUNKS)
    }

    /// Bars drawn to stderr (hidden when `quiet`), with a hidden files bar
    /// and a vectors bar styled by `vectors_template` once it is needed.
    fn drawn(quiet: bool, vectors_template: &'static str) -> Self {
        let target = if quiet { ProgressDrawTarget::hidden() } else { ProgressDrawTarget::stderr() };
        let multi = MultiProgress::with_draw_target(target);
        Self { multi, files: ProgressBar::hidden(), vectors: OnceLock::new(), vectors_template }
    }

    /// Remove the bars.
    pub fn finish(&self) {
        self.files.finish_and_clear();
        if let Some(v) = self.vectors.get() {
            v.finish_and_clear();
        }
    }

    /// The vectors bar, added at the first embedding event.
    fn vectors(&self) -> &ProgressBar {
        self.vectors.get_or_init(|| {
            let bar = self.multi.add(ProgressBar::new(0));
            bar.set_style(style(self.vectors_template));
            bar
        })
    }
}

impl Progress for Bar {
    fn on_event(&self, event: ProgressEvent) {
        match event {
            ProgressEvent::Planned { total, .. } => self.files.set_length(total as u64),
            ProgressEvent::FileDone { done, path, .. } => {
                self.files.set_position(done as u64);
                let name = std::path::Path::new(&path).file_name().map(|n| n.to_string_lossy().into_owned());
                self.files.set_message(name.unwrap_or(path));
            }
            ProgressEvent::OcrPage { path, done, total } => {
                let name = std::path::Path::new(&path).file_name().map(|n| n.to_string_lossy().into_owned());
                self.files.set_message(format!("{} (OCR page {done}/{total})", name.unwrap_or(path)));
            }
            ProgressEvent::Embedding { done, total } => {
                let bar = self.vectors();
                bar.set_length(total as u64);
                bar.set_position(done as u64);
            }
            ProgressEvent::Committed { .. } => {}
        }
    }
}
