//! The numeric check of ARCHITECTURE §5: every number, amount or date in a
//! cited sentence, normalised, must appear in one of its cited chunks or in
//! the question.
//!
//! Normalisation:
//! - amounts drop currency marks and grouping: `₹48,500` = `Rs 48500` =
//!   `Rs. 48,500` = `INR 48,500` = `48,500.00` = `$48,500`; Indian grouping
//!   `1,48,500` = `148500`; `48.5 thousand`, `1.5 lakh`, `2 crore` are scaled;
//! - percentages: `50%` = `50 percent` = `50 per cent` (compared by value);
//! - dates: `1 April 2026` = `01.04.2026` = `2026-04-01` (day-month order);
//! - sessions such as `2026-27` are mentions too; a chunk's date or session
//!   also supports its years (`2026`);
//! - words (`half`, `twice`) are not numbers; numbers glued to letters are
//!   identifiers, not numbers (`Circular-14`, `COVID-19`, `v3`, `p.1`).
//!
//! System labels (`as of 2024-25`, `(speaks for 2024-25)`, `as of 29 November
//! 2026`) and bracketed citation keys are removed before the check
//! ([`strip_system_labels`]). A derived number passes when the sentence shows
//! its arithmetic over supported numbers (rules in `numeric/derive.rs`).

mod derive;

use std::ops::Range;
use std::sync::LazyLock;

use almirah_core::freshness::Session;
use almirah_core::freshness::dates::{DateOrder, find_dates};
use chrono::{Datelike, NaiveDate};
use regex::Regex;
use serde::Serialize;

const MONTHS: &str = "jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?";
const SESSION: &str = r"(?:19|20)\d{2}\s?[-/–]\s?(?:(?:19|20)\d{2}|\d{2})";

static NUMBER: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)(?:(?:₹|\brs\.?|\binr|\busd|US\$|\$)\s?)?(\d{1,3}(?:,\d{2,3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?:\s?(lakhs?|lacs?|crores?|thousand|million|billion|k)\b)?(\s?%|\s?per\s?cent\b)?",
    )
});
static ISO_AT: LazyLock<Regex> = LazyLock::new(|| re(r"^(?:19|20)\d{2}-\d{1,2}-\d{1,2}"));
static YEAR: LazyLock<Regex> = LazyLock::new(|| re(r"(?:19|20)\d{2}"));
static SESSION_AT: LazyLock<Regex> = LazyLock::new(|| re(&format!("^{SESSION}")));
static LABEL: LazyLock<Regex> = LazyLock::new(|| {
    let date = format!(
        r"\d{{4}}-\d{{1,2}}-\d{{1,2}}|\d{{1,2}}[./-]\d{{1,2}}[./-]\d{{4}}|\d{{1,2}}(?:st|nd|rd|th)?\s+(?:{MONTHS})\.?,?\s+\d{{4}}|(?:{MONTHS})\.?\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}|(?:{MONTHS})\.?\s+\d{{4}}"
    );
    let label = format!(
        r"\b(?:as\s+(?:of|on|at)|speaks?\s+for|speaking\s+for)\s+(?:the\s+)?(?:{date}|{SESSION})(?:\s+session)?\b"
    );
    re(&format!(r"(?i)\(\s*{label}\s*\)|{label}"))
});
static BRACKETS: LazyLock<Regex> = LazyLock::new(|| re(r"\[[^\[\]]*\]"));
static SPACES: LazyLock<Regex> = LazyLock::new(|| re(r"[ \t]+([.,;:?!])|[ \t]{2,}"));
static LIST_MARKER: LazyLock<Regex> = LazyLock::new(|| re(r"^\s*(?:\d{1,2}[.)]|[-*•])\s+"));

#[allow(clippy::expect_used)]
fn re(pattern: &str) -> Regex {
    // The patterns are constants; a bad one is a programming error caught by the unit tests.
    Regex::new(pattern).expect("valid numeric pattern")
}

