//! Reference numbers and supersession statements.
//!
//! A document's *references* are the identifiers others cite it by:
//! `rfc:7230`, `circular:14`, `circular:14@2026-27`, `name:<slug>`.
//! A *supersession statement* names references of older documents:
//! "in supersession of Circular No. 09 (2024-25)", "supersedes …",
//! "replaces Circular …", or an RFC header's `Obsoletes: 2145, 2616`
//! (RFC 7322 §4.1.4). `Updates:` is not supersession.

use std::sync::LazyLock;

use regex::Regex;

use super::session::Session;

#[allow(clippy::expect_used)]
fn re(p: &str) -> Regex {
    Regex::new(p).expect("valid reference pattern")
}

const DOC_KINDS: &str = r"circular|office\s+order|order|notification|memorandum|memo|policy|notice";

static RFC_IN_NAME: LazyLock<Regex> = LazyLock::new(|| re(r"(?i)(?:^|[^a-z])rfc[\s_-]?(\d{3,5})(?:[^0-9]|$)"));
static RFC_HEADER: LazyLock<Regex> = LazyLock::new(|| re(r"(?im)^\s*Request for Comments:\s*(\d{3,5})"));
static OBSOLETES: LazyLock<Regex> = LazyLock::new(|| re(r"(?im)^\s*Obsoletes:\s*([0-9][0-9,\s]*)"));
static DOC_NUMBER: LazyLock<Regex> =
    LazyLock::new(|| re(&format!(r"(?i)\b({DOC_KINDS})[\s_-]*(?:no\.?|number|#)?\s*[:\-]?\s*(\d{{1,4}})\b")));
static STATEMENT: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r"(?i)\b(?:in\s+supersession\s+of|supersedes|supersede|superseding|replaces|in\s+place\s+of)\s+(?:the\s+)?(?:earlier\s+|previous\s+)?(?:{DOC_KINDS})[\s_-]*(?:no\.?|number|#)?\s*[:\-]?\s*(\d{{1,4}})(?:\s*(?:\(|of|dated)?\s*((?:19|20)\d{{2}}\s?[-/]\s?\d{{2,4}}))?"
    ))
});

/// The kind word of a reference, normalised (`office order` → `office-order`).
fn kind_key(kind: &str) -> String {
    kind.split_whitespace().collect::<Vec<_>>().join("-").to_lowercase()
}

/// References a document is known by, from its file name, title and
/// first-page header (never body text).
pub fn references(file_stem: &str, header: &str, session: Option<Session>) -> Vec<String> {
    let mut refs = Vec::new();
    for text in [file_stem, header] {
        if let Some(c) = RFC_IN_NAME.captures(text) {
            refs.push(format!("rfc:{}", trim_zeros(&c[1])));
        }
        if let Some(c) = DOC_NUMBER.captures(text) {
            let base = format!("{}:{}", kind_key(&c[1]), trim_zeros(&c[2]));
            if let Some(s) = session {
                refs.push(format!("{base}@{s}"));
            }
            refs.push(base);
        }
    }
    if let Some(c) = RFC_HEADER.captures(header) {
        refs.push(format!("rfc:{}", trim_zeros(&c[1])));
    }
    refs.push(format!("name:{}", crate::update::slug(file_stem)));
    refs.sort();
    refs.dedup();
    refs
}

/// References named by supersession statements in `text` (the header and
/// the opening of the document).
pub fn superseded_references(text: &str) -> Vec<String> {
    let mut refs = Vec::new();
    if let Some(c) = OBSOLETES.captures(text) {
        refs.extend(
            c[1].split(|ch: char| ch == ',' || ch.is_whitespace())
                .filter(|n| !n.is_empty())
                .map(|n| format!("rfc:{}", trim_zeros(n))),
        );
    }
    for c in STATEMENT.captures_iter(text) {
        let kind = c.get(0).map(|m| m.as_str()).and_then(kind_in).unwrap_or_else(|| "circular".into());
        let base = format!("{kind}:{}", trim_zeros(&c[1]));
        match c.get(2).and_then(|m| Session::parse(m.as_str())) {
            Some(s) => refs.push(format!("{base}@{s}")),
            None => refs.push(base),
        }
    }
    refs.sort();
    refs.dedup();
    refs
}

fn kind_in(statement: &str) -> Option<String> {
    static KIND: LazyLock<Regex> = LazyLock::new(|| re(&format!(r"(?i)\b({DOC_KINDS})\b")));
    KIND.captures(statement).map(|c| kind_key(&c[1]))
}

/// A front-matter or sidecar `supersedes` value (a key, file name, title or
/// "Circular No. 9 (2024-25)") as references.
pub fn references_from_value(value: &str) -> Vec<String> {
    let mut refs = superseded_references(&format!("supersedes {value}"));
    let session = Session::find_all(value).first().map(|(_, s)| *s);
    let stem = value.rsplit('/').next().unwrap_or(value);
    let stem = stem.rsplit_once('.').map_or(stem, |(s, ext)| if ext.len() <= 4 { s } else { stem });
    refs.extend(references(stem, "", session));
    if let Some(n) = value.trim().strip_prefix("RFC").or_else(|| value.trim().strip_prefix("rfc")) {
        refs.push(format!("rfc:{}", trim_zeros(n.trim())));
    }
    refs.sort();
    refs.dedup();
    refs
}

fn trim_zeros(n: &str) -> String {
    let t = n.trim().trim_start_matches('0');
    if t.is_empty() { "0".into() } else { t.to_string() }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn circulars_are_known_by_number_and_session() {
        let s = Session::parse("2024-25");
        let refs = references("Circular-09-2024-25", "Office of the Dean\nCircular No. 09 (2024-25)", s);
        assert!(refs.contains(&"circular:9@2024-25".to_string()), "{refs:?}");
        assert!(refs.contains(&"circular:9".to_string()));
    }

    #[test]
    fn reads_the_supersession_statement() {
        let refs = superseded_references(
            "Circular No. 14 (2026-27)\nIn supersession of Circular No. 09 (2024-25), it is notified",
        );
        assert_eq!(refs, vec!["circular:9@2024-25".to_string()]);
    }

    #[test]
    fn rfc_obsoletes_is_supersession_but_updates_is_not() {
        let header =
            "Request for Comments: 7230\nObsoletes: 2145, 2616                    J. Reschke\nUpdates: 2817, 2818\n";
        assert_eq!(superseded_references(header), vec!["rfc:2145".to_string(), "rfc:2616".to_string()]);
        assert!(references("rfc7230", header, None).contains(&"rfc:7230".to_string()));
    }

    #[test]
    fn prose_replacing_things_is_not_supersession() {
        assert!(superseded_references("The new portal replaces the old spreadsheet.").is_empty());
    }

    #[test]
    fn front_matter_values_resolve_to_references() {
        let refs = references_from_value("Circular-09-2024-25.pdf");
        assert!(refs.contains(&"circular:9@2024-25".to_string()), "{refs:?}");
        assert!(references_from_value("RFC 2616").contains(&"rfc:2616".to_string()));
    }
}
