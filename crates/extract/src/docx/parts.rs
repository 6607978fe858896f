//! Finding a WordprocessingML package's parts through its relationships
//! (ECMA-376 Part 2 §9, Open Packaging Conventions), and reading its core
//! properties (Part 2 §11: `dc:title`, `dcterms:created`,
//! `dcterms:modified`).

use quick_xml::events::Event;

use crate::Properties;
use crate::xml::{attr, local, reader, reference};

/// Relationship types, by the end of their URI (transitional and strict
/// OOXML share these endings).
pub(super) const OFFICE_DOCUMENT: &str = "/officeDocument";
pub(super) const STYLES: &str = "/styles";
pub(super) const NUMBERING: &str = "/numbering";
pub(super) const FOOTNOTES: &str = "/footnotes";
pub(super) const ENDNOTES: &str = "/endnotes";
pub(super) const CORE_PROPERTIES: &str = "/core-properties";

/// The relationships of a part: `(type URI, target part name)`, targets
/// resolved against `base` (the folder of the source part, `""` for the
/// package) to names inside the package.
pub(super) fn relationships(xml: &str, base: &str) -> Vec<(String, String)> {
    let mut r = reader(xml);
    let mut out = Vec::new();
    loop {
        match r.read_event() {
            Ok(Event::Start(e)) if local(e.name().as_ref()) == "Relationship" => {
                let external = attr(&e, "TargetMode").is_some_and(|m| m.eq_ignore_ascii_case("external"));
                if let (Some(kind), Some(target), false) = (attr(&e, "Type"), attr(&e, "Target"), external) {
                    out.push((kind, resolve(base, &target)));
                }
            }
            Ok(Event::Eof) | Err(_) => break,
            Ok(_) => {}
        }
    }
    out
}

/// The target of the first relationship whose type ends with `suffix`.
pub(super) fn target<'a>(rels: &'a [(String, String)], suffix: &str) -> Option<&'a str> {
    rels.iter().find(|(kind, _)| kind.ends_with(suffix)).map(|(_, t)| t.as_str())
}

/// The relationships part of `part`: `word/document.xml` →
/// `word/_rels/document.xml.rels`.
pub(super) fn rels_of(part: &str) -> String {
    match part.rsplit_once('/') {
        Some((dir, name)) => format!("{dir}/_rels/{name}.rels"),
        None => format!("_rels/{part}.rels"),
    }
}

/// The folder of a part name, with a trailing `/` (`""` at the root).
pub(super) fn folder(part: &str) -> &str {
    part.rfind('/').map_or("", |i| &part[..=i])
}

/// `target` relative to `base`, as a part name without a leading `/`
/// (`..` segments resolved).
fn resolve(base: &str, target: &str) -> String {
    let joined = match target.strip_prefix('/') {
        Some(absolute) => absolute.to_string(),
        None => format!("{base}{target}"),
    };
    let mut parts: Vec<&str> = Vec::new();
    for seg in joined.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            s => parts.push(s),
        }
    }
    parts.join("/")
}

/// The core properties part: title, created and modified dates.
pub(crate) fn core_properties(xml: &str, source: &str) -> Properties {
    let mut props = Properties { source: source.to_string(), ..Properties::default() };
    let mut r = reader(xml);
    let mut field: Option<String> = None;
    let mut value = String::new();
    loop {
        match r.read_event() {
            Ok(Event::Start(e)) => {
                field = Some(local(e.name().as_ref()).to_string());
                value.clear();
            }
            Ok(Event::Text(t)) if field.is_some() => value.push_str(&t.xml10_content()),
            Ok(Event::GeneralRef(g)) if field.is_some() => value.push_str(&reference(&g).unwrap_or_default()),
            Ok(Event::End(_)) => {
                let text = value.trim().to_string();
                match field.take().as_deref() {
                    Some("title") if !text.is_empty() => props.title = Some(text),
                    Some("created") if !text.is_empty() => props.created = Some(text),
                    Some("modified") if !text.is_empty() => props.modified = Some(text),
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
mod tests {
    use super::*;

    #[test]
    fn targets_resolve_against_their_folder() {
        let rels = r#"<Relationships><Relationship Id="r1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/><Relationship Id="r2" Type="x/hyperlink" Target="http://a" TargetMode="External"/><Relationship Id="r3" Type="x/footnotes" Target="../word/./footnotes.xml"/></Relationships>"#;
        let list = relationships(rels, "word/");
        assert_eq!(target(&list, STYLES), Some("word/styles.xml"));
        assert_eq!(target(&list, FOOTNOTES), Some("word/footnotes.xml"));
        assert_eq!(list.len(), 2, "external targets are not parts");
        assert_eq!(rels_of("word/document.xml"), "word/_rels/document.xml.rels");
        assert_eq!(folder("word/document.xml"), "word/");
        assert_eq!(resolve("", "/word/document.xml"), "word/document.xml");
    }

    #[test]
    fn core_properties_keep_title_and_dates() {
        let xml = r#"<cp:coreProperties xmlns:dc="d" xmlns:dcterms="t"><dc:title>Leave &amp; travel</dc:title><dc:creator></dc:creator><dcterms:created>2025-02-01T09:00:00Z</dcterms:created><dcterms:modified>2025-02-27T17:51:14Z</dcterms:modified></cp:coreProperties>"#;
        let p = core_properties(xml, "docProps/core.xml");
        assert_eq!(p.title.as_deref(), Some("Leave & travel"));
        assert_eq!(p.created.as_deref(), Some("2025-02-01T09:00:00Z"));
        assert_eq!(p.modified.as_deref(), Some("2025-02-27T17:51:14Z"));
        assert_eq!(p.source, "docProps/core.xml");
    }
}
