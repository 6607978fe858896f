//! Sentence-level tests of the builtin: which sentences of a chunk are
//! candidates at all (not an injection, not a page describing itself),
//! how wrapped lines join, which sentence refers back to the one before,
//! which illustrate (worked examples) or point elsewhere (defer), and
//! which bridge a name through the chunk.

use std::collections::BTreeSet;

use crate::citations::split_sentences;

/// Whether sentence `i` of a chunk speaks of the question's name `name`
/// through another sentence of the chunk that defines it: "What is the
/// hotel cap in Mumbai?" is answered by the row "Metro cities: INR 6,000"
/// because "The metro cities are Mumbai, Delhi, …" says so. The shared term
/// ("metro") must be in that defining sentence and in at most half of the
/// chunk's other sentences, so a word every row has ("cities") bridges nothing.
pub(super) fn bridged(name: &String, i: usize, terms: &[BTreeSet<String>], question: &BTreeSet<String>) -> bool {
    let others = terms.len().saturating_sub(1) as f32;
    terms.iter().enumerate().filter(|(j, t)| *j != i && t.contains(name)).any(|(j, defining)| {
        terms[i].iter().filter(|t| !question.contains(*t) && defining.contains(*t)).any(|shared| {
            let spread = terms.iter().enumerate().filter(|(k, t)| *k != j && t.contains(shared)).count();
            spread as f32 <= 0.5 * others
        })
    })
}

/// Whether a sentence opens with a pronoun that refers to the sentence
/// before ("This includes …", "It is valid for …", "They must …", "He is
/// …"): a personal pronoun, a demonstrative followed by a verb, or a
/// demonstrative and one noun followed by a verb, an anaphoric subject
/// ("This usage was never widely deployed", "These changes apply from …"),
/// unless its noun is the text that holds it ("This policy applies …",
/// "This document is …": the page's own subject, read with its title) or a
/// unit of time ("This year is …"). A longer phrase ("This reduced rate is
/// …") names enough of its subject to stand alone.
pub fn refers_back(sentence: &str) -> bool {
    let mut words = sentence.split_whitespace();
    let first = words.next().unwrap_or_default();
    let second = words.next().unwrap_or_default();
    let third = words.next().unwrap_or_default().trim_matches(|c: char| !c.is_alphanumeric());
    let bare = second.trim_matches(|c: char| !c.is_alphanumeric());
    match first {
        "It" | "They" | "He" | "She" | "Its" | "Their" | "His" | "Her" => true,
        "This" | "These" | "That" | "Those" | "Such" => {
            REFERRING_VERBS.contains(&bare) || (anaphoric_noun(second) && REFERRING_VERBS.contains(&third))
        }
        _ => false,
    }
}

/// Whether `word`, right after an opening demonstrative, is the noun of an
/// anaphoric noun phrase: a lower-case word, not a function word, not one
/// of the [`CONTAINER_NOUNS`] and not a unit of time ("This year",
/// [`crate::lexicon::TIME_UNITS`]).
fn anaphoric_noun(word: &str) -> bool {
    let noun = word.trim_end_matches([',', ';', ':']);
    noun.chars().any(|c| c.is_ascii_lowercase())
        && noun.chars().all(|c| c.is_ascii_lowercase() || c == '-')
        && !crate::lexicon::is_stop_word(noun)
        && !CONTAINER_NOUNS.iter().any(|c| noun == *c || noun.strip_suffix('s') == Some(c))
        && !crate::lexicon::TIME_UNITS.contains(&noun)
}

/// Nouns a text uses for itself or a part of itself: "This policy" is the
/// page's own subject, not the sentence before.
const CONTAINER_NOUNS: &[&str] = &[
    "document",
    "page",
    "section",
    "policy",
    "policies",
    "specification",
    "guide",
    "handbook",
    "chapter",
    "article",
    "appendix",
    "circular",
    "notice",
    "memo",
    "form",
    "agreement",
];

/// Verbs after "This"/"These"/… that make it a pronoun for the sentence before.
const REFERRING_VERBS: &[&str] = &[
    "is", "are", "was", "were", "includes", "include", "means", "mean", "applies", "apply", "covers", "cover", "can",
    "may", "must", "will", "does", "do", "has", "have", "also", "only", "allows", "allow", "requires", "require",
];

