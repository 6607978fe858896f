//! From debounced events to paths waiting to be indexed: which events count
//! (access events never do: our own reads would wake us), which paths
//! belong to the library, and when a path is stable enough to read.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

use notify::EventKind;
use notify::event::{AccessKind, AccessMode, ModifyKind};
use notify_debouncer_full::DebouncedEvent;

use crate::update::Hint;
use crate::update::filter::Filters;
use crate::update::scan::{self, IGNORE_FILE};

/// What one event means.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Intake {
    /// Paths to look at, with whether their content may have changed.
    pub paths: Vec<(PathBuf, bool)>,
    /// The whole library needs a reconcile (overflow, an ignore file changed).
    pub rescan: bool,
}

/// Decide what `event` asks for. `keep` is the injectable event filter;
/// Paths `own` says are ours (the library's own files: our commits would wake us) are skipped.
pub fn intake(
    event: &DebouncedEvent,
    filters: &Filters,
    keep: &dyn Fn(&Path) -> bool,
    own: &dyn Fn(&Path) -> bool,
) -> Intake {
    let mut out = Intake { rescan: event.need_rescan(), ..Intake::default() };
    let Some(content) = content_kind(&event.kind) else {
        return out;
    };
    for path in &event.paths {
        if own(path) || !keep(path) {
            continue;
        }
        if path.file_name().is_some_and(|n| n == IGNORE_FILE) {
            out.rescan = true;
            continue;
        }
        let (path, content) = match scan::sidecar_owner(path) {
            Some(owner) => (owner, true),
            None => (path.clone(), content),
        };
        if filters.admits_event_path(&path, path.is_dir()) || gone_from_library(&path, filters) {
            out.paths.push((path, content));
        } else if filters.folder_of(&path).is_some_and(|f| !f.root().is_dir()) {
            out.rescan = true;
        }
    }
    out
}

/// A path that no longer exists is still a hint if it lies in a folder that
/// still exists: it may have been a recorded file or folder (deleted, moved
/// out). When the watched folder itself is gone (an unmounted share, a
/// removed disk) nothing is deleted; the reconcile reports it instead.
fn gone_from_library(path: &Path, filters: &Filters) -> bool {
    !path.exists() && filters.folder_of(path).is_some_and(|f| f.root().is_dir())
}

/// `Some(true)` when the event may change content, `Some(false)` for
/// metadata only, `None` for events that mean nothing (access, other).
fn content_kind(kind: &EventKind) -> Option<bool> {
    match kind {
        EventKind::Access(AccessKind::Close(AccessMode::Write)) => Some(true),
        EventKind::Access(_) | EventKind::Other => None,
        EventKind::Modify(ModifyKind::Metadata(_)) => Some(false),
        _ => Some(true),
    }
}

/// One path waiting to be indexed.
#[derive(Debug, Clone)]
struct Waiting {
    /// When its (first) event was seen.
    seen: Instant,
    /// Whether any of its events may have changed content.
    content: bool,
    /// Size and mtime at the last check, and when that was.
    last: Option<((u64, i128), Instant)>,
    /// Not before this time (back-off after a failed run).
    not_before: Option<Instant>,
}

/// Paths waiting to be indexed, in path order (so a burst is indexed in the
/// same order as a scan would, and gets the same ids).
#[derive(Debug, Default)]
pub struct Pending {
    paths: BTreeMap<PathBuf, Waiting>,
}

impl Pending {
    /// Add a path seen at `seen`; an earlier sighting and a content hint win.
    pub fn add(&mut self, path: PathBuf, seen: Instant, content: bool) {
        let entry = self.paths.entry(path).or_insert(Waiting { seen, content, last: None, not_before: None });
        entry.seen = entry.seen.min(seen);
        entry.content |= content;
    }

    /// Paths waiting.
    pub fn len(&self) -> usize {
        self.paths.len()
    }

    /// Whether nothing waits.
    pub fn is_empty(&self) -> bool {
        self.paths.is_empty()
    }

    /// Take the paths that can be read now, with when they were seen. A
    /// file still being written (mtime younger than `settle`, and size or
    /// mtime not yet held still for `settle`) stays for a later try.
    pub fn take_ready(&mut self, now: Instant, settle: Duration) -> Vec<(Hint, Instant)> {
        let mut ready = Vec::new();
        self.paths.retain(|path, w| {
            if w.not_before.is_some_and(|t| now < t) || !stable(path, w, now, settle) {
                return true;
            }
            ready.push((Hint { path: path.clone(), content: w.content }, w.seen));
            false
        });
        ready
    }

    /// Put paths back after a failed run, to be tried again after `delay`.
    pub fn retry(&mut self, items: Vec<(Hint, Instant)>, now: Instant, delay: Duration) {
        for (hint, seen) in items {
            self.add(hint.path.clone(), seen, hint.content);
            if let Some(w) = self.paths.get_mut(&hint.path) {
                w.not_before = Some(now + delay);
            }
        }
    }
}

fn stable(path: &Path, w: &mut Waiting, now: Instant, settle: Duration) -> bool {
    let Ok(meta) = std::fs::metadata(path) else {
        return true; // gone: a deletion, ready at once
    };
    if meta.is_dir() {
        return true;
    }
    let old_enough =
        meta.modified().ok().and_then(|m| SystemTime::now().duration_since(m).ok()).is_some_and(|age| age >= settle);
    if old_enough {
        return true;
    }
    let signature = (meta.len(), scan::mtime_ns(&meta));
    match w.last {
        Some((last, since)) if last == signature => now.duration_since(since) >= settle,
        _ => {
            w.last = Some((signature, now));
            false
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn a_file_written_just_now_waits_until_it_settles() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("half.md");
        std::fs::write(&path, "part one").unwrap();
        let mut pending = Pending::default();
        let start = Instant::now();
        pending.add(path.clone(), start, true);
        let settle = Duration::from_secs(5);
        assert!(pending.take_ready(start, settle).is_empty(), "a fresh file is not read at once");
        std::fs::write(&path, "part one, part two").unwrap();
        assert!(pending.take_ready(start + settle, settle).is_empty(), "it changed: wait again");
        let ready = pending.take_ready(start + settle * 2, settle);
        assert_eq!(ready.len(), 1, "held still for the settle time");
        assert!(pending.is_empty());
    }

    #[test]
    fn a_missing_path_is_ready_at_once_and_order_is_by_path() {
        let mut pending = Pending::default();
        let now = Instant::now();
        pending.add("/nowhere/b.md".into(), now, true);
        pending.add("/nowhere/a.md".into(), now, false);
        pending.add("/nowhere/a.md".into(), now, true);
        let ready = pending.take_ready(now, Duration::from_millis(250));
        let paths: Vec<_> = ready.iter().map(|(h, _)| h.path.clone()).collect();
        assert_eq!(paths, vec![PathBuf::from("/nowhere/a.md"), PathBuf::from("/nowhere/b.md")]);
        assert!(ready[0].0.content);
    }
}
