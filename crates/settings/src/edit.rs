//! Comment-preserving edits of the config file (toml_edit): the user's
//! comments, order and other sections stay as written. Every write is
//! checked to still parse as a [`crate::Config`] and lands atomically
//! (temp file, then rename).

use std::path::Path;

use toml_edit::{DocumentMut, Item, Table};

use crate::error::{Result, SettingsError, io};

/// Set each `(dotted.key, value)` in the config at `path` (created if
/// missing); a `None` value removes the key. Tables on the way are created.
///
/// # Errors
/// [`SettingsError::Io`], [`SettingsError::Parse`] (also when the result
/// would not be a valid config), [`SettingsError::Invalid`] when a key on
/// the way is not a table.
pub fn set_values(path: &Path, values: &[(&str, Option<toml_edit::Value>)]) -> Result<()> {
    let mut doc = read_document(path)?;
    for (key, value) in values {
        let mut parts: Vec<&str> = key.split('.').collect();
        let Some(last) = parts.pop() else { continue };
        let mut table: &mut Table = doc.as_table_mut();
        for part in parts {
            let entry = table.entry(part).or_insert_with(|| Item::Table(Table::new()));
            table = entry
                .as_table_mut()
                .ok_or_else(|| SettingsError::Invalid(format!("`{part}` in the config must be a table")))?;
        }
        match value {
            Some(v) => {
                table.insert(last, Item::Value(v.clone()));
            }
            None => {
                table.remove(last);
            }
        }
    }
    write_document(path, &doc)
}

/// The config at `path` as an editable document (empty when missing).
pub(crate) fn read_document(path: &Path) -> Result<DocumentMut> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(io("reading", path)(e)),
    };
    text.parse().map_err(|e: toml_edit::TomlError| SettingsError::Parse { path: path.into(), message: e.to_string() })
}

/// Check that `doc` is a valid config, then write it atomically.
pub(crate) fn write_document(path: &Path, doc: &DocumentMut) -> Result<()> {
    let text = doc.to_string();
    toml::from_str::<crate::Config>(&text).map_err(|e| SettingsError::Parse {
        path: path.into(),
        message: format!("the edited config would not be valid: {e}"),
    })?;
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(io("creating", dir))?;
    }
    let tmp = path.with_extension("toml.tmp");
    std::fs::write(&tmp, text).map_err(io("writing", &tmp))?;
    std::fs::rename(&tmp, path).map_err(io("writing", path))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn setting_values_keeps_comments_and_rejects_invalid_results() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        std::fs::write(&path, "# mine\n[model]\nspec = \"builtin\" # default\n").unwrap();
        set_values(
            &path,
            &[("model.spec", Some("ollama:qwen2.5:1.5b".into())), ("sessions.start_month", Some(4.into()))],
        )
        .unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains("# mine") && text.contains("spec = \"ollama:qwen2.5:1.5b\""), "{text}");
        let c = crate::read(&path).unwrap();
        assert_eq!((c.model.spec.as_str(), c.sessions.start_month), ("ollama:qwen2.5:1.5b", 4));
        let err = set_values(&path, &[("colour", Some(1.into()))]).unwrap_err();
        assert!(matches!(err, SettingsError::Parse { .. }), "{err}");
        assert!(!std::fs::read_to_string(&path).unwrap().contains("colour"), "a rejected edit is not written");
        set_values(&path, &[("model.spec", None)]).unwrap();
        assert_eq!(crate::read(&path).unwrap().model.spec, "builtin");
    }
}
