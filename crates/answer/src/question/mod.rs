//! One parsed question. Everything the answering layer asks of a question
//! (its words and stems, its wh-word, the kind of value it asks for, whether
//! it asks yes or no or for an amount, the names it gives, the term it asks
//! to define, the numbers it gives) is read here, once, into a
//! [`Question`], and passed down to the builtin, the checks and the agent.
//!
//! Cue words match whole words by their Snowball stems (Porter 2, the BM25
//! tokenizer's): "fee" matches "fees" and never "feedback"; "cap" never
//! "capital"; "rate" never "separate". A cue of several words matches those
//! stems in a row ("how much").

use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicUsize, Ordering};

use almirah_core::text::Tokenizer;

use crate::lexicon;

mod cues;
mod definition;
mod kind;
pub mod names;
pub mod negated;
pub mod qualifiers;

pub use cues::input_numbers;
pub use kind::AnswerType;
pub use negated::Negated;
pub use qualifiers::Qualifier;

/// A question word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WhWord {
    /// "what"
    What,
    /// "which"
    Which,
    /// "who"
    Who,
    /// "whom"
    Whom,
    /// "whose"
    Whose,
    /// "when"
    When,
    /// "where"
    Where,
    /// "why"
    Why,
    /// "how"
    How,
}

impl WhWord {
    /// The question word `word` (lower case) is, if any; a contracted
    /// "is" does not hide it ("what's", "who's").
    pub fn of(word: &str) -> Option<Self> {
        let word = word.strip_suffix("'s").or_else(|| word.strip_suffix("’s")).unwrap_or(word);
        Some(match word {
            "what" => Self::What,
            "which" => Self::Which,
            "who" => Self::Who,
            "whom" => Self::Whom,
            "whose" => Self::Whose,
            "when" => Self::When,
            "where" => Self::Where,
            "why" => Self::Why,
            "how" => Self::How,
            _ => return None,
        })
    }

    /// Whether a question opening with it asks for a name ("Who …", "Which …").
    pub fn asks_for_a_name(self) -> bool {
        matches!(self, Self::Who | Self::Whom | Self::Whose | Self::Which)
    }
}

/// Questions parsed in this process, for the test that each answer parses
/// its question once.
static PARSES: AtomicUsize = AtomicUsize::new(0);

/// A parsed question. Built by [`Question::parse`]; read-only afterwards.
#[derive(Debug, Clone, PartialEq)]
pub struct Question {
    text: String,
    words: Vec<String>,
    ask_from: usize,
    ask_at: usize,
    stems: Vec<String>,
    ask_stems: Vec<String>,
    terms: BTreeSet<String>,
    ask_terms: BTreeSet<String>,
    opening: Option<WhWord>,
    kind: AnswerType,
    yes_no: bool,
    amount: bool,
    quantity: bool,
    names: Vec<String>,
    alternatives: Vec<Vec<String>>,
    defined: Option<String>,
    numbers: BTreeSet<String>,
    qualifiers: Vec<Qualifier>,
    negated: Vec<Negated>,
    background: BTreeSet<String>,
    weights: BTreeMap<String, f32>,
}

impl Question {
    /// Parse `text` (trimmed). Never fails: an empty or odd question gets
    /// empty parts.
    pub fn parse(text: &str) -> Self {
        PARSES.fetch_add(1, Ordering::Relaxed);
        let tokenizer = Tokenizer::default();
        let text = text.trim().to_string();
        let words = split_words(&text);
        let stems = cue_stems(&tokenizer, &words);
        let ask_at = ask_start(&text);
        let ask_from = split_words(&text[..ask_at]).len().min(words.len().saturating_sub(1));
        let ask_stems = cue_stems(&tokenizer, &words[ask_from.min(words.len())..]);
        let mut q = Question {
            ask_stems,
            terms: lexicon::content_terms(&tokenizer, &text),
            ask_terms: lexicon::content_terms(&tokenizer, &text[ask_at..]),
            opening: words.get(ask_from).and_then(|w| WhWord::of(w)),
            words,
            ask_from,
            ask_at,
            stems,
            kind: AnswerType::Other,
            yes_no: false,
            amount: false,
            quantity: false,
            names: names::question_names(&text),
            alternatives: Vec::new(),
            defined: definition::defined_term(&text),
            numbers: cues::input_numbers(&text),
            qualifiers: Vec::new(),
            negated: Vec::new(),
            background: BTreeSet::new(),
            weights: BTreeMap::new(),
            text,
        };
        q.alternatives = names::name_alternatives(&q.text, &q.names);
        q.qualifiers = qualifiers::qualifiers(&q.text, |clause| lexicon::content_terms(&tokenizer, clause));
        q.negated = negated::negated(&q.words);
        q.yes_no = cues::asks_yes_no(&q);
        q.amount = cues::asks_for_amount(&q);
        q.quantity = cues::asks_for_quantity(&q);
        q.kind = kind::classify(&q);
        // "How long does the fee waiver last?" asks for a duration, not the fee.
        q.amount &= matches!(q.kind, AnswerType::Amount | AnswerType::Count | AnswerType::Other | AnswerType::YesNo);
        q
    }

