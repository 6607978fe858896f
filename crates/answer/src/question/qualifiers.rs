//! Qualifiers: the words of a question that pick one value out of several
//! the same passage gives (issue #40). "What is the hostel fee for
//! north-east scholarship holders?" asks for the reduced fee, not the full
//! fee two sentences earlier; "When is the first exam?" asks for the first
//! date, not the last. A claim that states a value without its qualifier,
//! citing a sentence that does not say it either, answers another
//! question (the verify module rejects it and names the qualifier).
//!
//! Three closed classes of English, not the words of any document:
//! fractions and multiples (half, quarter, double, twice), ordinals and
//! sequence words (first, second, …, last, final, next, previous), and
//! compass directions and their compounds (north, south-east, northeast).
//! Each has the few forms a document uses for it ("half" is also "50%";
//! "first" is also "initial", "begins"; "north-east" is also "northeast",
//! "north eastern"). A sequence word before a unit of time ("last year",
//! "next month") dates the question, and "last date" or "final date" names
//! a deadline, instead of qualifying it.
//!
//! In a question of several clauses ("What is the MTech fee, and is the
//! hostel free on the north-east scholarship?") a qualifier belongs to its
//! own clause: it binds only a claim that shares one of that clause's
//! content terms ([`Qualifier::binds`]).

use std::collections::BTreeSet;

use crate::lexicon::TIME_UNITS;

/// One qualifier of a question: the word as asked, and the forms (each one
/// or more lower-case words, hyphens split) that say it in a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Qualifier {
    /// The word as the question wrote it ("north-east").
    pub word: String,
    forms: Vec<Vec<String>>,
    /// Whether its forms match whole words only: a sequence word inside a
    /// compound ("end-semester", "first-aid") is not the word.
    whole: bool,
    /// The content terms of its clause, when the question has several
    /// clauses; `None` when it has one (the qualifier binds every claim).
    scope: Option<BTreeSet<String>>,
}

impl Qualifier {
    /// Whether this qualifier binds a claim with content terms `claim`
    /// (as [`crate::lexicon::content_terms`] gives them): always in a
    /// one-clause question, else when the claim shares a term of its clause.
    pub fn binds(&self, claim: &BTreeSet<String>) -> bool {
        self.scope.as_ref().is_none_or(|scope| scope.iter().any(|t| claim.contains(t)))
    }

    /// Whether `text` says this qualifier in one of its forms (whole
    /// words, case ignored; a hyphenated word's parts for fractions and
    /// directions; a percentage form as written, after a space or at the
    /// start).
    pub fn said_in(&self, text: &str) -> bool {
        let words = super::split_words(text);
        let words = if self.whole { words } else { parts(&words) };
        let lower = text.to_lowercase().replace(" %", "%");
        self.forms.iter().any(|form| match form.as_slice() {
            [one] if one.ends_with('%') => lower
                .match_indices(one.as_str())
                .any(|(at, _)| at == 0 || !lower[..at].ends_with(|c: char| c.is_ascii_digit())),
            _ => words.windows(form.len()).any(|w| w == form.as_slice()),
        })
    }
}

/// Fractions and multiples, with the other forms of each.
const FRACTIONS: &[(&str, &[&str])] = &[
    ("half", &["half", "halves", "halved", "50%", "50 per cent", "50 percent", "fifty per cent", "fifty percent"]),
    ("quarter", &["quarter", "quarters", "25%", "25 per cent", "25 percent"]),
    ("double", &["double", "doubled", "twice", "two times", "200%"]),
    ("twice", &["twice", "double", "doubled", "two times"]),
    ("triple", &["triple", "tripled", "thrice", "three times"]),
];

/// Ordinals and sequence words, with the other forms of each.
const SEQUENCE: &[(&str, &[&str])] = &[
    (
        "first",
        &[
            "first",
            "1st",
            "initial",
            "initially",
            "begin",
            "begins",
            "beginning",
            "start",
            "starts",
            "commence",
            "commences",
            "opening",
            "1",
        ],
    ),
    ("second", &["second", "2nd", "2"]),
    ("third", &["third", "3rd", "3"]),
    ("fourth", &["fourth", "4th", "4"]),
    ("fifth", &["fifth", "5th", "5"]),
    ("last", &["last", "final", "finally", "end", "ends", "conclude", "concludes", "closing"]),
    ("final", &["final", "finally", "last", "end", "ends", "conclude", "concludes"]),
    ("next", &["next", "following", "subsequent"]),
    ("previous", &["previous", "prior", "preceding", "earlier"]),
];

const DIRECTIONS: &[&str] = &["north", "south", "east", "west"];

/// The qualifiers of a question `text`, in order, each once; `terms`
/// gives a clause's content terms (the question's tokenizer and lexicon).
pub fn qualifiers(text: &str, terms: impl Fn(&str) -> BTreeSet<String>) -> Vec<Qualifier> {
    let clauses = clauses(text);
    let several = clauses.len() > 1;
    let mut out: Vec<Qualifier> = Vec::new();
    for clause in &clauses {
        for mut q in in_words(&super::split_words(clause)) {
            if out.iter().any(|o| o.word == q.word) {
                continue;
            }
            if several {
                let scope: BTreeSet<String> = terms(clause).into_iter().filter(|t| !q.said_in(t)).collect();
                q.scope = (!scope.is_empty()).then_some(scope);
            }
            out.push(q);
        }
    }
    out
}

