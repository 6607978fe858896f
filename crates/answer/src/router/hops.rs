//! Multi-hop questions: the answer needs a bridging entity found first
//! ("Who manages the person who leads Project Kestrel?" needs who leads it).
//!
//! Patterns, each turned into an inner hop, innermost first, with the outer
//! question rewritten around a placeholder `<answer N>` (the answer of hop N):
//! - **relative clause** on a definite entity noun (a person, or a kind of
//!   named entity: country, film, association, …): "the person who leads
//!   Project Kestrel" → "Who leads Project Kestrel?"; with "where" or "in
//!   which": "the country where Baure is located" → "In which country is
//!   Baure?". The clause must name something (a capitalised word) and not
//!   start with a pronoun, so "the form that I need" stays simple.
//! - **place clause** with no relative word: "the country Dai Jitao is
//!   from" → "In which country is Dai Jitao?".
//! - **nested role or relation**: "the office of the manager of Project
//!   Kestrel", "Who does the leader of Project Kestrel report to?" → "Who is
//!   the manager of Project Kestrel?"; "the composer of Aschenbrodel". The
//!   object must be a name.
//! - **possessive relation**: "Akinoshu Kenji's birthplace" → "In which
//!   city was Akinoshu Kenji born?", when no noun follows the relation.
//! - **indefinite description** before the question word: "… album by a
//!   singer-songwriter from what state?" → the statement up to the
//!   description, then "<answer 1> from what state?".
//! - **compound role**: a name before the role word, "Who does the Project
//!   Kestrel lead report to?" → "Who is the lead of Project Kestrel?". The
//!   name must be capitalised words, so "the project lead" stays simple.
//! - **possessive chain**: "Project Kestrel's lead's office" → "Who is the
//!   lead of Project Kestrel?".
//! - **reference back** in a later part: "…, and where is that manager's
//!   office?" → "Where is <answer 2>'s office?".
//!
//! A hop may hold hops of its own ("the country where the composer of
//! Aschenbrodel was a citizen"), two levels deep; a plan of more than
//! [`crate::plan::MAX_HOPS`] searches is not made.
//!
//! A question that only asks for the bridge itself ("Who is the head of HR?",
//! "Who is the person who leads Project Kestrel?") is not multi-hop.

use std::sync::LazyLock;

use regex::{Captures, Regex};

use super::re;
use crate::lexicon::is_demonym;

const PEOPLE: &str = "person|one|someone|individual|manager|boss|head|lead|leader|man|woman|guy";
/// Things a relative clause can pick out by a fact about them ("the country
/// where the Bubye River is found", "the film that was shot in Leland"):
/// kinds of named entity, never policy nouns ("the fee that MBA students
/// pay" stays one question).
const ENTITIES: &str = "team|department|group|company|project|organi[sz]ation|association|institution|university|college|school|country|nation|state|city|town|village|area|region|province|county|district|place|location|island|river|lake|mountain|film|movie|album|song|single|band|book|novel|show|series|episode|game|magazine|newspaper|network|station|league|club|party|building|museum|airport|ship|battle|war|event|performer|artist|singer|actor|actress|player|writer|author|composer|director|producer|politician|king|queen|president|musician|character";
const ROLES: &str = r"manager|head|lead|leader|boss|supervisor|owner|director|chair|person\s+in\s+charge";
/// Relations a name has ("the composer of Aschenbrodel", "Gisvi's city of
/// birth", "Peter Bonetti's team"); those of a person are asked with "Who",
/// the others with "What" or, for a place, the kind of place.
const PERSON_RELATIONS: &str = "winner|recipient|receiver|composer|author|writer|performer|producer|founder|creator|publisher|developer|designer|architect|spouse|wife|husband|father|mother|son|daughter|brother|sister|mayor|president|governor|coach|captain|singer|owner";
const THING_RELATIONS: &str = r"alma\s+mater|team|club|band|label|capital|birthplace|hometown|headquarters|city\s+of\s+birth|place\s+of\s+birth|country\s+of\s+(?:birth|origin|citizenship)|home\s+country|country";
const PLACEHOLDER: &str = r"<answer \d+>";

