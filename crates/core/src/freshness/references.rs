//! Reference numbers, supersession and amendment statements.
//!
//! A document's *references* are the identifiers others cite it by:
//! `rfc:7230`, `circular:14`, `circular:14@2026-27`, `circular:2.2.14`,
//! `name:<slug>`. A number may be dotted (NHAI's "Policy Circular
//! No.2.2.14/ 2025"); its "/YYYY" year part is read past and dropped, since
//! a dotted number is unique across years and citations often omit the year.
//! "Policy Circular" and "Policy Guidelines" are both `circular`.
//!
//! A *supersession statement* names references of older documents:
//! "in supersession of Circular No. 09 (2024-25)", "supersedes …",
//! "replaces Circular …", or an RFC header's `Obsoletes: 2145, 2616`
//! (RFC 7322 §4.1.4). `Updates:` is not supersession.
//!
//! An *amendment statement* changes part of an older document, which stays
//! in force: "… Policy Circular No.2.2.13/2024 dated 28th Nov, 2024 is
//! hereby amended as under", "in partial modification of …", "… is hereby
//! modified", "… is replaced with …".

use std::sync::LazyLock;

use regex::Regex;

use super::session::Session;

#[allow(clippy::expect_used)]
fn re(p: &str) -> Regex {
    Regex::new(p).expect("valid reference pattern")
}

const DOC_KINDS: &str =
    r"policy\s+circular|policy\s+guidelines?|circular|office\s+order|order|notification|memorandum|memo|policy|notice";
/// A kind word, then `No.` and the number (group 1): `14`, `2.2.14`,
/// `2.1.23(1)`, with an optional `/2025` year part outside the group.
const NUMBERED: &str = r"[\s_-]*(?:no\.?|number|#)?\s*[:\-]?\s*([0-9]{1,4}(?:\.[0-9]{1,4}){0,3}\b(?:\([0-9]{1,2}\))?)(?:\s*/\s*(?:19|20)[0-9]{2}\b)?";
/// A session after a number, as in "Circular No. 09 (2024-25)" (group 2).
const SESSION_TAIL: &str = r"(?:\s*(?:\(|of|dated)?\s*((?:19|20)\d{2}\s?[-/]\s?\d{2,4}))?";

static RFC_IN_NAME: LazyLock<Regex> = LazyLock::new(|| re(r"(?i)(?:^|[^a-z])rfc[\s_-]?(\d{3,5})(?:[^0-9]|$)"));
static RFC_HEADER: LazyLock<Regex> = LazyLock::new(|| re(r"(?im)^\s*Request for Comments:\s*(\d{3,5})"));
static OBSOLETES: LazyLock<Regex> = LazyLock::new(|| re(r"(?im)^\s*Obsoletes:\s*([0-9][0-9,\s]*)"));
static DOC_NUMBER: LazyLock<Regex> = LazyLock::new(|| re(&format!(r"(?i)\b({DOC_KINDS}){NUMBERED}")));
static STATEMENT: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r"(?i)\b(?:in\s+supersession\s+of|supersedes|supersede|superseding|replaces|in\s+place\s+of)\s+(?:the\s+)?(?:earlier\s+|previous\s+)?({DOC_KINDS}){NUMBERED}{SESSION_TAIL}"
    ))
});
/// "in partial modification of [Para 3 of] Circular No. …".
static AMENDS_BEFORE: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r"(?i)\b(?:in\s+partial\s+(?:modification|supersession)\s+of|in\s+(?:modification|amendment)\s+(?:of|to)|amends|amending)\s+(?:(?:para(?:graph)?|clause|section)\s*[0-9.()a-z]*\s+of\s+)?(?:the\s+)?(?:earlier\s+|previous\s+|said\s+)?({DOC_KINDS}){NUMBERED}{SESSION_TAIL}"
    ))
});
/// "Circular No. … [dated …] is hereby amended / modified / replaced with".
static AMENDS_AFTER: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r"(?i)\b({DOC_KINDS}){NUMBERED}(?:\s*\(\s*((?:19|20)\d{{2}}\s?[-/]\s?\d{{2,4}})\s*\))?(?:\s*,?\s*dated\s*[-:]?\s*[^;\n]{{0,30}}?(?:19|20)[0-9]{{2}})?\s*,?\s*(?:is|are|stands?|shall\s+stand|has\s+been|have\s+been)\s+(?:hereby\s+)?(?:amended|modified|replaced\s+(?:with|by))\b"
    ))
});

/// The kind word of a reference, normalised (`office order` →
/// `office-order`; "Policy Circular", "Policy Guidelines" → `circular`).
fn kind_key(kind: &str) -> String {
    let key = kind.split_whitespace().collect::<Vec<_>>().join("-").to_lowercase();
    if key.starts_with("policy-") { "circular".into() } else { key }
}

