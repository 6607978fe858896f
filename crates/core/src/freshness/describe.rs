//! Build a document's [`DocMeta`] from its sidecar, front matter, path,
//! title and first-page header, and text (strongest first; ARCHITECTURE §2).

use std::collections::BTreeMap;
use std::sync::LazyLock;

use chrono::NaiveDate;
use regex::Regex;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::dates::{DateOrder, date_after, parse_date};
use super::meta::{DocMeta, Field, Provenance};
use super::references::{amended_references, number_line, references, references_from_value, superseded_references};
use super::series::{Versioning, analyse_path};
use super::session::Session;

/// Settings of a watched folder: what is in the library (recursion, globs),
/// how its metadata is read, and how it is watched. Every field has a
/// default, so older config files stay valid.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct FolderSettings {
    /// The folder (absolute).
    pub path: std::path::PathBuf,
    /// Include subfolders (default true).
    pub recursive: bool,
    /// Globs (relative to the folder, e.g. `policies/**/*.md`, `*.pdf`) a file
    /// must match to be indexed; empty means every file.
    pub include: Vec<String>,
    /// Globs of files never indexed, applied after `include`.
    pub exclude: Vec<String>,
    /// `auto`, `explicit` or `off`.
    pub versioning: Versioning,
    /// How numeric dates are read.
    pub date_order: DateOrder,
    /// Audience of documents that do not state one; `None` = everyone.
    pub audience: Option<Vec<String>>,
    /// Watch by polling instead of OS events (network shares, FUSE mounts).
    pub force_poll: bool,
}

impl FolderSettings {
    /// The innermost folder of `folders` that holds `path`, if any.
    pub fn holding<'a>(folders: &'a [FolderSettings], path: &std::path::Path) -> Option<&'a FolderSettings> {
        folders.iter().filter(|f| path.starts_with(&f.path)).max_by_key(|f| f.path.as_os_str().len())
    }
}

impl Default for FolderSettings {
    fn default() -> Self {
        Self {
            path: std::path::PathBuf::new(),
            recursive: true,
            include: Vec::new(),
            exclude: Vec::new(),
            versioning: Versioning::default(),
            date_order: DateOrder::default(),
            audience: None,
            force_poll: false,
        }
    }
}

/// What `describe` reads.
pub struct DescribeInput<'a> {
    /// Path relative to the watched folder.
    pub rel_path: &'a str,
    /// File name without extension.
    pub file_stem: &'a str,
    /// Extracted title.
    pub title: Option<&'a str>,
    /// Front matter.
    pub front_matter: &'a BTreeMap<String, Value>,
    /// Sidecar values.
    pub sidecar: &'a BTreeMap<String, Value>,
    /// Title plus the start of the first page or section (about 600
    /// characters; [`super::header`]).
    pub header: &'a str,
    /// The opening of the document (about 4000 bytes).
    pub opening: &'a str,
    /// The file's own document properties (weak metadata).
    pub properties: &'a almirah_extract::Properties,
    /// The file's modification date.
    pub file_date: Option<NaiveDate>,
    /// The folder's settings.
    pub folder: &'a FolderSettings,
}

#[allow(clippy::expect_used)]
fn re(p: &str) -> Regex {
    Regex::new(p).expect("valid describe pattern")
}

static EFFECTIVE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)with\s+(?:immediate\s+)?effect\s+from|w\.\s?e\.\s?f\.?|effective\s+(?:from|on|date|as\s+of)\s*:?|comes?\s+into\s+(?:force|effect)\s+on",
    )
});
static UNTIL: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?i)valid\s+(?:until|till|up\s*to|through)|expires?\s+on|in\s+force\s+until"));
static DATED: LazyLock<Regex> = LazyLock::new(|| re(r"(?i)\bdated?\s*:?|\bdate\s+of\s+issue\s*:?|\bissued\s+on\s*:?"));
static RFC_DATE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?m)Request for Comments:[\s\S]*?\b(January|February|March|April|May|June|July|August|September|October|November|December)\s+((?:19|20)\d{2})\s*$",
    )
});
static SESSION_CUE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)(?:\(\s*|\bsession\s*:?\s*|\bacademic\s+year\s*:?\s*|\bfinancial\s+year\s*:?\s*|\bfor\s+(?:the\s+)?(?:year\s+|session\s+)?)((?:19|20)\d{2}\s?[-/]\s?\d{2,4})",
    )
});

