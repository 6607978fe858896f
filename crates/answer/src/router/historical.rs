//! Historical questions (ARCHITECTURE §2): a question that names a past
//! session or a past date sets the as-of date `D` (and, for a session, `S`).
//!
//! Rules, conservative on purpose (a wrong as-of hides current documents):
//! - **Relative**: "last year's", "previous session", "last academic year"
//!   name the session before today's.
//! - **Session** (`2024-25`, `2024/25`, `FY 2024-25`): only with a cue right
//!   before it (in, for, during, of, from, until, before, under, as of,
//!   FY, optionally followed by "the") or a cue right after it (session, year,
//!   academic year, batch). A session glued to a name (`Circular-09-2024-25`)
//!   or followed by a capitalised word (`the 2001–02 Football League season`,
//!   a title) does not count. `S` = that session, `D` = the earlier of today
//!   and its last day.
//! - **Date** (`1 March 2024`, `01.03.2024`), **month** (`March 2024`) or
//!   **year** (`2024`, not followed by a capitalised word): only after a cue
//!   (as of, as on, on, in, during, for, before, until, by, from, prior to;
//!   a bare year only after in, during, as of, before, until or prior to, and not before a unit: "in 2000 rupees"). `D` = that date, the month's or year's last day, or the day
//!   before it for "before"/"prior to". No `S` is set: it follows from `D`.
//! - A time right after a past event verb ("founded in 2005", "born on 3
//!   December 1967", "released in 2016") is when something happened, a fact
//!   the question is about, and does not count.
//! - "Since" never counts: "since 2016" runs to today, so today's
//!   documents answer it.
//! - It is historical only when the named time ends before today; the current
//!   or a future session is reported but is not historical. Years inside
//!   names without a cue ("RFC 7230") never count.

use std::sync::LazyLock;

use almirah_core::freshness::Session;
use almirah_core::freshness::dates::{DateOrder, find_dates};
use chrono::{Datelike, Days, NaiveDate};
use regex::Regex;

use super::re;

const MONTHS: &str = "jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?";
const CUE: &str = r"as\s+(?:of|on|at)|on|in|during|for|before|until|till|by|from|prior\s+to";

static RELATIVE: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?i)\b(?:last|previous|prior|preceding)\s+(?:academic\s+|financial\s+)?(?:year|session)(?:['’]s|s)?\b")
});
static SESSION_CUE_BEFORE: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?i)(?:\b(?:in|for|during|of|from|until|till|before|under|as\s+(?:of|on|at)|fy)\s+(?:the\s+)?|\bfy)$")
});
static SESSION_CUE_AFTER: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?i)^\s*(?:session|academic\s+year|financial\s+year|year|batch)\b"));
static SESSION_AT: LazyLock<Regex> = LazyLock::new(|| re(r"^(?:19|20)\d{2}\s?[-/–]\s?(?:(?:19|20)\d{2}|\d{2})"));
static DATE_CUE_BEFORE: LazyLock<Regex> = LazyLock::new(|| re(&format!(r"(?i)\b({CUE})\s+(?:the\s+)?$")));
static MONTH_YEAR: LazyLock<Regex> =
    LazyLock::new(|| re(&format!(r"(?i)\b({CUE})\s+({MONTHS})\.?,?\s+((?:19|20)\d{{2}})\b")));
static YEAR: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?i)\b(in|during|as\s+(?:of|on|at)|before|until|till|prior\s+to)\s+(?:the\s+)?(?:year\s+)?((?:19|20)\d{2})\b")
});
/// A past event verb right before the cue: the time is when something
/// happened ("a house that was founded in 2005", "born on 3 December
/// 1967"), which the question asks about, not the time it asks for.
static EVENT_BEFORE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:founded|established|born|died|published|released|built|formed|opened|launched|created|incorporated|premiered|debuted|married|discovered|invented|elected|composed|written|recorded|aired|broadcast|signed|drafted)\s*,?\s*$",
    )
});
static TITLE_AFTER: LazyLock<Regex> = LazyLock::new(|| re(r"^\s*\p{Lu}"));
/// After a year: a date or session continues, a title, or a unit (`in 2000 rupees`).
static NOT_A_YEAR_AFTER: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^(?:\s?[-/–.]\s?\d|\s*\p{Lu}|(?i:\s*(?:rs\b|rupees?|inr|usd|dollars?|km|kms|kilomet|miles?|days?|hours?|hrs?|words?|people|persons?|students?|employees?|units?|%|percent)))",
    )
});

/// A time the question names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Named {
    /// Byte offset of the mention, to prefer the first one.
    at: usize,
    /// The session it names, if it names one.
    pub session: Option<Session>,
    /// The as-of date it implies (not later than today).
    pub as_of: NaiveDate,
    /// Whether it ends before today.
    pub past: bool,
    /// Why, for the trace.
    pub reason: String,
}

