//! Multi-part questions: several questions in one message, split on their
//! question marks and conjunctions.
//!
//! Rules:
//! - Split after every `?` or `;` that has more text after it.
//! - Split on `and`, `and also`, `also`, `plus`, `aur` (Hinglish), `और`, `तथा` (Hindi) only when the
//!   right side starts a **new clause**: a wh-word (what, how, who, where, when,
//!   which, why; kya, kitna, kab, kahan, kaun), an auxiliary (is, are, was,
//!   can, do, does, will, should, …), or a pronoun followed by an auxiliary
//!   or "also"/"want"/"need" ("and I also want…"). Noun phrases such as
//!   "terms and conditions", "travel and expense policy" and "leave and
//!   attendance" are never split.
//! - Split on a bare comma only when both sides start with a wh-word or an
//!   auxiliary ("What is the DA, what is the hotel cap?") and the left side
//!   asks on its own: an auxiliary must be followed by a lower-case word and
//!   no wh-word ("Do Lafzon Ki Kahani, is a 2016 film, …" is one question).
//! - An elliptical part ("And the hotel cap?") borrows the opening of the
//!   part before it ("How much is"), or else becomes "What about …?".
//! - A part whose pronoun refers back takes what the part before asks about
//!   in its place ("and what does it mean?" → "What does 422 mean?"); when
//!   the part before names no such phrase ("Does the company offer pet
//!   insurance, and how much does it cost?"), the two stay one question.

use std::sync::LazyLock;

use regex::Regex;

use super::re;

const WH: &str = r"what|how|who|whom|whose|where|when|which|why|kya|kitna|kitne|kitni|kab|kahan|kaun|kaise|क्या|कितना|कितने|कितनी|कब|कहाँ|कहां|कौन|कैसे";
const AUX: &str = r"is|are|was|were|am|can|could|do|does|did|will|would|should|shall|may|might|must|has|have|had";

static CONJUNCTION: LazyLock<Regex> = LazyLock::new(|| re(r"(?i),?\s+(?:and\s+also|and|also|plus|aur|और|तथा)\s+|,\s+"));
static NEW_CLAUSE: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(r"(?i)^(?:(?:{WH}|{AUX})\b|(?:i|we|you|they|he|she|it|there)\s+(?:also|want|need|{AUX})\b)"))
});
static QUESTION_START: LazyLock<Regex> = LazyLock::new(|| re(&format!(r"(?i)^(?:{WH}|{AUX})\b")));
static LEADING_CONJUNCTION: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?i)^(?:and\s+also|and|also|plus|aur|और|तथा|but|then)\b[\s,]*"));
static FRAME: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?i)^((?:how\s+(?:much|many|long|often)|what|who|where|when|which)\b(?:\s+\w+){0,2}?\s+(?:is|are|was|were)\b)")
});

/// A question split into its parts, with the words that joined them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Split {
    /// The parts, each a self-contained question.
    pub parts: Vec<String>,
    /// What joined the parts ("'?'", "'and'").
    pub joiners: Vec<String>,
}

/// Split `question` into its parts (one part when it is a single question).
pub(super) fn split(question: &str) -> Split {
    let mut raw: Vec<String> = Vec::new();
    let mut joiners = Vec::new();
    for (i, sentence) in sentences(question).into_iter().enumerate() {
        if i > 0 {
            joiners.push("'?'".to_string());
        }
        let (clauses, words) = clauses(sentence);
        joiners.extend(words);
        raw.extend(clauses);
    }
    let mut parts: Vec<String> = Vec::new();
    let mut kept_joiners = Vec::new();
    for (part, joiner) in raw.into_iter().zip(std::iter::once(None).chain(joiners.into_iter().map(Some))) {
        let previous = parts.last().map(String::as_str);
        let whole = self_contained(&part, previous);
        match previous.map(|p| resolve_pronoun(&whole, p)) {
            Some(Reference::Resolved(resolved)) => parts.push(resolved),
            // "Does Sourcegraph offer pet insurance, and how much does it
            // cost?": searched alone, "How much does it cost?" finds any
            // price; the clause is asked with the part it refers back to.
            // "Who leads Project Kestrel and where is their office?" asks
            // a second hop about the first's answer: the hop planner bridges it.
            Some(Reference::Unresolved) if !super::hops::refers_back(&whole) => {
                if let Some(last) = parts.last_mut() {
                    let clause = lower_first(LEADING_CONJUNCTION.replace(part.trim(), "").trim());
                    let joined = format!("{}, {} {clause}", last.trim_end_matches('?'), joiner_word(joiner.as_deref()));
                    *last = format!("{}?", joined.trim_end_matches(['?', ';', '.', ',']));
                }
                continue;
            }
            Some(Reference::Unresolved | Reference::Absent) | None => parts.push(whole),
        }
        kept_joiners.extend(joiner);
    }
    Split { parts, joiners: kept_joiners }
}

