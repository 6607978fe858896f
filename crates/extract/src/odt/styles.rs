//! Paragraph styles of an OpenDocument text (OASIS ODF 1.3 Part 3 §16.2):
//! the automatic styles of `content.xml` and the common styles of
//! `styles.xml`, followed through `style:parent-style-name`. Names are
//! compared as displayed: `style:display-name`, else the name with ODF's
//! `_xx_` escapes decoded (`Preformatted_20_Text` → `Preformatted Text`).

use std::collections::HashMap;

use quick_xml::events::Event;

use crate::xml::{attr, local, reader};

/// Longest parent chain followed.
const MAX_CHAIN: usize = 16;

/// What a paragraph is, by its style.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Role {
    /// A heading of this 1-based level (a `text:p` styled as one).
    Heading(usize),
    /// The document title.
    Title,
    /// Preformatted text, kept verbatim.
    Code,
    /// Body text.
    Body,
}

#[derive(Debug, Default, Clone)]
struct Style {
    display: String,
    parent: Option<String>,
}

/// Paragraph styles by name.
#[derive(Debug, Default)]
pub(super) struct Styles {
    by_name: HashMap<String, Style>,
}

impl Styles {
    /// Add the `style:style` elements of one part (`content.xml` or
    /// `styles.xml`; damaged XML yields the styles read so far).
    pub(super) fn add(&mut self, xml: &str) {
        let mut r = reader(xml);
        loop {
            match r.read_event() {
                Ok(Event::Start(e)) if local(e.name().as_ref()) == "style" => {
                    let Some(name) = attr(&e, "name") else { continue };
                    let display = attr(&e, "display-name").unwrap_or_else(|| decode_name(&name)).to_lowercase();
                    self.by_name.insert(name, Style { display, parent: attr(&e, "parent-style-name") });
                }
                Ok(Event::Eof) | Err(_) => break,
                Ok(_) => {}
            }
        }
    }

    /// The role of a paragraph styled `name`.
    pub(super) fn role(&self, name: Option<&str>) -> Role {
        let mut next = name.map(str::to_string);
        let mut seen = 0;
        while let Some(n) = next.take() {
            let display = self.by_name.get(&n).map_or_else(|| decode_name(&n).to_lowercase(), |s| s.display.clone());
            if let Some(role) = role_by_name(&display) {
                return role;
            }
            seen += 1;
            if seen >= MAX_CHAIN {
                break;
            }
            next = self.by_name.get(&n).and_then(|s| s.parent.clone());
        }
        Role::Body
    }
}

/// A role told by a style's displayed name (lower case).
fn role_by_name(name: &str) -> Option<Role> {
    if let Some(n) = name.strip_prefix("heading ").and_then(|n| n.trim().parse::<usize>().ok()) {
        return (1..=10).contains(&n).then_some(Role::Heading(n));
    }
    match name {
        "title" => Some(Role::Title),
        "preformatted text" | "source code" | "code" => Some(Role::Code),
        _ => None,
    }
}

/// Decode ODF's `_xx_` hex escapes in a style name (`_20_` is a space).
fn decode_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut rest = name;
    while let Some(i) = rest.find('_') {
        out.push_str(&rest[..i]);
        let tail = &rest[i + 1..];
        let decoded = tail
            .find('_')
            .filter(|&j| (2..=4).contains(&j))
            .and_then(|j| u32::from_str_radix(&tail[..j], 16).ok().and_then(char::from_u32).map(|c| (c, j)));
        match decoded {
            Some((c, j)) => {
                out.push(c);
                rest = &tail[j + 1..];
            }
            None => {
                out.push('_');
                rest = tail;
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_follow_parents_and_display_names() {
        let mut s = Styles::default();
        s.add(r#"<office:automatic-styles><style:style style:name="P4" style:family="paragraph" style:parent-style-name="Preformatted_20_Text"/><style:style style:name="P9" style:parent-style-name="Mine"/></office:automatic-styles>"#);
        s.add(r#"<office:styles><style:style style:name="Mine" style:display-name="Heading 2"/></office:styles>"#);
        assert_eq!(s.role(Some("P4")), Role::Code);
        assert_eq!(s.role(Some("P9")), Role::Heading(2));
        assert_eq!(s.role(Some("Title")), Role::Title);
        assert_eq!(s.role(Some("Text_20_body")), Role::Body);
        assert_eq!(s.role(None), Role::Body);
        assert_eq!(decode_name("Preformatted_20_Text"), "Preformatted Text");
        assert_eq!(decode_name("a_b"), "a_b");
    }
}