static RELATIVE: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(r"(?i)\bthe\s+({PEOPLE}|{ENTITIES})\s+(who|that|which|whom|where|in\s+which|containing)\s+"))
});
static ROLE_OF: LazyLock<Regex> =
    LazyLock::new(|| re(&format!(r"(?i)\bthe\s+({ROLES}|{PERSON_RELATIONS}|{THING_RELATIONS})\s+of\s+")));
static COMPOUND_ROLE: LazyLock<Regex> =
    LazyLock::new(|| re(&format!(r"\bthe\s+((?:\p{{Lu}}[\p{{L}}\d&-]*\s+)+)({ROLES})\b(?:\s+(?:of|for)\b)?")));
static POSSESSIVES: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(r"((?:\p{{Lu}}[\p{{L}}\d]*\s+)*[\p{{L}}\d]+|{PLACEHOLDER})['’]s\s+(\p{{L}}+)['’]s\b"))
});
static POSSESSIVE_RELATION: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r"((?:\p{{Lu}}[\p{{L}}\d-]*\s+)*\p{{Lu}}[\p{{L}}\d-]*|{PLACEHOLDER})['’]s\s+({PERSON_RELATIONS}|{THING_RELATIONS})\b"
    ))
});
static BACK_REFERENCE: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r"(?i)\b(?:that|this|the\s+same)\s+(?:{PEOPLE}|director|owner|supervisor)\b|\b(his|her|their)\s+(?:office|manager|boss|email|phone|location|team|department|supervisor|desk|address|number)\b"
    ))
});
/// A name: capitalised words or numbers, with the particles of titles and
/// names between them ("Journal of Psychotherapy Integration", "Bastien
/// und Bastienne"), or a placeholder.
static NAME: LazyLock<Regex> = LazyLock::new(|| {
    let word = r"(?:\p{Lu}[\p{L}\d&-]*|\d+)";
    let particles = r"(?:(?:of|the|de|del|la|le|du|des|von|van|da|und|for)\s+)*";
    re(&format!(r"^(?:{PLACEHOLDER}|{word}(?:\s+{particles}{word})*)"))
});
static ONLY_ASKS: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?i)^\s*(?:(?:who|what|where|(?:in\s+)?which\s+\w+)\s+(?:is|was|are|were)|name|identify)\s+$")
});
/// What may follow all a question asks for: nothing, or a clause that
/// describes it ("Name the mother of X, who was the daughter of Y?").
static ONLY_ASKS_AFTER: LazyLock<Regex> = LazyLock::new(|| re(r"(?i)^\s*(?:\?|,\s*(?:who|which)\b.*)?\s*$"));
/// A numbered title after a name: ", 4th Baron Stafford", ", 3rd Earl of Derby".
static TITLE: LazyLock<Regex> =
    LazyLock::new(|| re(r"^,\s+\d+(?:st|nd|rd|th)\s+\p{Lu}\p{L}*(?:\s+(?:of\s+)?\p{Lu}\p{L}*)*"));
static PRONOUN_START: LazyLock<Regex> = LazyLock::new(|| re(r"(?i)^(?:i|we|you|they|he|she|it)\b"));
/// An indefinite description of a kind of entity and what follows it:
/// "by a singer-songwriter| from what state", "featuring an American
/// actress| who starred in what".
static INDEFINITE: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r"(?i)\b(?:a|an)\s+(?:[\w'’-]+\s+){{0,3}}?(?:\w+-)?(?:{PEOPLE}|{ENTITIES})(?:-\w+)?(\s+(?:who|that|which|whose|from|located|based|born|headquartered|developed|named|in\s+what)\b)"
    ))
});
/// A question about a procedure: "How is …", "How do I …".
static PROCEDURE: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?i)^\s*how\s+(?:is|are|was|were|do|does|did|can|should|will|to)\b"));
static WH_WORD: LazyLock<Regex> = LazyLock::new(|| re(r"(?i)\b(?:what|which|whom|who|when|where|how)\b"));
/// A place picked out by a clause with no relative word: "the country Dai
/// Jitao is from", "the city Sarah Sorge was born in".
static BARE_PLACE_CLAUSE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\bthe\s+((?i:country|nation|state|province|region|city|town))\s+(\p{Lu}[\p{L}\d.&'’ -]*?)\s+(is|are|was|were)\s+(from|born(?:\s+in)?|located(?:\s+in)?|based(?:\s+in)?)\b",
    )
});
/// Words that may follow a possessive relation ("X's team is …", "X's
/// birthplace in …"), besides a past participle ("X's alma mater founded
/// …"); any other word makes the relation a modifier ("X's team policy").
const RELATION_FOLLOWERS: &[&str] =
    &["is", "was", "are", "were", "has", "had", "in", "at", "from", "of", "to", "for", "on", "and", "become", "became"];