    /// The question, told which of its content terms are background in the
    /// library it is asked of (`crate::builtin::background`): held by so
    /// many chunks that they tell none apart. They are then not counted in
    /// a sentence's coverage ([`Question::asked_terms`]), and a name made
    /// of them only ("Sourcegraph", asked of Sourcegraph's handbook) is not
    /// required of a source ([`Question::name_alternatives`]).
    pub fn with_background(mut self, background: BTreeSet<String>) -> Self {
        let tokenizer = Tokenizer::default();
        for group in &mut self.alternatives {
            group.retain(|name| !lexicon::content_terms(&tokenizer, name).is_subset(&background));
        }
        self.background = background;
        self
    }

    /// The question, told what each of its content terms weighs in the
    /// library it is asked of (IDF, `crate::builtin::background::term_weights`).
    pub fn with_term_weights(mut self, weights: BTreeMap<String, f32>) -> Self {
        self.weights = weights;
        self
    }

    /// What `term` weighs: its IDF when the library told it, else the mean
    /// of the weights it told (a term a part's filled-in answer brings),
    /// else 1 (no library: every term weighs alike).
    pub fn term_weight(&self, term: &str) -> f32 {
        match self.weights.get(term) {
            Some(w) => *w,
            None if self.weights.is_empty() => 1.0,
            None => self.weights.values().sum::<f32>() / self.weights.len() as f32,
        }
    }

    /// Whether the library told it what its terms weigh.
    pub fn has_term_weights(&self) -> bool {
        !self.weights.is_empty()
    }

    /// A part, hop or ask of this question (`text`), parsed as a question
    /// of its own that knows the same background terms and weights.
    pub fn derive(&self, text: &str) -> Self {
        Self::parse(text).with_background(self.background.clone()).with_term_weights(self.weights.clone())
    }

    /// Its content terms that tell passages apart: [`Question::terms`]
    /// without the background terms, unless that leaves none.
    pub fn asked_terms(&self) -> BTreeSet<String> {
        let informative: BTreeSet<String> = self.terms.difference(&self.background).cloned().collect();
        if informative.is_empty() { self.terms.clone() } else { informative }
    }

    /// The content terms of its asking sentence ([`Question::ask_words`])
    /// that tell passages apart: all of [`Question::asked_terms`] for a
    /// one-sentence question; without the situation's words after one.
    pub fn ask_terms(&self) -> BTreeSet<String> {
        let informative: BTreeSet<String> = self.ask_terms.difference(&self.background).cloned().collect();
        if informative.is_empty() { self.asked_terms() } else { informative }
    }

    /// How many questions this process has parsed so far.
    pub fn parses() -> usize {
        PARSES.load(Ordering::Relaxed)
    }

