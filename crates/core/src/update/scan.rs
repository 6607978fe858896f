//! Walking watched folders (the `ignore` crate's walker, without gitignore
//! rules) and diffing what is on disk with the `files` database.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

use heed::RoTxn;

use crate::error::{Error, Result};
use crate::source_file::sidecar_path;
use crate::store::{Databases, FileRecord};

/// A file found on disk.
#[derive(Debug, Clone, PartialEq)]
pub struct ScannedFile {
    /// Absolute path.
    pub path: PathBuf,
    /// Size in bytes.
    pub size: u64,
    /// Modification time, ns since the Unix epoch.
    pub mtime_ns: i128,
}

/// A gitignore-syntax file listing what a folder keeps out of the library.
pub const IGNORE_FILE: &str = ".almirahignore";

/// Names of temporary, lock and system files that are never indexed.
pub fn is_ignored_name(name: &str) -> bool {
    name.starts_with('.')
        || name.starts_with("~$")
        || name.ends_with(".swp")
        || name.ends_with(".tmp")
        || name.ends_with(".part")
        || name.ends_with('~')
        || name.ends_with(".meta.toml")
}

/// Every non-ignored regular file under `root` that `filters` admits
/// (recursively), sorted by path.
///
/// # Errors
/// [`Error::BadPath`] when `root` is not a readable folder.
pub fn scan_folder(root: &Path, filters: &super::filter::Filters) -> Result<Vec<ScannedFile>> {
    if !root.is_dir() {
        return Err(Error::BadPath { path: root.to_path_buf(), reason: "not a folder".into() });
    }
    let walker = ignore::WalkBuilder::new(root)
        .standard_filters(false)
        .hidden(true)
        .follow_links(false)
        .add_custom_ignore_filename(IGNORE_FILE)
        .build();
    let mut files = Vec::new();
    for entry in walker.flatten() {
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        let name = entry.file_name().to_string_lossy();
        if is_ignored_name(&name) || !filters.admits(entry.path()) {
            continue;
        }
        if let Ok(meta) = entry.metadata() {
            files.push(scanned_file(entry.path(), &meta));
        }
    }
    files.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(files)
}

/// The scan record of a file from its metadata, with its sidecar folded in.
pub fn scanned_file(path: &Path, meta: &std::fs::Metadata) -> ScannedFile {
    with_sidecar(ScannedFile { path: path.to_path_buf(), size: meta.len(), mtime_ns: mtime_ns(meta) })
}

/// The file a `<file>.meta.toml` sidecar describes, if `path` is a sidecar.
pub fn sidecar_owner(path: &Path) -> Option<PathBuf> {
    let name = path.file_name()?.to_str()?;
    let owner = name.strip_suffix(".meta.toml").filter(|o| !o.is_empty())?;
    Some(path.with_file_name(owner))
}

/// Every recorded path at or below `prefix` (a folder or a file), with its record.
///
/// # Errors
/// LMDB errors.
pub fn records_under(dbs: &Databases, rtxn: &RoTxn<'_>, prefix: &Path) -> Result<Vec<(String, FileRecord)>> {
    let prefix = prefix.to_string_lossy().into_owned();
    let mut out = Vec::new();
    for entry in dbs.files.prefix_iter(rtxn, &prefix)? {
        let (path, record) = entry?;
        if path == prefix || under_root(path, &prefix) {
            out.push((path.to_string(), record));
        }
    }
    Ok(out)
}

/// Fold a sidecar's size and mtime into the file's, so editing the sidecar
/// re-indexes the document.
fn with_sidecar(mut file: ScannedFile) -> ScannedFile {
    if let Ok(meta) = std::fs::metadata(sidecar_path(&file.path)) {
        file.size += meta.len();
        file.mtime_ns = file.mtime_ns.max(mtime_ns(&meta));
    }
    file
}

/// Modification time in ns since the epoch (0 when unavailable).
pub fn mtime_ns(meta: &std::fs::Metadata) -> i128 {
    meta.modified().ok().and_then(|t| t.duration_since(UNIX_EPOCH).ok()).map_or(0, |d| d.as_nanos() as i128)
}

/// What a scan means for the index.
#[derive(Debug, Default)]
pub struct Plan {
    /// Files whose size or mtime differ from the record, or that are new.
    pub candidates: Vec<ScannedFile>,
    /// Files with the same size and mtime as recorded.
    pub unchanged: usize,
    /// Recorded paths under the roots that are gone, with their records.
    pub deleted: BTreeMap<String, FileRecord>,
}

impl Plan {
    /// Paths of deleted files by content hash, for move detection.
    pub fn deleted_by_hash(&self) -> HashMap<String, String> {
        self.deleted.iter().filter(|(_, r)| r.doc_id.is_some()).map(|(p, r)| (r.hash.clone(), p.clone())).collect()
    }
}

/// Diff the files on disk under `roots` with the `files` database.
///
/// # Errors
/// LMDB errors.
pub fn plan(dbs: &Databases, rtxn: &RoTxn<'_>, roots: &[PathBuf], scanned: Vec<ScannedFile>) -> Result<Plan> {
    let mut plan = Plan::default();
    let mut on_disk = std::collections::HashSet::new();
    for file in scanned {
        let key = file.path.to_string_lossy().into_owned();
        let record = dbs.files.get(rtxn, &key)?;
        on_disk.insert(key);
        match record {
            Some(r) if r.size == file.size && r.mtime_ns == file.mtime_ns => plan.unchanged += 1,
            _ => plan.candidates.push(file),
        }
    }
    for root in roots {
        for (path, record) in records_under(dbs, rtxn, root)? {
            if !on_disk.contains(&path) {
                plan.deleted.insert(path, record);
            }
        }
    }
    Ok(plan)
}

fn under_root(path: &str, root: &str) -> bool {
    path.strip_prefix(root).is_some_and(|rest| rest.starts_with('/') || root.ends_with('/'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temp_lock_and_hidden_files_are_ignored() {
        for name in ["~$policy.docx", ".~lock.a.odt#", "a.swp", "b.tmp", "c.part", ".DS_Store", "x.md.meta.toml"] {
            assert!(is_ignored_name(name), "{name}");
        }
        assert!(!is_ignored_name("leave-policy.md"));
    }

    #[test]
    fn sidecars_map_to_the_file_they_describe() {
        assert_eq!(sidecar_owner(Path::new("/d/a.md.meta.toml")), Some(PathBuf::from("/d/a.md")));
        assert_eq!(sidecar_owner(Path::new("/d/a.md")), None);
    }

    #[test]
    fn root_prefix_does_not_match_sibling_folders() {
        assert!(under_root("/docs/a.md", "/docs"));
        assert!(!under_root("/docs-old/a.md", "/docs"));
    }
}
