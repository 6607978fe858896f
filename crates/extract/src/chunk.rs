//! Structure-aware chunking with text-splitter 0.33 (`TextSplitter`, sized in
//! characters). Each section is split on its own, so a chunk never crosses a
//! heading or a PDF page; `chunk_indices` gives the byte offset of each
//! (trimmed) chunk inside the section text.

use text_splitter::{ChunkConfig, TextSplitter};

use crate::{ChunkDraft, ChunkOptions, Extracted, Section};

/// Longest anchor slug, in bytes (ASCII only, so also chars).
const MAX_SLUG: usize = 48;

/// Split every section of `doc` into chunks, numbered in document order.
pub(crate) fn chunk_doc(doc: &Extracted, opts: &ChunkOptions) -> Vec<ChunkDraft> {
    let splitter = TextSplitter::new(config(opts));
    let mut out = Vec::new();
    for section in &doc.sections {
        for (offset, text) in splitter.chunk_indices(&section.text) {
            if text.trim().is_empty() {
                continue;
            }
            let ordinal = u32::try_from(out.len()).unwrap_or(u32::MAX);
            out.push(draft(section, ordinal, offset, text));
        }
    }
    out
}

/// A character range `min..max`, repaired if the options are inconsistent.
fn config(opts: &ChunkOptions) -> ChunkConfig<text_splitter::Characters> {
    let max = opts.max_chars.max(1);
    let min = opts.min_chars.clamp(1, max);
    ChunkConfig::new(min..max.max(min + 1))
}

fn draft(section: &Section, ordinal: u32, offset: usize, text: &str) -> ChunkDraft {
    let start = section.source_offset + offset as u64;
    ChunkDraft {
        ordinal,
        heading_path: section.heading_path.clone(),
        anchor: anchor(section),
        text: text.to_string(),
        byte_span: (start, start + text.len() as u64),
        pages: section.page.map(|p| (p, p)),
    }
}

/// `p<page>` for PDF pages, else the slug of the innermost heading, else `text`.
fn anchor(section: &Section) -> String {
    if let Some(page) = section.page {
        return format!("p{page}");
    }
    section.heading_path.last().map_or_else(|| "text".to_string(), |h| slug(h))
}

/// Lowercase ASCII letters and digits joined by single `-`, at most
/// [`MAX_SLUG`] bytes; `text` when nothing is left.
pub(crate) fn slug(heading: &str) -> String {
    let mut out = String::new();
    for word in heading.split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| !w.is_empty()) {
        let extra = usize::from(!out.is_empty()) + word.len();
        if out.len() + extra > MAX_SLUG {
            if out.is_empty() {
                out.push_str(&word[..MAX_SLUG].to_ascii_lowercase());
            }
            break;
        }
        if !out.is_empty() {
            out.push('-');
        }
        out.push_str(&word.to_ascii_lowercase());
    }
    if out.is_empty() { "text".to_string() } else { out }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs() {
        assert_eq!(slug("Overtime and Compensatory (Comp) time"), "overtime-and-compensatory-comp-time");
        assert_eq!(slug("Pay cap: $191,900!"), "pay-cap-191-900");
        assert_eq!(slug("दिसम्बर"), "text");
        assert_eq!(slug(""), "text");
        let long = slug("Credit hours in flexible work schedules and everything else besides");
        assert_eq!(long, "credit-hours-in-flexible-work-schedules-and");
        assert!(long.len() <= MAX_SLUG);
        assert_eq!(slug(&"x".repeat(60)).len(), MAX_SLUG);
    }

    #[test]
    fn pdf_anchor_uses_page() {
        let s = Section { heading_path: vec!["A".into()], text: "t".into(), page: Some(3), source_offset: 0 };
        assert_eq!(anchor(&s), "p3");
    }

    #[test]
    fn bad_options_do_not_panic() {
        let c = config(&ChunkOptions { min_chars: 500, max_chars: 0 });
        let _ = TextSplitter::new(c).chunks("some text").count();
    }
}
