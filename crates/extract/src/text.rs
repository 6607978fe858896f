//! Plain-text extraction: decode ([`crate::decode`]), strip control bytes,
//! keep the text as one section (the chunker splits it along paragraphs).

use std::collections::BTreeMap;

use crate::{ExtractError, Extracted, FileKind, Section, decode, quality};

/// Longest first line (in chars) accepted as a title.
const MAX_TITLE_CHARS: usize = 120;

/// Extract a plain-text file.
pub(crate) fn extract_text(bytes: &[u8]) -> Result<Extracted, ExtractError> {
    let decoded = decode::decode(bytes);
    let text = decoded.text;
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(ExtractError::Empty);
    }
    let offset = text.len() - text.trim_start().len();
    let mut notes = Vec::new();
    if decoded.encoding != "UTF-8" {
        notes.push(format!("decoded as {}", decoded.encoding));
    }
    if decoded.had_errors {
        notes.push("malformed byte sequences replaced with U+FFFD".into());
    }
    let section =
        Section { heading_path: Vec::new(), text: trimmed.to_string(), page: None, source_offset: offset as u64 };
    Ok(Extracted {
        kind: FileKind::Text,
        title: first_line_title(trimmed),
        front_matter: BTreeMap::new(),
        quality: quality::score(trimmed),
        sections: vec![section],
        tables: Vec::new(),
        properties: crate::Properties::default(),
        pages: None,
        notes,
        ocr: None,
    })
}

/// The first non-empty line, if it is shorter than [`MAX_TITLE_CHARS`].
pub(crate) fn first_line_title(text: &str) -> Option<String> {
    let line = text.lines().map(str::trim).find(|l| !l.is_empty())?;
    (line.chars().count() < MAX_TITLE_CHARS).then(|| line.to_string())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn title_and_offset() {
        let doc = extract_text(b"\n\n  Leave policy\n\nBody text.\n").unwrap();
        assert_eq!(doc.title.as_deref(), Some("Leave policy"));
        assert_eq!(doc.sections[0].source_offset, 4);
        assert_eq!(doc.sections[0].text, "Leave policy\n\nBody text.");
    }

    #[test]
    fn long_first_line_is_not_a_title() {
        let long = "word ".repeat(40);
        assert_eq!(extract_text(long.as_bytes()).unwrap().title, None);
    }

    #[test]
    fn whitespace_only_is_empty() {
        assert_eq!(extract_text(b" \n\t\0\0 ").unwrap_err(), ExtractError::Empty);
    }
}