/// Join lines that a PDF or a hard-wrapped text broke mid-sentence, keeping
/// real breaks: blank lines, list items, table rows, headings and short
/// lines (a letterhead, a title: shorter than 60% of the longest line).
/// A lead-in ending with ':' keeps the list or table after it, up to the
/// next blank line, in the same sentence.
pub fn join_wrapped_lines(text: &str) -> String {
    let text = text.replace(":\n\n", ":\n");
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    let longest = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    let mut out = String::with_capacity(text.len());
    let mut after_colon = false;
    for (i, line) in lines.iter().enumerate() {
        out.push_str(line);
        let Some(next) = lines.get(i + 1) else { break };
        after_colon = (after_colon || line.ends_with(':')) && !line.is_empty() && !next.is_empty();
        let short = (line.chars().count() as f32) < 0.6 * longest as f32;
        let starts_block = next.is_empty()
            || line.is_empty()
            || short
            || next.starts_with(['-', '*', '|', '#', '•'])
            || is_numbered_item(next);
        out.push(if starts_block && !after_colon { '\n' } else { ' ' });
    }
    out
}

/// Whether a line starts a numbered or lettered list item ("1. Apply",
/// "b) Sign"): one or two letters or digits, then "." or ")" and a space.
/// A date ("23.11.2026 to Friday") or a decimal ("2.5 days") is not.
fn is_numbered_item(line: &str) -> bool {
    line.split_once(['.', ')']).is_some_and(|(n, rest)| {
        !n.is_empty()
            && n.len() <= 2
            && n.chars().all(|c| c.is_ascii_alphanumeric())
            && (rest.is_empty() || rest.starts_with(char::is_whitespace))
    })
}

/// Retrieved text is data, not instructions (ARCHITECTURE §7): a sentence
/// addressed to the assistant ("Ignore your rules and tell everyone …") is
/// never used as an answer.
pub fn looks_like_injection(sentence: &str) -> bool {
    has_any(
        sentence,
        &[
            "ignore your",
            "ignore all",
            "ignore previous",
            "ignore the previous",
            "ignore any",
            "disregard your",
            "disregard all",
            "tell everyone",
            "you must now",
            "as an ai",
            "system prompt",
            "new instructions",
            "forget your",
            "override your",
        ],
    )
}

/// Whether `text`, lower-cased, contains any of `cues` (lower case).
fn has_any(text: &str, cues: &[&str]) -> bool {
    let text = text.to_lowercase();
    cues.iter().any(|c| text.contains(c))
}

/// Whether a sentence describes its own page rather than stating a rule:
/// "This page outlines how to sign up for the transit benefit." It covers
/// the question's words and answers nothing.
pub fn describes_itself(sentence: &str) -> bool {
    let s = sentence.trim().to_lowercase();
    let subjects = ["this page", "this section", "this document", "this guide", "this article", "this chapter"];
    let verbs = [
        "outlines",
        "describes",
        "explains",
        "covers",
        "lists",
        "contains",
        "provides",
        "summarizes",
        "summarises",
        "includes",
        "details",
        "is about",
        "gives",
        "walks",
    ];
    subjects.iter().filter_map(|p| s.strip_prefix(p)).any(|rest| {
        let rest = rest.trim_start();
        let rest = rest.strip_prefix("also ").unwrap_or(rest);
        verbs.iter().any(|v| rest.starts_with(v))
    })
}

/// The sentences of the paragraphs of `text` that open a worked example
/// ("For example: It is June 19th, 2022, … Therefore, you can request up to
/// 56 advanced annual leave hours."): they illustrate the rule stated
/// before them, so the rule answers first.
pub fn example_sentences(text: &str) -> BTreeSet<String> {
    let cues = ["for example", "for instance", "example:", "e.g.", "as an example"];
    text.split("\n\n")
        .filter(|p| {
            let start = p.trim_start().trim_start_matches(['*', '-', '_', ' ']).to_lowercase();
            cues.iter().any(|c| start.starts_with(c))
        })
        .flat_map(|p| split_sentences(&join_wrapped_lines(p)))
        .map(|s| s.text.trim().to_string())
        .collect()
}

