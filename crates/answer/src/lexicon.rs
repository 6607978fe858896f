//! The shared lexicon of the answering layer: word lists and word-level
//! tests that the builtin model, the checks and the planner all use, kept
//! here so that none of them imports another for a word list.

/// The exact abstention sentence.
pub const ABSTAIN: &str = "I could not find this in the documents.";

/// The sentence an answer ends with when some parts of a multi-part
/// question got no verified sentence (issue #39: every part answered, or
/// said to be missing): `I could not find an answer in the documents to:
/// "What is the gym membership subsidy?"`.
pub fn parts_not_found(parts: &[String]) -> String {
    let quoted: Vec<String> = parts
        .iter()
        .map(|p| {
            let p = p.trim().trim_end_matches(['?', '.', ',']);
            format!("\"{p}?\"")
        })
        .collect();
    format!("I could not find an answer in the documents to: {}.", quoted.join(", "))
}

/// Words that carry no content in a question beyond [`standard stop
/// words`](is_stop_word): auxiliaries, quantifiers and verbs of asking
/// that NLTK's list lacks ("could", "much", "tell", "need"), stems as the
/// BM25 tokenizer gives them, and a few Hinglish ones.
pub const STOP_WORDS: &[&str] = &[
    "also", "could", "get", "got", "mani", "much", "pleas", "tell", "us", "would", "per", "give", "know", "need",
    "want", "kya", "hai", "ki", "ka", "ke", "mein", "kitn", "kitna", "kitne", "milti", "milta", "mujh", "kitni",
    "long", "soon", "often", "till", "go", "still",
];

/// Adverbs that name no content ("no longer", "currently", "exactly");
/// stop words too.
pub const NO_CONTENT: &[&str] = &["longer", "currentli", "besid", "ahead", "exactli", "realli"];

/// The frames "how far apart …" and "what kind / sort / type of …", which
/// ask for a value without naming content (a source says "TDY travel is
/// more than 12 hours long", not what kind of trip it is), and the idiom
/// "in charge of", which asks who heads something, not about a charge.
static FRAMES: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    #[allow(clippy::expect_used)]
    regex::Regex::new(r"(?i)\bhow\s+far\s+apart\b|\bwhat\s+(?:kinds?|sorts?|types?)\s+of\b|\bin\s+charge\s+of\b")
        .expect("valid frame pattern")
});

/// `text` with its question frames ("how far apart", "what kind / sort /
/// type of") replaced by "how" / "what", and "in charge of" by "head of".
pub fn strip_frames(text: &str) -> std::borrow::Cow<'_, str> {
    FRAMES.replace_all(text, |c: &regex::Captures<'_>| {
        let frame = c[0].to_lowercase();
        if frame.starts_with("how") {
            "how"
        } else if frame.starts_with("in") {
            "head of"
        } else {
            "what"
        }
        .to_string()
    })
}

/// Content terms of `text`: its BM25 stems (`tokenizer`), question frames
/// stripped ([`strip_frames`]), without stop words, one-letter terms and
/// time labels ([`is_time_label`]), each folded to the first of its
/// [`SYNONYMS`] group.
pub fn content_terms(tokenizer: &almirah_core::text::Tokenizer, text: &str) -> std::collections::BTreeSet<String> {
    literal_terms(tokenizer, text).into_iter().map(|t| canonical(&t).to_string()).collect()
}

/// [`content_terms`] without synonym folding (what a text literally says).
pub fn literal_terms(tokenizer: &almirah_core::text::Tokenizer, text: &str) -> std::collections::BTreeSet<String> {
    tokenizer
        .terms(&strip_frames(text))
        .into_iter()
        .filter(|t| !is_stop_word(t) && t.chars().count() > 1 && !is_time_label(t))
        .collect()
}

/// Years and the two-digit halves of sessions ("2024", "25") name the time a
/// question speaks for, which the router has already turned into the as-of
/// date; they are not content to match.
pub fn is_time_label(term: &str) -> bool {
    term.chars().all(|c| c.is_ascii_digit())
        && (term.len() == 2 || (term.len() == 4 && (term.starts_with("19") || term.starts_with("20"))))
}

