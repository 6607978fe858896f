//! Yes/no answers: "Yes: …" or "No: …" before the verbatim evidence, only
//! when one cited sentence settles the question. The sentence must restate
//! the question (every content word, [`SETTLES`], and every number it
//! gives; negation and permission words aside) without a condition
//! ("unless", "except", "only if"); then the answer is "Yes" when the
//! sentence and the question agree in polarity and "No" when exactly one of
//! them denies (a negation or a prohibition such as "forbidden",
//! [`denies`]): "Can credit hours be converted to cash?" against "Credit
//! hours cannot be converted to cash." Anything weaker keeps the plain
//! evidence: the model never says a "yes" or a "no" its evidence does not
//! back.

use super::{BuiltinModel, Question, Scored, scope};
use crate::lexicon::{denies, is_negation};
use crate::question::WhWord;

/// Share of the question's content terms the sentence must hold: all of
/// them. One missing word can be the whole question ("Is the hostel still
/// free …?" against "… shall pay HALF the hostel fee" holds every word but
/// "free").
pub const SETTLES: f32 = 1.0;

/// Stems that ask for permission ("Am I allowed to …?"); a prohibition
/// answers them, so they need not appear in the sentence.
const PERMISSION: &[&str] = &["allow", "permit", "eligibl", "entitl", "ok", "okay"];

/// The reply word a yes/no answer starts with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reply {
    /// The evidence affirms what was asked.
    Yes,
    /// The evidence denies what was asked.
    No,
}

impl Reply {
    /// `"Yes"` or `"No"`.
    pub fn word(self) -> &'static str {
        match self {
            Self::Yes => "Yes",
            Self::No => "No",
        }
    }
}

/// The reply `sentence` gives to the yes/no `question`, or `None` when the
/// question is not yes/no or the sentence does not settle it.
pub fn reply(model: &BuiltinModel, question: &Question, sentence: &Scored) -> Option<Reply> {
    if !question.asks_yes_no() || compound(question.text()) {
        return None;
    }
    // Polarity is judged apart, so negation and permission words are not terms to hold.
    let asked: Vec<String> = model
        .literal_terms(question.text())
        .into_iter()
        .filter(|t| !is_negation(t) && !PERMISSION.contains(&t.as_str()))
        .collect();
    // Judged on the sentence's own words: the sentence before it, quoted
    // with it, may deny something else ("… lapses. It can be encashed.").
    let own = sentence.own_text();
    let said = model.literal_terms(own);
    let held = asked.iter().filter(|t| said.contains(*t)).count() as f32 / asked.len().max(1) as f32;
    let numbers_held = question.input_numbers().iter().all(|n| scope::mentions_number(own, n));
    if held < SETTLES || !numbers_held || conditional(own) {
        return None;
    }
    let flips = denies(question.text()) != denies(own);
    Some(if flips { Reply::No } else { Reply::Yes })
}

/// Whether `sentence` makes its rule conditional ("… unless you leave
/// GSA"), so neither "yes" nor "no" is the whole answer.
pub(super) fn conditional(sentence: &str) -> bool {
    let s = format!(" {} ", sentence.to_lowercase());
    [" unless ", " except ", " only if ", " provided that ", " subject to ", " if "].iter().any(|c| s.contains(c))
}

/// Whether `question` asks more than yes or no: two questions, "A or B?",
/// or a yes/no part joined to another ("Is it open on Sundays, and till
/// when?").
fn compound(question: &str) -> bool {
    let q = question.to_lowercase();
    let joined = [" and ", ", "].iter().any(|j| {
        q.split(j).skip(1).any(|rest| {
            let first = rest.split_whitespace().next().unwrap_or_default();
            WhWord::of(first).is_some() || matches!(first, "till" | "until")
        })
    });
    question.matches('?').count() > 1 || q.contains(" or ") || joined
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scored(text: &str) -> Scored {
        Scored {
            text: text.into(),
            key: "k".into(),
            coverage: 1.0,
            weighted_coverage: None,
            score: 1.0,
            features: Default::default(),
            meaning: None,
            typed: false,
            lacks_value: false,
            direct: 1.0,
            at: (0, 0),
            lead: crate::builtin::Lead::None,
        }
    }

    #[test]
    fn a_negated_sentence_answers_no_and_an_agreeing_one_yes() {
        let m = BuiltinModel::default();
        // 18F handbook, overtime page (credit hours).
        let cash = scored("Credit hours cannot be converted to cash.");
        assert_eq!(reply(&m, &Question::parse("Can credit hours be converted to cash?"), &cash), Some(Reply::No));
        // The 18F overtime page's real sentence has a condition: no reply word.
        let unless =
            scored("Credit hours cannot be converted to cash, unless you leave GSA (then they will be paid out).");
        assert_eq!(reply(&m, &Question::parse("Can credit hours be converted to cash?"), &unless), None);
        let never = scored("Credit hours never expire.");
        assert_eq!(reply(&m, &Question::parse("Do credit hours not expire?"), &never), Some(Reply::Yes));
        assert_eq!(reply(&m, &Question::parse("Do credit hours expire?"), &never), Some(Reply::No));
        // sample-docs/company/it-security-policy.md: a prohibition without a negation word.
        let usb = scored("Copying customer data to USB drives or personal cloud storage is forbidden.");
        assert_eq!(
            reply(&m, &Question::parse("Am I allowed to copy customer data to a USB drive?"), &usb),
            Some(Reply::No)
        );
        let allowed = scored("Copying customer data to USB drives is not forbidden for administrators.");
        assert_eq!(reply(&m, &Question::parse("Can I copy customer data to USB drives?"), &allowed), Some(Reply::Yes));
        let carry = scored("You can carry over up to 240 hours of annual leave into the next leave year.");
        assert_eq!(
            reply(&m, &Question::parse("Can I carry over annual leave into the next leave year?"), &carry),
            Some(Reply::Yes)
        );
    }

    #[test]
    fn weak_or_mismatched_evidence_gives_no_reply_word() {
        let m = BuiltinModel::default();
        let cap = scored("Therefore, you can request up to 56 advanced annual leave hours.");
        assert_eq!(reply(&m, &Question::parse("Is advanced annual leave capped at 80 hours?"), &cap), None);
        assert_eq!(reply(&m, &Question::parse("What is the advanced annual leave cap?"), &cap), None);
        // sample-docs Circular-14: every word of the question but "free" is in the sentence.
        let half = scored(
            "With effect from 15.07.2026, students who hold the Institute's North-East Scholarship shall pay HALF the hostel fee.",
        );
        assert_eq!(reply(&m, &Question::parse("Is hostel still free on the north-east scholarship?"), &half), None);
        let both = scored("Hostel and mess fees are charged per semester.");
        assert_eq!(reply(&m, &Question::parse("Is the hostel fee charged per semester or per year?"), &both), None);
        // sample-docs lib-02: the yes/no part is joined to a "till when".
        let sundays = scored("The library is open on Sundays from 10 am till 6 pm.");
        assert_eq!(reply(&m, &Question::parse("Is the library open on Sundays, and till when?"), &sundays), None);
        assert_eq!(reply(&m, &Question::parse("Is the library open on Sundays?"), &sundays), Some(Reply::Yes));
    }
}
