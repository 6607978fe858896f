//! OpenDocument text (`.odt`, OASIS ODF 1.3): `content.xml` in the ZIP
//! package of Part 2 §3, with the styles of `content.xml` and
//! `styles.xml` ([`styles`]), and `meta.xml` (Part 3 §4: `dc:title`,
//! `meta:creation-date`, `dc:date`) as [`crate::Properties`]. An encrypted
//! package lists `manifest:encryption-data` in `META-INF/manifest.xml`
//! (Part 2 §4.8) and needs a password.

mod content;
mod styles;

use std::collections::BTreeMap;

use quick_xml::events::Event;

use crate::container::{Container, Package, sniff};
use crate::xml::{local, reader, reference};
use crate::{ExtractError, Extracted, FileKind, Limits, Properties, ole, quality};

/// What the package is called in messages.
const WHAT: &str = "OpenDocument text";

/// Extract an `.odt`.
pub(crate) fn extract_odt(bytes: &[u8]) -> Result<Extracted, ExtractError> {
    match sniff(bytes) {
        Container::Zip => {}
        Container::Ole => return Err(ole::word_status(bytes)),
        Container::Other if bytes.iter().all(u8::is_ascii_whitespace) => return Err(ExtractError::Empty),
        Container::Rtf | Container::Other => {
            return Err(ExtractError::Failed(format!("not an {WHAT}: not a ZIP package")));
        }
    }
    let mut pkg = Package::open(bytes, WHAT, Limits::default())?;
    if pkg.text("META-INF/manifest.xml")?.is_some_and(|m| m.contains("encryption-data")) {
        return Err(ExtractError::NeedsPassword);
    }
    let Some(content) = pkg.text("content.xml")? else {
        return Err(ExtractError::Failed(format!("not an {WHAT}: the package has no content.xml")));
    };
    let mut styles = styles::Styles::default();
    styles.add(&pkg.text("styles.xml")?.unwrap_or_default());
    styles.add(&content);
    let properties = pkg.text("meta.xml")?.map(|m| meta(&m)).unwrap_or_default();
    let mut walker = content::Walker::new(&styles);
    walker.walk(&content)?;
    let title = walker.title.take();
    let (sections, first_heading) = walker.out.finish(content.len());
    if sections.is_empty() {
        return Err(ExtractError::Empty);
    }
    let all: String = sections.iter().map(|s| s.text.as_str()).collect();
    Ok(Extracted {
        kind: FileKind::Odt,
        title: title.or(first_heading),
        front_matter: BTreeMap::new(),
        quality: quality::score(&all),
        sections,
        tables: Vec::new(),
        properties,
        pages: None,
        notes: Vec::new(),
        ocr: None,
    })
}

/// `meta.xml`: title, creation and modification dates.
pub(crate) fn meta(xml: &str) -> Properties {
    let mut props = Properties { source: "meta.xml".into(), ..Properties::default() };
    let mut r = reader(xml);
    let (mut field, mut value) = (None::<String>, String::new());
    loop {
        match r.read_event() {
            Ok(Event::Start(e)) => {
                field = Some(e.name().as_ref().to_string());
                value.clear();
            }
            Ok(Event::Text(t)) => value.push_str(&t.xml10_content()),
            Ok(Event::GeneralRef(g)) => value.push_str(&reference(&g).unwrap_or_default()),
            Ok(Event::End(_)) => {
                let text = Some(value.trim().to_string()).filter(|t| !t.is_empty());
                match field.take().as_deref().map(|f| (local(f), f)) {
                    Some(("title", "dc:title")) => props.title = text,
                    Some(("creation-date", _)) => props.created = text,
                    Some(("date", "dc:date")) => props.modified = text,
                    _ => {}
                }
                value.clear();
            }
            Ok(Event::Eof) | Err(_) => break,
            Ok(_) => {}
        }
    }
    props
}

#[cfg(test)]
mod tests;
