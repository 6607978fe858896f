//! Which files of a watched folder belong to the library: the folder's
//! `recursive`, `include` and `exclude` settings, the names that are never
//! indexed (temp, lock and hidden files), and `.almirahignore` files.
//!
//! The scan (reconcile, `almirah index`) and the watcher's event hints both
//! ask this module, so an event can never add a file that the next reconcile
//! would remove again, or the other way round.

use std::path::{Path, PathBuf};

use globset::{Glob, GlobSet, GlobSetBuilder};

use super::scan::{IGNORE_FILE, is_ignored_name};
use crate::error::{Error, Result};
use crate::freshness::FolderSettings;

/// The recursion and glob rules of one folder.
#[derive(Debug, Clone)]
pub struct FolderFilter {
    root: PathBuf,
    recursive: bool,
    include: Option<GlobSet>,
    exclude: Option<GlobSet>,
}

impl FolderFilter {
    /// Compile the rules of `settings` (whose `path` should be canonical).
    ///
    /// # Errors
    /// [`Error::BadPath`] naming the folder when a glob does not parse.
    pub fn new(settings: &FolderSettings) -> Result<Self> {
        Ok(Self {
            root: settings.path.clone(),
            recursive: settings.recursive,
            include: glob_set(&settings.path, &settings.include)?,
            exclude: glob_set(&settings.path, &settings.exclude)?,
        })
    }

    /// The folder.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Whether the file at `path` (inside the folder) passes recursion and
    /// the globs, which match the path relative to the folder (`*` also
    /// crosses `/`, so `*.pdf` means every PDF at any depth).
    pub fn admits(&self, path: &Path) -> bool {
        let Ok(rel) = path.strip_prefix(&self.root) else {
            return false;
        };
        if !self.recursive && rel.components().count() > 1 {
            return false;
        }
        if self.include.as_ref().is_some_and(|g| !g.is_match(rel)) {
            return false;
        }
        !self.exclude.as_ref().is_some_and(|g| g.is_match(rel))
    }
}

fn glob_set(folder: &Path, globs: &[String]) -> Result<Option<GlobSet>> {
    if globs.is_empty() {
        return Ok(None);
    }
    let mut builder = GlobSetBuilder::new();
    for g in globs {
        let glob = Glob::new(g)
            .map_err(|e| Error::BadPath { path: folder.to_path_buf(), reason: format!("glob {g:?}: {e}") })?;
        builder.add(glob);
    }
    let set = builder.build().map_err(|e| Error::BadPath { path: folder.to_path_buf(), reason: e.to_string() })?;
    Ok(Some(set))
}

/// The rules of every folder of a run; a path follows the innermost folder
/// holding it.
#[derive(Debug, Clone, Default)]
pub struct Filters {
    folders: Vec<FolderFilter>,
}

impl Filters {
    /// Compile the rules of `folders`.
    ///
    /// # Errors
    /// As [`FolderFilter::new`].
    pub fn new(folders: &[FolderSettings]) -> Result<Self> {
        let mut folders = folders.iter().map(FolderFilter::new).collect::<Result<Vec<_>>>()?;
        folders.sort_by_key(|f| std::cmp::Reverse(f.root.as_os_str().len()));
        Ok(Self { folders })
    }

    /// The innermost folder holding `path`.
    pub fn folder_of(&self, path: &Path) -> Option<&FolderFilter> {
        self.folders.iter().find(|f| path.starts_with(&f.root))
    }

    /// Whether a file found by the scan walker (which already skips hidden
    /// entries and `.almirahignore` matches) passes its folder's globs.
    pub fn admits(&self, path: &Path) -> bool {
        self.folder_of(path).is_none_or(|f| f.admits(path))
    }