/// The first term of `term`'s [`SYNONYMS`] group, or `term`.
pub fn canonical(term: &str) -> &str {
    SYNONYMS.iter().find(|g| g.contains(&term)).map_or(term, |g| g[0])
}

/// Whether a stemmed term is a stop word ([`STOP_WORDS`], [`NO_CONTENT`],
/// [`HINDI_STOP_WORDS`], and NLTK's English list without the words that
/// change what is asked).
pub fn is_stop_word(term: &str) -> bool {
    STOP_WORDS.contains(&term)
        || NO_CONTENT.contains(&term)
        || HINDI_STOP_WORDS.contains(&term)
        || STANDARD_STOP_WORDS.contains(term)
}

/// Words of the standard English stop list that change what a question
/// asks, and so stay content: the negations (and every contraction with
/// "n't"), the exclusive and comparative words ("my own car", "only",
/// "more than", "other leave") and the particles of phrasal verbs ("time
/// off", "opt out", "sign up").
const ASKS_SOMETHING: &[&str] = &[
    "no", "nor", "not", "own", "only", "same", "other", "more", "most", "few", "very", "too", "against", "off", "out",
    "up", "down", "over",
];

/// The pieces of contractions NLTK's list carries ("don" of "don't", "ma"
/// of "ma'am"), which are words or names of their own elsewhere ("Don",
/// "MA", "won").
const CONTRACTION_PIECES: &[&str] = &[
    "ain", "aren", "couldn", "didn", "doesn", "don", "hadn", "hasn", "haven", "isn", "ma", "mightn", "mustn", "needn",
    "shan", "shouldn", "wasn", "weren", "won", "wouldn",
];

/// The words and stems of NLTK's English stop list (Bird, Klein and Loper, *Natural
/// Language Processing with Python*, 2009; the `stop-words` crate), without
/// [`ASKS_SOMETHING`]: the pronouns, auxiliaries and prepositions a
/// question in a user's words carries ("through", "her", "each") and a
/// document need not repeat.
static STANDARD_STOP_WORDS: std::sync::LazyLock<std::collections::HashSet<String>> = std::sync::LazyLock::new(|| {
    let tokenizer = almirah_core::text::Tokenizer::default();
    stop_words::get(stop_words::LANGUAGE::English)
        .iter()
        .filter(|w| !ASKS_SOMETHING.contains(w) && !w.contains('\'') && !CONTRACTION_PIECES.contains(w))
        .flat_map(|w| std::iter::once(w.to_string()).chain(tokenizer.terms(w)))
        .collect()
});

/// Hindi function words in Devanagari: postpositions, pronouns,
/// auxiliaries, conjunctions and question words, the closed classes of a
/// standard Hindi stop list (as in Lucene's `HindiAnalyzer`, after J. Savoy's
/// list for CLEF). The English stemmer leaves Devanagari as it is, so these
/// are the words as written. कर is "do" far more often than "tax" in a
/// question ("यात्रा कर सकता हूँ?"), so it is a stop word. The forms of मिलना ("to get") are kept as
/// content: "कितने दिन का अवकाश मिलता है" asks what one gets, and the
/// sentence that says "मिलता है" is the one that answers (measured on the
/// hindi set's tuning half).
pub const HINDI_STOP_WORDS: &[&str] = &[
    "का",
    "की",
    "के",
    "को",
    "में",
    "से",
    "पर",
    "तक",
    "है",
    "हैं",
    "था",
    "थे",
    "थी",
    "हो",
    "होता",
    "होती",
    "होते",
    "होना",
    "होगा",
    "होगी",
    "और",
    "या",
    "भी",
    "तो",
    "ही",
    "नहीं",
    "न",
    "एक",
    "यह",
    "ये",
    "वह",
    "वे",
    "इस",
    "इन",
    "उस",
    "उन",
    "जो",
    "जिस",
    "जिन",
    "कि",
    "क्या",
    "कब",
    "कैसे",
    "कौन",
    "किस",
    "किन",
    "कितना",
    "कितनी",
    "कितने",
    "कहाँ",
    "कहां",
    "क्यों",
    "मैं",
    "मुझे",
    "मेरा",
    "मेरी",
    "मेरे",
    "हम",
    "हमें",
    "हमारा",
    "हमारी",
    "हमारे",
    "आप",
    "आपको",
    "आपका",
    "आपकी",
    "आपके",
    "अपना",
    "अपनी",
    "अपने",
    "लिए",
    "वाला",
    "वाली",
    "वाले",
    "सकता",
    "सकती",
    "सकते",
    "करना",
    "करने",
    "करता",
    "करती",
    "करते",
    "कर",
    "किया",
    "गया",
    "गई",
    "गए",
    "जाता",
    "जाती",
    "जाते",
    "जा",
    "रहा",
    "रही",
    "रहे",
    "चाहिए",
    "साथ",
    "द्वारा",
    "प्रति",
    "हूँ",
    "हूं",
];

