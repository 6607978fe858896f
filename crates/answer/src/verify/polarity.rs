//! Polarity: a question about the negated form of a word ("Can I take
//! unpaid leave …?", "Is the deposit non-refundable?") is not answered by a
//! claim about its base ("you can use paid parental leave", "the deposit is
//! refundable"). Such a claim answers the opposite question; the retry note
//! names the word the question asked about (issue #40).
//!
//! English morphology, not the words of any document: a negated word is
//! `un-` or `non-` before a base of at least [`MIN_BASE`] letters that is
//! not a function word. A claim speaks of the base when it holds the base
//! as a whole word and none of the negated word's forms (the word itself,
//! "non-base", "not base", "no base", and the few fixed paraphrases of
//! [`PARAPHRASES`]), and the cited chunks' headings do not say it either
//! (a sentence under "Unpaid leave" speaks of unpaid leave).

use crate::lexicon::is_stop_word;
use crate::question::{WhWord, split_words};

/// Fewest letters of a base: "unit" (it), "union" (ion) and "unless"
/// (less, a function word) are not negations.
const MIN_BASE: usize = 4;

/// Negated words with paraphrases that share no form with the word.
const PARAPHRASES: &[(&str, &[&str])] = &[
    ("unpaid", &["without pay", "no pay"]),
    ("unlimited", &["no limit", "no cap", "uncapped"]),
    ("unused", &["not used", "not taken", "untaken"]),
];

/// One negated word of a question, and its base.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Negated {
    word: String,
    base: String,
}

impl Negated {
    /// `word` as a negated word, when it is one.
    fn of(word: &str) -> Option<Self> {
        let base = ["non-", "non", "un"].iter().find_map(|p| word.strip_prefix(p))?;
        let negated = base.len() >= MIN_BASE
            && base.chars().all(|c| c.is_ascii_lowercase())
            && !is_stop_word(word)
            && !is_stop_word(base);
        negated.then(|| Self { word: word.to_string(), base: base.to_string() })
    }

    /// Whether `words` (lower case, in order) say the negated word in one of its forms.
    fn said_in(&self, words: &[String]) -> bool {
        let joined = format!(" {} ", words.join(" "));
        let base = &self.base;
        let forms = [
            self.word.clone(),
            format!("non-{base}"),
            format!("non {base}"),
            format!("not {base}"),
            format!("no {base}"),
        ];
        let fixed =
            PARAPHRASES.iter().filter(|(w, _)| *w == self.word).flat_map(|(_, p)| p.iter().map(|s| s.to_string()));
        forms.into_iter().chain(fixed).any(|f| joined.contains(&format!(" {f} ")))
    }
}

/// Forms of "be" before a predicative word ("the deposit is non-refundable").
const BE: &[&str] = &["is", "are", "was", "were", "be", "been"];

/// Subjects after which a predicative negated word describes the asker,
/// not what is asked about ("I am unsure", "we are unable").
const ASKERS: &[&str] = &["i", "we", "you", "i'm", "we're", "you're"];

/// The negated words of a question's `words` that qualify what it asks
/// about: before a content word ("unpaid leave", "non-billable hours"), or
/// after a form of "be" whose subject is not the asker ("the deposit is
/// non-refundable"), or in a question that opens with "be" and whose
/// subject is not the asker ("Is the deposit non-refundable?"). "I'm unsure
/// whether" and "I am unable to" qualify nothing.
fn negated_in(words: &[String]) -> Vec<Negated> {
    // A clause opener after the word ("unsure whether", "unclear how") makes it the asker's state.
    let opener = |w: &str| WhWord::of(w).is_some() || matches!(w, "whether" | "if" | "that");
    let content = |w: &String| !is_stop_word(w) && !opener(w) && !ASKERS.contains(&w.as_str());
    words
        .iter()
        .enumerate()
        .filter(|(i, _)| {
            let next = words.get(i + 1);
            // "Is the deposit non-refundable?": a question that opens with "be" asks it of its subject.
            let inverted =
                matches!(words, [be, subject, ..] if BE.contains(&be.as_str()) && !ASKERS.contains(&subject.as_str()));
            let before: Vec<&str> = words[..*i].iter().rev().take(2).map(String::as_str).collect();
            let predicative =
                matches!(before.as_slice(), [be, subject, ..] if BE.contains(be) && !ASKERS.contains(subject));
            next.is_some_and(content) || predicative || inverted
        })
        .filter_map(|(_, w)| Negated::of(w))
        .collect()
}

/// Why `claim`, under cited `headings`, speaks of the opposite of a word
/// `question` asks about, or `None`.
pub fn opposite(claim: &str, headings: &[String], question: &str) -> Option<String> {
    let words = split_words(claim);
    let above: Vec<String> = headings.iter().flat_map(|h| split_words(h)).collect();
    let mut asked = negated_in(&split_words(question));
    asked.dedup();
    let flipped = asked.into_iter().find(|n| words.contains(&n.base) && !n.said_in(&words) && !n.said_in(&above))?;
    Some(format!(
        "the question asks about {:?}, but this sentence speaks of {:?}: quote the sentence about {:?}",
        flipped.word, flipped.base, flipped.word
    ))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::expect_used)]
    use super::*;

    const Q: &str = "Can I take unpaid leave to extend my parental leave?";

    #[test]
    fn a_claim_about_the_base_answers_the_opposite_question() {
        let why = opposite("For a new child, you can use paid parental leave.", &[], Q).expect("opposite");
        assert!(why.contains("\"unpaid\"") && why.contains("\"paid\""), "{why}");
        let q = "Is the hostel deposit non-refundable?";
        assert!(opposite("The hostel deposit is refundable on leaving.", &[], q).is_some());
    }

    #[test]
    fn the_negated_form_a_paraphrase_or_a_heading_says_it() {
        assert_eq!(opposite("You can request leave without pay to extend it.", &[], Q), None);
        assert_eq!(opposite("Unpaid leave is granted, and paid leave too.", &[], Q), None);
        let heading = vec!["Parental leave\nUnpaid leave".to_string()];
        assert_eq!(opposite("You can use paid leave first.", &heading, Q), None);
        let q = "Is the deposit non-refundable?";
        assert_eq!(opposite("The deposit is not refundable.", &[], q), None);
    }

    #[test]
    fn words_that_only_begin_like_a_negation_are_not_one() {
        for q in ["Which unit approves leave?", "Can I work unless it is approved?", "Who runs the union?"] {
            assert_eq!(opposite("The less time it takes, the better for the ion and the unit.", &[], q), None, "{q}");
        }
        assert_eq!(Negated::of("under"), None);
        assert_eq!(Negated::of("nonprofit").map(|n| n.base), Some("profit".into()));
    }

    #[test]
    fn a_negated_word_about_the_asker_qualifies_nothing() {
        let claim = "Make sure you are able to ask your manager first.";
        for q in ["I'm unsure whether I need approval for a side job.", "I am unable to log in; who can help?"] {
            assert_eq!(opposite(claim, &[], q), None, "{q}");
        }
        assert!(opposite("The deposit is refundable.", &[], "The deposit is non-refundable, right?").is_some());
        assert!(opposite("Make sure the deposit is refundable.", &[], "Are you unsure?").is_none());
    }

    #[test]
    fn a_claim_that_does_not_say_the_base_is_not_judged() {
        assert_eq!(opposite("You can request up to four weeks at any time.", &[], Q), None);
    }
}
