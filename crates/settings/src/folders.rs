//! Editing `[[folders]]` in the config file without disturbing the rest of
//! it: comments, order and other sections stay as the user wrote them
//! (toml_edit). Only settings that differ from the defaults are written.

use std::path::{Path, PathBuf};

use almirah_core::freshness::FolderSettings;
use toml_edit::{ArrayOfTables, DocumentMut, Item, Table};

use crate::edit::{read_document, write_document};
use crate::error::{Result, SettingsError};

/// Add `folder` to the config at `path` (created if missing), replacing an
/// entry for the same folder. Returns whether an entry was replaced.
///
/// # Errors
/// [`SettingsError::Io`], [`SettingsError::Parse`], and
/// [`SettingsError::Invalid`] when `folders` is not written as tables.
pub fn add(path: &Path, folder: &FolderSettings) -> Result<bool> {
    let mut doc = read_document(path)?;
    let folders = folders_mut(&mut doc)?;
    let before = folders.len();
    folders.retain(|t| !same_folder(t, &folder.path));
    let replaced = folders.len() != before;
    folders.push(table_of(folder)?);
    write_document(path, &doc)?;
    Ok(replaced)
}

/// Remove `folder` from the config at `path`; returns whether it was there.
///
/// # Errors
/// As [`add`].
pub fn remove(path: &Path, folder: &Path) -> Result<bool> {
    if !path.exists() {
        return Ok(false);
    }
    let mut doc = read_document(path)?;
    let folders = folders_mut(&mut doc)?;
    let before = folders.len();
    folders.retain(|t| !same_folder(t, folder));
    let removed = folders.len() != before;
    if folders.is_empty() {
        doc.remove("folders");
    }
    if removed {
        write_document(path, &doc)?;
    }
    Ok(removed)
}

/// The folder as it is compared and stored: canonical when it exists,
/// else absolute.
pub fn normalise(folder: &Path) -> PathBuf {
    folder.canonicalize().unwrap_or_else(|_| std::path::absolute(folder).unwrap_or_else(|_| folder.to_path_buf()))
}

fn folders_mut(doc: &mut DocumentMut) -> Result<&mut ArrayOfTables> {
    doc.entry("folders")
        .or_insert(Item::ArrayOfTables(ArrayOfTables::new()))
        .as_array_of_tables_mut()
        .ok_or_else(|| SettingsError::Invalid("`folders` in the config must be written as [[folders]] tables".into()))
}

fn same_folder(table: &Table, folder: &Path) -> bool {
    table.get("path").and_then(Item::as_str).is_some_and(|p| normalise(Path::new(p)) == normalise(folder))
}

/// The settings as a table, keeping `path` and every non-default value.
fn table_of(folder: &FolderSettings) -> Result<Table> {
    let bad = |e: &dyn std::fmt::Display| SettingsError::Invalid(format!("folder settings: {e}"));
    let defaults = toml::Table::try_from(FolderSettings::default()).map_err(|e| bad(&e))?;
    let mut values = toml::Table::try_from(folder).map_err(|e| bad(&e))?;
    values.retain(|k, v| k == "path" || defaults.get(k) != Some(v));
    let text = toml::to_string(&values).map_err(|e| bad(&e))?;
    let doc: DocumentMut = text.parse().map_err(|e| bad(&e))?;
    Ok(doc.as_table().clone())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn adding_and_removing_keeps_comments_and_other_sections() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        std::fs::write(&path, "# my library\n[embedder]\nprovider = \"hash\" # fast\ndimensions = 64\n").unwrap();
        let folder = FolderSettings {
            path: "/srv/circulars".into(),
            exclude: vec!["drafts/**".into()],
            force_poll: true,
            ..FolderSettings::default()
        };
        assert!(!add(&path, &folder).unwrap());
        assert!(add(&path, &folder).unwrap(), "the same folder is replaced, not repeated");
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains("# my library") && text.contains("# fast"), "{text}");
        assert_eq!(text.matches("[[folders]]").count(), 1, "{text}");
        assert!(text.contains("force_poll = true") && !text.contains("recursive"), "{text}");
        let parsed: crate::Config = toml::from_str(&text).unwrap();
        assert_eq!(parsed.folders[0].exclude, vec!["drafts/**".to_string()]);
        assert!(remove(&path, Path::new("/srv/circulars")).unwrap());
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(!text.contains("folders") && text.contains("# fast"), "{text}");
    }
}