/// Describe one document.
pub fn describe(input: &DescribeInput<'_>) -> DocMeta {
    let sources = [(Provenance::Sidecar, input.sidecar), (Provenance::FrontMatter, input.front_matter)];
    let versioning = input.folder.versioning;
    let explicit_only = versioning != Versioning::Auto;
    let order = input.folder.date_order;
    let path = analyse_path(input.rel_path, order);
    let mut meta = DocMeta { versioned: versioning != Versioning::Off, ..DocMeta::default() };
    meta.title = text_field(&sources, &["title"])
        .or_else(|| input.title.map(|t| Field::new(t.to_string(), Provenance::Title)))
        .or_else(|| input.properties.sane_title().map(|t| Field::new(t, Provenance::Properties)))
        .or_else(|| Some(Field::new(input.file_stem.to_string(), Provenance::Filename)));
    meta.audience = list_field(&sources, &["audience"])
        .or_else(|| input.folder.audience.clone().map(|a| Field::new(a, Provenance::Folder)));
    if versioning == Versioning::Off {
        return meta;
    }
    meta.series = text_field(&sources, &["series"])
        .or_else(|| (!explicit_only).then(|| Field::new(path.series_key.clone(), Provenance::Filename)));
    meta.version = text_field(&sources, &["version"]).or_else(|| {
        if explicit_only {
            return None;
        }
        let from_number = path.version.as_ref().map(|v| v.iter().map(u64::to_string).collect::<Vec<_>>().join("."));
        from_number.or_else(|| path.date.map(|d| d.to_string())).map(|v| Field::new(v, Provenance::Filename))
    });
    meta.version_number = meta.version.as_ref().and_then(|v| parse_version_number(&v.value));
    meta.session = session_field(&sources, input, &path, explicit_only);
    meta.issued = date_field(&sources, &["issued", "date"], order)
        .or_else(|| {
            (!explicit_only)
                .then(|| header_issue_date(input.header, order).map(|d| Field::new(d, Provenance::Title)))
                .flatten()
        })
        .or_else(|| {
            (!explicit_only).then(|| rfc_date(input.opening).map(|d| Field::new(d, Provenance::Title))).flatten()
        })
        .or_else(|| (!explicit_only).then(|| path.date.map(|d| Field::new(d, Provenance::Filename))).flatten())
        .or_else(|| (!explicit_only).then(|| property_date(input.properties, order)).flatten())
        .or_else(|| input.file_date.map(|d| Field::new(d, Provenance::FileTime)));
    meta.effective_from =
        date_field(&sources, &["effective_from", "effective", "effective_date"], order).or_else(|| {
            (!explicit_only)
                .then(|| date_after(input.opening, &EFFECTIVE, order).map(|d| Field::new(d, Provenance::Text)))
                .flatten()
        });
    meta.effective_until = date_field(&sources, &["effective_until", "expires", "valid_until"], order).or_else(|| {
        (!explicit_only)
            .then(|| date_after(input.opening, &UNTIL, order).map(|d| Field::new(d, Provenance::Text)))
            .flatten()
    });
    meta.effective_until = meta.effective_until.take().filter(|u| own_until(u, meta.in_force_from()));
    meta.supersedes = supersedes_field(input, &sources, explicit_only);
    meta.amends = statement_field(&sources, AMENDS_KEYS, input.opening, explicit_only, amended_references);
    let session = meta.session.as_ref().map(|s| s.value);
    meta.references = references(input.file_stem, input.header, session);
    meta
}

