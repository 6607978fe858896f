//! The names a question gives, and whether a source mentions them. A name
//! is an acronym (MBA, GST, EL) or a capitalised word after the first
//! (Hyderabad, Dev Anand). A source mentions an acronym when it has the
//! acronym, or its expansion: consecutive words whose initials spell it
//! ("EL" in "Earned Leave", "NE" in "North-East").

use super::BuiltinModel;
use crate::lexicon::is_demonym;

/// Words after which a run of names is a point of reference the answer is
/// set against, not what it must speak of: "Which project did Dev Anand
/// work on before Kestrel?" is answered by "Dev Anand previously worked on
/// Project Heron.", which never names Kestrel.
const REFERENCE_CUES: &[&str] = &["before", "after", "besides", "except", "unlike", "than", "instead of", "apart from"];

/// The raw name words of `question`, in order. When it asks for a name
/// ([`asks_for_a_name`]), without the names right after a
/// [`REFERENCE_CUES`] word: "Is the library open after Diwali?" still needs
/// a source that names Diwali.
pub fn question_names(question: &str) -> Vec<String> {
    let set_against = asks_for_a_name(question);
    let mut names = Vec::new();
    let mut reference = false;
    let mut previous = "";
    let words: Vec<&str> = question.split_whitespace().collect();
    for (i, word) in words.iter().enumerate() {
        let w = word.trim_matches(|c: char| !c.is_alphanumeric());
        let proper =
            i > 0 && w.chars().next().is_some_and(char::is_uppercase) && w.chars().skip(1).any(char::is_lowercase);
        let next = words.get(i + 1).copied().unwrap_or_default();
        let described = i > 0 && is_demonym(w, next) && describes(&words[i - 1].to_lowercase(), next);
        let is_name = (is_acronym(w) || proper) && !is_currency(w) && !described;
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
pub fn name_alternatives(question: &str) -> Vec<Vec<String>> {
    let names = question_names(question);
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

/// Whether `text` mentions every name of one of the `alternatives`
/// ([`name_alternatives`]; true when there is none).
pub fn mentions_one_of(model: &BuiltinModel, alternatives: &[Vec<String>], text: &str) -> bool {
    alternatives.is_empty() || alternatives.iter().any(|group| group.iter().all(|name| mentions(model, name, text)))
}

/// Whether `question` asks for a name: it opens with "Who", "Whom",
/// "Whose" or "Which".
pub fn asks_for_a_name(question: &str) -> bool {
    let first = question.split_whitespace().next().unwrap_or_default().to_lowercase();
    matches!(first.as_str(), "who" | "whom" | "whose" | "which")
}

/// Whether `sentence` has a capitalised word that `question` does not
/// have, its first word included (the subject is often the name asked
/// for: "Volbeat are a Danish heavy metal band …"): "Dev Anand previously
/// worked on Project Heron." names something new for "Which project did
/// Dev Anand work on before Kestrel?"; "Project Kestrel is led by Dev
/// Anand." does not.
pub fn names_something_new(model: &BuiltinModel, sentence: &str, question: &str) -> bool {
    let asked = model.content_terms(question);
    sentence.split_whitespace().map(|w| w.trim_matches(|c: char| !c.is_alphanumeric())).any(|w| {
        let capitalised = w.chars().next().is_some_and(char::is_uppercase);
        capitalised && model.content_terms(w).iter().any(|t| !asked.contains(t))
    })
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

/// Whether `text` mentions the name `name`: its content terms, or, for an
/// acronym of letters only, words whose initials spell it.
pub fn mentions(model: &BuiltinModel, name: &str, text: &str) -> bool {
    let own = model.content_terms(name);
    let known = model.content_terms(text);
    own.iter().all(|t| known.contains(t)) || (is_acronym(name) && expands(name, text))
}

/// Whether consecutive words of `text` (split at spaces and hyphens) have
/// the letters of `acronym` as initials.
fn expands(acronym: &str, text: &str) -> bool {
    let letters: Vec<char> = acronym.chars().map(|c| c.to_ascii_lowercase()).collect();
    if letters.len() < 2 || !letters.iter().all(char::is_ascii_alphabetic) {
        return false;
    }
    let initials: Vec<char> = text
        .split(|c: char| c.is_whitespace() || c == '-' || c == '/')
        .filter_map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()).chars().next())
        .map(|c| c.to_ascii_lowercase())
        .collect();
    initials.windows(letters.len()).any(|w| w == letters.as_slice())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn acronyms_match_their_expansions() {
        let m = BuiltinModel::default();
        // sample-docs/company/leave-policy.md and the hostel circulars.
        assert!(mentions(&m, "EL", "Earned Leave: every employee earns 18 days a year."));
        assert!(mentions(&m, "NE", "students from the North-East who hold the scholarship"));
        assert!(mentions(&m, "MBA", "The MBA programme fee"));
        assert!(!mentions(&m, "EL", "Casual leave is for short needs."));
        assert!(!mentions(&m, "Hyderabad", "Metro cities: Mumbai, Delhi"));
        assert_eq!(question_names("how many EL days does Dev get in Oslo?"), ["EL", "Dev", "Oslo"]);
        assert_eq!(question_names("The MTech tuition: amount Rs 48,500, or INR 48500"), ["MTech"]);
    }

    #[test]
    fn a_source_that_names_one_alternative_names_what_was_asked() {
        let m = BuiltinModel::default();
        // handbook_sourcegraph, benefits-perks/travel: "TSA-Pre", never "PreCheck".
        let travel =
            "At this time, we do not reimburse airport traveler programs, such as TSA-Pre, Global Entry, or Clear.";
        let q = "Can I expense Global Entry or TSA PreCheck?";
        let alternatives = name_alternatives(q);
        assert_eq!(alternatives, [vec!["Global", "Entry"], vec!["TSA", "PreCheck"]]);
        assert!(mentions_one_of(&m, &alternatives, travel));
        assert!(!mentions_one_of(&m, &name_alternatives("Can I expense Global Entry for Oslo?"), travel));
        assert!(!mentions_one_of(&m, &alternatives, "Clear is a traveler program."));
        assert_eq!(name_alternatives("Is the MBA fee refundable or not?"), [vec!["MBA"]]);
        // Only the names beside the "or" are alternatives (sample-docs' Maxiflex schedule).
        assert_eq!(
            name_alternatives("Does the Maxiflex schedule allow core hours on Friday or Monday?"),
            [vec!["Maxiflex", "Friday"], vec!["Maxiflex", "Monday"]]
        );
        assert!(name_alternatives("Is the fee refundable or not?").is_empty());
    }

    #[test]
    fn a_name_the_answer_is_set_against_is_not_required() {
        // sample-docs/robotics p13.txt: "Dev Anand previously worked on Project Heron."
        assert_eq!(question_names("Which project did Dev Anand work on before Kestrel?"), ["Dev", "Anand"]);
        assert_eq!(question_names("Who leads a project other than Project Heron, in Oslo?"), ["Oslo"]);
        assert_eq!(question_names("Is the library open after 8 pm on Friday?"), ["Friday"]);
        assert_eq!(question_names("Is the library open after Diwali?"), ["Diwali"]);
        // eval/hotpotqa.jsonl: the page says "a 2001 crime comedy film … starring Woody Allen".
        assert_eq!(
            question_names("The Curse of the Jade Scorpion is a 2001 crime comedy film featuring an American actress?"),
            ["Curse", "Jade", "Scorpion"]
        );
        assert_eq!(question_names("Who heads the Indian Institute of Science?"), ["Indian", "Institute", "Science"]);
        // eval/hotpotqa.jsonl: the Stafford page says "Edward Stanley, 3rd Earl of Derby", never "English".
        assert_eq!(
            question_names("Name her father, the English nobleman and politician Edward Stanley?"),
            ["Edward", "Stanley"]
        );
        assert_eq!(question_names("Where is the French office?"), ["French"]);
        assert_eq!(question_names("Are Indian nationals eligible for the ICCR scholarship?"), ["Indian", "ICCR"]);
        assert_eq!(question_names("Is the MBA fee higher than the MTech fee?"), ["MBA", "MTech"]);
        assert_eq!(question_names("Who leads Project Kestrel?"), ["Project", "Kestrel"]);
        let m = BuiltinModel::default();
        let q = "Which project did Dev Anand work on before Kestrel?";
        assert!(asks_for_a_name(q));
        assert!(names_something_new(&m, "Dev Anand previously worked on Project Heron.", q));
        assert!(!names_something_new(&m, "Project Kestrel is led by Dev Anand.", q));
    }
}
