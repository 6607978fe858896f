//! quick-xml helpers shared by the Word and OpenDocument readers.
//!
//! Elements are matched by local name (`w:p` → `p`): OOXML and ODF bind
//! fixed namespace URIs, producers use the conventional prefixes, and the
//! readers only look inside the parts whose vocabulary they know. Entity
//! references are the five predefined ones and character references (XML
//! 1.0 §4.6); a document type's own entities are never expanded, so an
//! entity bomb has nothing to expand.

use std::borrow::Cow;

use quick_xml::Reader;
use quick_xml::events::{BytesRef, BytesStart};

use crate::ExtractError;

/// A lenient reader over `text`: empty elements come as a start and an
/// end, end names are not checked (a damaged part still yields its text).
pub(crate) fn reader(text: &str) -> Reader<&[u8]> {
    let mut r = Reader::from_str(text);
    let config = r.config_mut();
    config.expand_empty_elements = true;
    config.check_end_names = false;
    config.allow_unmatched_ends = true;
    config.allow_dangling_amp = true;
    config.trim_text_start = false;
    config.trim_text_end = false;
    r
}

/// The local part of a qualified name: `w:pStyle` → `pStyle`.
pub(crate) fn local(name: &str) -> &str {
    name.rsplit_once(':').map_or(name, |(_, l)| l)
}

/// The value of the attribute whose local name is `name`, unescaped.
pub(crate) fn attr(e: &BytesStart<'_>, name: &str) -> Option<String> {
    e.attributes().flatten().find(|a| local(a.key.as_ref()) == name).map(|a| unescape_attr(&a.value))
}

/// An attribute value with its references resolved (a bad reference is kept
/// as written).
fn unescape_attr(raw: &str) -> String {
    quick_xml::escape::unescape(raw).map_or_else(|_| raw.to_string(), Cow::into_owned)
}

/// The text of an entity or character reference (`amp` → `&`, `#x41` → `A`);
/// `None` for an unknown entity.
pub(crate) fn reference(r: &BytesRef<'_>) -> Option<String> {
    if let Ok(Some(c)) = r.resolve_char_ref() {
        return Some(c.to_string());
    }
    let name: &str = r;
    quick_xml::escape::resolve_predefined_entity(name).map(str::to_string)
}

/// A part's bytes as text: UTF-16 by its BOM, else UTF-8 (malformed
/// sequences replaced; XML parts of these formats are UTF-8 or UTF-16).
pub(crate) fn decode_part(bytes: &[u8]) -> String {
    let (text, _, _) = encoding_rs::UTF_8.decode(bytes);
    text.into_owned()
}

/// A quick-xml error as a per-file failure naming the part.
pub(crate) fn failed(part: &str, e: &quick_xml::Error) -> ExtractError {
    ExtractError::Failed(format!("{part} is not well-formed XML: {e}"))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::panic)]
    use quick_xml::events::Event;

    use super::*;

    #[test]
    fn names_attributes_and_references() {
        assert_eq!(local("w:pStyle"), "pStyle");
        assert_eq!(local("p"), "p");
        let mut r = reader(r#"<w:p w:val="a &amp; b"/>x &amp; &#x41;&lt;"#);
        let Event::Start(e) = r.read_event().unwrap() else { panic!("start") };
        assert_eq!(attr(&e, "val").as_deref(), Some("a & b"));
        assert!(matches!(r.read_event().unwrap(), Event::End(_)));
        let mut text = String::new();
        loop {
            match r.read_event().unwrap() {
                Event::Text(t) => text.push_str(&t.xml10_content()),
                Event::GeneralRef(g) => text.push_str(&reference(&g).unwrap()),
                Event::Eof => break,
                _ => {}
            }
        }
        assert_eq!(text, "x & A<");
    }

    #[test]
    fn utf16_parts_decode_by_their_bom() {
        let mut bytes = vec![0xFF, 0xFE];
        for u in "<a>é</a>".encode_utf16() {
            bytes.extend_from_slice(&u.to_le_bytes());
        }
        assert_eq!(decode_part(&bytes), "<a>é</a>");
    }
}
