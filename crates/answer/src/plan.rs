//! Questions that need more than one search, answered on the classic path:
//! each part of a multi-part question gets its own search, and a multi-hop
//! question carries the entity found in one hop into the next ("leads
//! Project Kestrel" → Dev Anand → "who manages Dev Anand"), up to [`MAX_HOPS`] searches.

use std::sync::LazyLock;

use regex::Regex;

use crate::builtin::BuiltinModel;

/// Hops followed at most.
pub const MAX_HOPS: usize = 4;

#[allow(clippy::expect_used)]
static NAME: LazyLock<Regex> = LazyLock::new(|| {
    // Runs of capitalised words, allowing initials before ("M. Ward") and a
    // lower-case particle inside ("Bank of India").
    Regex::new(r"\b(?:[A-Z]\.\s+)*[A-Z][\w'’-]*(?:\s+(?:of|de|van|von|da)?\s*[A-Z][\w'’-]*)*")
        .expect("valid name pattern")
});

/// A hop that ends in an indefinite description after a word that links it
/// ("… produced by a man?", "… in a university?").
#[allow(clippy::expect_used)]
static DESCRIBED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(\w+)\s+(?:a|an)\s+(?:[\w'’-]+\s+){0,3}?[\w'’-]+\?$").expect("valid description pattern")
});

/// Whether `sentence`, quoted from a chunk titled `title`, answers the last
/// hop `hop` that the bridge `entity` filled ("Who was in charge of
/// Maharashtra?"): it names the entity (a term of it, in the sentence or
/// the title) and holds one of the hop's own content terms beyond its names
/// and the entity (here "charge"), when the hop has any. A sentence that
/// only mentions Maharashtra answers nothing the question asked, and
/// quoting it would answer an unanswerable question.
pub fn answers_last_hop(model: &BuiltinModel, hop: &str, entity: &str, sentence: &str, title: &str) -> bool {
    let said = model.content_terms(&format!("{sentence} {title}"));
    let named = model.content_terms(entity);
    if !named.is_empty() && named.is_disjoint(&said) {
        return false;
    }
    let names = model.names_in(hop);
    let asked: Vec<String> =
        model.content_terms(hop).into_iter().filter(|t| !names.contains(t) && !named.contains(t)).collect();
    let own = model.content_terms(sentence);
    asked.is_empty()
        || asked.iter().any(|t| own.contains(t) || (LIFE_EVENTS.contains(&t.as_str()) && LIFE_SPAN.is_match(sentence)))
}

/// Stems of birth and death, which a biography states as its life span in
/// brackets ("Ezer Weizman (15 June 1924 – 24 April 2005) was …").
const LIFE_EVENTS: &[&str] = &["born", "birth", "die", "death"];
#[allow(clippy::expect_used)]
static LIFE_SPAN: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\([^)]*\b(?:1\d|20)\d{2}\b[^)]*\)").expect("valid life-span pattern"));

/// Fill `<answer N>` placeholders with the answers found so far.
pub fn fill(template: &str, answers: &[String]) -> Option<String> {
    let mut out = template.to_string();
    for (i, a) in answers.iter().enumerate() {
        out = out.replace(&format!("<answer {}>", i + 1), a);
    }
    (!out.contains("<answer ")).then_some(out)
}

/// Kinds of place a hop can ask for ("In which country …?"), the larger
/// ones first: an address names the smallest place first ("a village in
/// Ratnagiri district, Konkan, Maharashtra state, India").
const LARGE_PLACES: &[&str] = &["country", "nation", "state", "province", "region", "county", "district", "area"];
const SMALL_PLACES: &[&str] = &["city", "town", "village", "place", "location", "island"];

#[allow(clippy::expect_used)]
static PLACE_HOP: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)^(?:in\s+)?which\s+(\w+)\b").expect("valid place-hop pattern"));
/// What may stand between the names of one address: commas, "and", "of",
/// "in", "the", kinds of place and points of the compass.
#[allow(clippy::expect_used)]
static ADDRESS_GAP: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^(?:[\s,]|\band\b|\bof\b|\bin\b|\bthe\b|\b(?:country|state|province|region|county|counties|district|districts|area|municipality)\b|\b(?:north|south|east|west|northern|southern|eastern|western|central|north-west|north-east|south-west|south-east)\b)*$")
        .expect("valid address pattern")
});

