//! Romanized Hindi ("Hinglish") queries for a multilingual embedder (issue
//! 41). Users type Hindi in Latin letters ("hafte mein kitne din ghar se
//! kaam kar sakta hoon?"); multilingual-e5-small places such a query far
//! from the policy it asks about (no chunk of the `hindi` set above the
//! vector floor), while the same words in Devanagari land next to both the
//! Hindi policy and its English twin (cosine 0.92 and 0.84 on the reference
//! scale). A romanized Hindi question is therefore transliterated: each
//! word that no chunk the user may see in force holds (no BM25 posting
//! there) is written in Devanagari, the Hindi function words in their
//! standard spelling, and the words the library holds ("carry forward",
//! "hotel") and acronyms ("WFH") stay as typed. `almirah search` embeds
//! that form and ranks the typed words with BM25; the answer path reads the
//! question in that form throughout (`Snapshot::as_the_library_reads`). This is
//! query transliteration for mixed-script retrieval (Gupta et al., "Query
//! Expansion for Mixed-Script Information Retrieval", SIGIR 2014).
//!
//! The transliteration is loose and rule-based, for the informal spelling
//! people type (no ITRANS diacritics): consonant digraphs before single
//! letters ("chh", "kh", "sh"), long vowels doubled ("aa", "ee", "oo"), a
//! consonant followed by another keeps its inherent vowel ("kitne" कितने)
//! except before y, r or v ("kya" क्या) and in a doubled consonant
//! ("chhutti" छुट्टी, whose "tt" is the retroflex the spelling mostly
//! means), a final "a" or "i" is long ("kitna" कितना, "bachi" बची), and a
//! final "ein", "ain", "oon" is nasal ("mein" में, "hain" हैं, "hoon" हूं).

/// Closed-class Hindi words as typed in Latin letters (postpositions,
/// auxiliaries, pronouns, question words), each with its standard
/// Devanagari spelling: a query with [`MIN_MARKERS`] distinct ones and no
/// Devanagari is romanized Hindi, and they are written in their standard
/// form (the Hindi stop words and question forms the answerer knows). None
/// is an English word.
pub const MARKERS: &[(&str, &str)] = &[
    ("hai", "है"),
    ("hain", "हैं"),
    ("kya", "क्या"),
    ("kitna", "कितना"),
    ("kitne", "कितने"),
    ("kitni", "कितनी"),
    ("mein", "में"),
    ("ka", "का"),
    ("ki", "की"),
    ("ke", "के"),
    ("ko", "को"),
    ("se", "से"),
    ("tak", "तक"),
    ("kab", "कब"),
    ("kaise", "कैसे"),
    ("kaun", "कौन"),
    ("kahan", "कहाँ"),
    ("kyun", "क्यों"),
    ("kyon", "क्यों"),
    ("sakta", "सकता"),
    ("sakte", "सकते"),
    ("sakti", "सकती"),
    ("hoon", "हूँ"),
    ("mujhe", "मुझे"),
    ("mera", "मेरा"),
    ("meri", "मेरी"),
    ("milega", "मिलेगा"),
    ("milegi", "मिलेगी"),
    ("milta", "मिलता"),
    ("milti", "मिलती"),
    ("milte", "मिलते"),
    ("nahi", "नहीं"),
    ("nahin", "नहीं"),
    ("aur", "और"),
    ("bhi", "भी"),
    ("liye", "लिए"),
    ("wala", "वाला"),
    ("wali", "वाली"),
    ("agar", "अगर"),
    ("toh", "तो"),
    ("karna", "करना"),
    ("karne", "करने"),
    ("karte", "करते"),
    ("chahiye", "चाहिए"),
    ("hota", "होता"),
    ("hoti", "होती"),
    ("hote", "होते"),
    ("raha", "रहा"),
    ("rahi", "रही"),
    ("rahe", "रहे"),
];

/// The standard Devanagari form of a marker word.
fn marker(word: &str) -> Option<&'static str> {
    MARKERS.iter().find(|(latin, _)| *latin == word).map(|(_, hindi)| *hindi)
}

/// Distinct [`MARKERS`] a query needs to be read as romanized Hindi.
pub const MIN_MARKERS: usize = 2;