/// Question words and auxiliaries that open a question, never a name.
const OPENERS: &[&str] = &[
    "is", "was", "are", "were", "do", "does", "did", "can", "could", "should", "will", "would", "what", "who", "where",
    "when", "which", "how",
];
/// A "where" clause that only says where its subject is.
static LOCATED: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?i)^(.+?)\s+(is|are|was|were)\s+(?:located|found|situated)(?:\s+in)?$"));
/// Where a "where" clause ends: after its verb ("is located", "took place").
static WHERE_VERB: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:(?:is|was|are|were)\s+(?:\w+ed|found|born|held|built|made)|took\s+place|occurred|happened|lived|died|began|started)\b",
    )
});

/// The hops of a multi-hop question and the patterns that made them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Hops {
    /// The hop questions in order; later ones use `<answer N>`.
    pub hops: Vec<String>,
    /// The patterns found, for the route's reason.
    pub patterns: Vec<String>,
    /// Whether a hop bridges inside a part (not only a back-reference).
    pub bridged: bool,
}

/// One inner hop found in a clause: its question, the span of the clause
/// the hop's answer replaces, and why.
struct Found {
    hop: String,
    start: usize,
    end: usize,
    /// Whether the answer replaces a possessive's owner ("<answer 1>'s").
    possessive: bool,
    pattern: String,
}

impl Found {
    /// `text` with the clause replaced by `<answer n>`.
    fn rewrite(&self, text: &str, n: usize) -> String {
        let owner = if self.possessive { "'s" } else { "" };
        format!("{}{}{owner}{}", &text[..self.start], placeholder(n), &text[self.end..])
    }
}

/// Plan the hops of a question given its parts, or `None` when no part needs
/// a bridging entity or the plan would take more than
/// [`crate::plan::MAX_HOPS`] searches.
pub(super) fn plan(parts: &[String]) -> Option<Hops> {
    let mut plan = Hops { hops: Vec::new(), patterns: Vec::new(), bridged: false };
    for (i, part) in parts.iter().enumerate() {
        let mut text = part.trim().trim_end_matches('?').trim().to_string();
        if i > 0
            && let Some(found) = back_reference(&text)
        {
            text = found.rewrite(&text, plan.hops.len());
            plan.patterns.push(found.pattern);
        }
        let text = plan.decompose(text, 0);
        plan.hops.push(format!("{text}?"));
    }
    (!plan.patterns.is_empty() && plan.hops.len() <= crate::plan::MAX_HOPS).then_some(plan)
}

impl Hops {
    /// Push the hops `text` needs, innermost first (a hop's own hops before
    /// it), and return `text` with each replaced by its placeholder.
    fn decompose(&mut self, mut text: String, depth: usize) -> String {
        for _ in 0..4 {
            let Some(found) = find(&text) else { break };
            // A hop that asks its own clause again ("In which city are the
            // headquarters of X") bridges nothing.
            if found.hop.trim_end_matches('?') == text {
                break;
            }
            self.bridged = true;
            self.patterns.push(found.pattern.clone());
            let asked = found.hop.trim_end_matches('?').to_string();
            let hop = if depth < 2 { self.decompose(asked, depth + 1) } else { asked };
            self.hops.push(format!("{hop}?"));
            text = found.rewrite(&text, self.hops.len());
        }
        text
    }
}

/// The first pattern that makes `text` need a hop.
fn find(text: &str) -> Option<Found> {
    relative(text)
        .or_else(|| bare_place_clause(text))
        .or_else(|| role_of(text))
        .or_else(|| compound_role(text))
        .or_else(|| possessive(text))
        .or_else(|| possessive_relation(text))
        .or_else(|| indefinite(text))
        .filter(|f| !asks_only_for(text, f.start, f.end))
}

