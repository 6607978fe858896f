//! Cue words of a question: does it ask for an amount, a quantity, yes or
//! no; which numbers it gives. Cues match whole words by stem
//! ([`Question::mentions`]), never inside another word.

use std::collections::BTreeSet;

use super::Question;

/// Words that ask for an amount of money or a count; an answer to such a
/// question must contain a number or a fraction word. Matched as whole
/// words by stem ([`Question::mentions`]).
const AMOUNT_CUES: &[&str] = &[
    "how much",
    "cost",
    "fee",
    "charge",
    "price",
    "deposit",
    "salary",
    "fine",
    "revenue",
    "turnover",
    "profit",
    "valuation",
    "wage",
    "rupees",
    "रुपये",
    "रुपए",
];

/// Question openings that ask for something other than an amount ("Who sets
/// the fee?", "Is there a fee?").
const OTHER_OPENINGS: &[&str] = &[
    "who", "whom", "whose", "who's", "where", "where's", "why", "when", "when's", "how do", "how does", "how did",
    "how can", "can", "is", "are", "does", "do",
];

/// Openings of a yes/no question.
const YES_NO_OPENINGS: &[&str] = &["is", "are", "does", "do", "can", "may", "will", "am"];

/// Words that ask for an amount, a count, a date or a limit.
const QUANTITY_CUES: &[&str] = &[
    "how many",
    "how much",
    "how long",
    "fee",
    "cap",
    "amount",
    "limit",
    "rate",
    "cost",
    "when",
    "date",
    "kitna",
    "kitni",
    "kitne",
    "salary",
    "days",
    "कितना",
    "कितनी",
    "कितने",
];

/// Whether `question` asks for an amount (money, a fee, a count).
/// The cue must be in the sentence that asks ([`Question::ask_mentions_any`]).
pub fn asks_for_amount(question: &Question) -> bool {
    question.ask_mentions_any(AMOUNT_CUES) && !OTHER_OPENINGS.iter().any(|o| question.opens_with(o))
}

/// Whether `question` asks yes or no ("Is there parking …?", "Can my friend
/// stay …?"): it opens with an auxiliary and holds no question word ("…
/// and is based where?", "Do you know who approves it?" ask for a place or
/// a person).
pub fn asks_yes_no(question: &Question) -> bool {
    YES_NO_OPENINGS.iter().any(|o| question.opens_with(o))
        && !question.ask_words().iter().any(|w| super::WhWord::of(w).is_some())
}

/// Whether `question` asks for an amount, a count, a date or a limit.
pub fn asks_for_quantity(question: &Question) -> bool {
    // "allowance" stems to "allow" ("Am I allowed …?"): matched as a word.
    question.mentions_any(QUANTITY_CUES) || question.has_word("allowance") || question.has_word("allowances")
}

/// Numbers a question gives as input ("85 marks", "a 12-day trip"): runs of
/// two or more digits that are not a year (19xx, 20xx) or a session half
/// ("2024-25"). Single digits ("3 days") are left out: they are usually
/// counts the answer multiplies, not keys to look up.
pub fn input_numbers(question: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let chars: Vec<char> = question.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        if !chars[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && (chars[i].is_ascii_digit() || chars[i] == ',') {
            i += 1;
        }
        let run: String = chars[start..i].iter().filter(|c| c.is_ascii_digit()).collect();
        let after_dash = start > 0 && matches!(chars[start - 1], '-' | '–' | '/');
        let year = run.len() == 4 && (run.starts_with("19") || run.starts_with("20"));
        let session_half = run.len() == 2 && after_dash;
        if run.len() >= 2 && !year && !session_half {
            out.insert(run);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amount_questions_are_read_from_whole_words() {
        let asks = |q: &str| asks_for_amount(&Question::parse(q));
        assert!(asks("How much is the hostel security deposit?"));
        assert!(asks("What does revaluation cost?"));
        assert!(!asks("Who leads Project Kestrel?"));
        assert!(!asks("Who sets the revaluation fee?"));
    }

    #[test]
    fn input_numbers_skip_years_sessions_and_single_digits() {
        let n = input_numbers("What grade do I get for 85 marks out of 100 in 2024-25, for 3 days?");
        assert_eq!(n.into_iter().collect::<Vec<_>>(), vec!["100".to_string(), "85".to_string()]);
        assert!(input_numbers("What was the fee in 2024?").is_empty());
    }
}