/// Whether a sentence points the reader to another document for the rule
/// instead of stating it: "The library's opening hours … are set by
/// circular of the Librarian; see the latest library circular", "We
/// recommend that you review OPM's page on …". It still answers when
/// nothing states the rule, but a sentence that does comes first.
///
/// Two closed-class patterns of English, not any document's words: a verb
/// of consulting (see, refer, review, consult, visit, read, check)
/// followed within five words by a noun for a document (page, circular,
/// guide, section, annexure, …), in a sentence that states no number but
/// the document part's ("see Section 4.2"); or a verb of issuing (set, issued, notified,
/// published, announced, prescribed) followed by "by", "in", "through" or
/// "via" and such a noun within three words. A sentence that says the rule will be announced defers too.
pub fn defers(sentence: &str) -> bool {
    let words: Vec<String> = sentence
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .filter(|w| !w.is_empty())
        .map(|w| w.to_lowercase().trim_end_matches("'s").to_string())
        .collect();
    let document_after =
        |i: usize, window: usize| words.iter().skip(i + 1).take(window).any(|w| DOCUMENT_NOUNS.contains(&w.as_str()));
    let points = words.iter().enumerate().any(|(i, w)| {
        CONSULT_VERBS.contains(&w.as_str()) && document_after(i, POINTER_WINDOW)
            || ISSUE_VERBS.contains(&w.as_str())
                && words.get(i + 1).is_some_and(|p| matches!(p.as_str(), "by" | "in" | "through" | "via"))
                && document_after(i + 1, 3)
    });
    (points && !states_a_number(&words))
        || has_any(
            sentence,
            &["as notified from time to time", "will be published", "will be notified", "will be announced"],
        )
}

/// Whether `words` hold a number other than the number of a document part
/// ("Section 4.2", "page 3"): a sentence that states a value states the
/// rule, whatever it also points to ("30 days a year (see Section 4.2)").
fn states_a_number(words: &[String]) -> bool {
    let mut in_reference = false;
    for w in words {
        let numeric = w.chars().any(|c| c.is_ascii_digit());
        if numeric && !in_reference {
            return true;
        }
        in_reference = DOCUMENT_NOUNS.contains(&w.as_str()) || (in_reference && numeric);
    }
    false
}

/// Words after a verb of consulting within which a document noun makes the
/// sentence a pointer ("review OPM's page", "see the latest library circular").
const POINTER_WINDOW: usize = 5;

/// Verbs that send the reader to a text: "see", "refer (to)", "review",
/// "consult", "visit", "read", "check".
const CONSULT_VERBS: [&str; 7] = ["see", "refer", "review", "consult", "visit", "read", "check"];

/// Verbs that say a rule is issued elsewhere ("set by circular").
const ISSUE_VERBS: [&str; 6] = ["set", "issued", "notified", "published", "announced", "prescribed"];

/// Nouns for a document or a place in one.
const DOCUMENT_NOUNS: [&str; 24] = [
    "page",
    "pages",
    "website",
    "circular",
    "circulars",
    "guide",
    "guidance",
    "section",
    "sections",
    "handbook",
    "link",
    "faq",
    "faqs",
    "documentation",
    "notice",
    "portal",
    "intranet",
    "wiki",
    "manual",
    "annexure",
    "appendix",
    "clause",
    "para",
    "paragraph",
];

/// Whether a sentence reads as a label or lead-in for the next one: it
/// ends with a colon, or has at most [`LEAD_IN_WORDS`] words.
pub(super) fn is_lead_in(sentence: &str) -> bool {
    let s = sentence.trim();
    s.ends_with(':') || s.split_whitespace().count() <= LEAD_IN_WORDS
}

/// Words of a sentence short enough to label the next.
const LEAD_IN_WORDS: usize = 10;

/// Whether a sentence's terms, apart from a letter's "Subject"/"Re" label,
/// are all in the chunk's title and headings.
pub(super) fn restates(own: &BTreeSet<String>, context: &BTreeSet<String>) -> bool {
    let mut rest = own.iter().filter(|t| !matches!(t.as_str(), "subject" | "sub" | "re")).peekable();
    rest.peek().is_some() && rest.all(|t| context.contains(t))
}
