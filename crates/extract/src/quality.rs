//! A cheap, documented heuristic for "did the text come out readable?".
//!
//! PDF text layers can be garbage even when a parser succeeds: fonts without
//! a ToUnicode map lose every non-Latin glyph (pdf-extract keeps only the
//! punctuation of Japanese text), Devanagari comes out in visual order with
//! pre-base vowel signs before their consonant ("अिधकार" for "अधिकार"), and
//! OCR layers of scans mix Latin look-alikes, digits and case at random
//! ("KoppeKn1pOBKH").
//!
//! The score is the share of characters, over whitespace-separated tokens,
//! that sit in *plausible* tokens. A token is implausible when it
//! - has no letter or digit at all (stray punctuation, lost glyphs);
//! - contains U+FFFD, a private-use code point or a control character;
//! - has a combining mark with no base to attach to: an Indic vowel sign,
//!   virama or nukta not preceded by a consonant (Unicode Standard, ch. 12,
//!   "Devanagari"), a Thai above/below vowel or tone mark at the token start,
//!   or a generic combining diacritic (U+0300–U+036F) at the token start;
//! - mixes case inside a word in a way no orthography does (lower → upper →
//!   lower, e.g. "HoMep"), or digits inside letters ("H8nor").
//!
//! Clean prose in Latin, Cyrillic, Greek, Arabic, Thai or Devanagari scores
//! above 0.9; [`THRESHOLD`] is set from the 50-PDF corpus (see the tests).

/// Below this score, text is reported as low quality.
pub(crate) const THRESHOLD: f32 = 0.8;

/// Share of provably broken tokens above which a whole complex script
/// (Indic, Thai) is treated as garbled: in correct text the share is 0.
const BROKEN_SCRIPT_SHARE: f32 = 0.05;

/// Share (0.0..=1.0) of characters in plausible tokens; 1.0 for empty text.
/// Runs of one repeated punctuation character (dot leaders, rules) count once.
pub(crate) fn score(text: &str) -> f32 {
    let mut tally = Tally::default();
    for token in text.split_whitespace() {
        tally.add(token);
    }
    tally.score()
}

/// Character counts per class of token.
#[derive(Debug, Default)]
struct Tally {
    good: usize,
    bad: usize,
    /// Plausible tokens written in a complex script, and how many were broken.
    complex_good: usize,
    complex_tokens: usize,
    complex_broken: usize,
}

impl Tally {
    fn add(&mut self, token: &str) {
        let n = weight(token);
        let word = core_word(token);
        let complex = word.chars().any(|c| complex_script(u32::from(c)));
        let ok = !word.is_empty() && !word.chars().any(is_junk) && sane_shape(word);
        let attached = marks_attached(word);
        if complex {
            self.complex_tokens += 1;
            self.complex_broken += usize::from(!attached);
        }
        match (ok && attached, complex) {
            (true, true) => self.complex_good += n,
            (true, false) => self.good += n,
            (false, _) => self.bad += n,
        }
    }

    fn score(&self) -> f32 {
        let broken_share = self.complex_broken as f32 / self.complex_tokens.max(1) as f32;
        let (good, bad) = if broken_share > BROKEN_SCRIPT_SHARE {
            (self.good, self.bad + self.complex_good)
        } else {
            (self.good + self.complex_good, self.bad)
        };
        let total = good + bad;
        if total == 0 { 1.0 } else { good as f32 / total as f32 }
    }
}

/// Characters in `token`, counting a run of one repeated non-alphanumeric
/// character once.
fn weight(token: &str) -> usize {
    let mut prev = None;
    let mut n = 0;
    for c in token.chars() {
        if c.is_alphanumeric() || prev != Some(c) {
            n += 1;
        }
        prev = Some(c);
    }
    n
}

/// `token` without leading and trailing punctuation.
fn core_word(token: &str) -> &str {
    token.trim_matches(|c: char| !c.is_alphanumeric() && !is_mark(c) && !is_junk(c))
}

/// Whether one whitespace-separated token looks like real text on its own.
#[cfg(test)]
fn plausible(token: &str) -> bool {
    let word = core_word(token);
    !word.is_empty() && !word.chars().any(is_junk) && marks_attached(word) && sane_shape(word)
}

/// Scripts whose marks we can validate: Indic blocks and Thai.
fn complex_script(u: u32) -> bool {
    indic_block(u).is_some() || (0x0E00..=0x0E7F).contains(&u)
}

/// Replacement, private-use and control characters.
fn is_junk(c: char) -> bool {
    let u = u32::from(c);
    c == '\u{FFFD}' || c.is_control() || (0xE000..=0xF8FF).contains(&u) || u >= 0xF_0000
}

