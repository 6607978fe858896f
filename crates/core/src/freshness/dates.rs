//! Dates as policies write them: ISO `2026-04-01`, numeric day-month
//! `28.02.2025` / `28/02/2025` (order configurable per folder), and written
//! `1 April 2026`, `1st April, 2026`, `April 1, 2026`.
//!
//! OCR misreads a superscript ordinal suffix: "13th February" comes out as
//! `137 February`, `13" February`, "02nd May" as `0274 May`, "28th" as
//! `28%`, `2870` or `28°`. Such a day (one or two digits, then one or two
//! stray digits or symbols) is read only directly after a cue such as
//! "dated" ([`date_after`]), where a date is expected; [`find_dates`] never
//! reads it, so "Rs 300 October 2023" in body text or a question is no date.

use std::sync::LazyLock;

use chrono::NaiveDate;
use regex::Regex;
use serde::{Deserialize, Serialize};

/// How an all-numeric date such as `03.04.2025` is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DateOrder {
    /// Day first (India, UK, most of the world): 03.04.2025 is 3 April.
    #[default]
    DayMonth,
    /// Month first (US): 03.04.2025 is 4 March.
    MonthDay,
}

const MONTHS: &str = "jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?";

// Digit boundaries instead of `\b`: `2024-11-26_9e1c326` must match, and `_` is a word character.
static ISO: LazyLock<Regex> = LazyLock::new(|| re(r"(?:^|[^0-9])((?:19|20)\d{2})-(\d{1,2})-(\d{1,2})(?:[^0-9]|$)"));
static NUMERIC: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?:^|[^0-9])(\d{1,2})[./-](\d{1,2})[./-]((?:19|20)\d{2})(?:[^0-9]|$)"));
static DAY_MONTH: LazyLock<Regex> =
    LazyLock::new(|| re(&format!(r"(?i)\b(\d{{1,2}})(?:st|nd|rd|th)?\s+({MONTHS})\.?,?\s+((?:19|20)\d{{2}})\b")));
/// A day with a misread ordinal suffix right at the start of the text after a cue.
static OCR_DAY_MONTH: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(r#"(?i)^[\s:.,\-–—]*([0-9]{{1,2}}[0-9%°"'“”‘’*]{{1,2}})\s+({MONTHS})\.?,?\s+((?:19|20)[0-9]{{2}})\b"#))
});
static MONTH_DAY: LazyLock<Regex> =
    LazyLock::new(|| re(&format!(r"(?i)\b({MONTHS})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+((?:19|20)\d{{2}})\b")));

#[allow(clippy::expect_used)]
fn re(pattern: &str) -> Regex {
    // The patterns are constants; a bad one is a programming error caught by the unit tests.
    Regex::new(pattern).expect("valid date pattern")
}

fn month_number(name: &str) -> Option<u32> {
    let key: String = name.to_ascii_lowercase().chars().take(3).collect();
    let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
    months.iter().position(|m| *m == key).map(|i| i as u32 + 1)
}

fn num(s: &str) -> Option<u32> {
    s.parse().ok()
}

/// Every date in `text` with its byte offset, in text order.
pub fn find_dates(text: &str, order: DateOrder) -> Vec<(usize, NaiveDate)> {
    let mut found = Vec::new();
    for c in ISO.captures_iter(text) {
        let date = NaiveDate::from_ymd_opt(c[1].parse().unwrap_or(0), num(&c[2]).unwrap_or(0), num(&c[3]).unwrap_or(0));
        push(&mut found, c.get(1).map_or(0, |m| m.start()), date);
    }
    for c in NUMERIC.captures_iter(text) {
        let (a, b) = (num(&c[1]).unwrap_or(0), num(&c[2]).unwrap_or(0));
        let (d, m) = if order == DateOrder::DayMonth { (a, b) } else { (b, a) };
        push(&mut found, c.get(1).map_or(0, |m| m.start()), NaiveDate::from_ymd_opt(c[3].parse().unwrap_or(0), m, d));
    }
    for c in DAY_MONTH.captures_iter(text) {
        let date = month_number(&c[2]).and_then(|m| NaiveDate::from_ymd_opt(c[3].parse().unwrap_or(0), m, num(&c[1])?));
        push(&mut found, c.get(0).map_or(0, |m| m.start()), date);
    }
    for c in MONTH_DAY.captures_iter(text) {
        let date = month_number(&c[1]).and_then(|m| NaiveDate::from_ymd_opt(c[3].parse().unwrap_or(0), m, num(&c[2])?));
        push(&mut found, c.get(0).map_or(0, |m| m.start()), date);
    }
    found.sort_by_key(|(at, _)| *at);
    found
}