/// The word a joiner stands for when two parts are asked together again
/// ("'and'" → "and"; a question mark or a comma → "and").
fn joiner_word(joiner: Option<&str>) -> String {
    match joiner.map(|j| j.trim_matches('\'')) {
        Some(word) if word.chars().all(char::is_alphabetic) && !word.is_empty() => word.to_string(),
        _ => "and".to_string(),
    }
}

/// `clause` with its first letter in lower case when it opens with a
/// question word or an auxiliary ("How much …" → "how much …"; a name stays).
fn lower_first(clause: &str) -> String {
    let mut chars = clause.chars();
    match (chars.next(), chars.next()) {
        (Some(first), Some(second))
            if first.is_uppercase() && second.is_lowercase() && QUESTION_START.is_match(clause) =>
        {
            first.to_lowercase().chain(clause[first.len_utf8()..].chars()).collect()
        }
        _ => clause.to_string(),
    }
}

/// What a later part's pronoun refers to.
enum Reference {
    /// The part with the pronoun replaced by what the part before asks about.
    Resolved(String),
    /// It refers back, but the part before names no phrase to put in its
    /// place ("Can I carry over leave, and when does it expire?").
    Unresolved,
    /// No pronoun that refers back: none, "it's", a dummy "it", or a part
    /// that names its own subject.
    Absent,
}

static PRONOUN: LazyLock<Regex> = LazyLock::new(|| re(r"(?i)\b(it|its|they|them|their)\b"));
/// "it" as a dummy subject ("is it safe to share …"), which refers to nothing.
static DUMMY_IT: LazyLock<Regex> = LazyLock::new(|| re(r"(?i)^it\s+(?:\w+\s+){1,2}?to\s+\w+\b"));
/// "How much leave …" (a noun follows), or a wh-word and an auxiliary
/// ("What was …"); "Who approves leave" opens with a verb, not a noun phrase.
static WH_OPENING: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r"(?i)^(?:how\s+(?:much|many)\s+|(?:how\s+(?:much|many|long|often|far)|what|which|who|whom|where|when|why)\s+(?:{AUX})\s+)"
    ))
});
static COPULA_OPENING: LazyLock<Regex> = LazyLock::new(|| re(r"(?i)^(?:is|are|was|were)\s+"));
/// Where the noun phrase a question opens with ends: its own clause
/// ("leave | can I take"), the predicate of "Is 422 | a standard …", or a
/// time ("the hostel fee | in 2024-25", which the router reads apart).
static PHRASE_END: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r"(?i)\s+(?:(?:{AUX})\s+(?:i|we|you|they|he|she|it)\b|(?:in|for|during|of|as\s+of)\s+\S*\d|now\b|today\b)"
    ))
});
static ARTICLE_AFTER_FIRST: LazyLock<Regex> = LazyLock::new(|| re(r"(?i)^(\S+)\s+(?:a|an|the)\s"));

/// `part` with its first pronoun ("it", "its", "they", "them", "their")
/// replaced by what `previous` asks about, when `part` names nothing of its
/// own: "Is 422 a standard HTTP status code, and what does it mean?" asks
/// "What does 422 mean?"; "Is it safe to share a Sourcegraph password reset
/// link, and how long does it stay valid?" asks how long the link stays
/// valid. A search for "What does it mean?" finds any sentence with
/// "means" in it.
fn resolve_pronoun(part: &str, previous: &str) -> Reference {
    match find_pronoun(part) {
        None => Reference::Absent,
        Some(found) => match referent(previous) {
            None => Reference::Unresolved,
            Some(referent) => {
                let replacement = match found.as_str().to_lowercase().as_str() {
                    "its" | "their" => format!("{referent}'s"),
                    _ => referent,
                };
                Reference::Resolved(format!("{}{replacement}{}", &part[..found.start()], &part[found.end()..]))
            }
        },
    }
}

/// The first pronoun of `part` that refers back: not "it's" ("it is"),
/// not a dummy "it", and none in a part that names its own subject (a
/// capitalised word after the first).
fn find_pronoun(part: &str) -> Option<regex::Match<'_>> {
    let names_own = part
        .split_whitespace()
        .skip(1)
        .filter(|w| !matches!(w.trim_matches(|c: char| !c.is_alphanumeric()), "I" | "I'm" | "I’m"))
        .any(|w| w.chars().next().is_some_and(char::is_uppercase));
    let found = PRONOUN.find(part)?;
    // "it's" is "it is", not "its"; a dummy "it" refers to nothing.
    let contracted = part[found.end()..].starts_with(['\'', '’']);
    (!(names_own || contracted || DUMMY_IT.is_match(&part[found.start()..]))).then_some(found)
}

