//! Whether a sentence holds a value of the kind a question asks for (the
//! question's [`AnswerType`] is read once, by `question::kind`). The builtin
//! model prefers sentences that hold what was asked for: of two sentences
//! about overtime pay, the one with "$191,900" answers "Above what salary
//! …?", the one about the calculator does not. Cheap lexical patterns, as
//! in answer-type taxonomies of extractive QA (Li and Roth, "Learning
//! Question Classifiers", COLING 2002).

use std::sync::LazyLock;

use regex::Regex;

use super::scope;
pub use crate::question::AnswerType;

/// Time units a duration is counted in.
const UNITS: &str = r"(?:seconds?|minutes?|hours?|days?|weeks?|fortnights?|months?|years?|pay ?periods?|semesters?|terms?|sessions?|nights?|दिन|दिनों|सप्ताह|हफ़्ते|महीने|महीनों|वर्ष|वर्षों|साल|घंटे)";
/// Numbers written as words.
const NUMBER_WORDS: &str = r"(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|sixty|ninety|several|few)";

static DURATION: LazyLock<Regex> = LazyLock::new(|| {
    #[allow(clippy::expect_used)]
    Regex::new(&format!(
        r"(?i)\b(?:\d+(?:[.,]\d+)?|{NUMBER_WORDS})(?:\s*\(\d+\))?[\s-]+(?:(?:business|working|calendar|consecutive|full)\s+)?{UNITS}\b"
    ))
    .expect("valid duration pattern")
});

/// A length: "16 characters", "2,000 words", "500 km". "How long must a
/// password be?" asks for one, as "How long is the probation?" asks for a
/// duration.
static LENGTH: LazyLock<Regex> = LazyLock::new(|| {
    #[allow(clippy::expect_used)]
    Regex::new(
        r"(?i)\b\d+(?:[.,]\d+)*\s*(?:characters?|chars|letters|digits|words|pages|lines|km|kilomet(?:re|er)s?|met(?:re|er)s|miles|cm|inches)\b",
    )
    .expect("valid length pattern")
});

static DATE: LazyLock<Regex> = LazyLock::new(|| {
    #[allow(clippy::expect_used)]
    Regex::new(
        r"(?i)\b(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b\.?\s*\d{1,4}|\b\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b|\b\d{1,2}[./-]\d{1,2}[./-]\d{2,4}\b|\b(?:19|20)\d{2}-\d{2}-\d{2}\b|\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b|\b(?:19|20)\d{2}\b|\b\d{1,2}(?::\d{2})?\s*[ap]\.?m\b|\b(?:noon|midnight)\b",
    )
    .expect("valid date pattern")
});

/// A date to the day: "23.11.2026", "2026-11-23", "23 November", "November 23rd".
static DAY_DATE: LazyLock<Regex> = LazyLock::new(|| {
    #[allow(clippy::expect_used)]
    Regex::new(
        r"(?i)\b\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b|\b\d{1,2}[./-]\d{1,2}[./-]\d{2,4}\b|\b(?:19|20)\d{2}-\d{2}-\d{2}\b|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2}(?:st|nd|rd|th)?\b",
    )
    .expect("valid day-date pattern")
});

/// A place named after "in", "at" or "near": "in eastern Djibouti",
/// "in Katsina State, Nigeria".
static PLACE: LazyLock<Regex> = LazyLock::new(|| {
    #[allow(clippy::expect_used)]
    Regex::new(r"\b(?:in|at|near)\s+(?:the\s+)?(?:(?:north|south|east|west|northern|southern|eastern|western|central|north-west|north-east|south-west|south-east)\s+)?\p{Lu}")
        .expect("valid place pattern")
});

static CONTACT: LazyLock<Regex> = LazyLock::new(|| {
    #[allow(clippy::expect_used)]
    Regex::new(r"(?i)[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\bhttps?://\S+|\bwww\.\S+|(?:\+?\d[\d\s-]{8,}\d)|#[a-z][\w-]{2,}")
        .expect("valid contact pattern")
});

/// Counts: digits or a number word ("a" and "an" count only before a time
/// unit, in [`DURATION`]).
static NUMBER: LazyLock<Regex> = LazyLock::new(|| {
    #[allow(clippy::expect_used)]
    Regex::new(r"(?i)\b(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|several)\b")
        .expect("valid number pattern")
});

impl AnswerType {
    /// Whether the type names a value a sentence can hold or lack (not
    /// yes/no, not "other").
    pub fn is_value(self) -> bool {
        !matches!(self, Self::YesNo | Self::Other)
    }

