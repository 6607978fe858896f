//! Whether a source mentions the names a question gives (read once by
//! [`crate::question::names`]). A source mentions an acronym when it has
//! the acronym, or its expansion: consecutive words whose initials spell it
//! ("EL" in "Earned Leave", "NE" in "North-East").

use std::collections::BTreeSet;

use super::BuiltinModel;
use crate::citations::split_sentences;
use crate::evidence::{Evidence, document_of};
use crate::question::Question;
use crate::question::names::is_acronym;

/// Whether `text` mentions every name of one of the `alternatives`
/// ([`Question::name_alternatives`]; true when there is none).
pub fn mentions_one_of(model: &BuiltinModel, alternatives: &[Vec<String>], text: &str) -> bool {
    alternatives.is_empty()
        || alternatives.iter().any(|group| {
            let missing: Vec<&String> = group.iter().filter(|name| !mentions(model, name, text)).collect();
            missing.is_empty() || abbreviated_run(group, &missing, text)
        })
}

/// Whether a run of consecutive names of `group` that holds every one of
/// `missing` is abbreviated in `text` ([`abbreviates`]): "Office",
/// "Acquisition" as "OA", also in a source that says "office" but never
/// "Acquisition".
fn abbreviated_run(group: &[String], missing: &[&String], text: &str) -> bool {
    (0..group.len()).any(|start| {
        (start + 2..=group.len()).any(|end| {
            let run: Vec<&String> = group[start..end].iter().collect();
            missing.iter().all(|m| run.contains(m)) && abbreviates(&run, text)
        })
    })
}

/// Whether `text` has, as a word, the acronym that the initials of `names`
/// spell, when they are two or more words that are not acronyms themselves:
/// a source that says "OA will contact you" names the Office of
/// Acquisition (an abbreviation and its long form, as in Schwartz and
/// Hearst, "A Simple Algorithm for Identifying Abbreviation Definitions in
/// Biomedical Text", PSB 2003, read the other way).
fn abbreviates(names: &[&String], text: &str) -> bool {
    if names.len() < 2 || names.iter().any(|n| is_acronym(n)) {
        return false;
    }
    let acronym: String = names.iter().filter_map(|n| n.chars().next()).flat_map(char::to_uppercase).collect();
    // Two letters that are a word or a time of day ("PM", "IT", "US") abbreviate nothing here.
    if ["AM", "PM", "IT", "OR", "US", "ID", "IN", "ON", "AT", "TO", "IS", "NO", "OK", "TV", "UK"]
        .contains(&acronym.as_str())
    {
        return false;
    }
    text.split(|c: char| !c.is_alphanumeric()).any(|w| w == acronym)
}