fn push(found: &mut Vec<(usize, NaiveDate)>, at: usize, date: Option<NaiveDate>) {
    if let Some(d) = date
        && !found.iter().any(|(a, _)| *a == at)
    {
        found.push((at, d));
    }
}

/// The first date in `text`.
pub fn first_date(text: &str, order: DateOrder) -> Option<NaiveDate> {
    find_dates(text, order).first().map(|(_, d)| *d)
}

/// Parse a value that should be exactly one date (front matter, sidecars, flags).
pub fn parse_date(value: &str, order: DateOrder) -> Option<NaiveDate> {
    let value = value.trim();
    if let Ok(d) = NaiveDate::parse_from_str(value, "%Y-%m-%d") {
        return Some(d);
    }
    // Front matter often holds a full timestamp: keep its date part.
    if let Some(d) = value.get(..10).and_then(|p| NaiveDate::parse_from_str(p, "%Y-%m-%d").ok()) {
        return Some(d);
    }
    first_date(value, order)
}

/// A date that follows one of `cues` within 40 bytes, e.g. the date after
/// "with effect from": the first cue that has one wins. Directly after the
/// cue, a day with an OCR-misread ordinal suffix also counts (module docs).
pub fn date_after(text: &str, cues: &Regex, order: DateOrder) -> Option<NaiveDate> {
    let dates = find_dates(text, order);
    cues.find_iter(text).find_map(|cue| {
        let near = || dates.iter().find(|(at, _)| *at >= cue.end() && *at <= cue.end() + 40).map(|(_, d)| *d);
        ocr_date_at(&text[cue.end()..]).or_else(near)
    })
}

/// A written date at the start of `text` whose day carries a misread
/// ordinal suffix (`137 February, 2025` is 13 February).
fn ocr_date_at(text: &str) -> Option<NaiveDate> {
    let c = OCR_DAY_MONTH.captures(text)?;
    let month = month_number(&c[2])?;
    NaiveDate::from_ymd_opt(c[3].parse().ok()?, month, ocr_day(&c[1])?)
}