/// The clauses of a question: split at sentence ends, semicolons and a
/// standalone "and" or "or" (not at commas: "For north-east scholarship
/// holders, what is the hostel fee?" is one clause).
fn clauses(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for piece in text.split([';', '?', '!']).flat_map(|p| p.split(". ")) {
        let mut current: Vec<&str> = Vec::new();
        for word in piece.split_whitespace() {
            if matches!(word.to_lowercase().as_str(), "and" | "or") && !current.is_empty() {
                out.push(current.join(" "));
                current.clear();
            } else {
                current.push(word);
            }
        }
        if !current.is_empty() {
            out.push(current.join(" "));
        }
    }
    out
}

/// Sequence words that date a question or name a deadline when a unit of
/// time ([`TIME_UNITS`]) follows ("last year", "the final date"), where an ordinal still
/// qualifies ("first year").
const DEICTIC: &[&str] = &["last", "final", "next", "previous"];

/// Words before which a sequence word is a verb ("How long does the
/// notice period last?", "it lasts").
const BEFORE_A_VERB: &[&str] =
    &["do", "does", "did", "will", "would", "can", "could", "should", "must", "may", "to", "it", "they"];

/// Words a deictic word may stand apart from its unit of time by ("the
/// last working day", "the last 12 months").
fn between(word: &str) -> bool {
    matches!(word, "working" | "business" | "calendar" | "full") || word.chars().all(|c| c.is_ascii_digit())
}

/// Words after which a fraction or sequence word names a period, not a
/// case ("leave credited per quarter", "every second Saturday").
const DISTRIBUTIVE: &[&str] = &["per", "each", "every"];

/// The qualifiers in one clause's `words`, unscoped.
fn in_words(words: &[String]) -> Vec<Qualifier> {
    let mut out: Vec<Qualifier> = words.iter().filter_map(|w| direction(w)).collect();
    // Each part with the word it comes from: a sequence word inside a
    // compound ("first-year", "Last-Modified") qualifies as the whole compound.
    let (parts, origin): (Vec<String>, Vec<&String>) = words
        .iter()
        .flat_map(|w| w.split('-').filter(|p| !p.is_empty()).map(move |p| (p, w)))
        .map(|(p, w)| (p.trim_end_matches("'s").trim_end_matches("’s").to_string(), w))
        .unzip();
    for (i, part) in parts.iter().enumerate() {
        let unit = parts[i + 1..].iter().find(|w| !between(w)).map(String::as_str);
        let dates = DEICTIC.contains(&part.as_str()) && unit.is_some_and(|n| TIME_UNITS.contains(&n));
        let before = i.checked_sub(1).map(|j| parts[j].as_str());
        let distributive = before.is_some_and(|b| DISTRIBUTIVE.contains(&b));
        let verb = part == "last" && (i + 1 == parts.len() || before.is_some_and(|b| BEFORE_A_VERB.contains(&b)));
        let found = (!distributive)
            .then(|| listed(part, FRACTIONS, false))
            .flatten()
            .or_else(|| (!dates && !distributive && !verb).then(|| listed(part, SEQUENCE, true)).flatten())
            .map(|q| if q.whole && origin[i].contains('-') { compound(origin[i]) } else { q });
        out.extend(found);
    }
    out
}

/// A compound holding a sequence word, as a qualifier said only by the
/// compound itself, hyphenated or spaced: "first-year" is not "first" (a
/// text's "first instalment" does not say it), and "Last-Modified" is a
/// header's name, said by every sentence about that header.
fn compound(word: &str) -> Qualifier {
    let spaced: Vec<String> = word.split('-').filter(|p| !p.is_empty()).map(str::to_string).collect();
    Qualifier { word: word.to_string(), forms: vec![vec![word.to_string()], spaced], whole: true, scope: None }
}

fn listed(word: &str, table: &[(&str, &[&str])], whole: bool) -> Option<Qualifier> {
    table.iter().find(|(w, _)| *w == word).map(|(w, forms)| Qualifier {
        word: (*w).to_string(),
        forms: forms
            .iter()
            .map(|f| if f.ends_with('%') { vec![(*f).to_string()] } else { parts(&super::split_words(f)) })
            .collect(),
        whole,
        scope: None,
    })
}

