//! What a paragraph style means (ECMA-376 Part 1 §17.7) and which list
//! levels show a bullet or number (§17.9).
//!
//! Style names, unlike style ids, are the built-in English names in every
//! language version of Word (`heading 1`, `Title`), so headings are found by
//! name, else by the outline level a style sets, following `w:basedOn`.

use std::collections::HashMap;

use quick_xml::events::Event;

use crate::xml::{attr, local, reader};

/// Longest `w:basedOn` chain followed (a loop in a damaged file stops here).
const MAX_CHAIN: usize = 16;

/// What a paragraph is, by its style.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Role {
    /// A heading of this 1-based level.
    Heading(usize),
    /// The document title.
    Title,
    /// Code or preformatted text, kept verbatim.
    Code,
    /// A table-of-contents entry (generated; not content).
    Toc,
    /// Body text.
    Body,
}

/// One paragraph style.
#[derive(Debug, Default, Clone)]
struct Style {
    name: String,
    based_on: Option<String>,
    outline: Option<usize>,
    numbering: Option<(String, usize)>,
}

/// The paragraph styles of `word/styles.xml`, by style id.
#[derive(Debug, Default)]
pub(super) struct Styles {
    by_id: HashMap<String, Style>,
}

impl Styles {
    /// Parse `word/styles.xml` (damaged XML yields the styles read so far).
    pub(super) fn parse(xml: &str) -> Self {
        let mut by_id = HashMap::new();
        let mut r = reader(xml);
        let mut current: Option<(String, Style)> = None;
        loop {
            match r.read_event() {
                Ok(Event::Start(e)) => match local(e.name().as_ref()) {
                    "style" => current = attr(&e, "styleId").map(|id| (id, Style::default())),
                    "name" => set(&mut current, |s| s.name = attr(&e, "val").unwrap_or_default().to_lowercase()),
                    "basedOn" => set(&mut current, |s| s.based_on = attr(&e, "val")),
                    "outlineLvl" => set(&mut current, |s| s.outline = level(attr(&e, "val"))),
                    "numId" => set(&mut current, |s| s.numbering = attr(&e, "val").map(|n| (n, 0))),
                    "ilvl" => set(&mut current, |s| {
                        if let Some((_, l)) = &mut s.numbering {
                            *l = level(attr(&e, "val")).unwrap_or(0);
                        }
                    }),
                    _ => {}
                },
                Ok(Event::End(e)) if local(e.name().as_ref()) == "style" => {
                    if let Some((id, style)) = current.take() {
                        by_id.insert(id, style);
                    }
                }
                Ok(Event::Eof) | Err(_) => break,
                Ok(_) => {}
            }
        }
        Self { by_id }
    }

    /// The role of style `id` (`None`: the default paragraph style);
    /// `outline` is the paragraph's own outline level, which wins.
    pub(super) fn role(&self, id: Option<&str>, outline: Option<usize>) -> Role {
        let chain = self.chain(id);
        let by_name = chain.iter().find_map(|s| role_by_name(&s.name));
        if let Some(role @ (Role::Title | Role::Toc)) = by_name {
            return role;
        }
        if let Some(level) = outline.or_else(|| chain.iter().find_map(|s| s.outline)) {
            return Role::Heading(level + 1);
        }
        by_name.unwrap_or(Role::Body)
    }

    /// The list depth a built-in list style's name gives (`List Bullet 2`,
    /// `List Number 3`: 2, 3; `List Bullet`: 1), and whether it is a
    /// `List Continue` style (a paragraph continuing an item). Word's list
    /// styles of every level may use level 0 of their own numbering, so
    /// the name is what says how deep they are.
    pub(super) fn list_style(&self, id: Option<&str>) -> Option<(usize, bool)> {
        self.chain(id).iter().find_map(|s| list_style_name(&s.name))
    }

    /// The list numbering (`numId`, level) style `id` applies, if any.
    pub(super) fn numbering(&self, id: Option<&str>) -> Option<(String, usize)> {
        self.chain(id).iter().find_map(|s| s.numbering.clone())
    }

