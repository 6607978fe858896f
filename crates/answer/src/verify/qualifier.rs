//! The qualifier check (issue #40): a claim that states a value must cite
//! a sentence that says the question's qualifiers
//! ([`crate::question::qualifiers`]: "half", "first", "north-east"); the
//! claim's own words do not count, since a small model echoes the
//! question's ("The last paper is on 24 November", the first paper's date). "The hostel
//! fee is Rs 14,000 \[c\]" for "What is the hostel fee for north-east
//! scholarship holders?" passes the support and numeric checks (every word
//! and number is in the chunk) but answers another question: the 14,000
//! sentence is about everyone. The retry note names the qualifier, so the
//! model can look for the sentence that says it.
//!
//! A draft is judged whole: a sentence without the qualifier passes when
//! another sentence of the draft that passes every other check cites a
//! sentence saying it with its value ("North-east scholarship holders pay
//! Rs 7,000 \[a\]. The hostel fee is Rs 14,000 \[b\]." gives the fee as
//! context). In a question of several clauses a qualifier binds only the
//! claims about its own clause.
//!
//! The cited sentence is each sentence of a cited chunk that holds one of
//! the claim's values (the question's own numbers aside), read with the
//! sentence before it and the chunk's section headings ("North-east
//! scholarship holders" may head a list). Not the document's title: a
//! circular about the north-east concession also states the full fee. A claim whose values are in
//! no cited sentence (arithmetic over them) is left to the numeric check.

use std::collections::BTreeSet;

use crate::builtin::BuiltinModel;
use crate::citations::split_sentences;
use crate::numeric::{Value, numbers_in};
use crate::question::Question;

/// One cited chunk as the check reads it: its text (a table row with its
/// row sentence) and its section headings.
pub struct Cited<'a> {
    /// The text the claim is checked against.
    pub text: &'a str,
    /// Section headings, joined (the document title left out).
    pub headings: String,
}

/// How one claim stands with the question's qualifiers.
#[derive(Debug, Default)]
pub struct Judged {
    /// Qualifiers the cited sentence that holds the claim's value says.
    pub said: Vec<String>,
    /// Qualifiers that bind the claim's values and that neither says.
    pub missing: Vec<String>,
    /// The values the claim states, as written.
    stated: Vec<String>,
}

impl Judged {
    /// Why the claim answers another question, given the qualifiers some
    /// other sentence of the same draft says (`covered`): "The hostel fee
    /// is Rs 14,000" is context after "North-east scholarship holders pay
    /// half", not an answer of its own.
    pub fn verdict(&self, claim: &str, covered: &BTreeSet<String>) -> Option<String> {
        let missing: Vec<String> =
            self.missing.iter().filter(|q| !covered.contains(*q)).map(|q| format!("{q:?}")).collect();
        if missing.is_empty() {
            return None;
        }
        Some(format!(
            "states {} for a case without {}, which the question asks about: the cited sentence does not say {}; quote the sentence about {}: {claim:?}",
            self.stated.join(", "),
            missing.join(" and "),
            missing.join(" or "),
            missing.join(" and "),
        ))
    }
}

/// How `claim`, citing `cited`, stands with `question`'s qualifiers. A
/// qualifier is missing when it binds the claim ([`crate::question::Qualifier::binds`]),
/// the claim states a value of its own (not one of the question's), a
/// sentence of `cited` holds that value, and no such sentence (read with
/// the one before it and the chunk's sections) says it; the claim's own
/// words do not count, since a model echoes the question's.
pub fn judge(claim: &str, cited: &[Cited<'_>], question: &Question) -> Judged {
    let qualifiers = question.qualifiers();
    if qualifiers.is_empty() {
        return Judged::default();
    }
    let asked: Vec<Value> = numbers_in(question.text()).into_iter().map(|m| m.value).collect();
    let stated: Vec<_> = numbers_in(claim).into_iter().filter(|m| !asked.contains(&m.value)).collect();
    let values: Vec<Value> = stated.iter().map(|m| m.value).collect();
    let context = if values.is_empty() { Vec::new() } else { anchoring_context(cited, &values) };
    let terms = BuiltinModel::default().content_terms(claim);
    let mut judged = Judged { stated: stated.iter().map(|m| m.raw.clone()).collect(), ..Judged::default() };
    for q in qualifiers {
        // A claim is judged by the cited sentence that holds its value: a
        // small model echoes the question ("The last paper is on 24
        // November", the first paper's date), so its own words prove
        // nothing, and a claim without a value says nothing for the others.
        if context.iter().any(|c| q.said_in(c)) {
            judged.said.push(q.word.clone());
        } else if !context.is_empty() && q.binds(&terms) {
            judged.missing.push(q.word.clone());
        }
    }
    judged
}

/// Why `claim` answers another question than `question`, judged alone
/// ([`judge`], nothing covered by other sentences).
pub fn unqualified(claim: &str, cited: &[Cited<'_>], question: &Question) -> Option<String> {
    judge(claim, cited, question).verdict(claim, &BTreeSet::new())
}

/// For each sentence of `cited` that holds one of `values`: that sentence
/// with the one before it and the chunk's headings.
fn anchoring_context(cited: &[Cited<'_>], values: &[Value]) -> Vec<String> {
    let mut out = Vec::new();
    for c in cited {
        let sentences: Vec<String> = split_sentences(c.text).into_iter().map(|s| s.text).collect();
        for (i, s) in sentences.iter().enumerate() {
            if numbers_in(s).iter().any(|m| values.contains(&m.value)) {
                let before = i.checked_sub(1).map_or("", |j| sentences[j].as_str());
                out.push(format!("{}\n{before}\n{s}", c.headings));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::expect_used)]

    use super::*;

    const CHUNK: &str = "Hostel fee: Rs 14,000 per semester for every resident. \
        The mess charge is Rs 3,000. North-east scholarship holders pay half the hostel fee, Rs 7,000.";

    fn verdict(question: &str, claim: &str) -> Option<String> {
        let cited = [Cited { text: CHUNK, headings: "Fees 2026-27 > Hostel".into() }];
        unqualified(claim, &cited, &Question::parse(question))
    }

    #[test]
    fn the_unqualified_value_is_rejected_and_the_note_names_the_qualifier() {
        let q = "What is the hostel fee for north-east scholarship holders?";
        let why =
            verdict(q, "The hostel fee is Rs 14,000 per semester.").expect("the full fee answers another question");
        assert!(why.contains("\"north-east\"") && why.contains("14,000"), "{why}");
        assert_eq!(verdict(q, "They pay half the hostel fee, Rs 7,000."), None);
        let echo = verdict(q, "North-east scholarship holders pay Rs 14,000.");
        assert!(echo.is_some_and(|w| w.contains("\"north-east\"")), "echoing the question proves nothing");
    }

    #[test]
    fn no_qualifier_no_value_or_a_qualified_heading_passes() {
        assert_eq!(verdict("What is the hostel fee?", "The hostel fee is Rs 14,000 per semester."), None);
        assert_eq!(verdict("What is the hostel fee for north-east students?", "Ask the warden."), None);
        let cited = [Cited { text: "Rs 7,000 per semester.", headings: "Fees > North-East scholarship".into() }];
        let q = Question::parse("What is the hostel fee for north-east students?");
        assert_eq!(unqualified("The fee is Rs 7,000 per semester.", &cited, &q), None);
    }
}
