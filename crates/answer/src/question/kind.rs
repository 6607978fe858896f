//! What kind of value a question asks for ("How long …?" a duration, "Which
//! email address …?" an address), read once when a question is parsed.
//! Cheap lexical rules, as in answer-type taxonomies of extractive QA
//! (Li and Roth, "Learning Question Classifiers", COLING 2002: NUM:money,
//! NUM:date, NUM:period, NUM:count, HUM, LOC), reduced to the kinds policy
//! questions ask for. Whether a sentence holds a value of a kind is the
//! builtin's (`builtin::answer_type`).

use std::sync::LazyLock;

use regex::Regex;

use super::{Question, WhWord};

/// The kind of value a question asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnswerType {
    /// Money, a rate, a fraction or a cap: "How much …", "Above what salary …".
    Amount,
    /// A date, a deadline or a year: "When …", "By what date …".
    Date,
    /// A length of time: "How long …", "How many days …", "How far in
    /// advance …", and a frequency: "How often …" ("every 90 days").
    Duration,
    /// The size of a thing: "How long does my password need to be?", "How
    /// long should the essay be?" (characters, words, pages, km).
    Length,
    /// A count of things: "How many forms …".
    Count,
    /// An e-mail address, a web address, a phone number: "Which email …".
    Contact,
    /// A person, a team or an office: "Who approves …".
    Agent,
    /// A kind of place: "In which country …", "Which city …".
    Place,
    /// Yes or no: "Can I …", "Is it …".
    YesNo,
    /// Anything else (a procedure, a definition, a reason).
    Other,
}

/// Kinds of place a question can ask for.
const PLACE_KINDS: &str = r"country|nation|state|province|region|county|district|city|town|village|island|continent";

static PLACE_QUESTION: LazyLock<Regex> = LazyLock::new(|| {
    #[allow(clippy::expect_used)]
    Regex::new(&format!(r"(?i)\b(?:which|what)\s+(?:{PLACE_KINDS})\b")).expect("valid place-question pattern")
});

/// Cues of a contact ("Which email …").
const CONTACT_CUES: &[&str] = &["email", "e-mail", "web address", "url", "phone number", "website"];
/// Cues of a length of time.
const DURATION_CUES: &[&str] = &[
    "how long",
    "how far in advance",
    "how far apart",
    "how soon",
    "how often",
    "how many days",
    "how many hours",
    "how many weeks",
    "how many months",
    "how many years",
    "how many minutes",
    "how many seconds",
    "कितने दिन",
    "कितने दिनों",
    "कितने सप्ताह",
    "कितने हफ़्ते",
    "कितने महीने",
    "कितने वर्ष",
    "कितने साल",
    "कितने घंटे",
];
/// Cues of a date.
const DATE_CUES: &[&str] =
    &["what date", "which date", "deadline", "by when", "what year", "which year", "कब", "किस तारीख"];
/// Cues of an amount beyond [`Question::asks_for_amount`].
const AMOUNT_CUES: &[&str] = &[
    "what salary",
    "what percentage",
    "what rate",
    "how much",
    "what amount",
    "maximum amount",
    "कितना",
    "कितनी राशि",
];
/// Cues of a person, team or office.
const AGENT_CUES: &[&str] = &["who approves", "which team", "which office"];

/// The kind of value `question` asks for (English question forms and the
/// Hindi ones in Devanagari: कितने दिन, कब, कितना; other languages give
/// [`AnswerType::Other`] unless they use such a cue).
/// Cues match whole words by stem ([`Question::mentions`]).
pub fn classify(question: &Question) -> AnswerType {
    let q = question;
    if q.mentions_any(CONTACT_CUES) {
        AnswerType::Contact
    } else if q.has_phrase("how long") && q.ends_with_word("be") {
        AnswerType::Length
    } else if q.mentions_any(DURATION_CUES) {
        AnswerType::Duration
    } else if q.opening() == Some(WhWord::When) || q.mentions_any(DATE_CUES) {
        AnswerType::Date
    } else if q.asks_for_amount() || q.mentions_any(AMOUNT_CUES) {
        AnswerType::Amount
    } else if q.mentions("how many") {
        AnswerType::Count
    } else if matches!(q.opening(), Some(WhWord::Who | WhWord::Whom)) || q.mentions_any(AGENT_CUES) {
        AnswerType::Agent
    } else if PLACE_QUESTION.is_match(q.text()) {
        AnswerType::Place
    } else if q.asks_yes_no() {
        AnswerType::YesNo
    } else {
        AnswerType::Other
    }
}

#[cfg(test)]
mod tests {
    use super::AnswerType::*;
    use super::*;

    #[test]
    fn questions_are_classified_by_what_they_ask_for() {
        let cases = [
            ("Above what salary can I no longer get paid overtime or comp time?", Amount),
            ("How much is the hostel security deposit?", Amount),
            ("How long does it take to get my Concur account set up after I send the CGE form?", Duration),
            ("How long does my Mac login password need to be?", Length),
            ("How long is the probation period?", Duration),
            // handbook_18f, how-to-log-in.md: "Password must be changed every 90 days".
            ("How often do I have to change my laptop password?", Duration),
            ("I have to travel abroad for work. Who do I coordinate with, and how far in advance?", Duration),
            ("Which email address do I send that approval to?", Contact),
            ("When is the last date to apply for revaluation?", Date),
            ("How many forms do I need?", Count),
            ("Who approves billable travel for 18F projects?", Agent),
            ("Can I sign up for the transit benefit right now?", YesNo),
            ("is based where?", Other),
            ("Do you know who approves billable travel?", Agent),
            ("What should my written explanation for advanced sick leave include?", Other),
            ("In which country Baure is located?", Place),
            ("Transfiguration of Vincent is the third studio album by a singer-songwriter from what state?", Place),
            ("छुट्टी के लिए कितने दिन पहले बताना होता है?", Duration),
            ("बिल कब तक जमा करना है?", Date),
            ("होटल का कितना किराया मिलता है?", Amount),
        ];
        for (q, want) in cases {
            assert_eq!(classify(&Question::parse(q)), want, "{q}");
        }
    }
}