    /// Style `id` and the styles it is based on, nearest first.
    fn chain(&self, id: Option<&str>) -> Vec<&Style> {
        let mut out = Vec::new();
        let mut next = id.map(str::to_string);
        while let Some(id) = next.take() {
            let Some(style) = self.by_id.get(&id) else { break };
            out.push(style);
            if out.len() >= MAX_CHAIN {
                break;
            }
            next = style.based_on.clone();
        }
        out
    }
}

fn set(current: &mut Option<(String, Style)>, f: impl FnOnce(&mut Style)) {
    if let Some((_, style)) = current {
        f(style);
    }
}

/// A 0-based level attribute (`w:outlineLvl`, `w:ilvl`); outline level 9
/// means "body text" (§17.3.1.20).
fn level(val: Option<String>) -> Option<usize> {
    val.and_then(|v| v.trim().parse::<usize>().ok()).filter(|l| *l < 9)
}

/// `list bullet 2` → (2, false), `list continue` → (1, true).
fn list_style_name(name: &str) -> Option<(usize, bool)> {
    let rest = name.strip_prefix("list ")?;
    let (kind, level) = match rest.rsplit_once(' ') {
        Some((kind, n)) if n.parse::<usize>().is_ok() => (kind, n.parse().unwrap_or(1)),
        _ if rest.parse::<usize>().is_ok() => ("", rest.parse().unwrap_or(1)),
        _ => (rest, 1),
    };
    match kind {
        "bullet" | "number" | "" => Some((level, false)),
        "continue" => Some((level, true)),
        _ => None,
    }
}

/// A role told by a built-in style name.
fn role_by_name(name: &str) -> Option<Role> {
    if let Some(n) = name.strip_prefix("heading ").and_then(|n| n.trim().parse::<usize>().ok()) {
        return (1..=9).contains(&n).then_some(Role::Heading(n));
    }
    if name.starts_with("toc ") || name == "toc heading" || name == "table of figures" {
        return Some(Role::Toc);
    }
    match name {
        "title" => Some(Role::Title),
        "source code" | "html preformatted" | "plain text" | "macro text" | "code" => Some(Role::Code),
        _ => None,
    }
}

/// Which list levels of `word/numbering.xml` show no bullet or number: a
/// paragraph on such a level continues the item above it.
#[derive(Debug, Default)]
pub(super) struct Numbering {
    /// `numId` → `abstractNumId`.
    nums: HashMap<String, String>,
    /// `(abstractNumId, level)` whose marker is empty.
    silent: std::collections::HashSet<(String, usize)>,
}

impl Numbering {
    /// Parse `word/numbering.xml`.
    pub(super) fn parse(xml: &str) -> Self {
        let mut out = Numbering::default();
        let mut r = reader(xml);
        let (mut abstract_id, mut num_id, mut lvl) = (None::<String>, None::<String>, None::<usize>);
        let (mut format, mut text) = (String::new(), None::<String>);
        loop {
            match r.read_event() {
                Ok(Event::Start(e)) => match local(e.name().as_ref()) {
                    "abstractNum" => abstract_id = attr(&e, "abstractNumId"),
                    "num" => num_id = attr(&e, "numId"),
                    "abstractNumId" => {
                        if let (Some(n), Some(a)) = (num_id.clone(), attr(&e, "val")) {
                            out.nums.insert(n, a);
                        }
                    }
                    "lvl" if num_id.is_none() => {
                        lvl = level(attr(&e, "ilvl"));
                        (format, text) = (String::new(), None);
                    }
                    "numFmt" => format = attr(&e, "val").unwrap_or_default(),
                    "lvlText" => text = attr(&e, "val"),
                    _ => {}
                },
                Ok(Event::End(e)) => match local(e.name().as_ref()) {
                    "lvl" => {
                        let no_marker = format == "none"
                            || (format == "bullet" && text.as_deref().is_none_or(|t| t.trim().is_empty()));
                        if let (Some(a), Some(l), true) = (abstract_id.clone(), lvl.take(), no_marker) {
                            out.silent.insert((a, l));
                        }
                    }
                    "abstractNum" => abstract_id = None,
                    "num" => num_id = None,
                    _ => {}
                },
                Ok(Event::Eof) | Err(_) => break,
                Ok(_) => {}
            }
        }
        out
    }