/// The entity a hop's answer sentence introduces: the first name in it that
/// the hop question does not already contain (names of two or more words
/// first, then single capitalised words that do not start the sentence).
/// A hop that asks for a kind of place takes the place of that kind
/// (the name before that kind word, or the right end of an address) when
/// the sentence gives one; a hop ending in an indefinite description after
/// a linking word ("… produced by a man?") takes the name after that word;
/// "Which association …?" takes a name with that kind word in it.
pub fn bridge_entity(sentence: &str, hop_question: &str) -> Option<String> {
    let q = hop_question.to_lowercase();
    let names: Vec<(usize, String)> = NAME
        .find_iter(sentence)
        .map(|m| {
            let name = m.as_str().trim_end_matches(['\'', '’']).trim_end_matches("'s");
            match name.strip_prefix("The ") {
                Some(rest) => (m.start() + 4, rest.to_string()),
                None => (m.start(), name.to_string()),
            }
        })
        .filter(|(_, n)| !n.is_empty() && !q.contains(&n.to_lowercase()))
        .collect();
    if let Some(place) = place_entity(sentence, &q, &names) {
        return Some(place);
    }
    if let Some(linked) = linked_entity(sentence, hop_question, &names) {
        return Some(linked);
    }
    // "Which association …?" is answered by the name that says it is one.
    if let Some(kind) = PLACE_HOP.captures(&q).map(|c| c[1].to_string())
        && let Some((_, n)) = names.iter().find(|(_, n)| n.to_lowercase().split_whitespace().any(|w| w == kind))
    {
        return Some(n.clone());
    }
    let multi = names.iter().find(|(_, n)| n.split_whitespace().count() >= 2);
    let single = names.iter().find(|(at, n)| *at > 0 && n.chars().count() > 2);
    multi.or(single).map(|(_, n)| n.clone())
}

/// For a hop that ends in an indefinite description after a linking word
/// ("… was produced by a man?"): the first name after that word in the
/// sentence, with at most two lower-case words between ("produced by Trent
/// Reznor", "by singer-songwriter M. Ward").
fn linked_entity(sentence: &str, hop_question: &str, names: &[(usize, String)]) -> Option<String> {
    let link = DESCRIBED.captures(hop_question)?[1].to_string();
    // Offsets in the sentence itself (a lower-cased copy may differ in bytes).
    let linking = Regex::new(&format!(r"(?i)\b{}\s+", regex::escape(&link))).ok()?;
    let lower_words = |gap: &str| {
        gap.split_whitespace().count() <= 2 && gap.split_whitespace().all(|w| w.starts_with(char::is_lowercase))
    };
    linking
        .find_iter(sentence)
        .find_map(|m| {
            names.iter().find(|(start, _)| *start >= m.end() && sentence.get(m.end()..*start).is_some_and(lower_words))
        })
        .map(|(_, n)| owner_only(n))
}

/// "Trent Reznor" of "Trent Reznor of Nine Inch Nails": a name of two or
/// more words before "of" is the owner (not "Bank of India").
fn owner_only(name: &str) -> String {
    match name.split_once(" of ") {
        Some((owner, _)) if owner.split_whitespace().count() >= 2 => owner.to_string(),
        _ => name.to_string(),
    }
}

/// For a hop asking "In which country/state/city …?": the name just before
/// that kind word ("Maharashtra state", "McDowell County"), else, of the
/// first address after an "in" ("in Sac and Buena Vista counties in
/// north-west Iowa"), the last name for a large kind and the first for a
/// small one. `None` for other hops or without an address.
fn place_entity(sentence: &str, hop_question: &str, names: &[(usize, String)]) -> Option<String> {
    let kind = PLACE_HOP.captures(hop_question)?[1].to_lowercase();
    let large = LARGE_PLACES.contains(&kind.as_str());
    if !large && !SMALL_PLACES.contains(&kind.as_str()) {
        return None;
    }
    let labelled = names.iter().find(|(at, n)| {
        let after = sentence.get(at + n.len()..).unwrap_or_default().to_lowercase();
        let before = n.to_lowercase();
        let after = after.trim_start();
        let kind_next = after.strip_prefix(kind.as_str()).is_some_and(|rest| !rest.starts_with(char::is_alphanumeric));
        kind_next || before.ends_with(&format!(" {kind}"))
    });
    if let Some((_, n)) = labelled {
        return Some(n.clone());
    }
    let start = sentence.find(" in ")?;
    let mut address: Vec<&(usize, String)> = Vec::new();
    for name in names.iter().filter(|(at, _)| *at > start) {
        let joined = address
            .last()
            .is_none_or(|(at, n)| sentence.get(at + n.len()..name.0).is_some_and(|gap| ADDRESS_GAP.is_match(gap)));
        if !joined {
            break;
        }
        address.push(name);
    }
    let pick = if large { address.last() } else { address.first() };
    pick.map(|(_, n)| if large { larger_part(n) } else { n.as_str() }.to_string())
}

