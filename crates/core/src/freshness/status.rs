//! Status of every document for an as-of date and session (ARCHITECTURE §2),
//! computed per query from the supersession graph and the series.
//! Precedence when one reason is shown: superseded > expired > pending >
//! other-session.

use std::collections::{BTreeMap, HashMap};

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

use super::meta::DocMeta;
use super::series::compare_versions;
use super::session::Session;
use crate::ids::DocId;

/// The point in time a question speaks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct AsOf {
    /// The as-of date `D`.
    pub date: NaiveDate,
    /// The current session `S`.
    pub session: Session,
    /// Set when a historical question or flag moved `D` or `S`.
    pub historical: bool,
    /// Month (1-12) sessions start in.
    pub start_month: u32,
}

impl AsOf {
    /// `D` = `date`, `S` = the session containing it (or `session_override`).
    pub fn at(date: NaiveDate, session_override: Option<Session>, start_month: u32) -> Self {
        let session = session_override.unwrap_or_else(|| Session::containing(date, start_month));
        Self { date, session, historical: false, start_month }
    }

    /// For a question about `session`: `S` = it, `D` = the earlier of `today` and its end.
    pub fn for_session(session: Session, today: NaiveDate, start_month: u32) -> Self {
        Self { date: today.min(session.end(start_month)), session, historical: true, start_month }
    }
}

/// Every status that applies to one document.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct DocStatus {
    /// Documents in force at `D` that supersede this one.
    pub superseded_by: Vec<DocId>,
    /// `effective_until < D`.
    pub expired: bool,
    /// Not yet in force at `D`.
    pub pending: bool,
    /// Its session, when that is not `S`.
    pub other_session: Option<Session>,
    /// Whether the user's audience may see it.
    pub audience_allowed: bool,
}

impl DocStatus {
    /// No status withholds it.
    pub fn is_current(&self) -> bool {
        self.superseded_by.is_empty() && !self.expired && !self.pending && self.other_session.is_none()
    }

    /// Admissible: current and visible to the user.
    pub fn is_admissible(&self) -> bool {
        self.is_current() && self.audience_allowed
    }

    /// Status labels, strongest first (`superseded`, `expired`, `pending`, `other-session`), or `current`.
    pub fn labels(&self) -> Vec<StatusLabel> {
        let mut out = Vec::new();
        if !self.superseded_by.is_empty() {
            out.push(StatusLabel::Superseded);
        }
        if self.expired {
            out.push(StatusLabel::Expired);
        }
        if self.pending {
            out.push(StatusLabel::Pending);
        }
        if self.other_session.is_some() {
            out.push(StatusLabel::OtherSession);
        }
        if out.is_empty() {
            out.push(StatusLabel::Current);
        }
        out
    }
}

/// One status a document can have at an as-of date (ARCHITECTURE §2);
/// serialises as `current`, `superseded`, `expired`, `pending`, `other-session`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StatusLabel {
    /// In force: searchable and citable.
    Current,
    /// A document in force replaces it.
    Superseded,
    /// Its `effective_until` has passed.
    Expired,
    /// Not yet in force.
    Pending,
    /// Valid for another session.
    OtherSession,
}

impl StatusLabel {
    /// The label as shown to users.
    pub fn as_str(self) -> &'static str {
        match self {
            StatusLabel::Current => "current",
            StatusLabel::Superseded => "superseded",
            StatusLabel::Expired => "expired",
            StatusLabel::Pending => "pending",
            StatusLabel::OtherSession => "other-session",
        }
    }
}

impl PartialEq<&str> for StatusLabel {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl std::fmt::Display for StatusLabel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One document as the status rules see it.
pub struct DocInfo<'a> {
    /// Internal id.
    pub id: DocId,
    /// Metadata (overrides applied).
    pub meta: &'a DocMeta,
}

/// What the status rules need that depends on neither the as-of date nor
/// the audience: the documents each reference names, and the series with
/// more than one version (ids, in document-id order). Built once per
/// library state with the gate's inputs.
#[derive(Debug, Default)]
pub struct StatusIndex {
    by_ref: HashMap<String, Vec<DocId>>,
    series: Vec<Vec<DocId>>,
}

