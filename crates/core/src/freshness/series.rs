//! Series inference from paths (ARCHITECTURE §2): only `v\d+` tokens, ISO or
//! day-month dates, sessions and commit-like hex hashes are version tokens.
//! They are stripped from the path; documents whose remaining paths are
//! equal form one series. Identifiers ("RFC 7230", "Circular-09",
//! "Heinkel HD 23") keep their numbers, so they never merge.

use std::cmp::Ordering;
use std::sync::LazyLock;

use chrono::NaiveDate;
use regex::Regex;
use serde::{Deserialize, Serialize};

use super::dates::{DateOrder, find_dates};
use super::session::Session;

/// Per-folder versioning setting.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Versioning {
    /// Infer series from paths, read versions from names and text.
    #[default]
    Auto,
    /// Only front matter, sidecars and overrides set versions.
    Explicit,
    /// No versioning at all (QA corpora, reference collections).
    Off,
}

/// What a path says about versions.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PathTokens {
    /// The path with version tokens removed, normalised (`travel-and-leave/fmla`).
    pub series_key: String,
    /// Whether any version token was removed.
    pub had_version_token: bool,
    /// `v3` → `[3]`.
    pub version: Option<Vec<u64>>,
    /// A date in the path.
    pub date: Option<NaiveDate>,
    /// A session in the path.
    pub session: Option<Session>,
}

#[allow(clippy::expect_used)]
fn re(p: &str) -> Regex {
    Regex::new(p).expect("valid series pattern")
}

static VERSION: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?i)(?:^|[^a-z0-9])(v|version[ _-]?)(\d+(?:\.\d+)*)(?:[^a-z0-9.]|$)"));
static HEX: LazyLock<Regex> = LazyLock::new(|| re(r"(?i)(?:^|[^a-z0-9])([0-9a-f]{7,40})(?:[^a-z0-9]|$)"));
/// A date followed by a commit hash (`2024-11-26_9e1c326`): the hash may be all digits.
static DATE_HASH: LazyLock<Regex> =
    LazyLock::new(|| re(r"((?:19|20)\d{2}-\d{1,2}-\d{1,2})[_-][0-9a-fA-F]{7,40}(?:[^0-9a-zA-Z]|$)"));
static DATE_TOKENS: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?:19|20)\d{2}-\d{1,2}-\d{1,2}|\d{1,2}[./-]\d{1,2}[./-](?:19|20)\d{2}"));

/// Analyse a path relative to its watched folder, e.g.
/// `travel-and-leave/fmla/2024-12-18_651a96c.md`.
pub fn analyse_path(rel_path: &str, order: DateOrder) -> PathTokens {
    let without_ext = rel_path.rsplit_once('.').filter(|(_, ext)| !ext.contains('/')).map_or(rel_path, |(p, _)| p);
    let mut tokens = PathTokens {
        date: find_dates(without_ext, order).first().map(|(_, d)| *d),
        session: Session::find_all(without_ext).first().map(|(_, s)| *s),
        ..PathTokens::default()
    };
    let mut stripped = without_ext.to_string();
    if let Some(c) = VERSION.captures(&stripped) {
        tokens.version = c.get(2).map(|m| m.as_str().split('.').filter_map(|p| p.parse().ok()).collect());
    }
    let before = stripped.clone();
    stripped = VERSION.replace_all(&stripped, "-").into_owned();
    stripped = DATE_HASH.replace_all(&stripped, "-").into_owned();
    stripped = DATE_TOKENS.replace_all(&stripped, "-").into_owned();
    stripped = strip_sessions(&stripped);
    stripped = strip_hashes(&stripped);
    tokens.had_version_token = stripped != before;
    tokens.series_key = normalise(&stripped);
    tokens
}

static SESSION_AT: LazyLock<Regex> = LazyLock::new(|| re(r"^\d{4}\s?[-/–]\s?(?:\d{4}|\d{2})"));