    /// The question as asked (trimmed).
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Its words, lower case, in order (letters and digits; a hyphen or an
    /// apostrophe inside a word stays: "e-mail", "north-east").
    pub fn words(&self) -> &[String] {
        &self.words
    }

    /// Its content terms: stems without stop words, frames or time labels,
    /// synonyms folded ([`lexicon::content_terms`]).
    pub fn terms(&self) -> &BTreeSet<String> {
        &self.terms
    }

    /// The text from the sentence that asks ([`ask_start`]) to the end, as
    /// written: the whole question for a one-sentence one.
    pub fn ask_text(&self) -> &str {
        &self.text[self.ask_at..]
    }

    /// The words from the sentence that asks ([`ask_start`]) to the end:
    /// all of them for a one-sentence question, the last question after a
    /// situation ("I'm paid through Deel. Which form do I use?" → "which
    /// form do i use").
    pub fn ask_words(&self) -> &[String] {
        &self.words[self.ask_from.min(self.words.len())..]
    }

    /// The question word its asking sentence opens with, if any.
    pub fn opening(&self) -> Option<WhWord> {
        self.opening
    }

    /// Whether a question word appears anywhere in it.
    pub fn has_wh_word(&self) -> bool {
        self.words.iter().any(|w| WhWord::of(w).is_some())
    }

    /// The kind of value it asks for.
    pub fn kind(&self) -> AnswerType {
        self.kind
    }

    /// Whether it asks yes or no ("Is there parking …?").
    pub fn asks_yes_no(&self) -> bool {
        self.yes_no
    }

    /// Whether it asks for an amount of money or a count ("How much …", a fee).
    pub fn asks_for_amount(&self) -> bool {
        self.amount
    }

    /// Whether it asks for an amount, a count, a date or a limit.
    pub fn asks_for_quantity(&self) -> bool {
        self.quantity
    }

    /// Whether it opens with "Who", "Whom", "Whose" or "Which".
    pub fn asks_for_a_name(&self) -> bool {
        self.opening.is_some_and(WhWord::asks_for_a_name)
    }

    /// The names it gives, raw, in order ([`names::question_names`]).
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Its names as alternatives ([`names::name_alternatives`]).
    pub fn name_alternatives(&self) -> &[Vec<String>] {
        &self.alternatives
    }

    /// The term a definition question asks about ("TDY", "422").
    pub fn defined_term(&self) -> Option<&str> {
        self.defined.as_deref()
    }

    /// Whether it asks something (a wh-word, a yes/no opening or a
    /// question mark), rather than telling a situation ("I have a 3-day
    /// audit in Hyderabad").
    pub fn asks(&self) -> bool {
        self.has_wh_word() || self.yes_no || self.text.trim_end().ends_with('?')
    }

    /// The words that pick one value out of several ("half", "first",
    /// "north-east"; [`qualifiers`]), in question order.
    pub fn qualifiers(&self) -> &[Qualifier] {
        &self.qualifiers
    }

    /// The negated words that qualify what it asks about ("unpaid" leave;
    /// [`negated`]), in question order.
    pub fn negated(&self) -> &[Negated] {
        &self.negated
    }

    /// Numbers it gives as input ([`input_numbers`]).
    pub fn input_numbers(&self) -> &BTreeSet<String> {
        &self.numbers
    }

    /// Whether the stems of `cue` (one word or several) occur in it, in a
    /// row, as whole words.
    pub fn mentions(&self, cue: &str) -> bool {
        let cue = cue_stems(&Tokenizer::default(), &split_words(cue));
        !cue.is_empty() && self.stems.windows(cue.len()).any(|w| w == cue.as_slice())
    }

    /// Whether its asking sentence ([`Question::ask_words`]) mentions any
    /// of `cues` ([`Question::mentions`]): "I bought a tool that costs
    /// $12,000. How soon will they call?" asks for no cost.
    pub fn ask_mentions_any(&self, cues: &[&str]) -> bool {
        let tokenizer = Tokenizer::default();
        cues.iter().any(|c| {
            let cue = cue_stems(&tokenizer, &split_words(c));
            !cue.is_empty() && self.ask_stems.windows(cue.len()).any(|w| w == cue.as_slice())
        })
    }

    /// Whether it mentions any of `cues` ([`Question::mentions`]).
    pub fn mentions_any(&self, cues: &[&str]) -> bool {
        cues.iter().any(|c| self.mentions(c))
    }

    /// Whether its asking sentence starts with the words of `phrase` ("how
    /// do"; [`Question::ask_words`]).
    pub fn opens_with(&self, phrase: &str) -> bool {
        let p = split_words(phrase);
        !p.is_empty() && self.ask_words().starts_with(&p)
    }

    /// Whether the words of `phrase` occur in it in a row, exactly.
    pub fn has_phrase(&self, phrase: &str) -> bool {
        let p = split_words(phrase);
        !p.is_empty() && self.words.windows(p.len()).any(|w| w == p.as_slice())
    }

    /// Whether `word` (lower case) is one of its words, exactly.
    pub fn has_word(&self, word: &str) -> bool {
        self.words.iter().any(|w| w == word)
    }

    /// Whether its last word is `word`.
    pub fn ends_with_word(&self, word: &str) -> bool {
        self.words.last().is_some_and(|w| w == word)
    }
}

/// Abbreviations whose full stop ends no sentence ("Dr. Rao", "e.g. …").
const ABBREVIATIONS: &[&str] =
    &["dr", "mr", "mrs", "ms", "prof", "smt", "shri", "sri", "st", "mt", "no", "rs", "vs", "etc", "e.g", "i.e", "u.s"];

/// Whether `word` (as written, with its punctuation) ends a sentence: it
/// ends with "?" or "!", or with "." after a word that is no abbreviation
/// ("Dr.", "Rs.", "e.g.") and no initial ("A. K. Rao").
pub fn ends_sentence(word: &str) -> bool {
    let bare = word.trim_end_matches(|c: char| !c.is_alphanumeric());
    let initial = bare.chars().count() == 1 && bare.chars().all(char::is_uppercase);
    word.ends_with(['?', '!'])
        || (word.ends_with('.') && !initial && !ABBREVIATIONS.contains(&bare.to_lowercase().as_str()))
}

/// Byte offset in `question` where the sentence that asks begins: the
/// last sentence that ends with a question mark (the only one, usually),
/// else the last sentence; 0 for a one-sentence question. A sentence ends
/// after a word that ends one ([`ends_sentence`]) when a space and a
/// capital follow ("Rs. 500", "e.g. a" and "Dr. Rao" do not end one).
pub fn ask_start(question: &str) -> usize {
    let ends: Vec<(usize, char)> = question
        .char_indices()
        .filter(|(i, c)| {
            if !matches!(c, '.' | '!' | '?') {
                return false;
            }
            // The stop is one byte: the word it ends is all the text before it and it.
            let rest = &question[i + 1..];
            let word = question[..i + 1].rsplit(char::is_whitespace).next().unwrap_or_default();
            rest.starts_with(' ')
                && rest.trim_start().chars().next().is_some_and(char::is_uppercase)
                && ends_sentence(word)
        })
        .map(|(i, c)| (i + c.len_utf8(), c))
        .collect();
    let asked_last = question.trim_end().ends_with('?');
    // The start of the last sentence that asks: after the break before it.
    let starts: Vec<usize> = std::iter::once(0).chain(ends.iter().map(|(i, _)| *i)).collect();
    let closes_with_question = |k: usize| match ends.get(k) {
        Some((_, c)) => *c == '?',
        None => asked_last,
    };
    let k = (0..starts.len()).rev().find(|k| closes_with_question(*k)).unwrap_or(starts.len() - 1);
    let at = starts[k];
    at + (question[at..].len() - question[at..].trim_start().len())
}

/// Lower-case words of `text`: runs of letters and digits, with a hyphen or
/// apostrophe kept between two of them.
pub fn split_words(text: &str) -> Vec<String> {
    let keep = |c: char| c.is_alphanumeric() || c == '-' || c == '\'' || c == '’';
    text.split(|c: char| !keep(c))
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()))
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// The stems cue words are matched on: each word's, a hyphenated word's
/// parts apart ("late-fee" holds "fee"; "e-mail" is "e", "mail").
fn cue_stems(tokenizer: &Tokenizer, words: &[String]) -> Vec<String> {
    words.iter().flat_map(|w| w.split('-')).filter(|p| !p.is_empty()).map(|p| stem(tokenizer, p)).collect()
}

