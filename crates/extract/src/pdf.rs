//! PDF extraction with pdf-extract 0.12.1 (on lopdf 0.42), page by page.
//!
//! lopdf's `Document::load_mem` already tries the empty user password on
//! encrypted files; if the document is still encrypted afterwards we try
//! `decrypt("")` once more and otherwise report [`ExtractError::NeedsPassword`].
//! Text comes from `pdf_extract::output_doc_page` into a `PlainTextOutput`, one
//! page at a time so each section keeps its 1-based page number. Every call
//! into either crate runs under [`guarded`].

use std::collections::BTreeMap;

use pdf_extract::{Document, Object, PlainTextOutput, output_doc_page};

use crate::decode::strip_controls;
use crate::guard::guarded;
use crate::{ExtractError, Extracted, FileKind, Section, quality};

/// Longest first line (in chars) accepted as a title.
const MAX_TITLE_CHARS: usize = 120;

/// The text of one page, or why it could not be read.
type PageResult = (u32, Result<String, String>);

/// Extract a PDF file's text layer, page by page.
pub(crate) fn extract_pdf(bytes: &[u8]) -> Result<Extracted, ExtractError> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(ExtractError::Empty);
    }
    let mut notes = Vec::new();
    let doc = open(bytes, &mut notes)?;
    let numbers: Vec<u32> = guarded(|| doc.get_pages().keys().copied().collect())?;
    if numbers.is_empty() {
        return Err(ExtractError::Failed("no pages".into()));
    }
    let pages: Vec<PageResult> = numbers.iter().map(|&n| (n, read_page(&doc, n))).collect();
    let title = guarded(|| info_title(&doc)).ok().flatten();
    build(&pages, title, notes)
}

/// Load the document and open it with the empty password if it is encrypted.
fn open(bytes: &[u8], notes: &mut Vec<String>) -> Result<Document, ExtractError> {
    let mut doc = guarded(|| Document::load_mem(bytes))?.map_err(|e| load_error(&e))?;
    if guarded(|| doc.is_encrypted())? {
        guarded(|| doc.decrypt(""))?.map_err(|e| load_error(&e))?;
        notes.push("opened with empty password".into());
    } else if doc.was_encrypted() {
        notes.push("opened with empty password".into());
    }
    Ok(doc)
}

/// Map a lopdf error to a status: password errors become `NeedsPassword`.
fn load_error(err: &pdf_extract::Error) -> ExtractError {
    use pdf_extract::Error;
    use pdf_extract::encryption::DecryptionError;
    match err {
        Error::InvalidPassword | Error::Decryption(DecryptionError::IncorrectPassword) => ExtractError::NeedsPassword,
        other => ExtractError::Failed(other.to_string()),
    }
}

/// Text of page `n` with control characters removed, or the reason it failed.
fn read_page(doc: &Document, n: u32) -> Result<String, String> {
    let run = guarded(|| {
        let mut text = String::new();
        output_doc_page(doc, &mut PlainTextOutput::new(&mut text), n).map(|()| text)
    });
    match run {
        Ok(Ok(text)) => Ok(strip_controls(&text)),
        Ok(Err(e)) => Err(e.to_string()),
        Err(e) => Err(match e {
            ExtractError::Failed(msg) => msg,
            other => other.to_string(),
        }),
    }
}

/// Turn page results into an [`Extracted`] or a status.
fn build(pages: &[PageResult], info: Option<String>, mut notes: Vec<String>) -> Result<Extracted, ExtractError> {
    let sections: Vec<Section> = pages.iter().filter_map(|(n, r)| page_section(*n, r.as_ref().ok()?)).collect();
    let failures: Vec<String> =
        pages.iter().filter_map(|(n, r)| r.as_ref().err().map(|e| format!("page {n}: {e}"))).collect();
    if sections.is_empty() {
        return Err(match failures.first() {
            Some(first) => ExtractError::Failed(strip_page_prefix(first)),
            None => ExtractError::NoTextLayer,
        });
    }
    let all_text: String = sections.iter().map(|s| s.text.as_str()).collect::<Vec<_>>().join("\n");
    let score = quality::score(&all_text);
    if score < quality::THRESHOLD {
        return Err(ExtractError::LowQualityText(score));
    }
    note_gaps(&mut notes, pages.len(), sections.len(), &failures);
    let title = info.or_else(|| first_line_title(&sections));
    let front_matter = BTreeMap::new();
    let pages = Some(u32::try_from(pages.len()).unwrap_or(u32::MAX));
    Ok(Extracted {
        kind: FileKind::Pdf,
        title,
        front_matter,
        sections,
        tables: Vec::new(),
        properties: crate::Properties::default(),
        pages,
        quality: score,
        notes,
        ocr: None,
    })
}

