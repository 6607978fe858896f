//! Editing `[[folders]]` in the config file without disturbing the rest of
//! it: comments, order and other sections stay as the user wrote them
//! (toml_edit). Only settings that differ from the defaults are written.

use std::path::{Path, PathBuf};

use almirah_core::freshness::FolderSettings;
use anyhow::{Context, Result};
use toml_edit::{ArrayOfTables, DocumentMut, Item, Table};

/// Add `folder` to the config at `path` (created if missing), replacing an
/// entry for the same folder. Returns whether an entry was replaced.
pub fn add(path: &Path, folder: &FolderSettings) -> Result<bool> {
    let mut doc = read(path)?;
    let folders = folders_mut(&mut doc)?;
    let before = folders.len();
    folders.retain(|t| !same_folder(t, &folder.path));
    let replaced = folders.len() != before;
    folders.push(table_of(folder)?);
    write(path, &doc)?;
    Ok(replaced)
}

/// Remove `folder` from the config at `path`; returns whether it was there.
pub fn remove(path: &Path, folder: &Path) -> Result<bool> {
    if !path.exists() {
        return Ok(false);
    }
    let mut doc = read(path)?;
    let folders = folders_mut(&mut doc)?;
    let before = folders.len();
    folders.retain(|t| !same_folder(t, folder));
    let removed = folders.len() != before;
    if folders.is_empty() {
        doc.remove("folders");
    }
    if removed {
        write(path, &doc)?;
    }
    Ok(removed)
}

/// The folder as it is compared and stored: canonical when it exists,
/// else absolute.
pub fn normalise(folder: &Path) -> PathBuf {
    folder.canonicalize().unwrap_or_else(|_| std::path::absolute(folder).unwrap_or_else(|_| folder.to_path_buf()))
}

fn read(path: &Path) -> Result<DocumentMut> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
    };
    text.parse().with_context(|| format!("invalid config {}", path.display()))
}

fn write(path: &Path, doc: &DocumentMut) -> Result<()> {
    let text = doc.to_string();
    toml::from_str::<crate::config::Config>(&text).context("the edited config would not be valid")?;
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let tmp = path.with_extension("toml.tmp");
    std::fs::write(&tmp, text).with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("writing {}", path.display()))
}

fn folders_mut(doc: &mut DocumentMut) -> Result<&mut ArrayOfTables> {
    doc.entry("folders")
        .or_insert(Item::ArrayOfTables(ArrayOfTables::new()))
        .as_array_of_tables_mut()
        .context("`folders` in the config must be written as [[folders]] tables")
}

fn same_folder(table: &Table, folder: &Path) -> bool {
    table.get("path").and_then(Item::as_str).is_some_and(|p| normalise(Path::new(p)) == normalise(folder))
}

/// The settings as a table, keeping `path` and every non-default value.
fn table_of(folder: &FolderSettings) -> Result<Table> {
    let defaults = toml::Table::try_from(FolderSettings::default())?;
    let mut values = toml::Table::try_from(folder)?;
    values.retain(|k, v| k == "path" || defaults.get(k) != Some(v));
    let doc: DocumentMut = toml::to_string(&values)?.parse()?;
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
        let parsed: crate::config::Config = toml::from_str(&text).unwrap();
        assert_eq!(parsed.folders[0].exclude, vec!["drafts/**".to_string()]);
        assert!(remove(&path, Path::new("/srv/circulars")).unwrap());
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(!text.contains("folders") && text.contains("# fast"), "{text}");
    }
}