/// Whether `query` is Hindi typed in Latin letters: no Devanagari, and at
/// least [`MIN_MARKERS`] distinct Hindi function words, each typed in lower
/// case or first ("Can Hai Ko apply?" names two people).
pub fn is_romanized_hindi(query: &str) -> bool {
    if query.chars().any(is_devanagari) {
        return false;
    }
    let mut found: Vec<String> = Vec::new();
    for (i, typed) in words(query).enumerate() {
        let w = typed.to_lowercase();
        let as_a_word = i == 0 || typed == w;
        if as_a_word && marker(&w).is_some() && !found.contains(&w) {
            found.push(w);
        }
    }
    found.len() >= MIN_MARKERS
}

/// `query` with every word `known` rejects written in Devanagari
/// ([`to_devanagari`]; a marker in its standard form), when it is romanized
/// Hindi ([`is_romanized_hindi`]); `None` otherwise. Punctuation stays, and
/// so do numbers, acronyms ("WFH") and words joined to a digit or an
/// apostrophe ("10th", "don't").
pub fn transliterated(query: &str, known: impl Fn(&str) -> bool) -> Option<String> {
    if !is_romanized_hindi(query) {
        return None;
    }
    let mut out = String::with_capacity(query.len() * 3);
    let mut token = String::new();
    let flush = |token: &mut String, out: &mut String| {
        if !token.is_empty() {
            out.push_str(&read_word(token, &known));
            token.clear();
        }
    };
    for c in query.chars() {
        if c.is_ascii_alphanumeric() || c == '\'' || c == '’' {
            token.push(c);
        } else {
            flush(&mut token, &mut out);
            out.push(c);
        }
    }
    flush(&mut token, &mut out);
    Some(out)
}

/// One token of a romanized Hindi query as the library reads it.
fn read_word(token: &str, known: &impl Fn(&str) -> bool) -> String {
    let lower = token.to_lowercase();
    let acronym = token.len() >= 2 && token.chars().all(|c| c.is_ascii_uppercase());
    if !token.chars().all(|c| c.is_ascii_alphabetic()) || acronym {
        return token.to_string();
    }
    match marker(&lower) {
        Some(hindi) => hindi.to_string(),
        None if known(&lower) => token.to_string(),
        None => to_devanagari(&lower),
    }
}

/// The runs of ASCII letters of `text`, the words a romanized query is read by.
pub fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !c.is_ascii_alphabetic()).filter(|w| !w.is_empty())
}

fn is_devanagari(c: char) -> bool {
    ('\u{0900}'..='\u{097F}').contains(&c)
}

/// Consonants, longest spelling first: (Latin, Devanagari).
const CONSONANTS: &[(&str, &str)] = &[
    ("chh", "छ"),
    ("kh", "ख"),
    ("gh", "घ"),
    ("ch", "च"),
    ("jh", "झ"),
    ("th", "थ"),
    ("dh", "ध"),
    ("ph", "फ"),
    ("bh", "भ"),
    ("sh", "श"),
    ("tt", "ट्ट"),
    ("dd", "ड्ड"),
    ("k", "क"),
    ("g", "ग"),
    ("c", "क"),
    ("j", "ज"),
    ("t", "त"),
    ("d", "द"),
    ("n", "न"),
    ("p", "प"),
    ("f", "फ़"),
    ("b", "ब"),
    ("m", "म"),
    ("y", "य"),
    ("r", "र"),
    ("l", "ल"),
    ("v", "व"),
    ("w", "व"),
    ("s", "स"),
    ("h", "ह"),
    ("z", "ज़"),
    ("q", "क़"),
    ("x", "क्स"),
];

/// Vowels, longest spelling first: (Latin, independent letter, sign after a
/// consonant; "" for the inherent "a").
const VOWELS: &[(&str, &str, &str)] = &[
    ("aa", "आ", "ा"),
    ("ai", "ऐ", "ै"),
    ("au", "औ", "ौ"),
    ("ee", "ई", "ी"),
    ("ii", "ई", "ी"),
    ("oo", "ऊ", "ू"),
    ("ou", "औ", "ौ"),
    ("a", "अ", ""),
    ("i", "इ", "ि"),
    ("u", "उ", "ु"),
    ("e", "ए", "े"),
    ("o", "ओ", "ो"),
];

/// Final spellings read as a nasal vowel: (Latin ending, nasal sign).
const NASAL_ENDINGS: &[(&str, &str)] = &[("ein", "ें"), ("ain", "ैं"), ("oon", "ूं")];

