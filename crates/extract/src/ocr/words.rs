//! Does OCR output read as one of the configured languages?
//!
//! tesseract reads any page with the models it is given. A page in a
//! language it was not given (a Japanese paper read with `eng+hin`) comes
//! out as letter salad ("REME Vy bEP MIE 227 CHIT A. TRS"): every token is
//! well-formed, so [`crate::quality`] passes it, and its mean confidence
//! depends on the CPU (24% with tesseract 5.3's AVX2 code path, about 45%
//! with its SSE path), so the confidence floor alone does not keep it out.
//!
//! The test here is the oldest one in language identification: the share of
//! a text's words that are the language's most frequent function words
//! (Grefenstette, "Comparing two language identification schemes", JADT
//! 1995). On the corpus scans that share is 26-36% for English, 36% for
//! Hindi and 13% for Marathi read by the `hin` model; in OCR letter salad
//! it is under 10%, since short random tokens rarely spell "the", "of" or
//! "और". Only the dominant script is judged,
//! only with 40 words or more, and only when every configured language has
//! a list; anything else is left to the other checks.

/// Words of the dominant script needed before the share is judged.
const MIN_WORDS: usize = 40;

/// A writing system whose words are counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Script {
    /// Basic and extended Latin letters.
    Latin,
    /// Devanagari (U+0900-U+097F): Hindi, Marathi, Nepali.
    Devanagari,
}

impl Script {
    /// Share of common words below which the text is letter salad: Latin
    /// prose scores 0.26-0.36 on the corpus scans and salad 0.06-0.09;
    /// Marathi read by the `hin` model 0.13, Hindi 0.36.
    fn floor(self) -> f32 {
        match self {
            Script::Latin => 0.15,
            Script::Devanagari => 0.05,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Script::Latin => "Latin",
            Script::Devanagari => "Devanagari",
        }
    }

    fn of(word: &str) -> Option<Script> {
        if word.chars().all(|c| c.is_alphabetic() && u32::from(c) < 0x250) {
            Some(Script::Latin)
        } else if word.chars().all(|c| matches!(u32::from(c), 0x0900..=0x097F)) {
            Some(Script::Devanagari)
        } else {
            None
        }
    }
}

const ENG: &[&str] = &[
    "a", "an", "the", "and", "or", "but", "if", "of", "to", "in", "on", "at", "by", "for", "from", "with", "as", "is",
    "are", "was", "were", "be", "been", "it", "its", "this", "that", "these", "those", "not", "no", "nor", "so",
    "than", "then", "there", "their", "they", "he", "she", "we", "you", "your", "our", "his", "her", "i", "me", "my",
    "which", "who", "whom", "what", "when", "where", "why", "how", "all", "any", "each", "shall", "may", "must",
    "will", "would", "can", "could", "should", "do", "does", "did", "has", "have", "had",
];
const FRA: &[&str] = &[
    "de", "la", "le", "les", "des", "du", "et", "en", "un", "une", "est", "pour", "par", "dans", "sur", "au", "aux",
    "que", "qui", "ne", "pas", "il", "elle", "à", "ou", "son", "sa", "ses", "se",
];
const DEU: &[&str] = &[
    "der", "die", "das", "und", "ist", "zu", "den", "dem", "des", "ein", "eine", "nicht", "mit", "von", "im", "für",
    "auf", "sich", "oder", "auch", "es", "er", "sie",
];
const SPA: &[&str] =
    &["el", "la", "los", "las", "y", "es", "por", "con", "para", "del", "lo", "se", "una", "un", "de", "en", "que"];
const ITA: &[&str] = &["il", "di", "che", "e", "per", "non", "con", "una", "un", "la", "le", "del", "della", "in"];
const POR: &[&str] = &["o", "os", "as", "do", "da", "em", "um", "uma", "com", "não", "de", "que", "e", "para"];
const NLD: &[&str] = &["van", "het", "een", "en", "is", "op", "de", "te", "dat", "niet", "met", "voor"];
/// Hindi, Marathi and Nepali function words: the `hin` model reads all
/// three, so the list is the script's, not one language's.
const DEVANAGARI: &[&str] = &[
    "का",
    "के",
    "की",
    "है",
    "में",
    "और",
    "को",
    "से",
    "पर",
    "यह",
    "एक",
    "हैं",
    "भी",
    "कि",
    "जो",
    "या",
    "तथा",
    "लिए",
    "द्वारा",
    "नहीं",
    "इस",
    "उस",
    "था",
    "थे",
    "थी",
    "किसी",
    "सभी",
    "प्रत्येक",
    "अपने",
    "आहे",
    "व",
    "आणि",
    "च्या",
    "हा",
    "ही",
    "ते",
    "ला",
    "ने",
    "असेल",
    "किंवा",
    "नये",
    "कोणत्याही",
    "र",
    "छ",
    "गर्न",
];