impl StatusIndex {
    /// Index `docs`.
    pub fn new(docs: &[DocInfo<'_>]) -> Self {
        let by_ref = reference_index(docs).into_iter().map(|(r, ids)| (r.to_string(), ids)).collect();
        let mut series: Vec<Vec<DocId>> =
            series_groups(docs).into_values().map(|members| members.iter().map(|m| m.id).collect()).collect();
        series.sort();
        Self { by_ref, series }
    }
}

/// The status of every document in `metas` at `as_of` for `audiences`,
/// with the date-independent part prepared in `index` (built from the same
/// `metas`).
pub fn compute_indexed(
    metas: &BTreeMap<DocId, DocMeta>,
    index: &StatusIndex,
    as_of: &AsOf,
    audiences: &[String],
) -> BTreeMap<DocId, DocStatus> {
    let mut table: BTreeMap<DocId, DocStatus> =
        metas.iter().map(|(id, m)| (*id, own_status(m, as_of, audiences))).collect();
    let in_force = |m: &DocMeta| in_force_from(m, as_of.start_month).is_none_or(|f| f <= as_of.date);
    for (id, meta) in metas.iter().filter(|(_, m)| in_force(m)) {
        let refs = meta.supersedes.as_ref().map(|f| f.value.as_slice()).unwrap_or_default();
        for target in refs.iter().flat_map(|r| index.by_ref.get(r.as_str()).into_iter().flatten()) {
            if target != id {
                mark(&mut table, *target, *id);
            }
        }
    }
    // Within a series, the newest version in force supersedes every older one.
    for members in &index.series {
        let member = |id: &DocId| metas.get(id).map(|m| (*id, m));
        let newest = members
            .iter()
            .filter_map(member)
            .filter(|(_, m)| in_force(m))
            .max_by(|a, b| compare_versions(version_key(a.1), version_key(b.1)).then(a.0.cmp(&b.0)));
        let Some((newest_id, newest)) = newest else { continue };
        for (older, _) in members.iter().filter_map(member).filter(|(_, m)| newer_version(newest, m)) {
            mark(&mut table, older, newest_id);
        }
    }
    table
}

/// When a document comes into force: its effective or issue date, else the
/// start of its session.
pub fn in_force_from(meta: &DocMeta, start_month: u32) -> Option<NaiveDate> {
    meta.in_force_from().or_else(|| meta.session.as_ref().map(|s| s.value.start(start_month)))
}

fn mark(table: &mut BTreeMap<DocId, DocStatus>, target: DocId, by: DocId) {
    if let Some(s) = table.get_mut(&target)
        && !s.superseded_by.contains(&by)
    {
        s.superseded_by.push(by);
    }
}

fn own_status(meta: &DocMeta, as_of: &AsOf, audiences: &[String]) -> DocStatus {
    let pending = meta
        .effective_from
        .as_ref()
        .map(|f| f.value > as_of.date)
        .unwrap_or_else(|| meta.in_force_from().is_some_and(|d| d > as_of.date));
    DocStatus {
        superseded_by: Vec::new(),
        expired: meta.effective_until.as_ref().is_some_and(|f| f.value < as_of.date),
        pending,
        other_session: meta.session.as_ref().map(|s| s.value).filter(|s| *s != as_of.session),
        audience_allowed: audience_allowed(meta, audiences),
    }
}

/// Audience values that mean "everyone".
pub const OPEN_AUDIENCES: [&str; 4] = ["all", "everyone", "public", "any"];

/// A document with no audience, an open one, or one shared with the user is visible.
pub fn audience_allowed(meta: &DocMeta, audiences: &[String]) -> bool {
    match &meta.audience {
        None => true,
        Some(f) => f.value.iter().any(|a| {
            let a = a.to_lowercase();
            OPEN_AUDIENCES.contains(&a.as_str()) || audiences.iter().any(|u| u.to_lowercase() == a)
        }),
    }
}

fn reference_index<'a>(docs: &'a [DocInfo<'a>]) -> HashMap<&'a str, Vec<DocId>> {
    let mut index: HashMap<&str, Vec<DocId>> = HashMap::new();
    for d in docs {
        for r in &d.meta.references {
            index.entry(r.as_str()).or_default().push(d.id);
        }
    }
    index
}

fn series_groups<'a>(docs: &'a [DocInfo<'a>]) -> HashMap<&'a str, Vec<&'a DocInfo<'a>>> {
    let mut groups: HashMap<&str, Vec<&DocInfo<'_>>> = HashMap::new();
    for d in docs.iter().filter(|d| d.meta.versioned) {
        if let Some(series) = &d.meta.series {
            groups.entry(series.value.as_str()).or_default().push(d);
        }
    }
    groups.retain(|_, members| members.len() > 1);
    groups
}

fn version_key(m: &DocMeta) -> (Option<&[u64]>, Option<NaiveDate>, Option<Session>) {
    (m.version_number.as_deref(), m.in_force_from(), m.session.as_ref().map(|s| s.value))
}

fn newer_version(a: &DocMeta, b: &DocMeta) -> bool {
    let (ka, kb) = (version_key(a), version_key(b));
    let comparable = ka != (None, None, None) && kb != (None, None, None);
    comparable && compare_versions(ka, kb) == std::cmp::Ordering::Greater
}
