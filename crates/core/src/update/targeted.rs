//! Planning for a handful of paths instead of whole folders: the watcher's
//! hints. Each path is re-stat'ed; what the plan means is the same as for a
//! full scan ([`super::scan::plan`]), so the same pipeline writes it.
//!
//! - an existing file is a candidate; with a content hint it is hashed even
//!   when size and mtime match (a same-second replace is still caught);
//! - a folder is scanned (files written into a new folder before its watch
//!   existed are not missed), and recorded files under it that are gone are
//!   deleted;
//! - a missing path (deleted, moved out) deletes its record and every record
//!   below it;
//! - a file the folder rules no longer admit is deleted;
//! - nothing happens in a folder that is itself missing (an unmounted share
//!   is not a mass deletion).

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};

use heed::RoTxn;

use super::filter::Filters;
use super::scan::{self, Plan, ScannedFile};
use crate::error::Result;
use crate::store::Databases;

/// A path the caller was told changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hint {
    /// Absolute path (canonical root prefix).
    pub path: PathBuf,
    /// Whether the content may have changed (create, write, rename, remove).
    /// A metadata-only hint (permissions, times) is skipped when size and
    /// mtime still match the record.
    pub content: bool,
}

/// Build the plan for `hints`; returns it with the number of files looked at.
///
/// # Errors
/// LMDB errors.
pub fn plan_paths(dbs: &Databases, rtxn: &RoTxn<'_>, filters: &Filters, hints: &[Hint]) -> Result<(Plan, usize)> {
    let mut builder = Builder { dbs, rtxn, filters, candidates: BTreeMap::new(), plan: Plan::default(), seen: 0 };
    // A hint in a folder that is itself gone (an unmounted share) deletes nothing.
    for hint in hints.iter().filter(|h| filters.folder_of(&h.path).is_some_and(|f| f.root().is_dir())) {
        let path = scan::sidecar_owner(&hint.path).unwrap_or_else(|| hint.path.clone());
        let content = hint.content || path != hint.path;
        match std::fs::symlink_metadata(&path) {
            Ok(meta) if meta.is_dir() => builder.folder(&path)?,
            Ok(meta) if meta.is_file() && filters.admits_event_path(&path, false) => {
                builder.file(scan::scanned_file(&path, &meta), content)?;
            }
            _ => builder.gone(&path)?,
        }
    }
    let seen = builder.seen;
    let mut plan = builder.plan;
    plan.candidates = builder.candidates.into_values().collect();
    Ok((plan, seen))
}

struct Builder<'a, 't> {
    dbs: &'a Databases,
    rtxn: &'a RoTxn<'t>,
    filters: &'a Filters,
    candidates: BTreeMap<PathBuf, ScannedFile>,
    plan: Plan,
    seen: usize,
}

impl Builder<'_, '_> {
    fn file(&mut self, file: ScannedFile, content: bool) -> Result<()> {
        self.seen += 1;
        let key = file.path.to_string_lossy().into_owned();
        self.plan.deleted.remove(&key);
        let same =
            self.dbs.files.get(self.rtxn, &key)?.is_some_and(|r| r.size == file.size && r.mtime_ns == file.mtime_ns);
        if same && !content {
            self.plan.unchanged += 1;
        } else {
            self.candidates.insert(file.path.clone(), file);
        }
        Ok(())
    }

    fn folder(&mut self, dir: &Path) -> Result<()> {
        if !self.filters.admits_event_path(dir, true) {
            return self.gone(dir);
        }
        let found = scan::scan_folder(dir, self.filters)?;
        let on_disk: HashSet<String> = found.iter().map(|f| f.path.to_string_lossy().into_owned()).collect();
        for file in found {
            self.file(file, false)?;
        }
        for (path, record) in scan::records_under(self.dbs, self.rtxn, dir)? {
            if !on_disk.contains(&path) && !self.candidates.contains_key(Path::new(&path)) {
                self.plan.deleted.insert(path, record);
            }
        }
        Ok(())
    }

    fn gone(&mut self, path: &Path) -> Result<()> {
        for (p, record) in scan::records_under(self.dbs, self.rtxn, path)? {
            if !self.candidates.contains_key(Path::new(&p)) {
                self.plan.deleted.insert(p, record);
            }
        }
        Ok(())
    }
}
