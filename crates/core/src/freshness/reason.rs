//! Typed gate verdicts (ARCHITECTURE §2): why a document is withheld, and
//! what the gate said of one hit. They serialise to the sentences users
//! read ("superseded by circular-14@2026-27; other session 2024-25 (current
//! session 2026-27)"), so the JSON stays readable, but code matches on
//! fields, never on the text.

use std::fmt;

use chrono::NaiveDate;
use serde::{Serialize, Serializer};

use super::session::Session;

/// Why a visible document is not in force. It names only documents the
/// user may see: a superseding document outside the user's audience is
/// reported as "a newer document".
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Reason {
    /// Keys of the visible documents in force that supersede it, sorted.
    pub superseded_by: Vec<String>,
    /// Some superseding document is hidden from the user.
    pub superseded_by_hidden: bool,
    /// `effective_until` has passed.
    pub expired: bool,
    /// Not in force on this date (the as-of date).
    pub pending_on: Option<NaiveDate>,
    /// `(its session, the current session)` when they differ.
    pub other_session: Option<(Session, Session)>,
}

impl Reason {
    /// Nothing withholds the document.
    pub fn is_current(&self) -> bool {
        self.superseded_by.is_empty()
            && !self.superseded_by_hidden
            && !self.expired
            && self.pending_on.is_none()
            && self.other_session.is_none()
    }

    /// The document's own session, when that is what withholds it.
    pub fn other_session(&self) -> Option<Session> {
        self.other_session.map(|(own, _)| own)
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if !self.superseded_by.is_empty() {
            parts.push(format!("superseded by {}", self.superseded_by.join(", ")));
        } else if self.superseded_by_hidden {
            parts.push("superseded by a newer document".to_string());
        }
        if self.expired {
            parts.push("expired".to_string());
        }
        if let Some(d) = self.pending_on {
            parts.push(format!("pending (not in force on {d})"));
        }
        if let Some((own, current)) = self.other_session {
            parts.push(format!("other session {own} (current session {current})"));
        }
        if parts.is_empty() { f.write_str("current") } else { f.write_str(&parts.join("; ")) }
    }
}

impl Serialize for Reason {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// What the gate said of one hit. Serialises as `admissible`,
/// `admissible; <mark>` or `withheld: <reason>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// In force and visible; `mark` is set when a newer version of the
    /// document exists but could not be read.
    Admissible {
        /// "a newer version exists but could not be read: …".
        mark: Option<String>,
    },
    /// Visible but not in force (notes and `--all-versions` only).
    Withheld(Reason),
}

impl Verdict {
    /// Whether the hit may be shown, quoted and cited.
    pub fn is_admissible(&self) -> bool {
        matches!(self, Verdict::Admissible { .. })
    }

    /// The unreadable-newer-version mark of an admissible hit.
    pub fn mark(&self) -> Option<&str> {
        match self {
            Verdict::Admissible { mark } => mark.as_deref(),
            Verdict::Withheld(_) => None,
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Admissible { mark: None } => f.write_str("admissible"),
            Verdict::Admissible { mark: Some(m) } => write!(f, "admissible; {m}"),
            Verdict::Withheld(r) => write!(f, "withheld: {r}"),
        }
    }
}

impl Serialize for Verdict {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hidden_superseder_is_never_named() {
        let r = Reason { superseded_by_hidden: true, ..Default::default() };
        assert_eq!(r.to_string(), "superseded by a newer document");
        let r = Reason { superseded_by: vec!["circular-14@2026-27".into()], superseded_by_hidden: true, ..r };
        assert_eq!(r.to_string(), "superseded by circular-14@2026-27");
        assert!(!r.is_current());
        assert!(Reason::default().is_current());
    }

    #[test]
    fn verdicts_serialise_to_the_old_sentences() {
        let v = Verdict::Admissible { mark: Some("a newer version exists".into()) };
        assert_eq!(serde_json::to_value(&v).ok(), Some(serde_json::json!("admissible; a newer version exists")));
        let w = Verdict::Withheld(Reason { expired: true, ..Default::default() });
        assert_eq!(w.to_string(), "withheld: expired");
    }
}
