//! What a source file says about itself besides its content: the slug of
//! its name (document keys, `name:` references) and its `<file>.meta.toml`
//! sidecar. Both the write path ([`crate::update`]) and the freshness rules
//! ([`crate::freshness`]) read them, so they live below both.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Lowercase ASCII slug: letters and digits kept, runs of anything else
/// become one `-`; at most 64 bytes; `doc` when empty.
pub fn slug(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    let trimmed: String = out.trim_matches('-').chars().take(64).collect();
    if trimmed.is_empty() { "doc".to_string() } else { trimmed }
}

/// The sidecar of a file: `<file>.meta.toml` beside it.
pub fn sidecar_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".meta.toml");
    path.with_file_name(name)
}

/// Parse a `<file>.meta.toml` sidecar into JSON values.
///
/// # Errors
/// A message naming the sidecar when it is not UTF-8 or not TOML.
pub fn parse_sidecar(bytes: &[u8]) -> Result<BTreeMap<String, serde_json::Value>, String> {
    let text = std::str::from_utf8(bytes).map_err(|_| "sidecar .meta.toml is not UTF-8".to_string())?;
    let table: toml::Table = toml::from_str(text).map_err(|e| format!("sidecar .meta.toml: {e}"))?;
    let value = serde_json::to_value(table).map_err(|e| format!("sidecar .meta.toml: {e}"))?;
    Ok(serde_json::from_value(value).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn slugs_are_readable_and_never_empty() {
        assert_eq!(slug("Circular-14 (2026-27)"), "circular-14-2026-27");
        assert_eq!(slug("छात्रावास"), "doc");
    }

    #[test]
    fn a_sidecar_sits_beside_its_file() {
        assert_eq!(sidecar_path(Path::new("/d/a.pdf")), Path::new("/d/a.pdf.meta.toml"));
        assert_eq!(parse_sidecar(b"session = \"2024-25\"\n").unwrap()["session"], "2024-25");
        assert!(parse_sidecar(b"= nope").is_err());
    }
}