fn stem(tokenizer: &Tokenizer, word: &str) -> String {
    tokenizer.terms(word).concat()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cue_words_match_whole_words_by_stem_never_inside_another_word() {
        // "feedback" holds "fee", "capital" holds "cap", "separate" holds "rate".
        for q in [
            "What is the feedback process?",
            "What is the capital of the state?",
            "Do I need a separate form for travel?",
        ] {
            let q = Question::parse(q);
            assert!(!q.asks_for_amount(), "{}", q.text());
            assert!(!q.asks_for_quantity(), "{}", q.text());
            assert!(matches!(q.kind(), AnswerType::Other | AnswerType::YesNo), "{}: {:?}", q.text(), q.kind());
        }
        // The cue words themselves, never inside another word.
        assert!(!Question::parse("What is the feedback process?").mentions("fee"));
        assert!(!Question::parse("What is the capital of the state?").mentions("cap"));
        assert!(!Question::parse("Do I need a separate form for travel?").mentions("rate"));
        assert!(Question::parse("Is there a late-fee?").mentions("fee"));
        assert!(Question::parse("What's the e-mail of HR?").mentions("e-mail"));
        assert!(Question::parse("Do you know what's covered?").has_wh_word());
        assert!(!Question::parse("Am I allowed to copy data?").asks_for_quantity());
        assert!(Question::parse("What is the daily allowance?").asks_for_quantity());
        assert!(!Question::parse("How does the deposit refund work?").asks_for_amount());
        assert!(!Question::parse("Whose approval sets the fee?").asks_for_amount());
        assert!(Question::parse("What are the fees for the MBA?").asks_for_amount());
        // A cue in the situation told before the ask, or a value of another kind asked.
        assert!(!Question::parse("I bought a tool that costs $12,000. How soon will they call?").asks_for_amount());
        assert!(!Question::parse("How long does the fee waiver last?").asks_for_amount());
        assert!(Question::parse("I am in the MBA. What fee do I pay for the hostel?").asks_for_amount());
        assert!(Question::parse("Is there a cap on hotel costs?").asks_for_quantity());
        assert!(Question::parse("What rate applies to overtime?").asks_for_quantity());
        assert!(Question::parse("how much do I get").mentions("how much"));
        assert!(!Question::parse("how many do I get").mentions("how much"));
    }

    #[test]
    fn a_question_is_read_once_into_its_parts() {
        let q = Question::parse("  Who approves billable travel for 18F projects in Hyderabad?  ");
        assert_eq!(q.text(), "Who approves billable travel for 18F projects in Hyderabad?");
        assert_eq!(q.opening(), Some(WhWord::Who));
        assert!(q.asks_for_a_name());
        assert_eq!(q.kind(), AnswerType::Agent);
        assert_eq!(q.names(), ["18F", "Hyderabad"]);
        assert!(q.terms().contains("approv") && !q.terms().contains("who"), "{:?}", q.terms());
        let yes_no = Question::parse("Is the e-mail address on the north-east form?");
        assert!(yes_no.asks_yes_no() && !yes_no.has_wh_word());
        assert!(yes_no.has_phrase("e-mail address") && yes_no.opens_with("is the"));
        // Titles, initials and abbreviations end no sentence; a number does not stop one ending.
        assert_eq!(Question::parse("Can Dr. Rao approve my leave?").opening(), None);
        assert!(Question::parse("Can Dr. Rao approve my leave?").asks_yes_no());
        // Stops after multi-byte characters (an en dash, Devanagari) slice on their boundaries.
        let hindi = Question::parse("2001–02 का शुल्क? क्या छात्रावास का शुल्क आधा है? Is it?");
        assert_eq!(hindi.ask_words().first().map(String::as_str), Some("is"));
        assert_eq!(Question::parse("Who is Mrs. A. K. Sharma's manager?").opening(), Some(WhWord::Who));
        let told = Question::parse("I bought a tool for $12,000. How soon will they call?");
        assert_eq!(told.opening(), Some(WhWord::How));
        assert_eq!(told.ask_text(), "How soon will they call?");
        assert_eq!(q.ask_text(), q.text());
        assert_eq!(Question::parse("What does LWOP mean?").defined_term(), Some("LWOP"));
        let before = Question::parses();
        let _ = Question::parse("x");
        assert!(Question::parses() > before);
    }
}