/// A normalised number, percentage, date or session.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "kind", content = "value")]
pub enum Value {
    /// A plain number or an amount, currency and grouping removed (`Rs 48,500` → 48500).
    Number(f64),
    /// A percentage, as its number (`50%` → 50).
    Percent(f64),
    /// A calendar date.
    Date(NaiveDate),
    /// A session such as `2026-27`.
    Session(Session),
}

/// One number, amount, percentage, date or session found in a text.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NumberMention {
    /// The normalised value.
    pub value: Value,
    /// The text as written (`₹48,500`).
    pub raw: String,
    /// Byte range of `raw` in the text.
    pub span: Range<usize>,
}

impl NumberMention {
    /// The value as a number, for numbers and percentages.
    pub fn number(&self) -> Option<f64> {
        match self.value {
            Value::Number(v) | Value::Percent(v) => Some(v),
            Value::Date(_) | Value::Session(_) => None,
        }
    }
}

/// A cited sentence holds numbers that neither its cited chunks nor the question support.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{} {} not in the cited chunk{}", list(.offending), if .offending.len() == 1 { "is" } else { "are" }, if *.chunks == 1 { "" } else { "s" })]
pub struct NumericViolation {
    /// The offending mentions, in sentence order.
    pub offending: Vec<NumberMention>,
    /// How many chunks the sentence cited.
    pub chunks: usize,
}

fn list(mentions: &[NumberMention]) -> String {
    let raws: Vec<&str> = mentions.iter().map(|m| m.raw.as_str()).collect();
    match raws.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => raws.join(""),
    }
}

/// Every number, amount, percentage, date and session in `text`, in text
/// order. Dates are read day-month (`01.04.2026` is 1 April).
pub fn numbers_in(text: &str) -> Vec<NumberMention> {
    let mut found: Vec<NumberMention> = Vec::new();
    for (at, date) in find_dates(text, DateOrder::DayMonth) {
        push(&mut found, text, at..date_end(text, at), Value::Date(date));
    }
    for (at, session) in Session::find_all(text) {
        let end = SESSION_AT.find(&text[at..]).map_or(at + 4, |m| at + m.end());
        push(&mut found, text, at..end, Value::Session(session));
    }
    for c in NUMBER.captures_iter(text) {
        let (Some(whole), Some(digits)) = (c.get(0), c.get(1)) else { continue };
        if is_identifier(text, whole.start(), whole.end(), c.get(2).is_some() || c.get(3).is_some()) {
            continue;
        }
        let Ok(mut value) = digits.as_str().replace(',', "").parse::<f64>() else { continue };
        value *= c.get(2).map_or(1.0, |m| scale(m.as_str()));
        let value = if c.get(3).is_some() { Value::Percent(value) } else { Value::Number(value) };
        push(&mut found, text, whole.start()..whole.end(), value);
    }
    found.sort_by_key(|m| m.span.start);
    found
}

fn push(found: &mut Vec<NumberMention>, text: &str, span: Range<usize>, value: Value) {
    if found.iter().any(|m| m.span.start < span.end && span.start < m.span.end) {
        return;
    }
    let raw = text[span.clone()].trim_end().to_string();
    found.push(NumberMention { value, raw, span });
}

/// Where the date that starts at `at` ends: after its ISO form or its year.
fn date_end(text: &str, at: usize) -> usize {
    let rest = &text[at..];
    ISO_AT.find(rest).or_else(|| YEAR.find(rest)).map_or(text.len(), |m| at + m.end())
}

