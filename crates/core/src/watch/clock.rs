//! When each file's change was committed, for the latency the watcher
//! reports: the pipeline reports files as prepared, then a commit covers
//! every file prepared since the last one.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Instant;

use crate::progress::{Progress, ProgressEvent};

/// Records when each file's batch was committed (files are reported as
/// prepared, then a commit covers every file prepared since the last one).
#[derive(Default)]
pub struct CommitClock {
    uncommitted: Mutex<Vec<String>>,
    committed: Mutex<HashMap<String, Instant>>,
}

impl CommitClock {
    /// When `path`'s batch committed (`None` if not seen, e.g. a deletion).
    pub fn committed_at(&self, path: &str) -> Option<Instant> {
        self.committed.lock().ok()?.get(path).copied()
    }
}

impl Progress for CommitClock {
    fn on_event(&self, event: ProgressEvent) {
        match event {
            ProgressEvent::FileDone { path, .. } => {
                if let Ok(mut u) = self.uncommitted.lock() {
                    u.push(path);
                }
            }
            ProgressEvent::Committed { .. } => {
                let now = Instant::now();
                let (Ok(mut u), Ok(mut c)) = (self.uncommitted.lock(), self.committed.lock()) else {
                    return;
                };
                c.extend(u.drain(..).map(|p| (p, now)));
            }
            ProgressEvent::Planned { .. } | ProgressEvent::OcrPage { .. } | ProgressEvent::Embedding { .. } => {}
        }
    }
}
