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

static QUESTION: LazyLock<Vec<Regex>> = LazyLock::new(|| {
    [
        r"(?i)^\s*what\s+(?:does|do)\s+(?:an?\s+|the\s+)?(.+?)\s+(?:mean|stand\s+for)\b",
        r"(?i)^\s*what\s+is\s+meant\s+by\s+(?:an?\s+|the\s+)?(.+?)\s*\??\s*$",
        r"(?i)\bcounts?\s+as\s+(?:an?\s+|the\s+)?(.+?)\s*\??\s*$",
        r"(?i)^\s*define\s+(?:an?\s+|the\s+)?(.+?)\s*[.?]?\s*$",
        r"(?i)^\s*what\s+(?:is|are)\s+(?:an?\s+|the\s+)?(\S+(?:\s+\S+){0,2}?)\s*\?\s*$",
    ]
    .iter()
    .map(|p| re(p))
    .collect()
});

/// Where a term asked about ends: the phrase that qualifies the question,
/// when lower-case words follow ("TDY | for earning travel comp time", not
/// "Centre for Continuing Education").
static TERM_END: LazyLock<Regex> = LazyLock::new(|| re(r"(?i)\s+(?:for|when|while|under|during|in\s+order\s+to)\s+"));

/// A defining verb after the term.
static DEFINING: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)^(?:\S+\s+){0,4}?(?:means|indicates|refers\s+to|is\s+defined|are\s+defined|stands\s+for|counts\s+as|is|are)\b",
    )
});

/// Words from the start of a sentence within which the term must appear.
pub const TERM_WITHIN: usize = 6;

/// The term a definition question asks about ("422", "TDY", "LWOP"), or
/// `None` for any other question.
pub fn defined_term(question: &str) -> Option<String> {
    QUESTION
        .iter()
        .find_map(|r| r.captures(question).and_then(|c| c.get(1)).map(|m| m.as_str().trim().to_string()))
        // "counts as TDY for earning travel comp time": the term ends at a preposition.
        .map(|t| match TERM_END.find(&t) {
            Some(m) if t[m.end()..].starts_with(char::is_lowercase) => t[..m.start()].trim().to_string(),
            _ => t,
        })
        .filter(|t| !t.is_empty() && t.split_whitespace().count() <= 5)
}

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
    fn definition_questions_give_their_term() {
        assert_eq!(defined_term("What does 422 mean?").as_deref(), Some("422"));
        assert_eq!(defined_term("What kind of trip counts as TDY?").as_deref(), Some("TDY"));
        // eval/versions.jsonl, ver-ot-tdy.
        assert_eq!(
            defined_term("What kind of trip counts as TDY for earning travel comp time?").as_deref(),
            Some("TDY")
        );
        assert_eq!(
            defined_term("What is meant by the Centre for Continuing Education?").as_deref(),
            Some("Centre for Continuing Education")
        );
        assert_eq!(defined_term("What is LWOP?").as_deref(), Some("LWOP"));
        assert_eq!(defined_term("What is meant by the cooling-off period?").as_deref(), Some("cooling-off period"));
        assert_eq!(defined_term("What is the hostel fee for MTech students this year?"), None);
        assert_eq!(defined_term("How much is the MTech fee?"), None);
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
