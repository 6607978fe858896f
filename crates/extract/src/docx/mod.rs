//! Word documents: Office Open XML WordprocessingML (ECMA-376, 5th edition,
//! Part 1 §17), in the ZIP package of Part 2 (Open Packaging Conventions).
//!
//! The main story is found through the package relationships
//! (`_rels/.rels` → `officeDocument`, usually `word/document.xml`), with its
//! styles, numbering, footnotes and endnotes through the main part's own
//! relationships; core properties (`docProps/core.xml`) become
//! [`crate::Properties`]. A file that is not a ZIP package is sniffed: an
//! OLE compound file is a password-protected package or a Word 97-2003
//! document ([`crate::ole`]), RTF needs converting.

mod body;
mod parts;
mod styles;

pub(crate) use parts::core_properties;

use std::collections::BTreeMap;

use crate::container::{Container, Package, sniff};
use crate::{ExtractError, Extracted, FileKind, Limits, Properties, ole, quality};

/// What the package is called in messages.
const WHAT: &str = "Word document";

/// Extract a `.docx` (or a `.doc`, which is read when it is really a
/// `.docx` and otherwise gets its status).
pub(crate) fn extract_docx(kind: FileKind, bytes: &[u8]) -> Result<Extracted, ExtractError> {
    match sniff(bytes) {
        Container::Zip => read_package(bytes, kind),
        Container::Ole => Err(ole::word_status(bytes)),
        Container::Rtf => Err(ExtractError::NeedsConversion(
            "an RTF document; open it in Word or LibreOffice and save it as .docx".into(),
        )),
        Container::Other if bytes.iter().all(u8::is_ascii_whitespace) => Err(ExtractError::Empty),
        Container::Other if kind == FileKind::Doc => Err(ole::word97()),
        Container::Other => Err(ExtractError::Failed(format!("not a {WHAT}: not a ZIP package"))),
    }
}

fn read_package(bytes: &[u8], kind: FileKind) -> Result<Extracted, ExtractError> {
    let mut pkg = Package::open(bytes, WHAT, Limits::default())?;
    let package_rels = pkg.text("_rels/.rels")?.map(|x| parts::relationships(&x, "")).unwrap_or_default();
    let main = parts::target(&package_rels, parts::OFFICE_DOCUMENT).unwrap_or("word/document.xml").to_string();
    let Some(document) = pkg.text(&main)? else {
        return Err(ExtractError::Failed(format!("not a {WHAT}: the package has no {main}")));
    };
    let rels =
        pkg.text(&parts::rels_of(&main))?.map(|x| parts::relationships(&x, parts::folder(&main))).unwrap_or_default();
    let part = |suffix: &str, default: &str| parts::target(&rels, suffix).unwrap_or(default).to_string();
    let styles = styles::Styles::parse(&pkg.text(&part(parts::STYLES, "word/styles.xml"))?.unwrap_or_default());
    let numbering =
        styles::Numbering::parse(&pkg.text(&part(parts::NUMBERING, "word/numbering.xml"))?.unwrap_or_default());
    let mut walker = body::Walker::new(&styles, &numbering);
    walker.walk(&document, &main)?;
    for notes in [part(parts::FOOTNOTES, "word/footnotes.xml"), part(parts::ENDNOTES, "word/endnotes.xml")] {
        if let Some(xml) = pkg.text(&notes)? {
            walker.walk(&xml, &notes)?;
        }
    }
    let core = parts::target(&package_rels, parts::CORE_PROPERTIES).unwrap_or("docProps/core.xml").to_string();
    let properties = pkg.text(&core)?.map(|x| parts::core_properties(&x, &core)).unwrap_or_default();
    build(walker, properties, kind, document.len())
}

fn build(
    walker: body::Walker<'_>,
    properties: Properties,
    kind: FileKind,
    end: usize,
) -> Result<Extracted, ExtractError> {
    let title = walker.title.clone();
    let (sections, first_heading) = walker.out.finish(end);
    if sections.is_empty() {
        return Err(ExtractError::Empty);
    }
    let all: String = sections.iter().map(|s| s.text.as_str()).collect();
    let notes = if kind == FileKind::Doc { vec!["an Office Open XML document named .doc".to_string()] } else { vec![] };
    Ok(Extracted {
        kind: FileKind::Docx,
        title: title.or(first_heading),
        front_matter: BTreeMap::new(),
        quality: quality::score(&all),
        sections,
        tables: Vec::new(),
        properties,
        pages: None,
        notes,
        ocr: None,
    })
}

#[cfg(test)]
mod tests;
