//! Academic or financial sessions such as `2026-27` (also written `2026/27`
//! or `2026-2027`): a year that starts in a configurable month (default July).

use std::fmt;
use std::sync::LazyLock;

use chrono::{Datelike, NaiveDate};
use regex::Regex;
use serde::{Deserialize, Serialize};

/// A session, identified by the calendar year it starts in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Session {
    /// The year the session starts in (2026 for 2026-27).
    pub start_year: i32,
}

impl fmt::Display for Session {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{:02}", self.start_year, (self.start_year + 1).rem_euclid(100))
    }
}

impl From<Session> for String {
    fn from(s: Session) -> String {
        s.to_string()
    }
}

impl TryFrom<String> for Session {
    type Error = String;

    fn try_from(value: String) -> Result<Self, Self::Error> {
        Session::parse(&value).ok_or_else(|| format!("not a session: {value:?} (expected e.g. 2026-27)"))
    }
}

static TOKEN: LazyLock<Regex> = LazyLock::new(|| {
    #[allow(clippy::expect_used)]
    Regex::new(r"(?:^|[^0-9])((?:19|20)\d{2})\s?[-/–]\s?(\d{2}|(?:19|20)\d{2})(?:[^0-9]|$)")
        .expect("valid session pattern")
});

impl Session {
    /// Parse exactly one session token (`2026-27`, `2026/27`, `2026-2027`).
    pub fn parse(value: &str) -> Option<Session> {
        let found = Self::find_all(value.trim());
        (found.len() == 1).then(|| found[0].1)
    }

    /// Every session token in `text`, with byte offsets. The second year
    /// must follow the first (`2024-25` yes, `2024-11` no: that is a month).
    pub fn find_all(text: &str) -> Vec<(usize, Session)> {
        let mut out = Vec::new();
        for c in TOKEN.captures_iter(text) {
            let (Some(first), Some(second)) = (c.get(1), c.get(2)) else { continue };
            let start: i32 = first.as_str().parse().unwrap_or(0);
            let end: i32 = second.as_str().parse().unwrap_or(0);
            let follows = if second.as_str().len() == 2 { end == (start + 1) % 100 } else { end == start + 1 };
            if follows {
                out.push((first.start(), Session { start_year: start }));
            }
        }
        out
    }

    /// The session containing `date`, for sessions starting on the 1st of `start_month` (1-12).
    pub fn containing(date: NaiveDate, start_month: u32) -> Session {
        let start_year = if date.month() >= start_month { date.year() } else { date.year() - 1 };
        Session { start_year }
    }

    /// First day of the session.
    pub fn start(self, start_month: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(self.start_year, start_month.clamp(1, 12), 1).unwrap_or(NaiveDate::MIN)
    }

    /// Last day of the session.
    pub fn end(self, start_month: u32) -> NaiveDate {
        Session { start_year: self.start_year + 1 }.start(start_month).pred_opt().unwrap_or(NaiveDate::MAX)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn parses_and_prints_sessions() {
        assert_eq!(Session::parse("2026-27").unwrap().start_year, 2026);
        assert_eq!(Session::parse("2026/27").unwrap().to_string(), "2026-27");
        assert_eq!(Session::parse("1999-2000").unwrap().to_string(), "1999-00");
        assert_eq!(Session::parse("2024-11"), None);
        assert_eq!(Session::parse("2024-26"), None);
    }

    #[test]
    fn finds_sessions_in_file_names_but_not_in_dates() {
        let found = Session::find_all("Circular-09-2024-25.pdf");
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].1.to_string(), "2024-25");
        assert!(Session::find_all("2024-11-26_9e1c326.md").is_empty());
    }

    #[test]
    fn the_session_containing_a_date_starts_in_july_by_default() {
        let d = |y, m, day| NaiveDate::from_ymd_opt(y, m, day).unwrap();
        assert_eq!(Session::containing(d(2026, 11, 29), 7).to_string(), "2026-27");
        assert_eq!(Session::containing(d(2026, 6, 30), 7).to_string(), "2025-26");
        assert_eq!(Session::containing(d(2026, 4, 1), 4).to_string(), "2026-27");
        assert_eq!(Session { start_year: 2024 }.end(7), d(2025, 6, 30));
    }
}