    /// Whether list `num_id` shows a bullet or number at `level`.
    pub(super) fn has_marker(&self, num_id: &str, level: usize) -> bool {
        self.nums.get(num_id).is_none_or(|a| !self.silent.contains(&(a.clone(), level)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const STYLES: &str = r#"<w:styles>
      <w:style w:type="paragraph" w:styleId="berschrift1"><w:name w:val="heading 1"/><w:pPr><w:outlineLvl w:val="0"/></w:pPr></w:style>
      <w:style w:type="paragraph" w:styleId="MyHeading"><w:name w:val="Chapter"/><w:basedOn w:val="berschrift1"/></w:style>
      <w:style w:type="paragraph" w:styleId="Outline3"><w:name w:val="Custom"/><w:pPr><w:outlineLvl w:val="2"/></w:pPr></w:style>
      <w:style w:type="paragraph" w:styleId="Title"><w:name w:val="Title"/></w:style>
      <w:style w:type="paragraph" w:styleId="SourceCode"><w:name w:val="Source Code"/></w:style>
      <w:style w:type="paragraph" w:styleId="TOC2"><w:name w:val="toc 2"/></w:style>
      <w:style w:type="paragraph" w:styleId="ListBullet"><w:name w:val="List Bullet"/><w:pPr><w:numPr><w:numId w:val="7"/></w:numPr></w:pPr></w:style>
    </w:styles>"#;

    #[test]
    fn roles_come_from_names_outline_levels_and_based_on() {
        let s = Styles::parse(STYLES);
        assert_eq!(s.role(Some("berschrift1"), None), Role::Heading(1));
        assert_eq!(s.role(Some("MyHeading"), None), Role::Heading(1));
        assert_eq!(s.role(Some("Outline3"), None), Role::Heading(3));
        assert_eq!(s.role(Some("Title"), None), Role::Title);
        assert_eq!(s.role(Some("SourceCode"), None), Role::Code);
        assert_eq!(s.role(Some("TOC2"), None), Role::Toc);
        assert_eq!(s.role(None, Some(1)), Role::Heading(2));
        assert_eq!(s.role(Some("Unknown"), None), Role::Body);
        assert_eq!(s.numbering(Some("ListBullet")), Some(("7".into(), 0)));
        assert_eq!(s.list_style(Some("ListBullet")), Some((1, false)));
        assert_eq!(list_style_name("list bullet 2"), Some((2, false)));
        assert_eq!(list_style_name("list number 3"), Some((3, false)));
        assert_eq!(list_style_name("list continue 2"), Some((2, true)));
        assert_eq!(list_style_name("list paragraph"), None);
    }

    #[test]
    fn blank_bullets_and_none_formats_have_no_marker() {
        let xml = r#"<w:numbering>
          <w:abstractNum w:abstractNumId="990"><w:lvl w:ilvl="0"><w:numFmt w:val="bullet"/><w:lvlText w:val=" "/></w:lvl></w:abstractNum>
          <w:abstractNum w:abstractNumId="991"><w:lvl w:ilvl="0"><w:numFmt w:val="bullet"/><w:lvlText w:val="•"/></w:lvl><w:lvl w:ilvl="1"><w:numFmt w:val="none"/><w:lvlText w:val=""/></w:lvl></w:abstractNum>
          <w:num w:numId="1000"><w:abstractNumId w:val="990"/></w:num>
          <w:num w:numId="1001"><w:abstractNumId w:val="991"/></w:num>
        </w:numbering>"#;
        let n = Numbering::parse(xml);
        assert!(!n.has_marker("1000", 0));
        assert!(n.has_marker("1001", 0));
        assert!(!n.has_marker("1001", 1));
        assert!(n.has_marker("42", 0), "unknown lists show markers");
    }
}
