//! Byte-to-text decoding for plain text and CSV.
//!
//! Order of evidence, strongest first (WHATWG Encoding Standard, "decode"):
//! a byte-order mark (UTF-8 `EF BB BF`, UTF-16 LE `FF FE`, UTF-16 BE `FE FF`);
//! then valid UTF-8; then a guess by `chardetng` (the detector Firefox uses),
//! decoded with `encoding_rs`. Control characters other than `\n`, `\t` (and
//! `\r`, normalised away by callers that care) are removed afterwards.

use encoding_rs::{Encoding, UTF_8};

/// Text decoded from bytes, with the name of the encoding that was used.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Decoded {
    /// The decoded text with control characters removed.
    pub text: String,
    /// WHATWG name of the encoding, e.g. `UTF-16LE`, `windows-1252`.
    pub encoding: &'static str,
    /// True when malformed sequences were replaced with U+FFFD.
    pub had_errors: bool,
}

/// Decode `bytes` to UTF-8 text (see the module docs for the order of evidence).
pub(crate) fn decode(bytes: &[u8]) -> Decoded {
    let encoding = detect(bytes);
    // `decode` sniffs and strips a BOM itself, overriding `encoding` if one is present.
    let (text, used, had_errors) = encoding.decode(bytes);
    Decoded { text: strip_controls(&text), encoding: used.name(), had_errors }
}

/// Pick the encoding for `bytes`: BOM, then UTF-8 validity, then chardetng.
fn detect(bytes: &[u8]) -> &'static Encoding {
    if let Some((enc, _)) = Encoding::for_bom(bytes) {
        return enc;
    }
    if std::str::from_utf8(bytes).is_ok() {
        return UTF_8;
    }
    let mut detector = chardetng::EncodingDetector::new();
    detector.feed(bytes, true);
    detector.guess(None, true)
}

/// Remove C0/C1 control characters except `\n`, `\r` and `\t`, and U+FEFF.
pub(crate) fn strip_controls(text: &str) -> String {
    text.chars().filter(|&c| keep_char(c)).collect()
}

fn keep_char(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\t') || !(c.is_control() || c == '\u{feff}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_bom_is_removed() {
        let d = decode(b"\xEF\xBB\xBFhello");
        assert_eq!(d.text, "hello");
        assert_eq!(d.encoding, "UTF-8");
    }

    #[test]
    fn utf16le_bom() {
        let mut bytes = vec![0xFF, 0xFE];
        for u in "Grüße".encode_utf16() {
            bytes.extend_from_slice(&u.to_le_bytes());
        }
        let d = decode(&bytes);
        assert_eq!(d.text, "Grüße");
        assert_eq!(d.encoding, "UTF-16LE");
    }

    #[test]
    fn latin1_falls_back_to_detector() {
        let d = decode(b"Caf\xe9 cr\xe8me br\xfbl\xe9e, d\xe9j\xe0 vu, tr\xe8s fran\xe7ais");
        assert!(d.text.contains("Café crème"), "{}", d.text);
        assert_eq!(d.encoding, "windows-1252");
    }

    #[test]
    fn controls_are_stripped_but_newlines_kept() {
        assert_eq!(strip_controls("a\0b\x07c\nd\te\u{85}"), "abc\nd\te");
    }
}