/// The noun phrase `question` asks about: "the hostel fee" of "What was
/// the hostel fee in 2024-25?", "422" of "Is 422 a standard HTTP status
/// code?", "a Sourcegraph password reset link" of "Is it safe to share a
/// Sourcegraph password reset link?"; `None` when it is a pronoun or
/// longer than 8 words.
fn referent(question: &str) -> Option<String> {
    let q = question.trim().trim_end_matches(['?', '.', ';', ',']).trim();
    let rest = if let Some(m) = WH_OPENING.find(q) {
        &q[m.end()..]
    } else if let Some(m) = COPULA_OPENING.find(q) {
        // Only "Is 422 a …?" and "Is it safe to share a …?" say where the
        // noun phrase ends; "Is the deposit refundable?" does not.
        let rest = &q[m.end()..];
        match DUMMY_IT.find(rest) {
            Some(d) => rest[d.end()..].trim(),
            None => ARTICLE_AFTER_FIRST.captures(rest).and_then(|c| c.get(1))?.as_str(),
        }
    } else {
        // "Can I carry over leave" has no subject to refer back to.
        return None;
    };
    let phrase = PHRASE_END.find(rest).map_or(rest, |m| &rest[..m.start()]).trim();
    let words = phrase.split_whitespace().count();
    let first = phrase.split_whitespace().next().unwrap_or_default().to_lowercase();
    let pronoun = PRONOUN.is_match(phrase) || matches!(first.as_str(), "i" | "we" | "you" | "he" | "she" | "there");
    ((1..=8).contains(&words) && !pronoun).then(|| phrase.to_string())
}

/// `question` cut after each `?` or `;` that has text after it.
fn sentences(question: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, c) in question.char_indices() {
        if matches!(c, '?' | ';') && !question[i + 1..].trim().is_empty() {
            out.push(&question[start..=i]);
            start = i + 1;
        }
    }
    out.push(&question[start..]);
    out.into_iter().map(str::trim).filter(|s| !s.trim_matches(['?', ';', ' ']).is_empty()).collect()
}

/// A sentence cut at conjunctions that start a new clause, with the joiners.
fn clauses(sentence: &str) -> (Vec<String>, Vec<String>) {
    let mut parts = Vec::new();
    let mut joiners = Vec::new();
    let mut start = 0;
    for m in CONJUNCTION.find_iter(sentence) {
        let left = sentence[start..m.start()].trim();
        let right = &sentence[m.end()..];
        let word = m.as_str().trim_matches([',', ' ']).to_lowercase();
        let comma_only = word.is_empty();
        let splits = if comma_only {
            QUESTION_START.is_match(right) && asks_on_its_own(left)
        } else {
            NEW_CLAUSE.is_match(right)
        };
        if splits && left.split_whitespace().count() >= 2 {
            parts.push(left.to_string());
            joiners.push(if comma_only { "','".to_string() } else { format!("'{word}'") });
            start = m.end();
        }
    }
    parts.push(sentence[start..].trim().to_string());
    (parts, joiners)
}

/// Whether `left`, the text before a bare comma, is a question of its own:
/// it opens with a wh-word, or with an auxiliary followed by a lower-case
/// word and no wh-word later. "Do Lafzon Ki Kahani, is a 2016 … film" opens
/// with a title, not a question, and "Do X, …, released in which year, is …"
/// asks which year.
fn asks_on_its_own(left: &str) -> bool {
    static WH_START: LazyLock<Regex> = LazyLock::new(|| re(&format!(r"(?i)^(?:{WH})\b")));
    static WH_WORD: LazyLock<Regex> = LazyLock::new(|| re(&format!(r"(?i)\b(?:{WH})\b")));
    if WH_START.is_match(left) {
        return true;
    }
    let mut words = left.split_whitespace().skip(1);
    QUESTION_START.is_match(left) && words.any(|w| w.starts_with(char::is_lowercase)) && !WH_WORD.is_match(left)
}

/// `part` as a question that stands alone: no leading conjunction, a capital
/// first letter, a question mark, and the opening of `previous` when it is
/// only a noun phrase.
fn self_contained(part: &str, previous: Option<&str>) -> String {
    let body = LEADING_CONJUNCTION.replace(part.trim(), "");
    let body = body.trim().trim_end_matches(['?', ';', '.', ',']).trim();
    let body = match previous {
        Some(prev) if !NEW_CLAUSE.is_match(body) => match FRAME.captures(prev) {
            Some(frame) => format!("{} {body}", &frame[1]),
            None => format!("What about {body}"),
        },
        _ => body.to_string(),
    };
    let mut chars = body.chars();
    let capital = chars.next().map(|c| c.to_uppercase().chain(chars).collect::<String>()).unwrap_or_default();
    format!("{capital}?")
}
