//! The first-page header of a PDF: the window where its number, issue date
//! and session are read (ARCHITECTURE §2).
//!
//! The window is counted in characters, not bytes: a Devanagari letterhead
//! (three bytes a character) pushed NHAI's "Policy Circular No. … dated …"
//! line past a 600-byte window. For Latin text 600 characters are the 600
//! bytes read before, so ordinary PDFs keep their header. A line the window
//! cuts is finished when its rest is short, so a number line is never halved;
//! a long unbroken paragraph is not pulled in.

/// Characters of page 1 in the header.
pub const HEADER_CHARS: usize = 600;
/// At most this many characters finish a line the window cut.
const LINE_REST_CHARS: usize = 120;

/// The header window of a first page: its first [`HEADER_CHARS`]
/// characters, plus the rest of the last line when that is short.
pub fn page_header(first_page: &str) -> &str {
    let cut = first_page.char_indices().nth(HEADER_CHARS).map_or(first_page.len(), |(i, _)| i);
    let rest = &first_page[cut..];
    let line_end = rest.find('\n').unwrap_or(rest.len());
    let short = rest[..line_end].chars().count() <= LINE_REST_CHARS;
    &first_page[..if short { cut + line_end } else { cut }]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_characters_not_bytes() {
        let letterhead = "भारतीय राष्ट्रीय राजमार्ग प्राधिकरण\n".repeat(8);
        let page = format!("{letterhead}Policy Circular No.2.2.14/ 2025 dated 28% February, 2025\nSub: Age");
        assert!(letterhead.len() > 600 && letterhead.chars().count() < 600);
        assert!(page_header(&page).contains("dated 28% February, 2025"));
    }

    #[test]
    fn finishes_a_cut_line_but_not_a_paragraph() {
        let line = format!("{}\nPolicy Circular No. 7 dated 1st April, 2025\nBody", "x".repeat(580));
        assert!(page_header(&line).ends_with("dated 1st April, 2025"));
        let paragraph = "word ".repeat(300);
        assert_eq!(page_header(&paragraph).chars().count(), HEADER_CHARS);
    }

    #[test]
    fn a_latin_page_keeps_its_600_byte_window() {
        let page = format!("{}\n{}", "a".repeat(600), "b".repeat(50));
        assert_eq!(page_header(&page), "a".repeat(600));
    }
}