/// Whether `sentence` has a capitalised word that `question` does not
/// have, its first word included (the subject is often the name asked
/// for: "Volbeat are a Danish heavy metal band …"): "Dev Anand previously
/// worked on Project Heron." names something new for "Which project did
/// Dev Anand work on before Kestrel?"; "Project Kestrel is led by Dev
/// Anand." does not.
pub fn names_something_new(model: &BuiltinModel, sentence: &str, question: &Question) -> bool {
    let asked = question.terms();
    sentence.split_whitespace().map(|w| w.trim_matches(|c: char| !c.is_alphanumeric())).any(|w| {
        let capitalised = w.chars().next().is_some_and(char::is_uppercase);
        capitalised && model.content_terms(w).iter().any(|t| !asked.contains(t))
    })
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

/// The chunks of `evidence` that speak of a name the question gives through
/// a sibling section of their document: another chunk of the same document
/// names it in a sentence that shares a term with the chunk, a term that
/// the question does not have and that no other chunk of the document in
/// the evidence holds, or at most half of them. "What is the hotel limit in Mumbai?" is answered by
/// "up to Rs 7,000 per night in metro cities" because the daily-allowance
/// section says "In metro cities (Delhi, Mumbai, …)": the class a name
/// belongs to is defined in one section and used in another (the
/// same-chunk case is `sentences::bridged`). `naming` are the
/// chunks that name it themselves; they are not returned.
pub fn bridged_chunks<'e>(
    model: &BuiltinModel,
    alternatives: &[Vec<String>],
    question: &BTreeSet<String>,
    evidence: &'e [Evidence],
    naming: &BTreeSet<&str>,
) -> BTreeSet<&'e str> {
    let mut out = BTreeSet::new();
    if alternatives.is_empty() {
        return out;
    }
    // Each chunk's terms once: this runs on every answer.
    let terms: Vec<BTreeSet<String>> = evidence.iter().map(|e| model.content_terms(&e.text)).collect();
    for (i, chunk) in evidence.iter().enumerate().filter(|(_, e)| !naming.contains(e.key.as_str())) {
        let doc = document_of(&chunk.key);
        let siblings: Vec<usize> = (0..evidence.len()).filter(|&j| document_of(&evidence[j].key) == doc).collect();
        let spread = |t: &String| siblings.iter().filter(|&&j| terms[j].contains(t)).count();
        let shares = |sentence: &str| {
            model
                .content_terms(sentence)
                .iter()
                .any(|t| !question.contains(t) && terms[i].contains(t) && spread(t) <= 2.max(siblings.len() / 2))
        };
        let bridged = siblings.iter().map(|&j| &evidence[j]).filter(|e| naming.contains(e.key.as_str())).any(|e| {
            split_sentences(&e.text).iter().any(|s| mentions_one_of(model, alternatives, &s.text) && shares(&s.text))
        });
        if bridged {
            out.insert(chunk.key.as_str());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::question::names::{name_alternatives, question_names};

    #[test]
    fn acronyms_match_their_expansions() {
        let m = BuiltinModel::default();
        // sample-docs/company/leave-policy.md and the hostel circulars.
        assert!(mentions(&m, "EL", "Earned Leave: every employee earns 18 days a year."));
        assert!(mentions(&m, "NE", "students from the North-East who hold the scholarship"));
        assert!(mentions(&m, "MBA", "The MBA programme fee"));
        assert!(!mentions(&m, "EL", "Casual leave is for short needs."));
        assert!(!mentions(&m, "Hyderabad", "Metro cities: Mumbai, Delhi"));
        // handbook_18f, the acquisition pages: "OA will contact you within 3 business days".
        let oa = alternatives_of("I sent the Office of Acquisition the form. When will they reply?");
        assert!(mentions_one_of(&m, &oa, "OA will contact you within 3 business days."));
        assert!(!mentions_one_of(&m, &oa, "Oakland will contact you within 3 business days."));
        assert!(!mentions_one_of(&m, &oa, "The office will contact you."));
        assert!(mentions_one_of(&m, &oa, "The contracting office: OA will contact you."));
        let pm = alternatives_of("Can Priya Mehta work from home?");
        assert!(!mentions_one_of(&m, &pm, "Log off by 5 PM."));
        assert_eq!(question_names("how many EL days does Dev get in Oslo?"), ["EL", "Dev", "Oslo"]);
        assert_eq!(question_names("The MTech tuition: amount Rs 48,500, or INR 48500"), ["MTech"]);
    }

    fn alternatives_of(q: &str) -> Vec<Vec<String>> {
        name_alternatives(q, &question_names(q))
    }

    #[test]
    fn a_source_that_names_one_alternative_names_what_was_asked() {
        let m = BuiltinModel::default();
        // handbook_sourcegraph, benefits-perks/travel: "TSA-Pre", never "PreCheck".
        let travel =
            "At this time, we do not reimburse airport traveler programs, such as TSA-Pre, Global Entry, or Clear.";
        let q = "Can I expense Global Entry or TSA PreCheck?";
        let alternatives = alternatives_of(q);
        assert_eq!(alternatives, [vec!["Global", "Entry"], vec!["TSA", "PreCheck"]]);
        assert!(mentions_one_of(&m, &alternatives, travel));
        assert!(!mentions_one_of(&m, &alternatives_of("Can I expense Global Entry for Oslo?"), travel));
        assert!(!mentions_one_of(&m, &alternatives, "Clear is a traveler program."));
        assert_eq!(alternatives_of("Is the MBA fee refundable or not?"), [vec!["MBA"]]);
        // Only the names beside the "or" are alternatives (sample-docs' Maxiflex schedule).
        assert_eq!(
            alternatives_of("Does the Maxiflex schedule allow core hours on Friday or Monday?"),
            [vec!["Maxiflex", "Friday"], vec!["Maxiflex", "Monday"]]
        );
        assert!(alternatives_of("Is the fee refundable or not?").is_empty());
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
        // A sentence's first word is no name, after a situation as at the start.
        assert_eq!(
            question_names("My Zoom calls keep dropping. Beyond what length do I need a Zoom licence?"),
            ["Zoom", "Zoom"]
        );
        assert_eq!(question_names("I work with Dr. Rao in Pune. Which form do I sign?"), ["Dr", "Rao", "Pune"]);
        // The pronoun with a contraction is no name.
        assert!(question_names("If I'm sick, how many days of sick leave do I get?").is_empty());
        assert_eq!(question_names("Now that I’ve moved to Pune, what changes?"), ["Pune"]);
        let m = BuiltinModel::default();
        let q = &Question::parse("Which project did Dev Anand work on before Kestrel?");
        assert!(q.asks_for_a_name());
        assert!(names_something_new(&m, "Dev Anand previously worked on Project Heron.", q));
        assert!(!names_something_new(&m, "Project Kestrel is led by Dev Anand.", q));
    }
}