fn placeholder(n: usize) -> String {
    format!("<answer {n}>")
}

/// Whether `text[start..end]` is all the clause asks for ("Who is <it>?").
fn asks_only_for(text: &str, start: usize, end: usize) -> bool {
    ONLY_ASKS.is_match(&text[..start]) && ONLY_ASKS_AFTER.is_match(&text[end..])
}

fn relative(text: &str) -> Option<Found> {
    RELATIVE.captures_iter(text).find_map(|c| {
        let whole = c.get(0)?;
        let word = c[2].to_lowercase();
        // "the country containing Nugegoda" → "Which country contains Nugegoda?"
        if word == "containing" {
            let name = NAME.find(&text[whole.end()..])?;
            let end = whole.end() + name.end();
            let hop = format!("Which {} contains {}?", c[1].to_lowercase(), name.as_str());
            let pattern = format!("relative clause '{}'", &text[whole.start()..end]);
            return Some(Found { hop, start: whole.start(), end, possessive: false, pattern });
        }
        let place = word == "where" || word.starts_with("in");
        let clause = if place { bound_where(&text[whole.end()..]) } else { bound_relative(&text[whole.end()..]) };
        let named = clause
            .split_whitespace()
            .skip(usize::from(!place))
            .any(|w| w.starts_with(char::is_uppercase) && w != "I" || w.starts_with("<answer"));
        // "the actress who played which part": the clause is what is asked.
        if clause.is_empty() || !named || PRONOUN_START.is_match(clause) || WH_WORD.is_match(clause) {
            return None;
        }
        let noun = c[1].to_lowercase();
        let person = listed(PEOPLE, &noun);
        let hop = match (person, place) {
            (_, true) => place_hop(&noun, clause),
            (true, false) => format!("Who {clause}?"),
            (false, false) => format!("Which {noun} {clause}?"),
        };
        let end = whole.end() + clause.len();
        let pattern = format!("relative clause '{}'", &text[whole.start()..end]);
        Some(Found { hop, start: whole.start(), end, possessive: false, pattern })
    })
}

/// The relative clause's extent: its verb and a following name, or the rest
/// of the clause up to a comma.
fn bound_relative(rest: &str) -> &str {
    let rest = &rest[..clause_end(rest)];
    let Some(verb) = rest.split_whitespace().next() else { return "" };
    let after_verb = rest.find(verb).map_or(rest.len(), |i| i + verb.len());
    match NAME.find(rest[after_verb..].trim_start()) {
        Some(name) => {
            let gap = rest[after_verb..].len() - rest[after_verb..].trim_start().len();
            &rest[..after_verb + gap + name.end()]
        }
        None => rest.trim_end(),
    }
}

/// "Transfiguration of Vincent is the third studio album by a
/// singer-songwriter from what state?" → the statement up to the
/// description, whose answer sentence names it ("… by singer-songwriter M.
/// Ward."), then "<answer 1> from what state?". The last description before
/// the question word is taken; the statement must name something and the
/// rest must hold the question word.
fn indefinite(text: &str) -> Option<Found> {
    let c = INDEFINITE
        .captures_iter(text)
        .filter(|c| c.get(1).is_some_and(|m| WH_WORD.is_match(&text[m.end()..])))
        .last()?;
    let end = c.get(1)?.start();
    let statement = &text[..end];
    // A statement about a named thing ("Transfiguration of Vincent is …"),
    // not a question about oneself ("Can I take leave to care for a person …").
    let opener = statement.split_whitespace().next().unwrap_or_default().to_lowercase();
    let named = statement.split_whitespace().skip(1).any(|w| w.starts_with(char::is_uppercase) && w != "I");
    let asks = OPENERS.contains(&opener.as_str()) || matches!(opener.as_str(), "if" | "i" | "my" | "we");
    if !named || asks || WH_WORD.is_match(statement) {
        return None;
    }
    let pattern = format!("indefinite description '{}'", c.get(0)?.as_str().trim());
    Some(Found { hop: format!("{}?", statement.trim()), start: 0, end, possessive: false, pattern })
}

