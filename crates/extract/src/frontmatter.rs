//! Front matter: YAML between `---` lines or TOML between `+++` lines at the
//! very start of a Markdown file (the Jekyll/Hugo convention). It is parsed
//! into JSON values and cut from the body, so it never reaches a chunk.

use std::collections::BTreeMap;

use serde_json::Value;

/// Parsed front matter and where the Markdown body starts.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct FrontMatter {
    /// Top-level keys as JSON values.
    pub values: BTreeMap<String, Value>,
    /// Byte offset of the body (just after the closing delimiter line).
    pub body_start: usize,
    /// Set when a block was found but could not be parsed.
    pub note: Option<String>,
}

/// Split front matter off the start of `src`; none found means `body_start == 0`.
pub(crate) fn split(src: &str) -> FrontMatter {
    for (delim, yaml) in [("---", true), ("+++", false)] {
        if let Some((block, body_start)) = block(src, delim) {
            let parsed = if yaml { parse_yaml(block) } else { parse_toml(block) };
            return match parsed {
                Ok(values) => FrontMatter { values, body_start, note: None },
                Err(e) => FrontMatter { values: BTreeMap::new(), body_start, note: Some(e) },
            };
        }
    }
    FrontMatter::default()
}

/// The text between an opening `delim` line and the next closing line.
fn block<'a>(src: &'a str, delim: &str) -> Option<(&'a str, usize)> {
    let first_end = src.find('\n')?;
    if src[..first_end].trim_end() != delim {
        return None;
    }
    let mut pos = first_end + 1;
    while pos < src.len() {
        let line_end = src[pos..].find('\n').map_or(src.len(), |i| pos + i);
        let line = src[pos..line_end].trim_end();
        if line == delim || (delim == "---" && line == "...") {
            return Some((&src[first_end + 1..pos], (line_end + 1).min(src.len())));
        }
        pos = line_end + 1;
    }
    None
}

/// YAML mapping → JSON values (non-string keys are written as YAML scalars).
fn parse_yaml(block: &str) -> Result<BTreeMap<String, Value>, String> {
    if block.trim().is_empty() {
        return Ok(BTreeMap::new());
    }
    let value: serde_yaml_ng::Value = serde_yaml_ng::from_str(block).map_err(|e| format!("front matter: YAML: {e}"))?;
    let serde_yaml_ng::Value::Mapping(map) = value else {
        return Err("front matter: YAML is not a mapping".into());
    };
    Ok(map.into_iter().filter_map(|(k, v)| Some((yaml_key(&k)?, serde_json::to_value(v).ok()?))).collect())
}

/// A YAML key as a string, if it is a scalar.
fn yaml_key(key: &serde_yaml_ng::Value) -> Option<String> {
    match key {
        serde_yaml_ng::Value::String(s) => Some(s.clone()),
        serde_yaml_ng::Value::Number(n) => Some(n.to_string()),
        serde_yaml_ng::Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// TOML table → JSON values (datetimes become RFC 3339 strings).
fn parse_toml(block: &str) -> Result<BTreeMap<String, Value>, String> {
    let table: toml::Table = toml::from_str(block).map_err(|e| format!("front matter: TOML: {e}"))?;
    Ok(table.into_iter().map(|(k, v)| (k, toml_to_json(v))).collect())
}

fn toml_to_json(value: toml::Value) -> Value {
    match value {
        toml::Value::String(s) => Value::String(s),
        toml::Value::Integer(i) => Value::from(i),
        toml::Value::Float(f) => Value::from(f),
        toml::Value::Boolean(b) => Value::Bool(b),
        toml::Value::Datetime(d) => Value::String(d.to_string()),
        toml::Value::Array(a) => Value::Array(a.into_iter().map(toml_to_json).collect()),
        toml::Value::Table(t) => Value::Object(t.into_iter().map(|(k, v)| (k, toml_to_json(v))).collect()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yaml_front_matter_is_parsed_and_cut() {
        let src = "---\ntitle: Overtime\ntags: [a, b]\ndate: 2024-11-26\n---\n# Body\n";
        let fm = split(src);
        assert_eq!(fm.values["title"], Value::String("Overtime".into()));
        assert_eq!(fm.values["tags"], serde_json::json!(["a", "b"]));
        assert_eq!(fm.values["date"], Value::String("2024-11-26".into()));
        assert_eq!(&src[fm.body_start..], "# Body\n");
    }

    #[test]
    fn toml_front_matter_with_datetime() {
        let src = "+++\ntitle = \"Leave\"\nissued = 2025-02-28\nversion = 3\n+++\nText";
        let fm = split(src);
        assert_eq!(fm.values["title"], Value::String("Leave".into()));
        assert_eq!(fm.values["issued"], Value::String("2025-02-28".into()));
        assert_eq!(fm.values["version"], Value::from(3));
        assert_eq!(&src[fm.body_start..], "Text");
    }

    #[test]
    fn invalid_yaml_is_still_cut_with_a_note() {
        let src = "---\ntitle: [unclosed\n---\nBody";
        let fm = split(src);
        assert!(fm.values.is_empty());
        assert!(fm.note.is_some());
        assert_eq!(&src[fm.body_start..], "Body");
    }

    #[test]
    fn no_front_matter_and_thematic_break_later() {
        assert_eq!(split("Text\n---\nmore").body_start, 0);
        assert_eq!(split("---").body_start, 0);
    }
}
