//! The term a definition question asks about ("What does 422 mean?",
//! "What counts as TDY?", "What is LWOP?"); whether a sentence defines it is
//! the builtin's (`builtin::definition`).

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

#[cfg(test)]
mod tests {
    use super::*;

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
}
