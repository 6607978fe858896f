//! Follow-up questions in a conversation ("and for 2024-25?", "what about
//! PhD?"): a short question that leans on the previous one is answered as
//! the previous question with the follow-up's specifics, so retrieval, the
//! router's as-of date and the freshness gate all see the whole question.
//! Resolution is in code and visible (the resolved question is shown).

use regex::Regex;
use std::sync::LazyLock;

/// Openers that mark a question as leaning on the previous one.
const OPENERS: &[&str] = &["and ", "what about ", "how about ", "also ", "same for ", "and what about ", "for ", "in "];

/// Sessions (`2024-25`), years and ISO dates: the previous question's time,
/// replaced by the follow-up's.
static TIME: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r"(?i)(?:\b(?:in|for|during|of|as of)\s+)?\b(?:19|20)\d{2}(?:[-/](?:\d{2}(?:\d{2})?))?(?:-\d{2})?\b")
        .ok()
});

/// The question to answer for `question` after `previous` (the last
/// question as resolved), or `question` itself when it stands alone.
///
/// A question is a follow-up when it opens with "and", "what about", "for"…
/// or has at most four words; it becomes the previous question with its
/// sessions and dates removed, followed by the follow-up in brackets:
/// `resolve("and for 2024-25?", Some("What is the MTech fee?"))` is
/// `"What is the MTech fee? (for 2024-25)"`.
pub fn resolve(question: &str, previous: Option<&str>) -> String {
    let q = question.trim();
    let Some(prev) = previous.map(str::trim).filter(|p| !p.is_empty()) else {
        return q.to_string();
    };
    if !is_follow_up(q) {
        return q.to_string();
    }
    // A chain of follow-ups keeps one base question: drop the earlier "(…)".
    let prev = match prev.rfind(" (") {
        Some(i) if prev.ends_with(')') => &prev[..i],
        _ => prev,
    };
    let base = match TIME.as_ref() {
        Some(re) if re.is_match(q) => re.replace_all(prev, "").to_string(),
        _ => prev.to_string(),
    };
    let base = base.split_whitespace().collect::<Vec<_>>().join(" ").replace(" ?", "?").replace(" ,", ",");
    let lower = q.to_lowercase();
    let mut rest = q;
    for opener in ["and what about ", "what about ", "how about ", "and ", "also "] {
        if lower.starts_with(opener) {
            rest = &q[opener.len()..];
            break;
        }
    }
    let rest = rest.trim().trim_end_matches(['?', '.', '!']).trim();
    format!("{base} ({rest})")
}

/// Words that open a question of its own ("Who approves leave?").
const QUESTION_WORDS: &[&str] =
    &["who", "what", "when", "where", "which", "why", "how", "is", "are", "can", "do", "does", "may", "should", "will"];

/// Small talk, never a follow-up ("thanks!", "hello").
const SMALL_TALK: &[&str] =
    &["thanks", "thank", "thx", "hello", "hi", "hey", "ok", "okay", "bye", "great", "cool", "nice", "good"];

fn is_follow_up(q: &str) -> bool {
    let lower = q.to_lowercase();
    let first_word = lower.split(|c: char| !c.is_alphanumeric()).find(|w| !w.is_empty()).unwrap_or("");
    if SMALL_TALK.contains(&first_word) {
        return false;
    }
    let first = lower.split_whitespace().next().unwrap_or("");
    let short = q.split_whitespace().count() <= 4 && !QUESTION_WORDS.contains(&first);
    OPENERS.iter().any(|o| lower.starts_with(o)) || short
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_session_follow_up_replaces_the_previous_time() {
        let prev = "What is the MTech fee, and is hostel still free on the north-east scholarship in 2026-27?";
        assert_eq!(
            resolve("and for 2024-25?", Some(prev)),
            "What is the MTech fee, and is hostel still free on the north-east scholarship? (for 2024-25)"
        );
        assert_eq!(resolve("what about PhD?", Some("What is the MTech fee?")), "What is the MTech fee? (PhD)");
        let first = resolve("and for 2024-25?", Some("What is the MTech fee?"));
        assert_eq!(resolve("and for 2023-24?", Some(&first)), "What is the MTech fee? (for 2023-24)");
        assert_eq!(resolve("PhD students?", Some("What is the MTech fee?")), "What is the MTech fee? (PhD students)");
    }

    #[test]
    fn a_standalone_question_is_kept() {
        let q = "How many days of earned leave do I get per year?";
        assert_eq!(resolve(q, Some("What is the MTech fee?")), q);
        assert_eq!(resolve("and for 2024-25?", None), "and for 2024-25?");
        assert_eq!(resolve("Who approves leave?", Some("What is the MTech fee?")), "Who approves leave?");
        assert_eq!(resolve("thanks!", Some("What is the MTech fee?")), "thanks!");
        assert_eq!(resolve("hello", Some("What is the MTech fee?")), "hello");
    }
}
