//! The negation check: a claim must not flip the polarity of the sentence
//! it restates. "Credit hours never expire", drafted as "credit hours
//! expire", passes the support check (every word is in the chunk) and the
//! numeric check (no numbers), so it needs its own rule: find the cited
//! sentence the claim restates (most of its content words) and compare
//! whether each says "not", "no", "never" (or another negation). The
//! cited text keeps its lines, so list items stay sentences of their own:
//! the RFC 9110 index entry "413 Content Too Large" is not restating the
//! "416 Range Not Satisfiable" entry below it.

use std::collections::BTreeSet;

use crate::builtin::{BuiltinModel, join_wrapped_lines};
use crate::citations::split_sentences;
pub use crate::lexicon::negation_cue;

/// Share of a claim's content words a cited sentence must hold for the
/// claim to count as restating it (below, the claim is a summary or a
/// combination, and only the support check applies).
const RESTATES: f32 = 0.6;

/// Why `claim` flips a sentence of `cited` it restates, if it does: the
/// message quotes the sentence and names the negation one side has. A
/// claim of several sentences (a sentence quoted with the one before, which
/// it refers back to) is judged sentence by sentence: "The \"h2c\" string
/// was used … This usage was never widely deployed." says "never" where the
/// second sentence does, not where the first does.
pub fn flipped(claim: &str, cited: &[&str]) -> Option<String> {
    let model = BuiltinModel::default();
    let parts = split_sentences(claim);
    if parts.len() > 1 {
        return parts.iter().find_map(|p| flipped_sentence(&model, p.text.trim(), cited));
    }
    flipped_sentence(&model, claim, cited)
}

/// [`flipped`] for a claim of one sentence.
fn flipped_sentence(model: &BuiltinModel, claim: &str, cited: &[&str]) -> Option<String> {
    let words = model.literal_terms(claim);
    if words.is_empty() {
        return None;
    }
    let source = restated_sentence(model, &words, cited)?;
    match (negation_cue(claim), negation_cue(&source)) {
        (None, Some(cue)) => {
            let says = around(&source, &cue);
            Some(format!("says \"{says}\" (\"{cue}\"); your sentence drops the negation: {claim:?}"))
        }
        (Some(cue), None) => {
            let says = around(&source, "");
            Some(format!("says \"{says}\" with no negation; your sentence says \"{cue}\": {claim:?}"))
        }
        _ => None,
    }
}

/// The words of `sentence` around its first `cue` (three either side; its
/// first eight words without one), the short quote a retry note needs.
fn around(sentence: &str, cue: &str) -> String {
    let words: Vec<&str> = sentence.split_whitespace().collect();
    match words.iter().position(|w| negation_cue(w).as_deref() == Some(cue)) {
        Some(hit) => words[hit.saturating_sub(3)..(hit + 4).min(words.len())].join(" "),
        None => words[..words.len().min(8)].join(" "),
    }
}

/// The cited sentence holding the largest share (at least [`RESTATES`]) of
/// `words`.
fn restated_sentence(model: &BuiltinModel, words: &BTreeSet<String>, cited: &[&str]) -> Option<String> {
    let mut best: Option<(f32, String)> = None;
    for text in cited {
        for s in split_sentences(&join_wrapped_lines(text)) {
            let own = model.literal_terms(&s.text);
            let share = words.iter().filter(|w| own.contains(*w)).count() as f32 / words.len() as f32;
            if share >= RESTATES && best.as_ref().is_none_or(|(b, _)| share > *b) {
                best = Some((share, s.text.trim().to_string()));
            }
        }
    }
    best.map(|(_, s)| s)
}

#[cfg(test)]
mod tests {
    use super::*;

    const CREDIT: &str = "Credit hours never expire. They can be used at any time before you leave.";

    #[test]
    fn a_dropped_never_is_caught_and_quoted() {
        let why = flipped("Credit hours expire.", &[CREDIT]).unwrap_or_default();
        assert!(why.contains("says \"Credit hours never expire.\"") && why.contains("(\"never\")"), "{why}");
    }

    #[test]
    fn an_added_not_is_caught() {
        let why = flipped("They can not be used at any time before you leave.", &[CREDIT]).unwrap_or_default();
        assert!(why.contains("with no negation; your sentence says \"not\""), "{why}");
    }

