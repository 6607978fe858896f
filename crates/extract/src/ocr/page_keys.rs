//! Page numbers and content keys of a PDF to be read by OCR.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use pdf_extract::{Document, Object, ObjectId};
use serde::{Deserialize, Serialize};

use super::OcrOptions;
use super::programs::{Tools, run};
use crate::guard::guarded;

/// Content key of one page for OCR: blake3 (hex, 64 chars) of the OCR
/// settings (recogniser version, languages, dpi) and the page's content
/// streams and image streams as stored. The same page in another file, or
/// after the file's other pages or its metadata changed, has the same key.
/// When the PDF does not open with lopdf, the key covers the whole file and
/// the page number instead.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct PageKey(String);

impl PageKey {
    /// The key as hex text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// A key read back from storage (64 hex chars), or `None`.
    pub fn parse(hex: &str) -> Option<Self> {
        (hex.len() == 64 && hex.bytes().all(|b| b.is_ascii_hexdigit())).then(|| Self(hex.to_ascii_lowercase()))
    }
}

/// One page to read.
#[derive(Debug, Clone)]
pub(crate) struct PagePlan {
    /// 1-based page number.
    pub number: u32,
    /// Its content key.
    pub key: PageKey,
    /// The page is turned (`/Rotate` not 0), so stored images are not upright.
    pub rotated: bool,
}

/// The pages of the PDF in `bytes` (also written at `pdf`).
///
/// # Errors
/// A message when neither lopdf nor `pdfinfo`-style counting finds pages.
pub(crate) fn plan(bytes: &[u8], pdf: &Path, opts: &OcrOptions, tools: &Tools) -> Result<Vec<PagePlan>, String> {
    let settings = format!("{}\0{}\0{}\0", tools.version, opts.languages, opts.dpi);
    if let Ok(Some(pages)) = guarded(|| from_lopdf(bytes, &settings)) {
        return Ok(pages);
    }
    let count = count_with_poppler(opts, pdf).ok_or("OCR could not count the pages of this PDF")?;
    let file = blake3::hash(bytes);
    Ok((1..=count)
        .map(|n| {
            let mut h = blake3::Hasher::new();
            h.update(settings.as_bytes()).update(b"file\0").update(file.as_bytes()).update(&n.to_le_bytes());
            PagePlan { number: n, key: PageKey(h.finalize().to_hex().to_string()), rotated: true }
        })
        .collect())
}

fn from_lopdf(bytes: &[u8], settings: &str) -> Option<Vec<PagePlan>> {
    let mut doc = Document::load_mem(bytes).ok()?;
    if doc.is_encrypted() {
        doc.decrypt("").ok()?;
    }
    let pages = doc.get_pages();
    if pages.is_empty() {
        return None;
    }
    Some(pages.iter().map(|(&n, &id)| page_plan(&doc, n, id, settings)).collect())
}

fn page_plan(doc: &Document, number: u32, id: ObjectId, settings: &str) -> PagePlan {
    let mut h = blake3::Hasher::new();
    h.update(settings.as_bytes()).update(b"page\0");
    h.update(&doc.get_page_content(id).unwrap_or_default());
    for image in doc.get_page_images(id).unwrap_or_default() {
        h.update(b"\0image\0").update(image.content);
    }
    let rotated = doc
        .get_dictionary(id)
        .ok()
        .and_then(|d| d.get(b"Rotate").ok())
        .and_then(|r| match r {
            Object::Integer(i) => Some(*i),
            _ => None,
        })
        .is_some_and(|r| r.rem_euclid(360) != 0);
    PagePlan { number, key: PageKey(h.finalize().to_hex().to_string()), rotated }
}

/// Page count from `pdfinfo` (poppler-utils), which recovers files lopdf rejects.
fn count_with_poppler(opts: &OcrOptions, pdf: &Path) -> Option<u32> {
    let pdfinfo = opts.pdfimages.with_file_name("pdfinfo");
    let program = if pdfinfo.parent().is_some_and(|p| !p.as_os_str().is_empty()) { pdfinfo } else { "pdfinfo".into() };
    let deadline = Instant::now() + Duration::from_secs(30);
    let out = run(Command::new(program).arg(pdf), deadline).ok()?;
    let text = String::from_utf8_lossy(&out);
    text.lines().find_map(|l| l.strip_prefix("Pages:")).and_then(|n| n.trim().parse().ok()).filter(|&n| n > 0)
}