/// "the country Dai Jitao is from" → "In which country is Dai Jitao?",
/// "the city Sarah Sorge was born" → "In which city was Sarah Sorge born?".
fn bare_place_clause(text: &str) -> Option<Found> {
    let c = BARE_PLACE_CLAUSE.captures(text)?;
    let whole = c.get(0)?;
    let (noun, subject, verb) = (c[1].to_lowercase(), &c[2], &c[4]);
    let hop = if verb.starts_with("born") {
        format!("In which {noun} was {subject} born?")
    } else {
        format!("In which {noun} is {subject}?")
    };
    let pattern = format!("place clause '{}'", whole.as_str());
    Some(Found { hop, start: whole.start(), end: whole.end(), possessive: false, pattern })
}

/// "In which country is Baure?" for "the country where Baure is located":
/// the verb of being somewhere moves before its subject, so the hop's words
/// are the subject's, which its answer sentence has ("Baure is a Local
/// Government Area in Katsina State, Nigeria").
fn place_hop(noun: &str, clause: &str) -> String {
    match LOCATED.captures(clause) {
        Some(c) => format!("In which {noun} {} {}?", &c[2], c[1].trim()),
        None => format!("In which {noun} {clause}?"),
    }
}

/// Where a clause ends: at a comma, unless a name follows it ("in or
/// around Leland, North Carolina in 1986" goes on to the next comma).
fn clause_end(rest: &str) -> usize {
    let mut end = 0;
    for (i, segment) in rest.split(',').enumerate() {
        if i > 0 && !segment.trim_start().starts_with(char::is_uppercase) {
            break;
        }
        end += segment.len() + usize::from(i > 0);
    }
    end.min(rest.len())
}

/// A "where" clause's extent: its subject and verb ("the Philbrook Museum
/// is located"), or the rest up to a comma.
fn bound_where(rest: &str) -> &str {
    let rest = rest.split(',').next().unwrap_or("");
    WHERE_VERB.find(rest).map_or(rest.trim_end(), |m| &rest[..m.end()])
}

fn role_of(text: &str) -> Option<Found> {
    let found: Vec<Captures<'_>> = ROLE_OF.captures_iter(text).collect();
    found.into_iter().rev().find_map(|c| {
        let whole = c.get(0)?;
        // "resigned as the president of Israel" says what someone was, not whom to find.
        if text[..whole.start()].trim_end().to_lowercase().ends_with(" as") {
            return None;
        }
        let role = c[1].to_lowercase();
        // "How is the winner of the Best Thesis Award selected?" asks how, of no one in particular.
        if PROCEDURE.is_match(text) && listed(PERSON_RELATIONS, &role) {
            return None;
        }
        // A relation's object may open with "the" ("the receiver of the 2007
        // FIFA U-20 Golden Shoe"); a role's may not ("the head of the HR
        // department" is no name).
        let rest = &text[whole.end()..];
        let relation = !listed(ROLES, &role);
        let object = if relation { rest.strip_prefix("the ").unwrap_or(rest) } else { rest };
        let name = NAME.find(object)?;
        // "the daughter of the English nobleman …": a nationality before a noun is no name.
        let next = object[name.end()..].split_whitespace().next().unwrap_or_default();
        if !name.as_str().contains(' ') && is_demonym(name.as_str(), next) {
            return None;
        }
        // "Edward Stafford, 4th Baron Stafford": a numbered title is part of the name.
        let title = TITLE.find(&object[name.end()..]).map_or(0, |t| t.end());
        let end = whole.end() + (rest.len() - object.len()) + name.end() + title;
        let hop = relation_hop(&role, name.as_str());
        let pattern = format!("nested role '{}'", &text[whole.start()..end]);
        Some(Found { hop, start: whole.start(), end, possessive: false, pattern })
    })
}

/// Whether `word` is one of the plain words of the `|`-separated `list`.
fn listed(list: &str, word: &str) -> bool {
    list.split('|').any(|w| w == word)
}

