//! "Are X and Y both P?": one sentence about each, from a source that names
//! it, then "Yes: both are P." when each sentence says P, or "No: …" when
//! one of them says what its subject is and that is not P ("Géza von
//! Cziffra … was a Hungarian and Austrian film director" against "both American
//! directors"). Anything weaker gives no reply, and the question is
//! answered as any other: the model never says a "yes" or a "no" its
//! evidence does not back.

use std::sync::LazyLock;

use regex::Regex;

use super::names::mentions;
use super::yes_no::conditional;
use super::{BuiltinModel, Scored};
use crate::evidence::Evidence;
use crate::lexicon::denies;
use crate::model::Draft;

static BOTH: LazyLock<Regex> = LazyLock::new(|| {
    #[allow(clippy::expect_used)]
    Regex::new(r"(?i)^\s*(?:are|were|is|was)\s+(.+?)\s+and\s+(.+?)\s+both\s+(.+?)\s*\??\s*$").expect("valid pattern")
});

/// A copula after the subject: the sentence says what its subject is.
static DEFINES: LazyLock<Regex> = LazyLock::new(|| {
    #[allow(clippy::expect_used)]
    Regex::new(r"(?i)\b(?:is|was|are|were)\s+(?:an?|the|one\s+of)\b").expect("valid pattern")
});

/// The two things compared and what both are asked to be: `("Christopher
/// Nolan", "Sathish Kalathil", "film directors")`; `None` for any other question.
pub fn both_question(question: &str) -> Option<(String, String, String)> {
    let c = BOTH.captures(question)?;
    let part = |i: usize| c.get(i).map(|m| m.as_str().trim().to_string()).unwrap_or_default();
    let (x, y, p) = (part(1), part(2), part(3));
    (!x.is_empty() && !y.is_empty() && !p.is_empty()).then_some((x, y, p))
}

/// How one sentence about one of the two speaks of what is asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Says {
    /// It holds every term of it, without a negation.
    Is,
    /// It says what its subject is, holds some of the terms, not all, or denies them.
    IsNot,
    /// Neither.
    Unclear,
}

impl BuiltinModel {
    /// The draft for "Are X and Y both P?": "Yes: both are P." or "No:"
    /// before one sentence about each, each cited to its chunk; `None` when
    /// the question has another form or the evidence does not settle it.
    pub fn answer_both(&self, question: &str, evidence: &[Evidence]) -> Option<Draft> {
        let (x, y, asked) = both_question(question)?;
        let terms = self.content_terms(&asked);
        if terms.is_empty() {
            return None;
        }
        let (sx, says_x) = self.about(&x, &asked, evidence)?;
        let (sy, says_y) = self.about(&y, &asked, evidence)?;
        if sx.overlaps(&sy) && sx.key == sy.key {
            // One sentence about both settles nothing about each.
            return None;
        }
        let sentences = match (says_x, says_y) {
            (Says::Is, Says::Is) => {
                vec![(format!("Yes: both are {asked}. {}", sx.text), vec![sx.key]), (sy.text, vec![sy.key])]
            }
            (Says::IsNot, _) => vec![(format!("No: {}", sx.text), vec![sx.key]), (sy.text, vec![sy.key])],
            (_, Says::IsNot) => vec![(format!("No: {}", sy.text), vec![sy.key]), (sx.text, vec![sx.key])],
            _ => return None,
        };
        Some(Draft { sentences, usage: Default::default(), dropped: 0 })
    }

    /// The best sentence about `subject` as asked ("Is Christopher Nolan a
    /// film director?"), from chunks that name it, and what it says.
    fn about(&self, subject: &str, asked: &str, evidence: &[Evidence]) -> Option<(Scored, Says)> {
        let naming: Vec<Evidence> =
            evidence.iter().filter(|e| mentions(self, subject, &format!("{} {}", e.title, e.text))).cloned().collect();
        let ask = format!("Is {subject} {asked}?");
        let subject_terms = self.content_terms(subject);
        let best =
            self.score_in(&crate::question::Question::parse(&ask), &naming, naming.len()).into_iter().find(|s| {
                let own = self.content_terms(&s.text);
                subject_terms.iter().all(|t| own.contains(t))
            })?;
        // The whole quote: a sentence that refers back ("He is one of the
        // highest-grossing directors") is about what the one before says.
        let own = best.text.as_str();
        let said = self.content_terms(own);
        let terms: Vec<String> = self.content_terms(asked).into_iter().collect();
        let held = terms.iter().filter(|t| said.contains(*t)).count();
        // "… was a Hungarian and Austrian film director" is not "American
        // directors": a category ("American directors", not "eligible for
        // the hostel") whose head noun the definition holds, not its modifiers.
        let head = last_term_of(self, asked);
        let other_category =
            category(asked) && DEFINES.is_match(own) && head.is_some_and(|h| said.contains(&h)) && held < terms.len();
        let says = if conditional(own) {
            Says::Unclear
        } else if held == terms.len() && !denies(own) {
            Says::Is
        } else if other_category || (held == terms.len() && denies(own)) {
            Says::IsNot
        } else {
            Says::Unclear
        };
        Some((best, says))
    }
}

/// The content term of the last word of `phrase` (its head noun).
fn last_term_of(model: &BuiltinModel, phrase: &str) -> Option<String> {
    phrase.split_whitespace().rev().find_map(|w| model.content_terms(w).into_iter().next())
}

/// Whether `phrase` names a category of things: at most 4 words, no
/// preposition or verb of a rule, ending in a plural ("American directors",
/// "film directors", "rock bands").
fn category(phrase: &str) -> bool {
    let words: Vec<String> = phrase.split_whitespace().map(str::to_lowercase).collect();
    let rule_words = [
        "for", "to", "in", "on", "at", "of", "by", "with", "from", "under", "eligible", "allowed", "entitled",
        "required", "paid", "charged", "covered", "exempt",
    ];
    words.len() <= 4
        && !words.iter().any(|w| rule_words.contains(&w.as_str()))
        && words.last().is_some_and(|w| w.len() > 3 && w.ends_with('s'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_questions_give_the_two_things_and_what_is_asked() {
        assert_eq!(
            both_question("Are Christopher Nolan and Sathish Kalathil both film directors?"),
            Some(("Christopher Nolan".into(), "Sathish Kalathil".into(), "film directors".into()))
        );
        assert_eq!(
            both_question("Are MTech and MBA students both charged tuition?").map(|b| b.2),
            Some("charged tuition".into())
        );
        assert_eq!(both_question("Is the MTech fee charged per semester?"), None);
    }

    #[test]
    fn only_a_category_is_denied_by_a_different_definition() {
        assert!(category("American directors") && category("film directors"));
        assert!(!category("eligible for the hostel") && !category("charged tuition"));
        let m = BuiltinModel::default();
        // A rule, not a category: a definition that holds one of its words says nothing.
        let ev = [
            Evidence::plain("h::1", "Hostel", "MTech students are a priority group for hostel allotment."),
            Evidence::plain("h::2", "Hostel", "MBA students are eligible for the hostel from the second year."),
        ];
        assert_eq!(m.answer_both("Are MTech and MBA students both eligible for the hostel?", &ev), None);
        // A condition is neither a yes nor a no.
        let ev = [
            Evidence::plain(
                "h::1",
                "Hostel",
                "MTech students are eligible for the hostel only if they live 50 km away.",
            ),
            Evidence::plain("h::2", "Hostel", "MBA students are eligible for the hostel from the second year."),
        ];
        assert_eq!(m.answer_both("Are MTech and MBA students both eligible for the hostel?", &ev), None);
    }
}