/// `page 3: reason` → `reason`, for the document-level failure message.
fn strip_page_prefix(failure: &str) -> String {
    failure.split_once(": ").map_or(failure, |(_, rest)| rest).to_string()
}

/// One page as a section, unless it has no visible text.
fn page_section(n: u32, text: &str) -> Option<Section> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return None;
    }
    let offset = text.len() - text.trim_start().len();
    Some(Section { heading_path: Vec::new(), text: trimmed.to_string(), page: Some(n), source_offset: offset as u64 })
}

/// Record pages without text and pages that failed.
fn note_gaps(notes: &mut Vec<String>, total: usize, with_text: usize, failures: &[String]) {
    let empty = total - with_text - failures.len();
    if empty > 0 {
        notes.push(format!("{empty} of {total} pages had no text"));
    }
    notes.extend(failures.iter().map(|f| format!("could not read {f}")));
}

/// First non-empty line of the first page with text, if short enough.
fn first_line_title(sections: &[Section]) -> Option<String> {
    let line = sections.first()?.text.lines().map(str::trim).find(|l| !l.is_empty())?;
    (line.chars().count() < MAX_TITLE_CHARS).then(|| line.to_string())
}

/// The document information dictionary's `/Title`, if present and sane.
fn info_title(doc: &Document) -> Option<String> {
    let info = match doc.trailer.get(b"Info").ok()? {
        Object::Reference(id) => doc.get_dictionary(*id).ok()?,
        Object::Dictionary(d) => d,
        _ => return None,
    };
    let raw = info.get(b"Title").ok()?.as_str().ok()?;
    let title = decode_pdf_string(raw);
    sane_title(&title).then_some(title)
}

/// Decode a PDF text string: UTF-16BE with BOM, else PDFDocEncoding (read as Latin-1).
fn decode_pdf_string(raw: &[u8]) -> String {
    let text = match raw.strip_prefix(&[0xFE, 0xFF]) {
        Some(utf16) => {
            let units: Vec<u16> = utf16.chunks_exact(2).map(|p| u16::from_be_bytes([p[0], p[1]])).collect();
            String::from_utf16_lossy(&units)
        }
        None => raw.iter().map(|&b| char::from(b)).collect(),
    };
    strip_controls(&text).trim().to_string()
}

/// A title is sane when it is short, readable and not a file name or placeholder.
pub(crate) fn sane_title(title: &str) -> bool {
    let lower = title.to_lowercase();
    let chars = title.chars().count();
    let placeholder =
        ["untitled", "microsoft word", ".doc", ".pdf", ".indd", ".tex", ".dvi"].iter().any(|p| lower.contains(p));
    (3..MAX_TITLE_CHARS).contains(&chars) && !placeholder && quality::score(title) >= quality::THRESHOLD
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pdf_strings_decode_utf16_and_latin1() {
        assert_eq!(decode_pdf_string(b"\xFE\xFF\x00H\x00i"), "Hi");
        assert_eq!(decode_pdf_string(b"Caf\xe9"), "Café");
    }

    #[test]
    fn placeholder_titles_are_rejected() {
        assert!(!sane_title("Microsoft Word - policy.docx"));
        assert!(!sane_title("untitled"));
        assert!(sane_title("Free Culture"));
    }

    #[test]
    fn an_empty_file_named_pdf_is_empty_not_failed() {
        assert_eq!(extract_pdf(b""), Err(ExtractError::Empty));
        assert_eq!(extract_pdf(b" \n"), Err(ExtractError::Empty));
    }

    #[test]
    fn garbage_bytes_fail_without_panicking() {
        assert!(matches!(extract_pdf(b"%PDF-1.4 not really"), Err(ExtractError::Failed(_))));
    }
}