/// One lower-case Latin word in Devanagari (the rules of the module doc).
pub fn to_devanagari(word: &str) -> String {
    let mut out = String::new();
    let mut rest = word;
    // Whether the last letter written is a consonant with no vowel sign yet.
    let mut bare = false;
    while !rest.is_empty() {
        if let Some((_, nasal)) = NASAL_ENDINGS.iter().find(|(e, _)| rest == *e) {
            // After a consonant the sign, else the independent vowel with a dot.
            out.push_str(if bare { nasal } else { nasal_independent(rest) });
            return out;
        }
        if let Some((latin, letter)) = CONSONANTS.iter().find(|(l, _)| rest.starts_with(l)) {
            let after = &rest[latin.len()..];
            if bare && cluster_with(latin) {
                out.push('्');
            }
            out.push_str(letter);
            bare = true;
            rest = after;
            continue;
        }
        if let Some((latin, independent, sign)) = VOWELS.iter().find(|(l, _, _)| rest.starts_with(l)) {
            let after = &rest[latin.len()..];
            let last = after.is_empty();
            let sign = match (*latin, last) {
                ("a", true) => "ा",
                ("i", true) => "ी",
                _ => sign,
            };
            if bare {
                out.push_str(sign);
            } else {
                out.push_str(if last && *latin == "i" { "ई" } else { independent });
            }
            bare = false;
            rest = after;
            continue;
        }
        // Anything else (a letter outside the table): kept.
        let c = rest.chars().next().unwrap_or(' ');
        out.push(c);
        bare = false;
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// Whether a consonant spelt `latin` joins the one before it with a virama
/// (y, r, v/w: "kya" क्या, "pyaar" प्यार); others keep the inherent vowel.
fn cluster_with(latin: &str) -> bool {
    matches!(latin, "y" | "r" | "v" | "w")
}

/// A nasal ending after a vowel: the independent vowel with anusvara.
fn nasal_independent(ending: &str) -> &'static str {
    match ending {
        "ein" => "एं",
        "ain" => "ऐं",
        _ => "ऊं",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn common_words_are_written_as_in_devanagari_text() {
        for (latin, hindi) in [
            ("chhutti", "छुट्टी"),
            ("kitne", "कितने"),
            ("kitna", "कितना"),
            ("mein", "में"),
            ("hain", "हैं"),
            ("ghar", "घर"),
            ("kaam", "काम"),
            ("kya", "क्या"),
            ("din", "दिन"),
            ("saal", "साल"),
            ("agle", "अगले"),
            ("bachi", "बची"),
            ("hui", "हुई"),
            ("sakte", "सकते"),
            ("rupaye", "रुपये"),
        ] {
            assert_eq!(to_devanagari(latin), hindi, "{latin}");
        }
    }

    #[test]
    fn only_romanized_hindi_is_transliterated_and_known_words_stay() {
        assert!(is_romanized_hindi("bachi hui chhutti agle saal kitne din tak carry forward kar sakte hain?"));
        assert!(!is_romanized_hindi("How many days of leave can I carry forward?"));
        assert!(!is_romanized_hindi("Is the Kochi office open on Sunday?"), "one marker-like word is not Hindi");
        assert!(!is_romanized_hindi("Can Hai Ko apply for the Kaun scholarship?"), "capitalized names are not Hindi");
        assert!(is_romanized_hindi("Kitne din ki chhutti milti hai?"));
        assert!(!is_romanized_hindi("छुट्टी कितने दिन की है? kitne din"), "Devanagari is not romanized");
        let known = |w: &str| matches!(w, "carry" | "forward");
        let q = transliterated("kitne din tak carry forward kar sakte hain?", known);
        assert_eq!(q.as_deref(), Some("कितने दिन तक carry forward कर सकते हैं?"));
        // Markers take their standard spelling; acronyms and words with digits stay.
        let q = transliterated("WFH kitne din nahi milta, kahan 10th?", |_| false).unwrap_or_default();
        assert_eq!(q, "WFH कितने दिन नहीं मिलता, कहाँ 10th?");
        // A marker is Hindi even when the library knows the spelling.
        let q = transliterated("ghar se kaam kitne din?", |w| w == "se").unwrap_or_default();
        assert!(q.starts_with("घर से काम"), "{q}");
        assert_eq!(transliterated("What is the hotel cap?", |_| false), None);
    }
}