/// A written number as a reference part (`09` → `9`, `2.02.14` → `2.2.14`);
/// `None` for a date such as `28.02.2025` or `2025.02.28`.
fn number_key(raw: &str) -> Option<String> {
    let parts: Vec<&str> = raw.split('.').collect();
    let is_year = |p: &&str| p.len() == 4 && (p.starts_with("19") || p.starts_with("20"));
    if parts.len() == 3 && (parts.first().is_some_and(is_year) || parts.last().is_some_and(is_year)) {
        return None;
    }
    Some(parts.iter().map(|p| trim_zeros(p)).collect::<Vec<_>>().join("."))
}

/// The first "<kind> No. <number>" in `text` that is not a date.
fn own_number(text: &str) -> Option<regex::Captures<'_>> {
    DOC_NUMBER.captures_iter(text).find(|c| number_key(&c[2]).is_some())
}

/// The header line holding the document's own number, from its kind word to
/// the end of the line: "Policy Circular No.2.1.80/ 2025 dated 137 February,
/// 2025". Its date, not one cited further on, is the issue date.
pub fn number_line(header: &str) -> Option<&str> {
    let m = own_number(header)?.get(0)?;
    let end = header[m.end()..].find('\n').map_or(header.len(), |i| m.end() + i);
    Some(&header[m.start()..end])
}

/// References a document is known by, from its file name, title and
/// first-page header (never body text).
pub fn references(file_stem: &str, header: &str, session: Option<Session>) -> Vec<String> {
    let mut refs = Vec::new();
    for text in [file_stem, header] {
        if let Some(c) = RFC_IN_NAME.captures(text) {
            refs.push(format!("rfc:{}", trim_zeros(&c[1])));
        }
        if let Some(c) = own_number(text) {
            let base = format!("{}:{}", kind_key(&c[1]), number_key(&c[2]).unwrap_or_default());
            if let Some(s) = session {
                refs.push(format!("{base}@{s}"));
            }
            refs.push(base);
        }
    }
    if let Some(c) = RFC_HEADER.captures(header) {
        refs.push(format!("rfc:{}", trim_zeros(&c[1])));
    }
    refs.push(format!("name:{}", crate::source_file::slug(file_stem)));
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
    refs.extend(statement_references(&STATEMENT, text));
    refs.sort();
    refs.dedup();
    refs
}

/// References named by amendment statements in `text` (the opening of the
/// document): documents changed in part, which stay in force.
pub fn amended_references(text: &str) -> Vec<String> {
    let mut refs = statement_references(&AMENDS_BEFORE, text);
    refs.extend(statement_references(&AMENDS_AFTER, text));
    refs.sort();
    refs.dedup();
    refs
}

/// `kind:number`, or `kind:number@session` when a session is written, for
/// every match of a statement pattern (groups: kind, number, session).
fn statement_references(statement: &Regex, text: &str) -> Vec<String> {
    let mut refs = Vec::new();
    for c in statement.captures_iter(text) {
        let Some(number) = number_key(&c[2]) else { continue };
        let base = format!("{}:{number}", kind_key(&c[1]));
        match c.get(3).and_then(|m| Session::parse(m.as_str())) {
            Some(s) => refs.push(format!("{base}@{s}")),
            None => refs.push(base),
        }
    }
    refs
}