/// The day in a run such as `137`, `0274`, `28%`: its first two digits (one
/// if only one is written). A four-digit 19xx/20xx run is a year, never a day.
fn ocr_day(run: &str) -> Option<u32> {
    let digits: String = run.chars().take_while(char::is_ascii_digit).collect();
    if digits.len() == 4 && (digits.starts_with("19") || digits.starts_with("20")) {
        return None;
    }
    digits.get(..digits.len().min(2))?.parse().ok()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn d(y: i32, m: u32, day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, day).unwrap()
    }

    #[test]
    fn reads_every_written_form() {
        assert_eq!(first_date("dated 28.02.2025", DateOrder::DayMonth), Some(d(2025, 2, 28)));
        assert_eq!(first_date("on 03/04/2025", DateOrder::DayMonth), Some(d(2025, 4, 3)));
        assert_eq!(first_date("on 03/04/2025", DateOrder::MonthDay), Some(d(2025, 3, 4)));
        assert_eq!(first_date("from 1st April, 2026", DateOrder::DayMonth), Some(d(2026, 4, 1)));
        assert_eq!(first_date("from April 1, 2026", DateOrder::DayMonth), Some(d(2026, 4, 1)));
        assert_eq!(first_date("2024-11-26_9e1c326.md", DateOrder::DayMonth), Some(d(2024, 11, 26)));
        assert_eq!(first_date("31.02.2025 is no date", DateOrder::DayMonth), None);
    }

    fn dated() -> Regex {
        Regex::new(r"(?i)\bdated?\s*:?").unwrap()
    }

    #[test]
    fn reads_ocr_misread_ordinals_after_dated() {
        let cases = [
            ("Policy Circular No.2.1.80/ 2025 dated 137 February, 2025", d(2025, 2, 13)),
            ("Policy Circular No.2.1.82/2025 dated 26\" February, 2025", d(2025, 2, 26)),
            ("Policy Circular No. 2.1.83/2025 dated 0274 May, 2025", d(2025, 5, 2)),
            ("Policy Circular No. 2.1.85/ 2025 dated-13\" June, 2025— -", d(2025, 6, 13)),
            ("Policy Circular No.2.1.86/2025 dated 10° July, 2025", d(2025, 7, 10)),
            ("Policy Circular No. 2.1.87/2025 dated 2274 September, 2025", d(2025, 9, 22)),
            ("Policy Circular No.2.2.14/ 2025 dated 28% February, 2025", d(2025, 2, 28)),
            ("Policy Circular No.2.2.15/ 2025 dated 015 March, 2025", d(2025, 3, 1)),
            ("Policy Circular No.2.5.17/2025 dated 137 March, 2025", d(2025, 3, 13)),
            ("the Policy Circular No.2.2.10/2023 dated 300 October 2023 whereby", d(2023, 10, 30)),
            ("Circular No.2.2.13/2024 dated 2870 Nov, 2024 is hereby amended", d(2024, 11, 28)),
        ];
        for (line, want) in cases {
            assert_eq!(date_after(line, &dated(), DateOrder::DayMonth), Some(want), "{line}");
        }
    }

    #[test]
    fn ocr_ordinals_are_not_dates_without_a_cue() {
        assert!(find_dates("a cost of Rs 300 October 2023 rates", DateOrder::DayMonth).is_empty());
        assert!(find_dates("prices rose 28% February, 2025 over", DateOrder::DayMonth).is_empty());
        assert_eq!(date_after("dated as per Rs 300 October 2023", &dated(), DateOrder::DayMonth), None);
    }

    #[test]
    fn ocr_ordinals_reject_years_and_impossible_days() {
        assert_eq!(date_after("dated 2023 March, 2025", &dated(), DateOrder::DayMonth), None);
        assert_eq!(date_after("dated 45% March, 2025", &dated(), DateOrder::DayMonth), None);
        assert_eq!(date_after("dated 3074 February, 2025", &dated(), DateOrder::DayMonth), None);
        // Clean forms after the cue read as before.
        assert_eq!(date_after("dated 21 February, 2025", &dated(), DateOrder::DayMonth), Some(d(2025, 2, 21)));
        assert_eq!(date_after("Dated: 10.07.2026.", &dated(), DateOrder::DayMonth), Some(d(2026, 7, 10)));
    }

    #[test]
    fn parses_front_matter_values() {
        assert_eq!(parse_date("2026-07-01", DateOrder::DayMonth), Some(d(2026, 7, 1)));
        assert_eq!(parse_date("2024-11-26T15:30:50Z", DateOrder::DayMonth), Some(d(2024, 11, 26)));
        assert_eq!(parse_date("soon", DateOrder::DayMonth), None);
    }

    #[test]
    fn finds_the_date_after_a_cue() {
        let cue = Regex::new(r"(?i)with effect from").unwrap();
        let text = "Dated: 10.07.2026. This applies with effect from 15.07.2026 to all.";
        assert_eq!(date_after(text, &cue, DateOrder::DayMonth), Some(d(2026, 7, 15)));
    }
}
