//! Negated words that qualify what a question asks about: "unpaid" in
//! "Can I take unpaid leave …?", "non-billable" in "How do I log
//! non-billable hours?". A claim about the base qualifying the same noun
//! ("paid parental leave") answers the opposite question
//! (`crate::verify::polarity`).
//!
//! English morphology, not the words of any document: `un-` or `non-`
//! before a base of at least 4 letters, where neither is a
//! function word nor a look-alike ("unless", "under"), used attributively: right
//! before the content word it qualifies. Predicative uses are left alone,
//! since "Is the deposit non-refundable?" is answered by "The deposit is
//! refundable", and so are the asker's states ("I'm unsure whether …",
//! "unable to …"), where a function word follows.

use crate::lexicon::is_stop_word;
use crate::question::WhWord;

/// Fewest letters of a base: "unit" (it), "union" (ion) are not negations.
const MIN_BASE: usize = 4;

/// Words that begin like a negation and are none.
const NOT_NEGATIONS: &[&str] = &["unless", "until", "under", "understand", "understood", "nonsense"];

/// One negated word, its base, and the content word it qualifies.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Negated {
    /// The word as asked ("unpaid", "non-billable").
    pub word: String,
    /// Its base ("paid", "billable").
    pub base: String,
    /// The word it qualifies, right after it ("leave", "hours").
    pub noun: String,
}

impl Negated {
    /// Whether `words` (lower case, in order) say the negated word in one
    /// of its forms: itself, "non-", "non ", "not " or "no " before the
    /// base, or a fixed paraphrase ("without pay" for "unpaid").
    pub fn said_in(&self, words: &[String]) -> bool {
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

    /// Whether `words` say the base before the same noun, at most
    /// two words on ("paid parental leave" for "unpaid leave").
    pub fn base_qualifies_noun_in(&self, words: &[String]) -> bool {
        words
            .iter()
            .enumerate()
            .any(|(i, w)| *w == self.base && words.iter().skip(i + 1).take(NOUN_WITHIN).any(|n| *n == self.noun))
    }
}

/// Words from a base to the noun it qualifies ("paid parental leave": 2).
const NOUN_WITHIN: usize = 2;

/// Negated words with paraphrases that share no form with the word.
const PARAPHRASES: &[(&str, &[&str])] =
    &[("unpaid", &["without pay", "no pay"]), ("unlimited", &["no limit", "no cap", "uncapped"])];

/// The negated words of a question's `words` (lower case, in order), each
/// with the content word right after it.
pub fn negated(words: &[String]) -> Vec<Negated> {
    let content = |w: &str| {
        !is_stop_word(w)
            && WhWord::of(w).is_none()
            && !matches!(w, "whether" | "if" | "that")
            && w.chars().all(char::is_alphabetic)
    };
    let mut out: Vec<Negated> = words
        .windows(2)
        .filter(|pair| content(&pair[1]))
        .filter_map(|pair| {
            let base = ["non-", "non", "un"].iter().find_map(|p| pair[0].strip_prefix(p))?;
            let negation = base.len() >= MIN_BASE
                && base.chars().all(|c| c.is_ascii_lowercase())
                && !NOT_NEGATIONS.contains(&pair[0].as_str())
                && !is_stop_word(&pair[0])
                && !is_stop_word(base);
            negation.then(|| Negated { word: pair[0].clone(), base: base.to_string(), noun: pair[1].clone() })
        })
        .collect();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::question::split_words;

    fn of(q: &str) -> Vec<(String, String, String)> {
        negated(&split_words(q)).into_iter().map(|n| (n.word, n.base, n.noun)).collect()
    }

    fn triple(w: &str, b: &str, n: &str) -> (String, String, String) {
        (w.into(), b.into(), n.into())
    }

    #[test]
    fn an_attributive_negation_is_found_with_its_noun() {
        assert_eq!(of("Can I take unpaid leave to extend my parental leave?"), [triple("unpaid", "paid", "leave")]);
        assert_eq!(of("How do I log non-billable hours?"), [triple("non-billable", "billable", "hours")]);
    }

    #[test]
    fn predicative_uses_states_of_the_asker_and_look_alikes_are_not() {
        for q in [
            "Is the hostel deposit non-refundable?",
            "I'm unsure whether I need approval for a side job.",
            "What if a student is unable to pay on time?",
            "Is leave approved automatically unless the manager objects?",
            "Which unit handles union matters?",
            "How do I unlock my account?",
        ] {
            assert_eq!(of(q), [], "{q}");
        }
    }
}