    /// Whether a path reported by an event belongs to the library: it lies
    /// in a folder, no component below the folder is hidden, its name is not
    /// a temp or lock file, no `.almirahignore` on the way excludes it, and
    /// the folder's recursion and globs admit it. Folders (`is_dir`) are
    /// judged by the first four rules only.
    pub fn admits_event_path(&self, path: &Path, is_dir: bool) -> bool {
        let Some(folder) = self.folder_of(path) else {
            return false;
        };
        let Ok(rel) = path.strip_prefix(&folder.root) else {
            return false;
        };
        let names: Vec<String> = rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
        if names.is_empty() {
            return is_dir; // the folder itself
        }
        if names.iter().any(|n| n.starts_with('.')) || names.last().is_some_and(|n| is_ignored_name(n)) {
            return false;
        }
        if ignored_by_rules(&folder.root, path, is_dir) {
            return false;
        }
        is_dir || folder.admits(path)
    }
}

/// Whether a `.almirahignore` file in a folder between `root` and `path`
/// excludes `path` (gitignore syntax; the deepest file that has an opinion wins).
pub fn ignored_by_rules(root: &Path, path: &Path, is_dir: bool) -> bool {
    let mut dirs: Vec<&Path> = path.ancestors().skip(1).take_while(|d| d.starts_with(root)).collect();
    dirs.reverse();
    let mut verdict = false;
    for dir in dirs {
        let file = dir.join(IGNORE_FILE);
        if !file.is_file() {
            continue;
        }
        let mut builder = ignore::gitignore::GitignoreBuilder::new(dir);
        if builder.add(&file).is_some() {
            continue;
        }
        let Ok(rules) = builder.build() else {
            continue;
        };
        match rules.matched_path_or_any_parents(path, is_dir) {
            ignore::Match::Ignore(_) => verdict = true,
            ignore::Match::Whitelist(_) => verdict = false,
            ignore::Match::None => {}
        }
    }
    verdict
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn settings(path: &str) -> FolderSettings {
        FolderSettings { path: path.into(), ..FolderSettings::default() }
    }

    #[test]
    fn globs_and_recursion_decide_membership() {
        let mut s = settings("/lib");
        s.include = vec!["*.md".into(), "*.pdf".into()];
        s.exclude = vec!["drafts/**".into()];
        let f = FolderFilter::new(&s).unwrap();
        assert!(f.admits(Path::new("/lib/a.md")));
        assert!(f.admits(Path::new("/lib/hr/b.pdf")));
        assert!(!f.admits(Path::new("/lib/c.txt")));
        assert!(!f.admits(Path::new("/lib/drafts/d.md")));
        s.recursive = false;
        let flat = FolderFilter::new(&s).unwrap();
        assert!(flat.admits(Path::new("/lib/a.md")));
        assert!(!flat.admits(Path::new("/lib/hr/b.pdf")));
    }

    #[test]
    fn event_paths_skip_hidden_temp_and_outside_files() {
        let filters = Filters::new(&[settings("/lib")]).unwrap();
        assert!(filters.admits_event_path(Path::new("/lib/hr/leave.md"), false));
        for p in ["/lib/.git/x.md", "/lib/.~lock.a.odt#", "/lib/~$a.docx", "/lib/a.md.swp", "/lib/a.tmp", "/other/a.md"]
        {
            assert!(!filters.admits_event_path(Path::new(p), false), "{p}");
        }
    }

    #[test]
    fn a_bad_glob_names_the_folder() {
        let mut s = settings("/lib");
        s.include = vec!["a{".into()];
        assert!(matches!(FolderFilter::new(&s), Err(Error::BadPath { .. })));
    }

    #[test]
    fn almirahignore_rules_apply_to_event_paths() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(IGNORE_FILE), "archive/\n*.csv\n").unwrap();
        std::fs::create_dir(dir.path().join("archive")).unwrap();
        assert!(ignored_by_rules(dir.path(), &dir.path().join("archive/old.md"), false));
        assert!(ignored_by_rules(dir.path(), &dir.path().join("fees.csv"), false));
        assert!(!ignored_by_rules(dir.path(), &dir.path().join("leave.md"), false));
    }
}