/// Stems that mean the same thing in policy and organisation questions,
/// folded to the first of each group ("led" answers "who leads"; "reports to"
/// answers "who manages"). Deliberately small and hand-checked.
pub const SYNONYMS: &[&[&str]] = &[
    &["lead", "led", "head", "run", "ran", "presid", "chief", "ruler", "premier", "chancellor"],
    &["holder", "hold"],
    &["year", "annual", "yearli", "annum", "saal"],
    &["earn", "entitl", "accru", "credit"],
    &["laptop", "devic", "comput", "macbook", "mac"],
    &["minimum", "least", "min"],
    &["manag", "report", "supervis", "boss"],
    &["offic", "base", "locat", "sit", "work"],
    &["cost", "fee", "charg", "price", "free"],
    &["guest", "friend", "visitor"],
    &["air", "fli", "flight", "airfar"],
    &["claim", "reimburs", "allow", "allowanc", "entitl"],
    &["now", "current", "present", "today"],
    &["exam", "examin"],
    &["trip", "travel", "journey", "tour"],
    &["spous", "wife", "husband", "marri"],
];

/// Units of time: after a deictic word they date a question ("last year")
/// or, with a date, name a deadline ("the last date to pay"); after an
/// opening demonstrative they date a sentence ("This year …"), which does
/// not refer back.
pub const TIME_UNITS: &[&str] = &[
    "year", "years", "month", "months", "week", "weeks", "day", "days", "date", "dates", "session", "semester", "term",
    "quarter", "time",
];

/// Words that negate an English sentence (lower case; "n't" endings and
/// "cannot" are matched apart).
const NEGATIONS: &[&str] =
    &["not", "no", "never", "none", "nothing", "neither", "nor", "without", "nobody", "nowhere", "non"];

/// Words that forbid: a sentence with one of them says "no" to "Am I
/// allowed to …?" without a negation word ("Copying customer data to USB
/// drives is forbidden.").
const PROHIBITIONS: &[&str] = &[
    "forbidden",
    "prohibited",
    "prohibits",
    "prohibit",
    "banned",
    "disallowed",
    "barred",
    "ineligible",
    "impermissible",
    "unauthorized",
    "unauthorised",
    "forbids",
    "forbid",
];

/// Whether `text` denies: it has a negation cue ([`negation_cue`]) or a
/// prohibition word not itself negated ("is not forbidden" affirms).
pub fn denies(text: &str) -> bool {
    let lower = text.to_lowercase();
    let words: Vec<&str> = lower.split(|c: char| !c.is_alphanumeric() && c != '\'').filter(|w| !w.is_empty()).collect();
    let prohibition = words.iter().position(|w| PROHIBITIONS.contains(w));
    match prohibition {
        Some(at) => !words[..at].iter().rev().take(2).any(|w| is_negation(w)),
        None => negation_cue(text).is_some(),
    }
}

/// Whether `term` (a lower-case word or stem) is a negation word.
pub fn is_negation(term: &str) -> bool {
    NEGATIONS.contains(&term) || term == "cannot" || term.ends_with("n't")
}