/// Every combining mark follows something it can attach to.
fn marks_attached(word: &str) -> bool {
    let mut prev: Option<char> = None;
    for c in word.chars() {
        if is_mark(c) && !attaches_to(c, prev) {
            return false;
        }
        prev = Some(c);
    }
    true
}

/// Combining marks we check: generic diacritics, Indic signs, Thai marks.
fn is_mark(c: char) -> bool {
    let u = u32::from(c);
    (0x0300..=0x036F).contains(&u) || indic_sign(u) || thai_mark(u)
}

/// Whether mark `c` may follow `prev` within a word.
fn attaches_to(c: char, prev: Option<char>) -> bool {
    let Some(p) = prev else { return false };
    let (u, pu) = (u32::from(c), u32::from(p));
    if indic_sign(u) {
        return indic_block(u) == indic_block(pu) && indic_base(u, pu);
    }
    if thai_mark(u) {
        return (0x0E01..=0x0E2E).contains(&pu) || thai_mark(pu);
    }
    p.is_alphabetic() || is_mark(p)
}

/// Indic blocks U+0900–U+0DFF are 128 code points each, with a shared layout.
fn indic_block(u: u32) -> Option<u32> {
    (0x0900..=0x0DFF).contains(&u).then_some(u >> 7)
}

/// Offset of `u` inside its Indic block.
fn indic_offset(u: u32) -> u32 {
    u & 0x7F
}

/// Dependent vowel signs, virama and nukta (need a consonant before them).
fn indic_sign(u: u32) -> bool {
    indic_block(u).is_some() && matches!(indic_offset(u), 0x3C | 0x3E..=0x4D | 0x62 | 0x63)
}

/// Consonants of an Indic block (including Devanagari's nukta forms).
fn indic_consonant(u: u32) -> bool {
    indic_block(u).is_some() && matches!(indic_offset(u), 0x15..=0x39 | 0x58..=0x5F | 0x78..=0x7F)
}

/// A vowel sign or virama follows a consonant or nukta; a nukta follows a consonant.
fn indic_base(sign: u32, prev: u32) -> bool {
    let nukta = indic_offset(prev) == 0x3C;
    match indic_offset(sign) {
        0x3C => indic_consonant(prev),
        _ => indic_consonant(prev) || nukta,
    }
}

/// Thai vowel signs above/below and tone marks (U+0E31, U+0E34–U+0E3A, U+0E47–U+0E4E).
fn thai_mark(u: u32) -> bool {
    u == 0x0E31 || (0x0E34..=0x0E3A).contains(&u) || (0x0E47..=0x0E4E).contains(&u)
}

/// No lower→upper→lower case flips and no digit between two letters.
fn sane_shape(word: &str) -> bool {
    let chars: Vec<char> = word.chars().collect();
    !chars.windows(3).any(|w| {
        let flip = w[0].is_lowercase() && w[1].is_uppercase() && w[2].is_lowercase();
        let digit_inside = w[0].is_alphabetic() && w[1].is_ascii_digit() && w[2].is_alphabetic();
        flip || digit_inside
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clean_prose_scores_high() {
        assert!(score("The quick brown fox jumps over the lazy dog, twice (2x).") > 0.95);
        assert!(score("Всеобщая декларация прав человека принята в 1948 году.") > 0.95);
        assert!(score("मानव अधिकारों की सार्वभौम घोषणा दिसम्बर १९४८ को स्वीकृत की गई।") > 0.95);
        assert!(score("วิชาสามัญ คณิตศาสตร์ จำนวนเชิงซ้อน") > 0.95);
        assert!((score("") - 1.0).abs() < f32::EPSILON);
    }

    #[test]
    fn visual_order_devanagari_is_caught() {
        // Pre-base vowel sign written before its consonant, as pdf-extract emits it.
        assert!(score("अिधकार िदसबर घोिषत िकया िक") < 0.2);
    }

    #[test]
    fn lost_glyphs_and_ocr_noise_are_caught() {
        assert!(score(". , . , . . , .") < f32::EPSILON);
        assert!(score("KoppeKn1pOBKH H8norosbiH HoMep") < f32::EPSILON);
        assert!(score("\u{FFFD}\u{FFFD} \u{E001}abc") < f32::EPSILON);
        assert!(!plausible("..."));
        assert!(plausible("(fox),"));
    }

    #[test]
    fn dot_leaders_count_once() {
        assert_eq!(weight("........"), 1);
        assert_eq!(weight("Name:......"), 6);
        assert!(score("Name ................................................ Date") > 0.6);
    }

    #[test]
    fn one_broken_word_in_twenty_taints_the_script() {
        let mut text = "सार्वभौम ".repeat(10);
        text.push_str("िदसबर");
        assert!(score(&text) < 0.1, "{}", score(&text));
        assert!(score(&"सार्वभौम ".repeat(10)) > 0.99);
    }
}