/// The time `question` names, preferring the first past one.
pub(super) fn detect(question: &str, today: NaiveDate, start_month: u32) -> Option<Named> {
    let mut found = relative(question, today, start_month);
    found.extend(sessions(question, today, start_month));
    found.extend(dates(question, today));
    found.sort_by_key(|n| (!n.past, n.at));
    found.into_iter().next()
}

fn relative(question: &str, today: NaiveDate, start_month: u32) -> Vec<Named> {
    let Some(m) = RELATIVE.find(question) else { return Vec::new() };
    let current = Session::containing(today, start_month);
    let session = Session { start_year: current.start_year - 1 };
    let reason = format!("'{}' names the previous session {session}", m.as_str());
    vec![for_session(m.start(), session, today, start_month, reason)]
}

fn for_session(at: usize, session: Session, today: NaiveDate, start_month: u32, reason: String) -> Named {
    let current = Session::containing(today, start_month);
    let as_of = today.min(session.end(start_month));
    Named { at, session: Some(session), as_of, past: session < current, reason }
}

fn sessions(question: &str, today: NaiveDate, start_month: u32) -> Vec<Named> {
    let current = Session::containing(today, start_month);
    let mut out = Vec::new();
    for (at, session) in Session::find_all(question) {
        let end = SESSION_AT.find(&question[at..]).map_or(at + 4, |m| at + m.end());
        let (before, after) = (&question[..at], &question[end..]);
        let glued = before.ends_with(['-', '_']);
        let cue_after = SESSION_CUE_AFTER.is_match(after);
        let title = TITLE_AFTER.is_match(after) && !cue_after;
        if glued || title || !(SESSION_CUE_BEFORE.is_match(before) || cue_after) {
            continue;
        }
        let reason = match session.cmp(&current) {
            std::cmp::Ordering::Less => format!("names the past session {session}"),
            std::cmp::Ordering::Equal => format!("names the current session {session}, so it is not historical"),
            std::cmp::Ordering::Greater => format!("names the future session {session}, so it is not historical"),
        };
        out.push(for_session(at, session, today, start_month, reason));
    }
    out
}

fn dates(question: &str, today: NaiveDate) -> Vec<Named> {
    let mut out = Vec::new();
    for (at, date) in find_dates(question, DateOrder::DayMonth) {
        if let Some(c) = DATE_CUE_BEFORE.captures(&question[..at])
            && !c.get(0).is_some_and(|cue| EVENT_BEFORE.is_match(&question[..cue.start()]))
        {
            out.push(named_date(at, &c[1], date, date, today, "date"));
        }
    }
    for c in MONTH_YEAR.captures_iter(question) {
        let (Some(month), Ok(year)) = (month_number(&c[2]), c[3].parse::<i32>()) else { continue };
        let Some(first) = NaiveDate::from_ymd_opt(year, month, 1) else { continue };
        if c.get(0).is_some_and(|m| EVENT_BEFORE.is_match(&question[..m.start()])) {
            continue;
        }
        let last = first.checked_add_months(chrono::Months::new(1)).and_then(|d| d.pred_opt()).unwrap_or(first);
        out.push(named_date(c.get(0).map_or(0, |m| m.start()), &c[1], first, last, today, "month"));
    }
    for c in YEAR.captures_iter(question) {
        let (Some(whole), Ok(year)) = (c.get(0), c[2].parse::<i32>()) else { continue };
        let overlaps = out.iter().any(|n| n.at >= whole.start() && n.at < whole.end());
        if overlaps
            || NOT_A_YEAR_AFTER.is_match(&question[whole.end()..])
            || EVENT_BEFORE.is_match(&question[..whole.start()])
        {
            continue;
        }
        let (Some(first), Some(last)) = (NaiveDate::from_ymd_opt(year, 1, 1), NaiveDate::from_ymd_opt(year, 12, 31))
        else {
            continue;
        };
        out.push(named_date(whole.start(), &c[1], first, last, today, "year"));
    }
    out
}

/// A named date, month or year from `first` to `last`, after `cue`.
fn named_date(at: usize, cue: &str, first: NaiveDate, last: NaiveDate, today: NaiveDate, what: &str) -> Named {
    let cue = cue.to_lowercase();
    let before = cue == "before" || cue.starts_with("prior");
    let as_of = if before { first.checked_sub_days(Days::new(1)).unwrap_or(first) } else { last };
    let past = as_of < today;
    let reason = if past {
        format!("'{cue}' names the past {what} {}, so as of {as_of}", describe(first, what))
    } else {
        format!("names the {what} {}, which is not in the past", describe(first, what))
    };
    Named { at, session: None, as_of: as_of.min(today), past, reason }
}

fn describe(first: NaiveDate, what: &str) -> String {
    match what {
        "year" => first.year().to_string(),
        "month" => first.format("%B %Y").to_string(),
        _ => first.to_string(),
    }
}

fn month_number(name: &str) -> Option<u32> {
    let key: String = name.to_ascii_lowercase().chars().take(3).collect();
    let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
    months.iter().position(|m| *m == key).map(|i| i as u32 + 1)
}
