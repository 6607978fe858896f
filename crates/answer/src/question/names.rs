//! The names a question gives: acronyms (MBA, GST, EL) and capitalised
//! words after the first (Hyderabad, Dev Anand), as alternatives when an
//! "or" stands between them. Whether a source mentions them is the
//! builtin's (`builtin::names`).

use super::WhWord;
use crate::lexicon::is_demonym;

/// Words after which a run of names is a point of reference the answer is
/// set against, not what it must speak of: "Which project did Dev Anand
/// work on before Kestrel?" is answered by "Dev Anand previously worked on
/// Project Heron.", which never names Kestrel.
const REFERENCE_CUES: &[&str] = &["before", "after", "besides", "except", "unlike", "than", "instead of", "apart from"];

/// The raw name words of `question`, in order. When it asks for a name
/// (it opens with Who, Whom, Whose or Which), without the names right after a
/// reference cue ("before", "after", "other than", …): "Is the library open after Diwali?" still needs
/// a source that names Diwali.
pub fn question_names(question: &str) -> Vec<String> {
    let set_against = asks_for_a_name(&question[super::ask_start(question)..]);
    let mut names = Vec::new();
    let mut reference = false;
    let mut previous = "";
    let words: Vec<&str> = question.split_whitespace().collect();
    for (i, word) in words.iter().enumerate() {
        let w = word.trim_matches(|c: char| !c.is_alphanumeric());
        // A sentence's first word is capitalised as the question's is: "I
        // step out in the evening. Until what time …?" names no "Until".
        let opens_sentence = i == 0 || super::ends_sentence(words[i - 1]);
        let proper = !opens_sentence
            && w.chars().next().is_some_and(char::is_uppercase)
            && w.chars().skip(1).any(char::is_lowercase);
        let next = words.get(i + 1).copied().unwrap_or_default();
        let described = i > 0 && is_demonym(w, next) && describes(&words[i - 1].to_lowercase(), next);
        // "I'm", "I've", "I'd": the pronoun, not a name.
        let pronoun = w.split(['\'', '’']).next() == Some("I");
        let is_name = (is_acronym(w) || proper) && !is_currency(w) && !described && !pronoun;
        let pair = format!("{previous} {w}").to_lowercase();
        let cue = set_against && REFERENCE_CUES.iter().any(|c| c.eq_ignore_ascii_case(w) || *c == pair);
        reference = cue || (reference && is_name);
        if is_name && !reference {
            names.push(w.to_string());
        }
        // A comma ends the run of reference names.
        reference &= !word.ends_with(',');
        previous = w;
    }
    names
}

/// Nouns for a person that a nationality before them only describes
/// ("the English nobleman and politician Edward Stanley").
const PERSON_NOUNS: &[&str] = &[
    "nobleman",
    "noblewoman",
    "politician",
    "statesman",
    "actor",
    "actress",
    "singer",
    "musician",
    "composer",
    "writer",
    "author",
    "novelist",
    "poet",
    "painter",
    "artist",
    "footballer",
    "player",
    "director",
    "producer",
    "journalist",
    "businessman",
    "businesswoman",
    "scientist",
    "king",
    "queen",
    "prince",
    "princess",
    "general",
    "rapper",
];

/// Whether a nationality after `previous` and before `next` describes what
/// is asked for: after "a" or "an", or after "the" before a person noun
/// ([`PERSON_NOUNS`]). "Are Indian nationals eligible?" and "the French
/// office" still need the nationality.
fn describes(previous: &str, next: &str) -> bool {
    let noun = next.trim_matches(|c: char| !c.is_alphanumeric()).to_lowercase();
    matches!(previous, "a" | "an") || (previous == "the" && PERSON_NOUNS.contains(&noun.as_str()))
}

/// The names of `question` as alternatives: the run of names right before
/// an "or" and the run right after it are alternatives, every other name
/// is in each. "Can I expense Global Entry or TSA PreCheck?" gives
/// `[["Global", "Entry"], ["TSA", "PreCheck"]]`, and a source that names
/// either answers; "Does the Maxiflex schedule allow core hours on Friday or
/// Monday?" gives `[["Maxiflex", "Friday"], ["Maxiflex", "Monday"]]`.
/// Without an "or" between names, one group of every name; no group at all
/// when the question names nothing.
pub fn name_alternatives(question: &str, names: &[String]) -> Vec<Vec<String>> {
    let names = names.to_vec();
    // Each word: Some(name) for a name, None otherwise; "or" marked apart.
    let mut next = names.iter().peekable();
    let mut words: Vec<(Option<String>, bool)> = Vec::new();
    for word in question.split_whitespace() {
        let w = word.trim_matches(|c: char| !c.is_alphanumeric());
        let name = next.next_if(|n| n.as_str() == w).cloned();
        words.push((name, w.eq_ignore_ascii_case("or")));
    }
    // Runs of consecutive names, and whether an "or" is right before or after each.
    let mut runs: Vec<(Vec<String>, bool)> = Vec::new();
    let mut i = 0;
    while i < words.len() {
        if words[i].0.is_none() {
            i += 1;
            continue;
        }
        let start = i;
        let mut run = Vec::new();
        while let Some((Some(name), _)) = words.get(i) {
            run.push(name.clone());
            i += 1;
        }
        let beside_or = (start > 0 && words[start - 1].1) || words.get(i).is_some_and(|w| w.1);
        runs.push((run, beside_or));
    }
    let common: Vec<String> = runs.iter().filter(|r| !r.1).flat_map(|r| r.0.clone()).collect();
    let choices: Vec<&Vec<String>> = runs.iter().filter(|r| r.1).map(|r| &r.0).collect();
    if choices.len() < 2 {
        return if names.is_empty() { Vec::new() } else { vec![names] };
    }
    choices.into_iter().map(|c| common.iter().chain(c).cloned().collect()).collect()
}

/// Whether `question` asks for a name: it opens with "Who", "Whom",
/// "Whose" or "Which" ([`WhWord::asks_for_a_name`]).
fn asks_for_a_name(question: &str) -> bool {
    let first = question.split_whitespace().next().unwrap_or_default().to_lowercase();
    WhWord::of(&first).is_some_and(WhWord::asks_for_a_name)
}

/// Currency words, which name no thing a source must mention ("Rs 48,500").
const CURRENCIES: &[&str] = &["rs", "inr", "usd", "eur", "gbp", "rupees", "dollars"];

fn is_currency(word: &str) -> bool {
    CURRENCIES.contains(&word.to_lowercase().as_str())
}

/// Whether `word` is an acronym: two or more capitals and digits, one
/// capital at least.
pub fn is_acronym(word: &str) -> bool {
    word.chars().count() >= 2
        && word.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
        && word.chars().any(|c| c.is_ascii_uppercase())
}
