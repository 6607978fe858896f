//! Page numbers and content keys of a PDF to be read by OCR.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use pdf_extract::{Dictionary, Document, Object, ObjectId};
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
/// A message when neither lopdf nor `pdfinfo` finds pages.
pub(crate) fn plan(bytes: &[u8], pdf: &Path, opts: &OcrOptions, tools: &Tools) -> Result<Vec<PagePlan>, String> {
    let settings = format!("{}\0{}\0{}\0", tools.version, opts.languages, opts.dpi);
    let file = blake3::hash(bytes);
    if let Ok(Some(pages)) = guarded(|| from_lopdf(bytes, &settings, file.as_bytes())) {
        return Ok(pages);
    }
    let count = count_with_poppler(opts, pdf).ok_or("OCR could not count the pages of this PDF")?;
    Ok((1..=count)
        .map(|n| PagePlan { number: n, key: file_key(&settings, file.as_bytes(), n), rotated: true })
        .collect())
}

/// The fallback key: the whole file and the page number.
fn file_key(settings: &str, file: &[u8], page: u32) -> PageKey {
    let mut h = blake3::Hasher::new();
    h.update(settings.as_bytes()).update(b"file\0").update(file).update(&page.to_le_bytes());
    PageKey(h.finalize().to_hex().to_string())
}

fn from_lopdf(bytes: &[u8], settings: &str, file: &[u8]) -> Option<Vec<PagePlan>> {
    let mut doc = Document::load_mem(bytes).ok()?;
    if doc.is_encrypted() {
        doc.decrypt("").ok()?;
    }
    let pages = doc.get_pages();
    if pages.is_empty() {
        return None;
    }
    Some(pages.iter().map(|(&n, &id)| page_plan(&doc, n, id, settings, file)).collect())
}

/// A page's plan. Its key covers the page dictionary's geometry (boxes,
/// rotation), its content streams and every image it draws, directly or
/// through forms, dictionary and bytes; when no image can be found (an
/// unusual resource layout) the key falls back to the file and page number,
/// so two pages never share a key by accident.
fn page_plan(doc: &Document, number: u32, id: ObjectId, settings: &str, file: &[u8]) -> PagePlan {
    let rotation = inherited(doc, id, b"Rotate").and_then(|r| r.as_i64().ok()).unwrap_or(0);
    let mut h = blake3::Hasher::new();
    h.update(settings.as_bytes()).update(b"page\0").update(&rotation.to_le_bytes());
    for key in [&b"MediaBox"[..], b"CropBox"] {
        h.update(format!("{:?}", inherited(doc, id, key)).as_bytes());
    }
    h.update(&doc.get_page_content(id).unwrap_or_default());
    let mut images = 0;
    if let Ok((direct, ids)) = doc.get_page_resources(id) {
        let dicts = direct.into_iter().chain(ids.iter().filter_map(|r| doc.get_dictionary(*r).ok()));
        for resources in dicts {
            images += hash_images(doc, resources, &mut h, 0);
        }
    }
    let key = if images == 0 { file_key(settings, file, number) } else { PageKey(h.finalize().to_hex().to_string()) };
    PagePlan { number, key, rotated: rotation.rem_euclid(360) != 0 }
}

/// How deep forms inside forms are followed.
const MAX_FORM_DEPTH: usize = 4;

/// Hash every image XObject of `resources` (and of the forms it holds);
/// the number of images hashed.
fn hash_images(doc: &Document, resources: &Dictionary, h: &mut blake3::Hasher, depth: usize) -> usize {
    let Some(xobjects) = resources.get(b"XObject").ok().and_then(|x| resolve(doc, x)?.as_dict().ok()) else {
        return 0;
    };
    let mut count = 0;
    for (_, value) in xobjects.iter() {
        let Some(Object::Stream(stream)) = resolve(doc, value) else { continue };
        match stream.dict.get(b"Subtype").and_then(Object::as_name) {
            Ok(b"Image") => {
                h.update(b"\0image\0").update(format!("{:?}", stream.dict).as_bytes()).update(&stream.content);
                count += 1;
            }
            Ok(b"Form") if depth < MAX_FORM_DEPTH => {
                h.update(b"\0form\0").update(&stream.content);
                if let Some(inner) = stream.dict.get(b"Resources").ok().and_then(|r| resolve(doc, r)?.as_dict().ok()) {
                    count += hash_images(doc, inner, h, depth + 1);
                }
            }
            _ => {}
        }
    }
    count
}

/// `object`, or the object it refers to.
fn resolve<'a>(doc: &'a Document, object: &'a Object) -> Option<&'a Object> {
    match object {
        Object::Reference(id) => doc.get_object(*id).ok(),
        other => Some(other),
    }
}

/// A page attribute, looked up the page tree (PDF 32000-1 §7.7.3.4:
/// Resources, MediaBox, CropBox and Rotate are inheritable).
fn inherited<'a>(doc: &'a Document, page: ObjectId, key: &[u8]) -> Option<&'a Object> {
    let mut node = doc.get_dictionary(page).ok()?;
    for _ in 0..32 {
        if let Ok(value) = node.get(key) {
            return resolve(doc, value);
        }
        let parent = node.get(b"Parent").ok()?.as_reference().ok()?;
        node = doc.get_dictionary(parent).ok()?;
    }
    None
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