/// A number glued to letters is part of a name (`Circular-14`, `v3`, `9e1c326`).
fn is_identifier(text: &str, start: usize, end: usize, has_suffix: bool) -> bool {
    let mut before = text[..start].chars().rev();
    let glued_before = match before.next() {
        // `14,000x2` is arithmetic, not a name.
        Some('x' | 'X') => !before.next().is_some_and(|c| c.is_ascii_digit() || c.is_whitespace()),
        Some(c) if c.is_alphabetic() => true,
        Some('-' | '_') => before.next().is_some_and(char::is_alphabetic),
        Some('.') => before.next().is_some_and(char::is_alphanumeric),
        Some('#') => true,
        _ => false,
    };
    let after: String = text[end..].chars().take_while(|c| c.is_alphabetic()).collect();
    let ordinal = matches!(after.to_lowercase().as_str(), "st" | "nd" | "rd" | "th");
    let times = after.eq_ignore_ascii_case("x");
    glued_before || (!has_suffix && !after.is_empty() && !ordinal && !times)
}

fn scale(word: &str) -> f64 {
    match word.to_lowercase().trim_end_matches('s') {
        "lakh" | "lac" => 1e5,
        "crore" => 1e7,
        "million" => 1e6,
        "billion" => 1e9,
        _ => 1e3,
    }
}

/// `sentence` without system labels (`as of 2024-25`, `as of 29 November
/// 2026`, `(speaks for 2024-25)`) and without bracketed text (`[chunk-key]`).
pub fn strip_system_labels(sentence: &str) -> String {
    let text = BRACKETS.replace_all(sentence, "");
    let text = LABEL.replace_all(&text, "");
    SPACES
        .replace_all(&text, |c: &regex::Captures<'_>| c.get(1).map_or(" ", |m| m.as_str()).to_string())
        .trim_start_matches([',', ';', ':', ' '])
        .trim()
        .to_string()
}

/// Check one cited sentence against its cited chunks and the question.
///
/// # Errors
/// [`NumericViolation`] listing every mention that is neither in a cited
/// chunk, nor in the question, nor derived by arithmetic shown in the sentence.
pub fn check_sentence(sentence: &str, cited_chunks: &[&str], question: &str) -> Result<(), NumericViolation> {
    let stripped = strip_system_labels(sentence);
    let text = LIST_MARKER.replace(&stripped, "");
    let mentions = numbers_in(&text);
    if mentions.is_empty() {
        return Ok(());
    }
    let support = Support::from_texts(cited_chunks.iter().copied().chain([question]));
    let derived = derive::allowed(&text, &mentions, |m| support.has(m));
    let offending: Vec<NumberMention> =
        mentions.into_iter().zip(derived).filter(|(m, d)| !d && !support.has(m)).map(|(m, _)| m).collect();
    if offending.is_empty() { Ok(()) } else { Err(NumericViolation { offending, chunks: cited_chunks.len() }) }
}

/// The values a sentence may use: everything in its cited chunks and the question.
#[derive(Default)]
struct Support {
    numbers: Vec<f64>,
    dates: Vec<NaiveDate>,
    sessions: Vec<Session>,
}

impl Support {
    fn from_texts<'a>(texts: impl IntoIterator<Item = &'a str>) -> Self {
        let mut s = Support::default();
        for mention in texts.into_iter().flat_map(numbers_in) {
            match mention.value {
                Value::Number(v) | Value::Percent(v) => s.numbers.push(v),
                Value::Date(d) => {
                    s.dates.push(d);
                    s.numbers.push(f64::from(d.year()));
                }
                Value::Session(x) => {
                    s.sessions.push(x);
                    s.numbers.extend([f64::from(x.start_year), f64::from(x.start_year + 1)]);
                }
            }
        }
        s
    }

    fn has(&self, m: &NumberMention) -> bool {
        match m.value {
            Value::Number(v) | Value::Percent(v) => self.numbers.iter().any(|n| same(*n, v)),
            Value::Date(d) => self.dates.contains(&d),
            Value::Session(x) => self.sessions.contains(&x),
        }
    }
}

/// Equal after normalisation (exact up to floating-point noise).
fn same(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(1.0)
}

#[cfg(test)]
mod tests;