/// The hop that asks for `relation` of `name`: "Who is the composer of
/// Aschenbrodel?", and for a place the kind of place it is: "In which
/// country is Damerjog?", "In which city was Gisvi born?".
fn relation_hop(relation: &str, name: &str) -> String {
    let relation = relation.split_whitespace().collect::<Vec<_>>().join(" ");
    let person = relation.starts_with("person") || listed(ROLES, &relation) || listed(PERSON_RELATIONS, &relation);
    if person {
        return format!("Who is the {relation} of {name}?");
    }
    if relation.contains("birth") || relation == "hometown" {
        format!("In which city was {name} born?")
    } else if relation.contains("country") {
        format!("In which country is {name}?")
    } else if relation == "headquarters" {
        format!("In which city are the headquarters of {name}?")
    } else {
        format!("What is the {relation} of {name}?")
    }
}

/// "the Project Kestrel lead" → "Who is the lead of Project Kestrel?"; not
/// when "of" or "for" follows the role ("the HR head of …" is a nested role).
fn compound_role(text: &str) -> Option<Found> {
    COMPOUND_ROLE.captures_iter(text).find_map(|c| {
        let whole = c.get(0)?;
        if whole.as_str().ends_with("of") || whole.as_str().ends_with("for") {
            return None;
        }
        let (name, role) = (c[1].trim(), c[2].to_lowercase());
        let hop = format!("Who is the {role} of {name}?");
        let pattern = format!("compound role '{}'", whole.as_str());
        Some(Found { hop, start: whole.start(), end: whole.end(), possessive: false, pattern })
    })
}

fn possessive(text: &str) -> Option<Found> {
    let c = POSSESSIVES.captures(text)?;
    let (base, role) = (c.get(1)?, c.get(2)?);
    let hop = format!("Who is the {} of {}?", role.as_str(), base.as_str());
    let pattern = format!("possessive chain '{}'", &text[base.start()..c.get(0)?.end()]);
    Some(Found { hop, start: base.start(), end: role.end(), possessive: false, pattern })
}

/// "Akinoshu Kenji's birthplace" → "In which city was Akinoshu Kenji
/// born?", "Peter Bonetti's team" → "What is the team of Peter Bonetti?".
/// Not when a noun follows the relation ("Sourcegraph's team policy" is the
/// policy of a team), and a question word or auxiliary opening the owner is
/// not part of it ("Is Project Kestrel's team in Oslo?").
fn possessive_relation(text: &str) -> Option<Found> {
    let c = POSSESSIVE_RELATION.captures(text)?;
    let (base, relation) = (c.get(1)?, c.get(2)?);
    let next = text[relation.end()..].split_whitespace().next().unwrap_or_default();
    let next = next.trim_matches(|ch: char| !ch.is_alphanumeric()).to_lowercase();
    let ends = text[relation.end()..].trim_start().starts_with([',', '?', '.', ';']) || next.is_empty();
    if !ends && !RELATION_FOLLOWERS.contains(&next.as_str()) && !next.ends_with("ed") {
        return None;
    }
    let opener = base.as_str().split_whitespace().next().unwrap_or_default().to_lowercase();
    let skip = if OPENERS.contains(&opener.as_str()) { opener.len() + 1 } else { 0 };
    let owner = base.as_str().get(skip..).unwrap_or_default().trim();
    if owner.is_empty() {
        return None;
    }
    let base_start = base.start() + skip;
    let rel = relation.as_str().to_lowercase();
    let hop = relation_hop(&rel, owner);
    let pattern = format!("possessive relation '{}'", &text[base_start..relation.end()]);
    Some(Found { hop, start: base_start, end: relation.end(), possessive: false, pattern })
}

/// Whether a later part refers back to the answer of the part before in a
/// way the hop planner bridges ("where is their office?").
pub(super) fn refers_back(text: &str) -> bool {
    BACK_REFERENCE.is_match(text)
}

fn back_reference(text: &str) -> Option<Found> {
    let c = BACK_REFERENCE.captures(text)?;
    let whole = c.get(0)?;
    let (start, end, possessive) = match c.get(1) {
        Some(pronoun) => (pronoun.start(), pronoun.end(), true),
        None => (whole.start(), whole.end(), false),
    };
    let pattern = format!("a later part refers back ('{}')", &text[start..end]);
    Some(Found { hop: String::new(), start, end, possessive, pattern })
}
