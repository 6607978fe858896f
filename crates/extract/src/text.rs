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
        title: memo_title(trimmed).or_else(|| first_line_title(trimmed)),
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

/// The title under a memo header block: RFCs, Internet-Drafts and many
/// office memos open with a block of two-column lines (author and
/// organisation on the right; "Request for Comments: 9110", "Obsoletes: …"
/// on the left; RFC 7322 §4.1) and put the title below it, centred. That
/// first line after the block, rules aside, is the title when the first
/// paragraph has at least three lines and most of them hold two columns
/// (a gap of three spaces or more) or only a right-hand one (20 or more
/// leading spaces). `None` for any other text.
fn memo_title(text: &str) -> Option<String> {
    let mut lines = text.lines();
    let block: Vec<&str> = lines.by_ref().take_while(|l| !l.trim().is_empty()).collect();
    let columned = |l: &&&str| l.trim_start().contains("   ") || l.len() - l.trim_start().len() >= 20;
    if block.len() < 3 || block.iter().filter(columned).count() * 2 <= block.len() {
        return None;
    }
    let line = lines.map(str::trim).find(|l| !l.is_empty() && l.chars().any(char::is_alphanumeric))?;
    (line.chars().count() < MAX_TITLE_CHARS).then(|| line.to_string())
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
    fn an_rfc_is_titled_by_the_line_under_its_header_block() {
        let corpus = std::env::var("ALMIRAH_CORPORA")
            .unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/corpora").into());
        let dir = std::path::Path::new(&corpus).join("versions_rfc_http/text");
        for (file, title) in [
            ("rfc2616.txt", "Hypertext Transfer Protocol -- HTTP/1.1"),
            ("rfc5988.txt", "Web Linking"),
            ("rfc9110.txt", "HTTP Semantics"),
        ] {
            let bytes = std::fs::read(dir.join(file)).unwrap();
            assert_eq!(extract_text(&bytes).unwrap().title.as_deref(), Some(title), "{file}");
        }
        let memo = "From: A. Clerk           Accounts\nTo: All staff              Head office\nDate: 1 June 2026\n\n\
                    Hostel fee waiver\n\nThe waiver is halved.";
        assert_eq!(extract_text(memo.as_bytes()).unwrap().title.as_deref(), Some("Hostel fee waiver"));
        let plain = "Leave policy\nApplies to: all staff\nOwner: HR\n\nBody.";
        assert_eq!(extract_text(plain.as_bytes()).unwrap().title.as_deref(), Some("Leave policy"));
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