fn session_field(
    sources: &[(Provenance, &BTreeMap<String, Value>)],
    input: &DescribeInput<'_>,
    path: &super::series::PathTokens,
    explicit_only: bool,
) -> Option<Field<Session>> {
    let explicit =
        text_field(sources, &["session"]).and_then(|f| Session::parse(&f.value).map(|s| Field::new(s, f.source)));
    if explicit.is_some() || explicit_only {
        return explicit;
    }
    if let Some(s) = path.session {
        return Some(Field::new(s, Provenance::Filename));
    }
    SESSION_CUE.captures(input.header).and_then(|c| Session::parse(&c[1])).map(|s| Field::new(s, Provenance::Title))
}

/// Front-matter and sidecar keys naming documents this one supersedes.
const SUPERSEDES_KEYS: &[&str] = &["supersedes", "replaces", "obsoletes"];
/// Keys naming documents this one amends (not `amended`: that is often a date).
const AMENDS_KEYS: &[&str] = &["amends", "modifies"];

/// References from a sidecar or front-matter list under `keys`, else (unless
/// `explicit_only`) from the statements `read` finds in the opening.
fn statement_field(
    sources: &[(Provenance, &BTreeMap<String, Value>)],
    keys: &[&str],
    opening: &str,
    explicit_only: bool,
    read: fn(&str) -> Vec<String>,
) -> Option<Field<Vec<String>>> {
    listed_references(sources, keys).or_else(|| (!explicit_only).then(|| stated_references(opening, read)).flatten())
}

/// What this document supersedes: a sidecar or front-matter list, else
/// (unless `explicit_only`) the file's own `dct.replaces` properties (the
/// publisher's structured statement), else the statements in the opening
/// ("Obsoletes:", "in supersession of …").
fn supersedes_field(
    input: &DescribeInput<'_>,
    sources: &[(Provenance, &BTreeMap<String, Value>)],
    explicit_only: bool,
) -> Option<Field<Vec<String>>> {
    listed_references(sources, SUPERSEDES_KEYS).or_else(|| {
        (!explicit_only)
            .then(|| {
                replaced_in_properties(input.properties)
                    .or_else(|| stated_references(input.opening, superseded_references))
            })
            .flatten()
    })
}

/// References from a sidecar or front-matter list under `keys`.
fn listed_references(sources: &[(Provenance, &BTreeMap<String, Value>)], keys: &[&str]) -> Option<Field<Vec<String>>> {
    let f = list_field(sources, keys)?;
    let refs: Vec<String> = f.value.iter().flat_map(|v| references_from_value(v)).collect();
    Some(Field::new(refs, f.source))
}

/// References from the statements `read` finds in the opening.
fn stated_references(opening: &str, read: fn(&str) -> Vec<String>) -> Option<Field<Vec<String>>> {
    let refs = read(opening);
    (!refs.is_empty()).then(|| Field::new(refs, Provenance::Text))
}

/// The date a file's properties give: its date of issue, else its last
/// modification, else its creation (ISO 8601 or W3C-DTF, `2014-06` as the
/// 1st of the month).
fn property_date(p: &almirah_extract::Properties, order: DateOrder) -> Option<Field<NaiveDate>> {
    [&p.issued, &p.modified, &p.created]
        .into_iter()
        .flatten()
        .find_map(|d| w3c_date(d).or_else(|| parse_date(d, order)))
        .map(|d| Field::new(d, Provenance::Properties))
}

/// A W3C-DTF date (the profile of ISO 8601 Dublin Core and OOXML use):
/// `YYYY`, `YYYY-MM`, `YYYY-MM-DD`, optionally followed by a time.
fn w3c_date(s: &str) -> Option<NaiveDate> {
    let date = s.trim().split(['T', ' ']).next()?;
    let mut parts = date.split('-').map(|p| p.parse::<u32>().ok());
    let year = i32::try_from(parts.next()??).ok()?;
    let month = parts.next().map_or(Some(1), |m| m)?;
    let day = parts.next().map_or(Some(1), |d| d)?;
    (1900..=2200).contains(&year).then(|| NaiveDate::from_ymd_opt(year, month, day)).flatten()
}