    #[test]
    fn paraphrased_negations_and_plain_restatements_pass() {
        assert_eq!(flipped("Credit hours do not expire.", &[CREDIT]), None);
        assert_eq!(flipped("Credit hours don't ever expire.", &[CREDIT]), None);
        assert_eq!(flipped("Credit hours can be used at any time before you leave.", &[CREDIT]), None);
        // A claim that restates no one sentence is left to the support check.
        assert_eq!(flipped("Hotels are capped at INR 6,000.", &[CREDIT]), None);
        assert_eq!(flipped("The deposit is not refundable.", &["The deposit is non-refundable."]), None);
    }

    #[test]
    fn a_claim_of_two_sentences_is_judged_sentence_by_sentence() {
        // RFC 9113, section 3.1: the second sentence refers back to the first.
        let rfc = "The \"h2c\" string was previously used as a token for use in the HTTP Upgrade mechanism's \
                   Upgrade header field. This usage was never widely deployed and is deprecated by this document.";
        assert_eq!(flipped(rfc, &[rfc]), None);
        let dropped = "The \"h2c\" string was previously used as a token for use in the HTTP Upgrade mechanism's \
                       Upgrade header field. This usage was widely deployed and is deprecated by this document.";
        let why = flipped(dropped, &[rfc]).unwrap_or_default();
        assert!(why.contains("(\"never\")"), "{why}");
    }

    #[test]
    fn a_list_item_is_its_own_sentence() {
        // The index of RFC 9110 (versions_rfc_http/text/rfc9110.txt): one
        // run of list items, one of which says "Not".
        let index = "-   409 Conflict (status code)\u{a0}\u{a0}15.5.10, 18.3\n    -   410 Gone (status code)\u{a0}\u{a0}15.5.11, \
                     18.3\n    -   411 Length Required (status code)\u{a0}\u{a0}15.5.12, 18.3\n    -   412 Precondition Failed \
                     (status code)\u{a0}\u{a0}15.5.13, 18.3\n    -   413 Content Too Large (status code)\u{a0}\u{a0}15.5.14, 17.5, \
                     18.3\n    -   414 URI Too Long (status code)\u{a0}\u{a0}15.5.15, 17.5, 18.3\n    -   415 Unsupported Media \
                     Type (status code)\u{a0}\u{a0}15.5.16, 18.3\n    -   416 Range Not Satisfiable (status code)\u{a0}\u{a0}15.5.17, 18.3";
        let claim = "- 413 Content Too Large (status code)\u{a0}\u{a0}15.5.14, 17.5, 18.3";
        assert_eq!(flipped(claim, &[index]), None);
        // As the check sees it, instructions removed: the lines are kept.
        assert_eq!(flipped(claim, &[&super::super::without_instructions(index)]), None);
        assert_eq!(flipped("Yes: Credit hours never expire.", &[CREDIT]), None);
        let carry = "Leave can be carried over not more than twice.";
        assert!(flipped("Leave can be carried over.", &[carry]).is_some(), "the passage goes on with \"not\"");
        assert!(flipped("Credit hours expire.", &["Credit hours expire never. Nothing else."]).is_some());
    }

    #[test]
    fn cues_are_whole_words() {
        assert_eq!(negation_cue("Nothing is owed"), Some("nothing".into()));
        assert_eq!(negation_cue("You can’t carry it over"), Some("n't".into()));
        assert_eq!(negation_cue("Notify the office in November"), None);
        assert_eq!(negation_cue("You cannot claim it"), Some("cannot".into()));
        assert_eq!(negation_cue("Circular No. 14 (2026-27) and Policy Circular No.2.2.14"), None);
        assert_eq!(negation_cue("No, the hostel fee is Rs 14,000."), None);
        assert_eq!(negation_cue("No hostel fee is charged."), Some("no".into()));
        assert_eq!(negation_cue("आधिकारिक यात्रा पर आपको प्रतिदिन 1,800 रुपये का दैनिक भत्ता मिलता है।"), None);
        assert_eq!(negation_cue("आ"), None);
        // Sentences in other scripts are read without a panic (no Hindi cues yet).
        let hindi = "आधिकारिक यात्रा पर भत्ता मिलता है।";
        assert_eq!(flipped(hindi, &[hindi]), None);
    }
}