/// A front-matter or sidecar `supersedes` or `amends` value (a key, file
/// name, title or "Circular No. 9 (2024-25)") as references.
pub fn references_from_value(value: &str) -> Vec<String> {
    let mut refs = superseded_references(&format!("supersedes {value}"));
    let session = Session::find_all(value).first().map(|(_, s)| *s);
    let stem = value.rsplit('/').next().unwrap_or(value);
    let is_ext = |ext: &str| ext.len() <= 4 && ext.chars().any(|c| c.is_ascii_alphabetic());
    let stem = stem.rsplit_once('.').map_or(stem, |(s, ext)| if is_ext(ext) { s } else { stem });
    refs.extend(references(stem, "", session));
    if let Some(n) = value.trim().strip_prefix("RFC").or_else(|| value.trim().strip_prefix("rfc")) {
        refs.push(format!("rfc:{}", trim_zeros(n.trim())));
    }
    // The IETF's URN namespace for RFCs (RFC 2648): `urn:ietf:rfc:2616`.
    if let Some(n) = value.trim().to_ascii_lowercase().strip_prefix("urn:ietf:rfc:")
        && !n.is_empty()
        && n.chars().all(|c| c.is_ascii_digit())
    {
        refs.push(format!("rfc:{}", trim_zeros(n)));
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
        assert!(references_from_value("urn:ietf:rfc:2616").contains(&"rfc:2616".to_string()));
    }

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn dotted_nhai_numbers_are_whole_references() {
        let cases = [
            ("Policy Circular No.2.2.14/ 2025 dated 28% February, 2025", "circular:2.2.14"),
            ("Policy Circular No. 2.1.83/2025 dated 0274 May, 2025", "circular:2.1.83"),
            ("Policy Guidelines No. 2.5.11/2019 dated 17.05.2019", "circular:2.5.11"),
            ("Policy Circular No. 2.1.23(1)/2017 dated 19.06.2017", "circular:2.1.23(1)"),
        ];
        for (header, want) in cases {
            let refs = references("scan-0001", header, None);
            assert_eq!(refs, strings(&[want, "name:scan-0001"]), "{header}");
        }
    }

    #[test]
    fn the_letterhead_path_line_is_no_number() {
        let header = "NHAI/Policy Guidelines/Dispute Resolution Board/2025\nPolicy Circular No.2.2.15/ 2025 dated 015 March, 2025";
        assert!(references("x", header, None).contains(&"circular:2.2.15".to_string()));
        assert_eq!(number_line(header), Some("Policy Circular No.2.2.15/ 2025 dated 015 March, 2025"));
    }

    #[test]
    fn a_date_after_a_kind_word_is_no_number() {
        assert_eq!(references("x", "Circular 28.02.2025\nCircular No. 7", None), strings(&["circular:7", "name:x"]));
    }

    #[test]
    fn plain_numbers_and_sessions_still_read() {
        let s = Session::parse("2026-27");
        let refs = references("Circular-14-2026-27", "Circular No. 14 (2026-27)", s);
        assert_eq!(refs, strings(&["circular:14", "circular:14@2026-27", "name:circular-14-2026-27"]));
    }

    #[test]
    fn supersession_of_a_dotted_policy_circular() {
        let text = "In supersession of Policy Circular No. 2.1.48 dated 09.04.2021, the SOP is as under";
        assert_eq!(superseded_references(text), strings(&["circular:2.1.48"]));
        assert!(amended_references(text).is_empty());
    }

    #[test]
    fn reads_the_nhai_amendment_statement() {
        // 2.2.14, page 1: the number wraps onto the next line after a blank line.
        let text = "Standard Operating Procedure (SOP) for Empanelment/\nDe-empanelment of Members of Dispute Resolution Boards (DRBs) issued vide Policy\n\nCircular No.2.2.13/2024 dated 2870 Nov, 2024 is hereby amended as under:";
        assert_eq!(amended_references(text), strings(&["circular:2.2.13"]));
        assert!(superseded_references(text).is_empty(), "amending is not superseding");
    }

    #[test]
    fn reads_other_amendment_forms() {
        let cases = [
            (
                "In partial modification of Policy Circular No. 2.1.48 dated 09.04.2021, it is decided",
                "circular:2.1.48",
            ),
            ("in partial modification of Para 3.5 of Policy Circular No. 2.5.11/2019", "circular:2.5.11"),
            ("In partial supersession of Circular No. 09 (2024-25), the fee is", "circular:9@2024-25"),
            ("Para 4 of Policy Circular No. 2.1.50, dated 26.05.2021 is hereby modified as follows", "circular:2.1.50"),
            (
                "Annexure-1 of Office Order No. 12 dated 1st April, 2025 is replaced with the following",
                "office-order:12",
            ),
            ("Circular No. 7 stands amended to that extent.", "circular:7"),
        ];
        for (text, want) in cases {
            assert_eq!(amended_references(text), strings(&[want]), "{text}");
            assert!(superseded_references(text).is_empty(), "{text}");
        }
    }

    #[test]
    fn citing_or_describing_changes_is_no_amendment() {
        let lines = [
            // 2.1.80 and 2.1.87, page 1.
            "Modified SOP for Conciliation was issued vide Policy Circular No. 2.1.48 dated 09.04.2021.",
            "Subsequently, an amendment to the said Policy\nCircular along with Standard Operating Procedure (SOP)/ Methodology for Conciliation was\nissued vide Policy Circular No. 2.1.23(1)/2017 dated 19.06.2017.",
            "Sub: Amendment to the provisions of Contract/ Concession Agreements pertaining to",
            // 2.1.80: an amendment that names no number gives no reference.
            "CCIE. Accordingly, SOP dated 09.04.2021 is replaced with the SOP given below for such Cases,",
        ];
        for text in lines {
            assert!(amended_references(text).is_empty(), "{text}");
        }
    }

    #[test]
    fn front_matter_values_keep_dotted_numbers() {
        let refs = references_from_value("Policy Circular No. 2.2.13");
        assert_eq!(refs, strings(&["circular:2.2.13", "name:policy-circular-no-2-2-13"]));
    }
}