/// The documents a file's properties say it replaces (HTML `dct.replaces`).
fn replaced_in_properties(p: &almirah_extract::Properties) -> Option<Field<Vec<String>>> {
    let refs: Vec<String> = p.replaces.iter().flat_map(|v| references_from_value(v)).collect();
    (!refs.is_empty()).then(|| Field::new(refs, Provenance::Properties))
}

/// The issue date in a header: the date after "dated" on the line holding
/// the document's own number (so a circular it cites in its subject line is
/// never taken), else after the first "dated" cue.
fn header_issue_date(header: &str, order: DateOrder) -> Option<NaiveDate> {
    number_line(header).and_then(|line| date_after(line, &DATED, order)).or_else(|| date_after(header, &DATED, order))
}

/// Whether an end date can be the document's own: one read from the text
/// that falls before the document is in force describes something it cites
/// ("the panel … was valid upto 01.06.2020" in a 2025 extension), not itself.
fn own_until(until: &Field<NaiveDate>, in_force_from: Option<NaiveDate>) -> bool {
    until.source != Provenance::Text || in_force_from.is_none_or(|from| until.value >= from)
}

/// An RFC header's publication month ("June 2014"), as the 1st of that month.
fn rfc_date(header: &str) -> Option<NaiveDate> {
    let c = RFC_DATE.captures(header)?;
    let month = [
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ]
    .iter()
    .position(|m| *m == &c[1])?;
    NaiveDate::from_ymd_opt(c[2].parse().ok()?, month as u32 + 1, 1)
}

/// `3`, `v2.1`, `2.1` → numeric parts; dates and other labels → `None`.
pub fn parse_version_number(label: &str) -> Option<Vec<u64>> {
    let t = label.trim().trim_start_matches(['v', 'V']);
    if t.is_empty() || t.len() > 12 || !t.chars().all(|c| c.is_ascii_digit() || c == '.') {
        return None;
    }
    t.split('.').map(|p| p.parse().ok()).collect()
}

fn lookup<'a>(sources: &'a [(Provenance, &BTreeMap<String, Value>)], keys: &[&str]) -> Option<(Provenance, &'a Value)> {
    sources.iter().find_map(|(p, map)| keys.iter().find_map(|k| map.get(*k)).map(|v| (*p, v)))
}

fn scalar_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) if !s.trim().is_empty() => Some(s.trim().to_string()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

fn text_field(sources: &[(Provenance, &BTreeMap<String, Value>)], keys: &[&str]) -> Option<Field<String>> {
    let (p, v) = lookup(sources, keys)?;
    scalar_text(v).map(|s| Field::new(s, p))
}

/// The `audience` a sidecar states, if any (a list, or one comma-separated string).
pub(crate) fn sidecar_audience(sidecar: &BTreeMap<String, Value>) -> Option<Field<Vec<String>>> {
    list_field(&[(Provenance::Sidecar, sidecar)], &["audience"])
}

fn list_field(sources: &[(Provenance, &BTreeMap<String, Value>)], keys: &[&str]) -> Option<Field<Vec<String>>> {
    let (p, v) = lookup(sources, keys)?;
    let list: Vec<String> = match v {
        Value::Array(items) => items.iter().filter_map(scalar_text).collect(),
        other => scalar_text(other)
            .map(|s| s.split(',').map(|x| x.trim().to_string()).filter(|x| !x.is_empty()).collect())
            .unwrap_or_default(),
    };
    (!list.is_empty()).then(|| Field::new(list, p))
}

fn date_field(
    sources: &[(Provenance, &BTreeMap<String, Value>)],
    keys: &[&str],
    order: DateOrder,
) -> Option<Field<NaiveDate>> {
    let (p, v) = lookup(sources, keys)?;
    scalar_text(v).and_then(|s| parse_date(&s, order)).map(|d| Field::new(d, p))
}
