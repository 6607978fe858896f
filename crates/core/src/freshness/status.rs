//! Status of every document for an as-of date and session (ARCHITECTURE §2),
//! computed per query from the supersession graph and the series.
//! Precedence when one reason is shown: superseded > expired > pending >
//! other-session.

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

use super::meta::DocMeta;
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
