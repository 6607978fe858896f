//! "A newer version that fails to parse never silently serves the old one"
//! (ARCHITECTURE §2): a file that could not be read, whose path puts it in a
//! document's series with a newer version token, marks that document.

use std::collections::BTreeMap;
use std::path::Path;

use super::describe::{FolderSettings, sidecar_audience};
use super::meta::{DocMeta, Field, Provenance};
use super::records::StatusRecords;
use super::series::{analyse_path, compare_versions};
use super::status::audience_allowed;
use crate::ids::DocId;

/// Who may know of a file that has no document (it failed to read, and
/// no earlier version is kept): the audience its `<file>.meta.toml`
/// sidecar states, else its watched folder's (`folders`), as a document of
/// it would have had. A sidecar that exists but cannot be read leaves the
/// audience unknown, so the file is hidden from every audience (the
/// indexing report still names it). Every listing of failed files (status,
/// the unreadable-newer-version marks) asks here.
pub fn failed_file_visible(path: &Path, folders: &[FolderSettings], audiences: &[String]) -> bool {
    audience_allowed(&failed_file_meta(path, folders), audiences)
}

/// The metadata of a document-less file that decides who may see it
/// (only its audience is set; see [`failed_file_visible`]).
pub fn failed_file_meta(path: &Path, folders: &[FolderSettings]) -> DocMeta {
    let folder = || FolderSettings::holding(folders, path).and_then(|f| f.audience.clone());
    let audience = match std::fs::read(crate::source_file::sidecar_path(path)) {
        Ok(bytes) => match crate::source_file::parse_sidecar(&bytes) {
            Ok(sidecar) => sidecar_audience(&sidecar).map(|f| f.value).or_else(folder),
            Err(_) => Some(Vec::new()),
        },
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => folder(),
        Err(_) => Some(Vec::new()),
    };
    DocMeta { audience: audience.map(|a| Field::new(a, Provenance::Sidecar)), ..DocMeta::default() }
}

/// One unreadable newer version of a document: the mark to show, and who
/// may be shown it (the failed file's audience, [`failed_file_meta`]).
#[derive(Debug, Clone)]
pub struct UnreadableMark {
    /// "a newer version exists but could not be read: …".
    pub text: String,
    /// The failed file's audience.
    pub meta: DocMeta,
}

impl UnreadableMark {
    /// Whether a user of `audiences` may be shown it.
    pub fn shown_to(&self, audiences: &[String]) -> bool {
        audience_allowed(&self.meta, audiences)
    }
}

/// Documents with an unreadable newer version, with the marks to show, in
/// path order. `failed` holds the failed files (path and reason: the
/// writer's failed-files set); `roots` the folders indexed; `records` the
/// documents, with their series index. A failed file's path is read, below
/// its root, with the date order of the watched folder holding it
/// (`folders`; day-month when none does).
pub fn marks(
    failed: &[(&str, String)],
    roots: &[String],
    records: &StatusRecords,
    folders: &[FolderSettings],
) -> BTreeMap<DocId, Vec<UnreadableMark>> {
    let mut out = BTreeMap::new();
    for (path, reason) in failed {
        let Some(root) = roots.iter().filter(|r| Path::new(path).starts_with(r)).max_by_key(|r| r.len()) else {
            continue;
        };
        let rel = Path::new(path).strip_prefix(root).map(|p| p.to_string_lossy().into_owned()).unwrap_or_default();
        let order = FolderSettings::holding(folders, Path::new(path)).map(|f| f.date_order).unwrap_or_default();
        let tokens = analyse_path(&rel, order);
        if !tokens.had_version_token {
            continue;
        }
        let newer = (tokens.version.as_deref(), tokens.date, tokens.session);
        let mut who: Option<DocMeta> = None;
        for &pos in records.versioned_in_series(tokens.series_key.as_str()) {
            let Some(id) = records.id(pos) else { continue };
            if compare_versions(newer, records.version_key(pos)) == std::cmp::Ordering::Greater {
                let meta = who.get_or_insert_with(|| failed_file_meta(Path::new(path), folders)).clone();
                let text = format!("a newer version exists but could not be read: {rel} ({reason})");
                out.entry(id).or_insert_with(Vec::new).push(UnreadableMark { text, meta });
            }
        }
    }
    out
}
