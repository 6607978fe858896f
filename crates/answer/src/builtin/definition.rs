//! Definition questions ("What does 422 mean?", "What counts as TDY?",
//! "What is LWOP?") are answered by a sentence that defines the term: the
//! term near its start, then a defining verb ("The 422 (Unprocessable
//! Content) status code indicates that …", "TDY travel is more than 12 hours
//! long …"), not by one that only mentions it ("Status code 422 … has been
//! added because of its general applicability").

use std::sync::LazyLock;

use regex::Regex;

#[allow(clippy::expect_used)]
fn re(pattern: &str) -> Regex {
    Regex::new(pattern).expect("valid definition pattern")
}

/// A defining verb after the term.
static DEFINING: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)^(?:\S+\s+){0,4}?(?:means|indicates|refers\s+to|is\s+defined|are\s+defined|stands\s+for|counts\s+as|is|are)\b",
    )
});

/// Words from the start of a sentence within which the term must appear.
pub const TERM_WITHIN: usize = 6;

/// Whether `sentence` defines the term whose content terms are `term`
/// (stemmed, as the builtin's tokenizer gives them, with `terms_of` for the
/// sentence's words): every one of them among its first [`TERM_WITHIN`]
/// words, and a defining verb at most four words after the last of them.
pub fn defines(sentence: &str, term: &[String], terms_of: impl Fn(&str) -> Vec<String>) -> bool {
    if term.is_empty() {
        return false;
    }
    // The first word by which every term of the term has been seen.
    let mut seen: Vec<String> = Vec::new();
    let last = sentence.split_whitespace().take(TERM_WITHIN).position(|w| {
        seen.extend(terms_of(w));
        term.iter().all(|t| seen.contains(t))
    });
    let Some(last) = last else { return false };
    // The defining verb comes within 5 words after it.
    let rest = sentence.split_whitespace().skip(last + 1).take(5).collect::<Vec<_>>().join(" ");
    DEFINING.is_match(&rest)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn terms(text: &str) -> Vec<String> {
        text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).map(str::to_lowercase).collect()
    }

    #[test]
    fn a_sentence_defines_its_term_near_its_start() {
        // RFC 9110 §15.5.21 and §B.3; the 18F overtime page (2024-12-11).
        let t = ["422".to_string()];
        assert!(defines(
            "The 422 (Unprocessable Content) status code indicates that the server understands",
            &t,
            terms
        ));
        assert!(!defines("Status code 422 (previously defined in Section 11.2 of [WEBDAV]) has been added", &t, terms));
        let tdy = ["tdy".to_string()];
        assert!(defines(
            "TDY travel is more than 12 hours long and requires a pre-approved authorization.",
            &tdy,
            terms
        ));
        assert!(!defines("Travel comp time is for temporary duty aka TDY travel, not local travel.", &tdy, terms));
    }
}
