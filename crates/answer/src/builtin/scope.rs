//! Out-of-scope checks for the builtin model: does the evidence speak about
//! what the question asks at all, and does the chosen sentence hold the kind
//! of thing asked for? Both are cheap lexical tests that turn a
//! "covers most of the words" sentence into an abstention when the one word
//! that matters (parking, 85 marks, a fee amount) is not there.

/// Words that state an amount without digits ("HALF the hostel fee", "free",
/// "no hostel fee").
const AMOUNT_WORDS: &[&str] =
    &["half", "quarter", "third", "free", "waive", "nil", "zero", "full", "double", "twice", "percent", "no "];

/// Whether `sentence` states an amount: a digit, a currency sign, or a
/// fraction word.
pub fn states_amount(sentence: &str) -> bool {
    let s = format!("{} ", sentence.to_lowercase());
    let digits = s.chars().filter(char::is_ascii_digit).count();
    let in_labels: usize = time_labels(&s).iter().map(|l| l.chars().filter(char::is_ascii_digit).count()).sum();
    digits > in_labels || s.chars().any(|c| matches!(c, '₹' | '$' | '€' | '£' | '%')) || says_amount_word(&s)
}

/// Whether lower-cased `s` has an [`AMOUNT_WORDS`] word as a whole word
/// ("free", not "freedom"; "feel free to" is no amount).
fn says_amount_word(s: &str) -> bool {
    let words: Vec<&str> = s.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).collect();
    words.iter().enumerate().any(|(i, w)| {
        AMOUNT_WORDS.iter().any(|a| word_is(w, a.trim())) && !(*w == "free" && i > 0 && words[i - 1] == "feel")
    })
}

/// Whether `word` is `amount_word`, or a form of one of five letters or
/// more ("waived", "waiver", "doubled", "percentage").
fn word_is(word: &str, amount_word: &str) -> bool {
    word == amount_word || (amount_word.len() >= 5 && word.starts_with(amount_word))
}

/// Years and sessions in `text` ("2026", "2026-27"), which name a time, not an amount.
fn time_labels(text: &str) -> Vec<&str> {
    text.split(|c: char| !(c.is_ascii_digit() || c == '-' || c == '–'))
        .filter(|w| {
            let w = w.trim_matches(['-', '–']);
            // `get`: the fourth byte can fall inside an en dash ("12–25").
            let (year, rest) = w.get(..4).zip(w.get(4..)).unwrap_or((w, ""));
            year.len() == 4
                && (year.starts_with("19") || year.starts_with("20"))
                && year.chars().all(|c| c.is_ascii_digit())
                && (rest.is_empty() || rest.trim_start_matches(['-', '–']).len() == 2)
        })
        .collect()
}

/// Whether `haystack` mentions the number `n` (ignoring digit grouping).
pub fn mentions_number(haystack: &str, n: &str) -> bool {
    let digits: String = haystack.chars().map(|c| if c == ',' { '\0' } else { c }).filter(|c| *c != '\0').collect();
    digits.match_indices(n).any(|(at, _)| {
        let before = digits[..at].chars().next_back();
        let after = digits[at + n.len()..].chars().next();
        !before.is_some_and(|c| c.is_ascii_digit()) && !after.is_some_and(|c| c.is_ascii_digit())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amount_questions_need_amount_answers() {
        assert!(states_amount("Scholarship holders pay HALF the hostel fee."));
        assert!(states_amount("Tuition is Rs 48,500 a semester."));
        assert!(!states_amount("The revaluation charge is notified by the Controller of Examinations."));
        assert!(!states_amount("The fee schedule for 2026-27 lists the refundable library deposit."));
        assert!(states_amount("In 2026 the deposit is 5000."));
        // sourcegraph handbook, travel-guide-3-travel.md: an idiom, not a price.
        assert!(!states_amount("Feel free to book travel office hours for a walkthrough on paying for meals."));
        assert!(states_amount("Meals on the flight are free of charge."));
        assert!(states_amount("The hostel fee is waived for PwD students."));
        // MuSiQue's Chess Olympiad paragraph: an en dash four bytes in.
        let dresden = "The 38th Chess Olympiad took place between 12–25 November 2008 in Dresden, Germany";
        assert!(states_amount(dresden));
        assert!(!states_amount("The session 2026–27 began."));
    }

    #[test]
    fn input_numbers_skip_years_sessions_and_single_digits() {
        assert!(mentions_number("Marks 85 and above: grade O", "85"));
        assert!(mentions_number("INR 48,500", "48500"));
        assert!(!mentions_number("Rs 850", "85"));
    }
}
