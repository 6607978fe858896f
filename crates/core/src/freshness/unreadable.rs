//! "A newer version that fails to parse never silently serves the old one"
//! (ARCHITECTURE §2): a file that could not be read, whose path puts it in a
//! document's series with a newer version token, marks that document.

use std::collections::BTreeMap;
use std::path::Path;

use heed::RoTxn;

use super::describe::FolderSettings;
use super::meta::DocMeta;
use super::series::{analyse_path, compare_versions};
use crate::error::Result;
use crate::ids::DocId;
use crate::store::{Databases, get_meta, meta_keys};

/// Documents with an unreadable newer version, with the mark to show. A
/// failed file's path is read with the date order of the watched folder
/// holding it (`folders`; day-month when none does).
///
/// # Errors
/// Storage errors.
pub fn marks(
    dbs: &Databases,
    rtxn: &RoTxn<'_>,
    metas: &BTreeMap<DocId, DocMeta>,
    folders: &[FolderSettings],
) -> Result<BTreeMap<DocId, String>> {
    let roots: Vec<String> = get_meta(dbs, rtxn, meta_keys::ROOTS)?.unwrap_or_default();
    let mut out = BTreeMap::new();
    for entry in dbs.files.iter(rtxn)? {
        let (path, record) = entry?;
        if !record.status.is_failure() || record.doc_id.is_some() {
            continue;
        }
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
        let reason = record.reason.clone().unwrap_or_else(|| record.status.as_str().to_string());
        for (id, meta) in metas {
            let same_series = meta.versioned && meta.series.as_ref().is_some_and(|s| s.value == tokens.series_key);
            let older = (meta.version_number.as_deref(), meta.in_force_from(), meta.session.as_ref().map(|s| s.value));
            if same_series && compare_versions(newer, older) == std::cmp::Ordering::Greater {
                out.insert(*id, format!("a newer version exists but could not be read: {rel} ({reason})"));
            }
        }
    }
    Ok(out)
}