fn strip_sessions(s: &str) -> String {
    let mut out = s.to_string();
    for (at, _) in Session::find_all(s).into_iter().rev() {
        if let Some(m) = SESSION_AT.find(&s[at..]) {
            out.replace_range(at..at + m.end(), "-");
        }
    }
    out
}

fn strip_hashes(s: &str) -> String {
    let mut out = s.to_string();
    let spans: Vec<(usize, usize)> = HEX
        .captures_iter(s)
        .filter_map(|c| c.get(1))
        .filter(|m| {
            let t = m.as_str();
            t.chars().any(|c| c.is_ascii_digit()) && t.chars().any(|c| c.is_ascii_alphabetic())
        })
        .map(|m| (m.start(), m.end()))
        .collect();
    for (a, b) in spans.into_iter().rev() {
        out.replace_range(a..b, "-");
    }
    out
}

/// Lowercase, runs of non-alphanumerics to one `-`, empty path segments dropped.
fn normalise(path: &str) -> String {
    let segments: Vec<String> = path
        .split('/')
        .map(|seg| {
            let mut out = String::new();
            for c in seg.chars().flat_map(char::to_lowercase) {
                if c.is_alphanumeric() {
                    out.push(c);
                } else if !out.ends_with('-') {
                    out.push('-');
                }
            }
            out.trim_matches('-').to_string()
        })
        .filter(|s| !s.is_empty())
        .collect();
    segments.join("/")
}

/// Order two versions of one series: by explicit version numbers, then by
/// date, then by session. `None` sorts before any value.
pub fn compare_versions(
    a: (Option<&[u64]>, Option<NaiveDate>, Option<Session>),
    b: (Option<&[u64]>, Option<NaiveDate>, Option<Session>),
) -> Ordering {
    a.0.cmp(&b.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn key(p: &str) -> String {
        analyse_path(p, DateOrder::DayMonth).series_key
    }

    #[test]
    fn dated_versions_of_one_page_share_a_series() {
        let a = analyse_path("travel-and-leave/fmla/2024-12-18_651a96c.md", DateOrder::DayMonth);
        let b = analyse_path("travel-and-leave/fmla/2022-11-30_3862166.md", DateOrder::DayMonth);
        assert_eq!(a.series_key, "travel-and-leave/fmla");
        assert_eq!(a.series_key, b.series_key);
        let c = analyse_path("travel-and-leave/moving/2022-11-30_3862166.md", DateOrder::DayMonth);
        assert_eq!(c.series_key, "travel-and-leave/moving");
        assert_eq!(a.date, NaiveDate::from_ymd_opt(2024, 12, 18));
        assert!(a.had_version_token);
    }

    #[test]
    fn identifiers_are_never_version_tokens() {
        assert_eq!(key("Circular-09-2024-25.pdf"), "circular-09");
        assert_eq!(key("Circular-14-2026-27.pdf"), "circular-14");
        assert_eq!(key("rfc7230.txt"), "rfc7230");
        assert_eq!(key("Heinkel HD 23.txt"), "heinkel-hd-23");
        assert_eq!(key("2.1.80.pdf"), "2-1-80");
        assert!(!analyse_path("rfc7230.txt", DateOrder::DayMonth).had_version_token);
    }

    #[test]
    fn v_numbers_and_sessions_are_version_tokens() {
        let p = analyse_path("policies/leave-policy-v3.md", DateOrder::DayMonth);
        assert_eq!(p.series_key, "policies/leave-policy");
        assert_eq!(p.version, Some(vec![3]));
        let h = analyse_path("handbook-2026-27.md", DateOrder::DayMonth);
        assert_eq!(h.series_key, "handbook");
        assert_eq!(h.session.unwrap().to_string(), "2026-27");
    }

    #[test]
    fn versions_order_by_number_then_date() {
        let d = NaiveDate::from_ymd_opt(2024, 1, 1);
        assert_eq!(compare_versions((Some(&[3]), None, None), (Some(&[2, 9]), d, None)), Ordering::Greater);
        assert_eq!(compare_versions((None, d, None), (None, None, None)), Ordering::Greater);
    }
}
