//! Multi-hop questions: the answer needs a bridging entity found first
//! ("Who manages the person who leads Project Kestrel?" needs who leads it).
//!
//! Patterns, each turned into an inner hop, innermost first, with the outer
//! question rewritten around a placeholder `<answer N>` (the answer of hop N):
//! - **relative clause** on a definite entity noun: "the person who leads
//!   Project Kestrel" → "Who leads Project Kestrel?". The clause must name
//!   something (a capitalised word) and not start with a pronoun, so "the
//!   form that I need" stays simple.
//! - **nested role**: "the office of the manager of Project Kestrel",
//!   "Who does the leader of Project Kestrel report to?" → "Who is the
//!   manager of Project Kestrel?". The role's object must be a name.
//! - **compound role**: a name before the role word, "Who does the Project
//!   Kestrel lead report to?" → "Who is the lead of Project Kestrel?". The
//!   name must be capitalised words, so "the project lead" stays simple.
//! - **possessive chain**: "Project Kestrel's lead's office" → "Who is the
//!   lead of Project Kestrel?".
//! - **reference back** in a later part: "…, and where is that manager's
//!   office?" → "Where is <answer 2>'s office?".
//!
//! A question that only asks for the bridge itself ("Who is the head of HR?",
//! "Who is the person who leads Project Kestrel?") is not multi-hop.

use std::sync::LazyLock;

use regex::{Captures, Regex};

use super::re;

const PEOPLE: &str = "person|one|someone|individual|manager|boss|head|lead|leader|man|woman|guy";
const ROLES: &str = r"manager|head|lead|leader|boss|supervisor|owner|director|chair|person\s+in\s+charge";
const PLACEHOLDER: &str = r"<answer \d+>";

static RELATIVE: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(r"(?i)\bthe\s+({PEOPLE}|team|department|group|company|project)\s+(who|that|which|whom)\s+"))
});
static ROLE_OF: LazyLock<Regex> = LazyLock::new(|| re(&format!(r"(?i)\bthe\s+({ROLES})\s+of\s+")));
static COMPOUND_ROLE: LazyLock<Regex> =
    LazyLock::new(|| re(&format!(r"\bthe\s+((?:\p{{Lu}}[\p{{L}}\d&-]*\s+)+)({ROLES})\b(?:\s+(?:of|for)\b)?")));
static POSSESSIVES: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(r"((?:\p{{Lu}}[\p{{L}}\d]*\s+)*[\p{{L}}\d]+|{PLACEHOLDER})['’]s\s+(\p{{L}}+)['’]s\b"))
});
static BACK_REFERENCE: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r"(?i)\b(?:that|this|the\s+same)\s+(?:{PEOPLE}|director|owner|supervisor)\b|\b(his|her|their)\s+(?:office|manager|boss|email|phone|location|team|department|supervisor|desk|address|number)\b"
    ))
});
static NAME: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(r"^(?:{PLACEHOLDER}|(?:\p{{Lu}}[\p{{L}}\d&-]*|\d+)(?:\s+(?:\p{{Lu}}[\p{{L}}\d&-]*|\d+))*)"))
});
static ONLY_ASKS: LazyLock<Regex> = LazyLock::new(|| re(r"(?i)^\s*(?:who|what)\s+(?:is|was|are|were)\s+$"));
static PRONOUN_START: LazyLock<Regex> = LazyLock::new(|| re(r"(?i)^(?:i|we|you|they|he|she|it)\b"));

/// The hops of a multi-hop question and the patterns that made them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Hops {
    /// The hop questions in order; later ones use `<answer N>`.
    pub hops: Vec<String>,
    /// The patterns found, for the route's reason.
    pub patterns: Vec<String>,
}

/// One inner hop found in a clause: its question, the rewritten clause, why.
struct Found {
    hop: String,
    rewritten: String,
    pattern: String,
}

/// Plan the hops of a question given its parts, or `None` when no part needs
/// a bridging entity.
pub(super) fn plan(parts: &[String]) -> Option<Hops> {
    let mut hops: Vec<String> = Vec::new();
    let mut patterns = Vec::new();
    for (i, part) in parts.iter().enumerate() {
        let mut text = part.trim().trim_end_matches('?').trim().to_string();
        if i > 0
            && let Some(found) = back_reference(&text, hops.len())
        {
            patterns.push(found.pattern);
            text = found.rewritten;
        }
        for _ in 0..4 {
            let next = hops.len() + 1;
            let Some(found) = relative(&text, next)
                .or_else(|| role_of(&text, next))
                .or_else(|| compound_role(&text, next))
                .or_else(|| possessive(&text, next))
            else {
                break;
            };
            hops.push(found.hop);
            patterns.push(found.pattern);
            text = found.rewritten;
        }
        hops.push(format!("{text}?"));
    }
    (!patterns.is_empty()).then_some(Hops { hops, patterns })
}

