//! Citations as answers write them (ARCHITECTURE §5): `[chunk-key]` after the
//! sentence it supports, e.g. `Earned leave is 18 days. [leave-policy@4::earned-leave#1]`.
//!
//! A **key** is anything inside `[ ]` without spaces that contains `::`
//! (`circular-14@2026-27::p1#2`). A bracket may hold several keys separated
//! by `,` or `;` (`[a::x#1, b::y#2]`). Other brackets (`[1]`, `[sic]`) are text.
//!
//! Sentences end at `.`, `?` or `!` followed by a space, a bracket or the end,
//! and at line breaks (list items). A full stop does **not** end a sentence
//! after an abbreviation (`e.g.`, `i.e.`, `Dr.`, `viz.`), after a number prefix
//! followed by a digit (`Rs. 48,500`, `No. 14`, `p. 3`), or after an initial
//! (`A. K. Sharma`); decimals (`48.5`) and `p.1` never have a space after the dot.

use std::sync::LazyLock;

use regex::Regex;
use serde::{Deserialize, Serialize};

const KEY: &str = r"[^\[\]\s,;]*::[^\[\]\s,;]*";

static KEY_GROUP: LazyLock<Regex> = LazyLock::new(|| re(&format!(r"\[\s*({KEY}(?:\s*[,;]\s*{KEY})*)\s*\]")));
static ONE_KEY: LazyLock<Regex> = LazyLock::new(|| re(KEY));
static SPACE_BEFORE_PUNCT: LazyLock<Regex> = LazyLock::new(|| re(r"[ \t]+([.,;:?!)\n])"));
static MULTI_SPACE: LazyLock<Regex> = LazyLock::new(|| re(r"[ \t]{2,}"));

/// Words after which a full stop never ends a sentence.
const ABBREVIATIONS: &[&str] =
    &["e.g", "i.e", "dr", "mr", "mrs", "ms", "prof", "viz", "vs", "cf", "approx", "govt", "smt", "shri", "sri", "etc"];
/// Words after which a full stop is an abbreviation when a number follows.
const NUMBER_PREFIXES: &[&str] =
    &["rs", "no", "nos", "p", "pp", "sec", "cl", "para", "fig", "vol", "art", "ch", "s", "r", "inr"];

#[allow(clippy::expect_used)]
fn re(pattern: &str) -> Regex {
    // The patterns are constants; a bad one is a programming error caught by the unit tests.
    Regex::new(pattern).expect("valid citation pattern")
}

/// One sentence of an answer with the citation keys that support it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sentence {
    /// The sentence with its citation markers removed, trimmed.
    pub text: String,
    /// The keys cited inside the sentence or right after it, in order, deduplicated.
    pub keys: Vec<String>,
}

/// Split `text` into sentences, each with the keys cited inside it or right
/// after its final punctuation. Empty sentences (a lone marker) are dropped;
/// their keys go to the sentence before.
pub fn split_sentences(text: &str) -> Vec<Sentence> {
    let mut out: Vec<Sentence> = Vec::new();
    for raw in raw_sentences(text) {
        let keys = cited_keys(raw);
        let stripped = strip_citations(raw);
        let trimmed = stripped.trim();
        if trimmed.is_empty() || trimmed.chars().all(|c| c.is_ascii_punctuation()) {
            if let Some(last) = out.last_mut() {
                merge_keys(&mut last.keys, keys);
            }
            continue;
        }
        out.push(Sentence { text: trimmed.to_string(), keys });
    }
    out
}

/// Every cited key in `text`, in order of first appearance, deduplicated.
pub fn cited_keys(text: &str) -> Vec<String> {
    let mut keys = Vec::new();
    for group in KEY_GROUP.captures_iter(text) {
        let found = ONE_KEY.find_iter(&group[1]).map(|m| m.as_str().to_string()).collect();
        merge_keys(&mut keys, found);
    }
    keys
}

/// `text` without its citation markers, with the spaces they leave tidied
/// (`18 days [k]. ` becomes `18 days. `). Line breaks are kept.
pub fn strip_citations(text: &str) -> String {
    let removed = KEY_GROUP.replace_all(text, "");
    let tidy = SPACE_BEFORE_PUNCT.replace_all(&removed, "$1");
    MULTI_SPACE.replace_all(&tidy, " ").trim_end().to_string()
}

fn merge_keys(into: &mut Vec<String>, keys: Vec<String>) {
    for key in keys {
        if !into.contains(&key) {
            into.push(key);
        }
    }
}

/// The raw sentences of `text` (markers still in), split at sentence ends and
/// line breaks; citation markers right after an end stay with the sentence.
fn raw_sentences(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let end = if c == b'\n' {
            Some(i + 1)
        } else if matches!(c, b'.' | b'?' | b'!') && ends_sentence(text, i) {
            Some(trailing_citations_end(text, i + 1))
        } else {
            None
        };
        if let Some(e) = end {
            out.push(&text[start..e]);
            start = e;
            i = e;
        } else {
            i += 1;
        }
    }
    if start < text.len() {
        out.push(&text[start..]);
    }
    out
}