/// The script of a tesseract language code with a word list here.
fn script_of(code: &str) -> Option<Script> {
    match code {
        "eng" | "fra" | "deu" | "spa" | "ita" | "por" | "nld" => Some(Script::Latin),
        "hin" | "mar" | "nep" => Some(Script::Devanagari),
        _ => None,
    }
}

/// The common words of a script: the union of its languages' lists, since
/// a model reads its neighbours too (`eng` reads French, `hin` Marathi).
fn common_words(script: Script) -> Vec<&'static str> {
    match script {
        Script::Latin => [ENG, FRA, DEU, SPA, ITA, POR, NLD].concat(),
        Script::Devanagari => DEVANAGARI.to_vec(),
    }
}

/// Text that reads as none of the configured languages.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Salad {
    /// The dominant script.
    pub script: Script,
    /// Its words in the text.
    pub words: usize,
    /// How many of them are common words of the script's languages.
    pub common: usize,
}

impl std::fmt::Display for Salad {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let share = self.common as f32 / self.words as f32;
        write!(
            f,
            "only {} of its {} {} words ({:.0}%, below {:.0}%) are common words of its languages",
            self.common,
            self.words,
            self.script.name(),
            share * 100.0,
            self.script.floor() * 100.0
        )
    }
}

/// `Some` when `text`, read with the `+`-joined tesseract `languages`, is
/// letter salad: its dominant script has at least 40 words and under
/// [`Script::floor`] of them are common words of that script's languages.
/// `None` when it reads as language, or cannot be judged (too few words, a
/// script no configured language writes, or a configured language with no
/// word list).
pub(crate) fn salad(text: &str, languages: &str) -> Option<Salad> {
    let scripts: Vec<Script> = languages.split('+').map(script_of).collect::<Option<_>>()?;
    let words: Vec<(Script, String)> = text
        .split_whitespace()
        .map(|t| t.trim_matches(|c: char| !c.is_alphanumeric() && !is_devanagari_mark(c)).to_lowercase())
        .filter_map(|w| Script::of(&w).filter(|_| !w.is_empty()).map(|s| (s, w)))
        .collect();
    let latin = words.iter().filter(|(s, _)| *s == Script::Latin).count();
    let script = if latin * 2 >= words.len() { Script::Latin } else { Script::Devanagari };
    let of_script: Vec<&str> = words.iter().filter(|(s, _)| *s == script).map(|(_, w)| w.as_str()).collect();
    if of_script.len() < MIN_WORDS || !scripts.contains(&script) {
        return None;
    }
    let list = common_words(script);
    let common = of_script.iter().filter(|w| list.contains(w)).count();
    let share = common as f32 / of_script.len() as f32;
    (share < script.floor()).then_some(Salad { script, words: of_script.len(), common })
}

/// Devanagari vowel signs, virama and nukta are not alphanumeric in Rust's
/// tables but end many words ("की", "में").
fn is_devanagari_mark(c: char) -> bool {
    matches!(u32::from(c), 0x0900..=0x0903 | 0x093A..=0x094F | 0x0951..=0x0957 | 0x0962..=0x0963)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::expect_used)]
    use super::*;

    const SALAD: &str = include_str!("../../tests/fixtures/ocr/japanese-read-as-eng-hin.txt");
    const ENGLISH: &str = include_str!("../../tests/fixtures/ocr/nhai-2.1.82-eng.txt");
    const MARATHI: &str = include_str!("../../tests/fixtures/ocr/udhr-marathi-hin.txt");

    #[test]
    fn a_japanese_page_read_as_english_is_salad() {
        let s = salad(SALAD, "eng+hin").expect("salad");
        assert_eq!(s.script, Script::Latin);
        assert!(s.words > 100 && s.common * 100 < s.words * 10, "{s:?}");
        assert!(s.to_string().starts_with("only "), "{s}");
    }

    #[test]
    fn real_scans_in_english_and_marathi_read_as_language() {
        assert_eq!(salad(ENGLISH, "eng+hin"), None);
        assert_eq!(salad(MARATHI, "eng+hin"), None);
        assert_eq!(salad(MARATHI, "hin"), None);
    }

    #[test]
    fn what_cannot_be_judged_is_let_through() {
        // A language with no list, too few words, a script not configured.
        assert_eq!(salad(SALAD, "eng+jpn"), None);
        assert_eq!(salad("REME Vy bEP MIE 227 CHIT", "eng"), None);
        assert_eq!(salad(ENGLISH, "hin"), None);
    }

    #[test]
    fn french_read_by_the_english_model_is_language() {
        let french = "Tous les êtres humains naissent libres et égaux en dignité et en droits. ".repeat(5);
        assert_eq!(salad(&french, "eng"), None);
        assert!(salad(SALAD, "fra").is_some(), "salad is salad to every Latin list");
    }
}
