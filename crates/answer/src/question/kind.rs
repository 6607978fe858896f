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
    "how much time",
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
    if let Some(kind) = focus_kind(q.ask_words()) {
        kind
    } else if q.mentions_any(CONTACT_CUES) {
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
    } else if matches!(q.opening(), Some(WhWord::Who | WhWord::Whom | WhWord::Whose)) || q.mentions_any(AGENT_CUES) {
        AnswerType::Agent
    } else if PLACE_QUESTION.is_match(q.text()) {
        AnswerType::Place
    } else if q.asks_yes_no() {
        AnswerType::YesNo
    } else {
        AnswerType::Other
    }
}

/// Words that end the noun phrase after "what" or "which": auxiliaries,
/// pronouns, articles and prepositions ("which password manager | does",
/// "what meeting length | do").
const PHRASE_ENDS: &[&str] = &[
    "is", "are", "was", "were", "be", "been", "do", "does", "did", "can", "could", "should", "would", "will", "must",
    "may", "might", "shall", "has", "have", "had", "i", "you", "we", "they", "he", "she", "it", "me", "my", "our",
    "your", "their", "his", "her", "its", "the", "a", "an", "of", "for", "in", "on", "at", "to", "from", "with", "by",
    "about", "that", "this", "these", "those", "there", "if", "as", "and", "or", "s",
];

/// Prepositions an asking "what" or "which" may follow.
const PREPOSITIONS: &[&str] =
    &["beyond", "until", "till", "in", "on", "at", "by", "for", "from", "to", "after", "before", "under", "over", "of"];

/// Head nouns of the phrase asked for and the kind of value each names,
/// as in the head-word feature of question classification (Li and Roth
/// 2002, section 4; Huang, Thint and Qin, "Question Classification using
/// Head Words and their Hypernyms", EMNLP 2008): "Which day …?" asks for a
/// date whatever else the question mentions, "What meeting length …?" for a
/// duration.
const HEAD_KINDS: &[(&[&str], AnswerType)] = &[
    (&["length", "duration", "period", "timeframe", "timeline"], AnswerType::Duration),
    (&["date", "day", "year", "month", "deadline", "weekday", "time", "hour"], AnswerType::Date),
    (
        &[
            "amount",
            "fee",
            "cost",
            "price",
            "salary",
            "rate",
            "percentage",
            "percent",
            "discount",
            "stipend",
            "sum",
            "allowance",
            "cap",
            "limit",
        ],
        AnswerType::Amount,
    ),
    (&["email", "e-mail", "url", "website", "phone"], AnswerType::Contact),
    (&["number"], AnswerType::Count),
    (&["team", "department", "person", "committee", "official"], AnswerType::Agent),
];

/// The kind of value the noun phrase after the first "what" or "which" of
/// `ask` (or after "what is the") names by its head (its last word, or the word after "kind of" or
/// "type of"; a plural counts as its singular); a contact when the phrase
/// names one anywhere ("which email address"). `None` when no such phrase
/// ("What is …?") or its head names no kind here.
fn focus_kind(ask: &[String]) -> Option<AnswerType> {
    // The ask opens with it, or with a preposition and it ("Beyond what …",
    // "In which …"): "Who decides which day I take?" asks for a person.
    let at = match ask {
        [w, ..] if matches!(w.as_str(), "what" | "which" | "what's") => 0,
        [p, w, ..] if PREPOSITIONS.contains(&p.as_str()) && matches!(w.as_str(), "what" | "which") => 1,
        _ => return None,
    };
    // "What is the daily allowance …?": the phrase after a copula and a determiner.
    let copula = |i: usize| ask.get(i).is_some_and(|w| matches!(w.as_str(), "is" | "are" | "was" | "were"));
    let determiner =
        |i: usize| ask.get(i).is_some_and(|w| matches!(w.as_str(), "the" | "a" | "an" | "my" | "our" | "your"));
    let from = if copula(at + 1) && determiner(at + 2) { at + 3 } else { at + 1 };
    let mut phrase: Vec<&str> = Vec::new();
    for w in &ask[from..] {
        let w = w.as_str();
        let of_a_kind = w == "of" && phrase.last().is_some_and(|l| matches!(*l, "kind" | "type" | "sort"));
        if of_a_kind {
            phrase.clear();
        } else if PHRASE_ENDS.contains(&w) || super::WhWord::of(w).is_some() {
            break;
        } else {
            phrase.push(w);
        }
    }
    let head = *phrase.last()?;
    // "What time …?" asks for a time of day, "what processing time" for a
    // duration; "what number" for a count, "what helpline number" for a contact.
    match (head, phrase.len()) {
        ("time", 2..) => return Some(AnswerType::Duration),
        ("number", 2..) => return Some(AnswerType::Contact),
        _ => {}
    }
    let singular = head.strip_suffix('s').filter(|s| s.len() > 2).unwrap_or(head);
    let contact = HEAD_KINDS.iter().find(|(_, k)| *k == AnswerType::Contact).map_or(&[][..], |(h, _)| *h);
    if phrase.iter().any(|w| contact.contains(w)) {
        return Some(AnswerType::Contact);
    }
    HEAD_KINDS.iter().find(|(heads, _)| heads.contains(&head) || heads.contains(&singular)).map(|(_, k)| *k)
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
            // The head of the phrase asked for, in the sentence that asks.
            ("Which day does the team send the weekly email?", Date),
            ("My calls get cut off. Beyond what meeting length do I need a licence?", Duration),
            ("I step out in the evening. Until what time can I get back in?", Date),
            ("Which password manager does the team suggest?", Other),
            ("What kind of fees apply to late returns?", Amount),
            ("What email address do I write to?", Contact),
            ("Whose signature goes on the access form?", Agent),
            ("How much time do I have to file my claim?", Duration),
            ("What is the fee for the MBA?", Amount),
            ("What is the per-day allowance for a trip to Pune?", Amount),
            ("What are the library hours?", Date),
            ("What is the feedback process?", Other),
            ("What is the capital of the state?", Other),
            // The phrase must be what the ask opens with.
            ("How long do I have to decide which day to take off?", Duration),
            ("Who decides which day I take leave?", Agent),
            ("What is the processing time for a refund?", Duration),
            ("What time does the library close?", Date),
            ("What is the helpline number?", Contact),
        ];
        for (q, want) in cases {
            assert_eq!(classify(&Question::parse(q)), want, "{q}");
        }
    }
}