/// Whether the punctuation at byte `at` ends a sentence.
fn ends_sentence(text: &str, at: usize) -> bool {
    let after = &text[at + 1..];
    let next = after.chars().next();
    if !matches!(next, None | Some(' ' | '\t' | '\n' | '\r' | '[' | '"' | '\'' | ')' | '”' | '’')) {
        return false;
    }
    if text.as_bytes()[at] != b'.' {
        return true;
    }
    let word = preceding_word(&text[..at]);
    let lower = word.to_lowercase();
    let next_visible = after.trim_start().chars().next();
    if ABBREVIATIONS.contains(&lower.as_str()) {
        return false;
    }
    if NUMBER_PREFIXES.contains(&lower.as_str()) && next_visible.is_some_and(|c| c.is_ascii_digit() || c == '₹') {
        return false;
    }
    let initial = word.chars().count() == 1 && word.chars().all(|c| c.is_uppercase());
    !(initial && next_visible.is_some_and(char::is_uppercase))
}

/// The word (letters and inner dots) right before byte `end`.
fn preceding_word(before: &str) -> &str {
    let start = before
        .char_indices()
        .rev()
        .find(|(_, c)| !(c.is_alphabetic() || *c == '.'))
        .map_or(0, |(i, c)| i + c.len_utf8());
    before[start..].trim_start_matches('.')
}

/// The end of the citation markers (and spaces) that follow byte `from`.
fn trailing_citations_end(text: &str, from: usize) -> usize {
    let mut end = from;
    loop {
        let rest = &text[end..];
        let skipped = rest.len() - rest.trim_start_matches([' ', '\t']).len();
        match KEY_GROUP.find(&rest[skipped..]) {
            Some(m) if m.start() == 0 => end += skipped + m.end(),
            _ => return end,
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
    use super::*;

    const LEAVE: &str = "leave-policy@4::earned-leave#1";
    const CIRC14: &str = "circular-14@2026-27::p1#2";

    #[test]
    fn devanagari_with_a_virama_before_a_full_stop_splits_without_a_panic() {
        // The virama (U+094D) is not alphabetic and is 3 bytes long: the word
        // before a "." must start after it, on a character boundary.
        let text = "नीलगिरि सॉफ़्टवेयर सर्विसेज़ प्रा. लि. में 21 दिन की छुट्टी मिलती है। Rs. 800 मिलते हैं.";
        let sentences = split_sentences(text);
        assert!(!sentences.is_empty());
        assert!(sentences.iter().any(|s| s.text.contains("21")), "{sentences:?}");
    }

    #[test]
    fn keys_follow_their_sentence() {
        let text = format!("Earned leave is 18 days per year. [{LEAVE}] Scholarship holders pay half. [{CIRC14}]");
        let s = split_sentences(&text);
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].text, "Earned leave is 18 days per year.");
        assert_eq!(s[0].keys, vec![LEAVE]);
        assert_eq!(s[1].text, "Scholarship holders pay half.");
        assert_eq!(s[1].keys, vec![CIRC14]);
    }

    #[test]
    fn keys_before_the_full_stop_and_several_keys() {
        let text =
            format!("The fee is Rs. 48,500 per semester [{CIRC14}][{LEAVE}]. The DA is Rs 2,000 [{CIRC14}, {LEAVE}]");
        let s = split_sentences(&text);
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].text, "The fee is Rs. 48,500 per semester.");
        assert_eq!(s[0].keys, vec![CIRC14, LEAVE]);
        assert_eq!(s[1].keys, vec![CIRC14, LEAVE]);
    }

    #[test]
    fn does_not_split_on_abbreviations_decimals_or_page_numbers() {
        let text = format!(
            "See Circular No. 14, e.g. the hostel rule on p.1 and p. 2: the rate is 48.5 per cent, set by Dr. A. K. Sharma. [{CIRC14}]"
        );
        let s = split_sentences(&text);
        assert_eq!(s.len(), 1, "{s:?}");
        assert_eq!(s[0].keys, vec![CIRC14]);
    }

    #[test]
    fn questions_exclamations_and_lines_split() {
        let text = format!("Is it free? No! It is half. [{CIRC14}]\n- Leave: 18 days [{LEAVE}]\n");
        let s = split_sentences(&text);
        let texts: Vec<&str> = s.iter().map(|x| x.text.as_str()).collect();
        assert_eq!(texts, vec!["Is it free?", "No!", "It is half.", "- Leave: 18 days"]);
        assert!(s[0].keys.is_empty());
        assert_eq!(s[3].keys, vec![LEAVE]);
    }

    #[test]
    fn a_lone_marker_joins_the_sentence_before() {
        let s = split_sentences(&format!("It is half.\n[{CIRC14}]\n"));
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].keys, vec![CIRC14]);
    }

    #[test]
    fn cited_keys_are_ordered_and_deduplicated() {
        let text = format!("A. [{LEAVE}] B. [{CIRC14}] C. [{LEAVE}] [1] [not a key] [x::y z]");
        assert_eq!(cited_keys(&text), vec![LEAVE, CIRC14]);
    }

    #[test]
    fn strip_citations_tidies_spaces_and_keeps_other_brackets() {
        let text = format!("Earned leave is 18 days [{LEAVE}]. See note [1]. [{CIRC14}]\nNext line.");
        assert_eq!(strip_citations(&text), "Earned leave is 18 days. See note [1].\nNext line.");
        assert_eq!(strip_citations("No citations here."), "No citations here.");
    }

    #[test]
    fn real_corpus_keys_with_dates_are_keys() {
        let key = "overtime@2024-11-26::pay-cap#2";
        let s = split_sentences(&format!("The overtime pay cap is $191,900. [{key}]"));
        assert_eq!(s[0].keys, vec![key]);
        assert_eq!(s[0].text, "The overtime pay cap is $191,900.");
    }
}