fn placeholder(n: usize) -> String {
    format!("<answer {n}>")
}

/// Replace `text[start..end]` with `<answer next>`, unless the clause only
/// asks for that phrase ("Who is <it>?").
fn rewrite(text: &str, start: usize, end: usize, next: usize) -> Option<String> {
    let after = text[end..].trim();
    if ONLY_ASKS.is_match(&text[..start]) && after.is_empty() {
        return None;
    }
    Some(format!("{}{}{}", &text[..start], placeholder(next), &text[end..]))
}

fn relative(text: &str, next: usize) -> Option<Found> {
    RELATIVE.captures_iter(text).find_map(|c| {
        let whole = c.get(0)?;
        let clause = bound_relative(&text[whole.end()..]);
        let named = clause.split_whitespace().skip(1).any(|w| w.starts_with(char::is_uppercase) && w != "I");
        if clause.is_empty() || !named || PRONOUN_START.is_match(clause) {
            return None;
        }
        let noun = c[1].to_lowercase();
        let person = PEOPLE.split('|').any(|p| p == noun);
        let hop = if person { format!("Who {clause}?") } else { format!("Which {noun} {clause}?") };
        let rewritten = rewrite(text, whole.start(), whole.end() + clause.len(), next)?;
        Some(Found {
            hop,
            rewritten,
            pattern: format!("relative clause '{}'", &text[whole.start()..whole.end() + clause.len()]),
        })
    })
}

/// The relative clause's extent: its verb and a following name, or the rest
/// of the clause up to a comma.
fn bound_relative(rest: &str) -> &str {
    let rest = rest.split(',').next().unwrap_or("");
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

fn role_of(text: &str, next: usize) -> Option<Found> {
    let found: Vec<Captures<'_>> = ROLE_OF.captures_iter(text).collect();
    found.into_iter().rev().find_map(|c| {
        let whole = c.get(0)?;
        let name = NAME.find(&text[whole.end()..])?;
        let end = whole.end() + name.end();
        let role = c[1].to_lowercase();
        let hop = format!("Who is the {role} of {}?", name.as_str());
        let rewritten = rewrite(text, whole.start(), end, next)?;
        Some(Found { hop, rewritten, pattern: format!("nested role '{}'", &text[whole.start()..end]) })
    })
}

/// "the Project Kestrel lead" → "Who is the lead of Project Kestrel?"; not
/// when "of" or "for" follows the role ("the HR head of …" is a nested role).
fn compound_role(text: &str, next: usize) -> Option<Found> {
    let c = COMPOUND_ROLE.captures(text)?;
    let whole = c.get(0)?;
    if whole.as_str().ends_with("of") || whole.as_str().ends_with("for") {
        return None;
    }
    let (name, role) = (c[1].trim(), c[2].to_lowercase());
    let hop = format!("Who is the {role} of {name}?");
    let rewritten = rewrite(text, whole.start(), whole.end(), next)?;
    Some(Found { hop, rewritten, pattern: format!("compound role '{}'", whole.as_str()) })
}

fn possessive(text: &str, next: usize) -> Option<Found> {
    let c = POSSESSIVES.captures(text)?;
    let (base, role) = (c.get(1)?, c.get(2)?);
    let hop = format!("Who is the {} of {}?", role.as_str(), base.as_str());
    let end = role.end();
    let rewritten = format!("{}{}{}", &text[..base.start()], placeholder(next), &text[end..]);
    Some(Found { hop, rewritten, pattern: format!("possessive chain '{}'", &text[base.start()..c.get(0)?.end()]) })
}

fn back_reference(text: &str, last: usize) -> Option<Found> {
    let c = BACK_REFERENCE.captures(text)?;
    let whole = c.get(0)?;
    let (start, end, replacement) = match c.get(1) {
        Some(pronoun) => (pronoun.start(), pronoun.end(), format!("{}'s", placeholder(last))),
        None => (whole.start(), whole.end(), placeholder(last)),
    };
    let rewritten = format!("{}{replacement}{}", &text[..start], &text[end..]);
    Some(Found {
        hop: String::new(),
        rewritten,
        pattern: format!("a later part refers back ('{}')", &text[start..end]),
    })
}
