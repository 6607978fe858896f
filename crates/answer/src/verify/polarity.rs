//! Polarity: a question about a negated word qualifying a noun ("Can I take
//! unpaid leave …?", [`crate::question::Negated`]) is not answered by a
//! claim that qualifies the same noun with the base ("you can use paid
//! parental leave"): that claim answers the opposite question, and the
//! retry note names the word the question asked about (issue #40).
//!
//! A claim is judged only when it puts the base before the question's noun
//! (at most two words on), so "Leave must be used by 31 March" still
//! answers "What happens to unused leave?". It passes when it, or a heading
//! of a chunk it cites ("Unpaid leave"), says the negated word in one of
//! its forms ("without pay", "not billable").

use crate::question::{Question, split_words};

/// Why `claim`, under the cited chunks' `headings` (their section paths,
/// not their titles: a page titled "Paid and unpaid leave" says nothing of
/// one sentence), speaks of the opposite of a negated word `question` asks
/// about, or `None`.
pub fn opposite(claim: &str, headings: &[String], question: &Question) -> Option<String> {
    let words = split_words(claim);
    let above: Vec<String> = headings.iter().flat_map(|h| split_words(h)).collect();
    let flipped = question
        .negated()
        .iter()
        .find(|n| n.base_qualifies_noun_in(&words) && !n.said_in(&words) && !n.said_in(&above))?;
    Some(format!(
        "the question asks about {} {}, but this sentence speaks of {} {}: quote the sentence about {} {}",
        flipped.word, flipped.noun, flipped.base, flipped.noun, flipped.word, flipped.noun
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(text: &str) -> Question {
        Question::parse(text)
    }

    const UNPAID: &str = "Can I take unpaid leave to extend my parental leave?";

    #[test]
    fn a_claim_about_the_base_before_the_same_noun_answers_the_opposite_question() {
        let why = opposite("For a new child, you can use paid parental leave.", &[], &q(UNPAID));
        let why = why.unwrap_or_default();
        assert!(why.contains("asks about unpaid leave") && why.contains("speaks of paid leave"), "{why}");
        let hours = q("How do I log non-billable hours?");
        assert!(opposite("Log billable hours in the client's project.", &[], &hours).is_some());
    }

    #[test]
    fn the_negated_form_a_paraphrase_or_a_section_heading_says_it() {
        let question = q(UNPAID);
        assert_eq!(opposite("You can request leave without pay to extend it.", &[], &question), None);
        assert_eq!(opposite("Unpaid leave is granted after paid leave runs out.", &[], &question), None);
        let heading = vec!["Parental leave\nUnpaid leave".to_string()];
        assert_eq!(opposite("You can use paid leave first.", &heading, &question), None);
        let hours = q("How do I log non-billable hours?");
        assert_eq!(opposite("Hours that are not billable hours go to overhead.", &[], &hours), None);
    }

    #[test]
    fn a_claim_that_does_not_qualify_the_noun_with_the_base_is_not_judged() {
        let unused = q("What happens to unused leave at the end of the year?");
        assert_eq!(opposite("Leave must be used by 31 March or it lapses.", &[], &unused), None);
        assert_eq!(opposite("You can request up to four weeks at any time.", &[], &q(UNPAID)), None);
        let yes_no = q("Is the hostel deposit non-refundable?");
        assert_eq!(opposite("The hostel deposit is refundable on leaving.", &[], &yes_no), None);
    }
}