/// The negation cue of `text`, if it has one ("never", "n't", …). Not
/// negations: "No." or "No" before a number ("Circular No. 14", "No.2.2.14"),
/// and a leading "No," or "No:" that answers a yes/no question before the
/// statement.
pub fn negation_cue(text: &str) -> Option<String> {
    let body = without_reply_word(text);
    let words: Vec<(usize, &str)> = word_spans(body);
    words.iter().enumerate().find_map(|(i, &(at, raw))| {
        let w = raw.to_lowercase().replace('’', "'");
        let after = &body[at + raw.len()..];
        let numbering = w == "no"
            && (after.starts_with('.')
                || words.get(i + 1).is_some_and(|(_, n)| n.starts_with(|c: char| c.is_ascii_digit())));
        if numbering {
            None
        } else if NEGATIONS.contains(&w.as_str()) || w == "cannot" {
            Some(w)
        } else if w.ends_with("n't") {
            Some("n't".to_string())
        } else {
            None
        }
    })
}

/// `text` without a leading "Yes,"/"No:"-style reply word.
pub(crate) fn without_reply_word(text: &str) -> &str {
    split_reply_word(text).1
}

/// The leading "Yes,"/"No:"-style reply word of `text` (`"yes"` or
/// `"no"`), if any, and the rest.
pub(crate) fn split_reply_word(text: &str) -> (Option<&'static str>, &str) {
    let t = text.trim_start();
    for word in ["yes", "no"] {
        // `get`: the first bytes may end inside a character (Devanagari, …).
        if let (Some(head), Some(rest)) = (t.get(..word.len()), t.get(word.len()..))
            && head.eq_ignore_ascii_case(word)
            && let Some(stripped) = rest.strip_prefix([',', ':', ';', '.', '—', '-'])
        {
            return (Some(word), stripped);
        }
    }
    (None, t)
}

/// Words (letters, digits and apostrophes) with their byte offsets.
fn word_spans(text: &str) -> Vec<(usize, &str)> {
    let is_word = |c: char| c.is_alphanumeric() || c == '\'' || c == '’';
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        match (is_word(c), start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                out.push((s, &text[s..i]));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, &text[s..]));
    }
    out
}

/// Demonyms without a regular ending.
const DEMONYMS: &[&str] = &["french", "dutch", "welsh", "greek", "thai", "swiss", "czech"];

/// Whether `word` reads as a nationality used as an adjective: a demonym
/// ending ("-ian", "-ean", "-can", "-man", "-ese", "-ish") before a
/// lower-case word. Only after "a" or "an" ("an American actress", "a German
/// musician") does it describe what is asked for, and the source need not
/// use it ("a 2001 crime comedy film starring Woody Allen" never says
/// "American"); "Are Indian nationals eligible?" still needs "Indian".
pub fn is_demonym(word: &str, next: &str) -> bool {
    let lower = word.to_lowercase();
    let ending = ["ian", "ean", "can", "man", "ese", "ish"].iter().any(|e| lower.ends_with(e)) && lower.len() >= 5;
    (ending || DEMONYMS.contains(&lower.as_str())) && next.starts_with(char::is_lowercase)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn terms(text: &str) -> Vec<String> {
        content_terms(&almirah_core::text::Tokenizer::default(), text).into_iter().collect()
    }

    #[test]
    fn the_standard_stop_list_drops_function_words_and_keeps_what_changes_the_ask() {
        assert_eq!(terms("Do I now have to go through the interviews?"), ["interview"]);
        let asked = terms("Can I require her to work out each day?");
        assert!(asked.contains(&"out".to_string()) && asked.contains(&"requir".to_string()), "{asked:?}");
        assert!(!asked.iter().any(|t| t == "her" || t == "each"), "{asked:?}");
        for kept in ["own", "not", "no", "only", "other", "more", "off", "out", "up", "don't", "ma", "don", "won"] {
            assert_eq!(terms(kept).len(), 1, "{kept}");
        }
        // Words as written are stop words too, not only their stems.
        assert!(is_stop_word("during") && is_stop_word("dure") && is_stop_word("because"));
        assert_eq!(terms("What is the MA fee?"), ["cost", "ma"], "a synonym group folds the fee to cost");
        assert_eq!(terms("my own car"), ["car", "own"]);
        assert_eq!(terms("time off"), ["off", "time"]);
    }

    #[test]
    fn the_hand_lists_hold_only_what_the_standard_list_lacks() {
        for word in STOP_WORDS.iter().chain(NO_CONTENT) {
            assert!(!STANDARD_STOP_WORDS.contains(*word), "{word} is in NLTK's list already");
        }
    }
}