    /// What a drafting prompt tells a model the question asks for ("an
    /// amount, with its currency and unit"); `None` for [`AnswerType::Other`].
    pub fn asked_for(self) -> Option<&'static str> {
        Some(match self {
            Self::Amount => "an amount: copy it with its currency, unit and period",
            Self::Date => "a date or deadline: give the exact date the passage states",
            Self::Duration => "a length of time: give the number with its unit",
            Self::Length => "a size or length: give the number with its unit",
            Self::Count => "a number of things",
            Self::Contact => "an e-mail address, web address or phone number: copy it exactly",
            Self::Agent => "a person, team or office",
            Self::Place => "a place: name it as the passage does",
            Self::YesNo => "yes or no: begin with \"Yes\" or \"No\", then the rule that settles it",
            Self::Other => return None,
        })
    }

    /// Whether `sentence` holds the value to full precision: for
    /// [`AnswerType::Date`] a date to the day ("from 23.11.2026" answers
    /// "When do the exams start?" better than "in May 2027"); for every
    /// other kind, [`AnswerType::held_by`].
    pub fn held_precisely_by(self, sentence: &str) -> bool {
        match self {
            Self::Date => DAY_DATE.is_match(sentence),
            other => other.held_by(sentence),
        }
    }

    /// Whether `sentence` holds a value of this kind. [`AnswerType::YesNo`]
    /// and [`AnswerType::Other`] hold for every sentence.
    pub fn held_by(self, sentence: &str) -> bool {
        match self {
            Self::Amount => scope::states_amount(sentence),
            Self::Date => DATE.is_match(sentence),
            Self::Duration => DURATION.is_match(sentence),
            Self::Length => LENGTH.is_match(sentence),
            Self::Count => NUMBER.is_match(sentence),
            Self::Contact => CONTACT.is_match(sentence),
            Self::Agent => names_someone(sentence),
            Self::Place => PLACE.is_match(sentence),
            Self::YesNo | Self::Other => true,
        }
    }
}

/// Whether a sentence names a person, a team or an office: a capitalised
/// word after its first word, or a role word.
fn names_someone(sentence: &str) -> bool {
    let roles = ["team", "office", "officer", "manager", "supervisor", "director", "lead", "committee", "registrar"];
    let lower = sentence.to_lowercase();
    sentence
        .split_whitespace()
        .skip(1)
        .any(|w| w.chars().next().is_some_and(char::is_uppercase) && w.chars().skip(1).any(char::is_lowercase))
        || lower.split(|c: char| !c.is_alphanumeric()).any(|w| roles.contains(&w) || w.ends_with("er") && w.len() > 5)
}

#[cfg(test)]
mod tests {
    use super::AnswerType::*;

    #[test]
    fn sentences_hold_values_of_a_kind() {
        assert!(Duration.held_by("Allow 10 business days for your account to be set up."));
        assert!(Duration.held_by("Coordinate at least thirty (30) days before departure."));
        assert!(!Duration.held_by("Send the CGE Access Request Form to the Concur team."));
        assert!(Contact.held_by("Email the approval to tts-travel@gsa.gov for processing."));
        assert!(!Contact.held_by("Send the approval to your travel coordinator."));
        assert!(Date.held_by("Applications close on 15 July 2026."));
        assert!(Date.held_by("With effect from 15.07.2026 the fee is halved."));
        assert!(!Date.held_by("Applications close after the results are out."));
        // A time of day answers "Until what time …?" (a date's kind, Li and Roth's NUM:date).
        assert!(Date.held_by("The building is open 6am - 7pm on weekdays."));
        assert!(Date.held_by("Doors close at 5:30 p.m. sharp."));
        assert!(!Date.held_by("Bring 5 pamphlets to the meeting."));
        // handbook_18f, how-to-log-in.md: "How long does my Mac login password need to be?"
        assert!(Length.held_by("Passwords must be 16 characters"));
        assert!(!Length.held_by("Users may see the prompt if their password is due to expire within 14 days."));
        assert!(!Length.held_by("Password changed whenever password is forgotten or compromised."));
        // Real circular and handbook text (sample-docs/university).
        let circular = "The end-semester examinations of the odd semester of 2026-27 will be held from Monday, 23.11.2026 to Friday, 04.12.2026.";
        assert!(Date.held_precisely_by(circular));
        assert!(Date.held_precisely_by("Applications close on July 15th."));
        assert!(Date.held_by("End-semester examinations are held in May 2027."));
        assert!(!Date.held_precisely_by("End-semester examinations are held in May 2027."));
        assert!(Amount.held_by("If you make the maximum salary ($191,900 in 2024), you cannot receive overtime."));
        assert!(!Amount.held_by("The amount you can receive depends on your salary level."));
        assert!(Agent.held_by("Billable travel is approved by Joe Krzystan."));
        assert!(Count.held_by("Fill out two forms."));
        // eval/musique.jsonl paragraphs.
        assert!(Place.held_by("Baure is a Local Government Area in Katsina State, Nigeria"));
        assert!(Place.held_by("Damerjog is a small village located in eastern Djibouti, populated by farmers."));
        assert!(!Place.held_by("This and the rest of Baur's work had a profound impact upon higher criticism."));
        // sourcegraph handbook, celebrate.md: "a day" is no count of extra days.
        assert!(!Count.held_by("Sourcegraph encourages teammates to take a day of vacation on their special day."));
        // eval/hindi/docs, leave-policy.hi.md.
        assert!(Duration.held_by("एक कैलेंडर वर्ष में 8 दिन का आकस्मिक अवकाश मिलता है।"));
        assert!(Duration.held_by("महिला कर्मचारियों को 26 सप्ताह का सवेतन मातृत्व अवकाश मिलता है।"));
        assert!(!Duration.held_by("अवकाश के लिए प्रबंधक से अनुमति लें।"));
    }
}