/// Of a subdivision's name, the larger place it is part of: "Eastern
/// Region of Uganda" → "Uganda"; other names as they are.
fn larger_part(name: &str) -> &str {
    #[allow(clippy::expect_used)]
    static SUBDIVISION: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^(?:\w+\s+)*(?:Region|Province|District|Division|Department|Governorate|Prefecture|Oblast)\s+of\s+(?:the\s+)?(.+)$")
            .expect("valid subdivision pattern")
    });
    SUBDIVISION.captures(name).and_then(|c| c.get(1)).map_or(name, |m| m.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sentences of eval/musique-unanswerable.jsonl's paragraphs (Wikipedia).
    #[test]
    fn a_last_hop_is_answered_by_the_entity_and_what_was_asked_of_it() {
        let m = BuiltinModel::default();
        let hop = "Who was in charge of Maharashtra?";
        let member = "He represents the Ahmednagar constituency of Maharashtra and is a member of the Nationalist Congress Party.";
        assert!(!answers_last_hop(&m, hop, "Maharashtra", member, "Gadakh Tukaram Gangadhar"));
        let elected = "On 10 September 2012, parliament elected Hassan Sheikh Mohamud as the new President of Somalia.";
        assert!(answers_last_hop(&m, "Who was in charge of Somalia?", "Somalia", elected, "Somalia"));
        let hop = "What is the population of Kansas?";
        assert!(!answers_last_hop(
            &m,
            hop,
            "Kansas",
            "As of the 2010 census, the city population was 2,062.",
            "Hanston"
        ));
        assert!(answers_last_hop(&m, hop, "Kansas", "As of the 2010 census, the population was 2,853,118.", "Kansas"));
        // A biography gives birth and death as its life span.
        let weizman = "Ezer Weizman (15 June 1924 – 24 April 2005) was the seventh President of Israel.";
        assert!(answers_last_hop(&m, "In what year was Ezer Weizman born?", "Ezer Weizman", weizman, "Ezer Weizman"));
        // A synonym of the relation answers it.
        let hop = "Who is the spouse of Raoul Walsh?";
        assert!(answers_last_hop(&m, hop, "Raoul Walsh", "Walsh married Miriam Cooper in 1916.", "Raoul Walsh"));
        assert!(!answers_last_hop(
            &m,
            hop,
            "Raoul Walsh",
            "The film's sets were designed by Edward Carrick.",
            "Jump for Glory"
        ));
    }

    #[test]
    fn carries_the_name_into_the_next_hop() {
        assert_eq!(
            bridge_entity("Project Kestrel is led by Dev Anand.", "Who leads Project Kestrel?").as_deref(),
            Some("Dev Anand")
        );
        assert_eq!(
            bridge_entity("Dev Anand reports to Ingrid Solberg, the CTO.", "Who manages Dev Anand?").as_deref(),
            Some("Ingrid Solberg")
        );
        assert_eq!(
            fill("Where is <answer 2>'s office?", &["Dev Anand".into(), "Ingrid Solberg".into()]).as_deref(),
            Some("Where is Ingrid Solberg's office?")
        );
        assert_eq!(fill("Who manages <answer 1>?", &[]), None);
    }

    /// Sentences of eval/musique.jsonl's paragraphs (Wikipedia).
    #[test]
    fn a_place_hop_takes_the_place_of_the_kind_asked_for() {
        let cases = [
            (
                "The Bubye River, also known as Bubi River, is a tributary of the Limpopo River in Beitbridge District and Gwanda District, Zimbabwe.",
                "In which country the Bubye River is found?",
                "Zimbabwe",
            ),
            (
                "Clonbrook is a village in the Demerara-Mahaica region of Guyana.",
                "In which country the village of Clonbrook is located?",
                "Guyana",
            ),
            (
                "Shringarpur is a small village in Ratnagiri district, Konkan, Maharashtra state, India.",
                "In which state Shringarpur is located?",
                "Maharashtra",
            ),
            (
                "Shringarpur is a small village in Ratnagiri district, Konkan, Maharashtra state, India.",
                "In which country Shringarpur is located?",
                "India",
            ),
            (
                "Dodge City Regional Airport is three miles east of Dodge City, in Ford County, Kansas.",
                "In which state Dodge City Regional Airport is located?",
                "Kansas",
            ),
            (
                "The National Physical Laboratory of India, situated in New Delhi, is the measurement standards laboratory of India.",
                "In which city India's national physical laboratory is located?",
                "New Delhi",
            ),
            (
                "The Intrepid Wind Farm consists of 107 wind turbines, located in Sac and Buena Vista counties in north-west Iowa.",
                "In which area Intrepid Wind Farm is located?",
                "Iowa",
            ),
            ("Buyende is a town in the Eastern Region of Uganda.", "In which country is Buyende?", "Uganda"),
        ];
        let journal = "The Journal of Psychotherapy Integration is a peer-reviewed academic journal published by the American Psychological Association on behalf of the Society for the Exploration of Psychotherapy Integration.";
        assert_eq!(
            bridge_entity(journal, "Which association published Journal of Psychotherapy Integration?").as_deref(),
            Some("American Psychological Association")
        );
        let soundtrack = "Natural Born Killers: A Soundtrack for an Oliver Stone Film is the soundtrack to the film \"Natural Born Killers\", produced by Trent Reznor of Nine Inch Nails.";
        let hop = "The soundtrack from the film \"Natural Born Killers\" was produced by a man?";
        assert_eq!(bridge_entity(soundtrack, hop).as_deref(), Some("Trent Reznor"));
        let album =
            "Transfiguration of Vincent, released in 2003, is the third studio album by singer-songwriter M. Ward.";
        let hop = "Transfiguration of Vincent is the third studio album by a singer-songwriter?";
        assert_eq!(bridge_entity(album, hop).as_deref(), Some("M. Ward"));
        for (sentence, hop, want) in cases {
            assert_eq!(bridge_entity(sentence, hop).as_deref(), Some(want), "{hop}");
        }
    }
}