/// A compass direction or a compound of two ("north-east", "northeast",
/// "south-western"), with its spaced, hyphenated, joined and "-ern" forms.
fn direction(word: &str) -> Option<Qualifier> {
    let base = word.strip_suffix("ern").unwrap_or(word);
    let (a, b) = if let Some((a, b)) = base.split_once('-') {
        (a, Some(b))
    } else if let Some(a) = DIRECTIONS.iter().find(|d| base.starts_with(**d) && base.len() > d.len()) {
        (*a, Some(&base[a.len()..]))
    } else {
        (base, None)
    };
    if !DIRECTIONS.contains(&a) || b.is_some_and(|b| !DIRECTIONS.contains(&b)) {
        return None;
    }
    let forms = match b {
        Some(b) => vec![
            vec![a.to_string(), b.to_string()],
            vec![a.to_string(), format!("{b}ern")],
            vec![format!("{a}{b}")],
            vec![format!("{a}{b}ern")],
        ],
        None => vec![vec![a.to_string()], vec![format!("{a}ern")]],
    };
    Some(Qualifier { word: word.to_string(), forms, whole: false, scope: None })
}

/// Words with hyphenated ones split into their parts.
fn parts(words: &[String]) -> Vec<String> {
    words.iter().flat_map(|w| w.split('-')).filter(|p| !p.is_empty()).map(str::to_string).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::question::split_words;

    fn terms(text: &str) -> BTreeSet<String> {
        split_words(text).into_iter().filter(|w| w.len() > 3).collect()
    }

    fn of(q: &str) -> Vec<String> {
        qualifiers(q, terms).into_iter().map(|q| q.word).collect()
    }

    fn says(q: &str, text: &str) -> bool {
        qualifiers(q, terms)[0].said_in(text)
    }

    #[test]
    fn the_three_classes_are_found_and_nothing_else() {
        assert_eq!(of("What is the hostel fee for north-east scholarship holders?"), ["north-east"]);
        assert_eq!(of("When is the first exam, and is half the fee refundable?"), ["first", "half"]);
        assert_eq!(of("Which office handles the Northeastern region?"), ["northeastern"]);
        assert!(of("What was the fee last year, and who approves it next month?").is_empty());
        assert!(of("By what last date must the semester's fees be paid?").is_empty(), "a deadline");
        assert!(of("How long does the notice period last?").is_empty(), "a verb");
        assert!(of("Was last year's fee higher, and what about the last 12 months?").is_empty());
        assert!(of("Is leave credited per quarter, and is the office shut every second Saturday?").is_empty());
        assert!(of("When is the last working day?").is_empty());
        assert!(of("How many days of earned leave do I get?").is_empty());
        assert!(of("Is the library open on Sundays, and till when?").is_empty());
        assert!(of("How much is charged per second of overtime?").is_empty());
        assert_eq!(of("How many days of leave do first-year staff get for a half-day?"), ["first-year", "half"]);
    }

    #[test]
    fn a_fronted_phrase_stays_in_its_clause() {
        let q = qualifiers("For north-east scholarship holders, what is the hostel fee?", terms);
        assert!(q[0].binds(&terms("The hostel fee is Rs 14,000.")));
    }

    #[test]
    fn a_qualifier_binds_the_claims_of_its_own_clause() {
        let q = qualifiers("What is the MTech fee, and is the hostel free on the north-east scholarship?", terms);
        assert_eq!(q.len(), 1);
        assert!(q[0].binds(&terms("The hostel fee is Rs 14,000.")));
        assert!(!q[0].binds(&terms("MTech tuition is Rs 48,500.")));
        let one = qualifiers("What is the hostel fee for north-east scholarship holders?", terms);
        assert!(one[0].binds(&terms("MTech tuition is Rs 48,500.")), "one clause: every claim");
    }

    #[test]
    fn each_qualifier_is_found_in_its_other_forms() {
        let q = "What is the hostel fee for north-east students?";
        assert!(says(q, "Students from the North East pay Rs 7,000."));
        assert!(says(q, "North-eastern states: Rs 7,000."));
        assert!(says(q, "Northeast scholarship holders pay Rs 7,000."));
        assert!(!says(q, "The hostel fee is Rs 14,000 per semester."));
        assert!(!says(q, "Students of the east campus pay Rs 9,000."));
        assert!(says("What is the half-day rate?", "A 50 % rate applies."));
        assert!(!says("What is the half-day rate?", "A 50-minute break applies."));
        assert!(says("When is the first exam?", "Exams begin on 24.11.2026."));
        assert!(!says("When is the first exam?", "The last exam is on 5.12.2026."));
        assert!(says("What is the gift in the third year?", "- Year 3: $150 USD"));
        let last = "When is the last end-semester paper?";
        assert!(!says(last, "End-semester examinations begin on 24.11.2026."), "inside a compound");
        assert!(says(last, "The final paper is on 04.12.2026."));
        assert!(!says("What is the half-day rate?", "A 150% rate applies."));
    }

    #[test]
    fn a_sequence_word_inside_a_compound_is_said_by_the_compound() {
        // RFC 7232's header: every sentence about it says "last".
        let header = "How far apart must Date and Last-Modified be for a strong validator?";
        assert_eq!(of(header), ["last-modified"]);
        assert!(says(header, "A Date value at least 60 seconds after the Last-Modified value."));
        let staff = "How many days of leave do first-year staff get?";
        assert!(says(staff, "First-year staff get 10 days."));
        assert!(says(staff, "Staff in their first year get 10 days."));
        assert!(!says(staff, "The first instalment is due in July."));
    }
}
