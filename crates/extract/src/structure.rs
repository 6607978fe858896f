//! The one extraction model every format shares: the CommonMark event
//! stream (pulldown-cmark's [`Event`]s), rendered into sections by the
//! Markdown [`Renderer`].
//!
//! Word, OpenDocument and HTML readers find headings, paragraphs, list
//! items, tables and code in their own markup and call [`Structure`], which
//! emits the events pulldown-cmark emits for the same Markdown. So a heading
//! path, a `- ` list line, a ` | ` table row or a verbatim code block comes
//! out byte for byte as it does for a `.md` file, and chunking, metadata and
//! citations cannot tell the formats apart. No Markdown text is written or
//! parsed on the way: text from the source is passed through as text, so a
//! literal `#`, `*`, `|` or backtick in a Word paragraph stays a character
//! and never becomes structure.

use pulldown_cmark::{CodeBlockKind, CowStr, Event, HeadingLevel, Tag, TagEnd};

use crate::Section;
use crate::render::Renderer;

/// Builds sections from blocks, in document order.
#[derive(Debug, Default)]
pub(crate) struct Structure {
    renderer: Renderer,
    /// Open lists, outermost first: whether each has an open item, and
    /// the source's id for the list, if it has one.
    lists: Vec<(bool, Option<String>)>,
}

impl Structure {
    /// A heading of `level` (1-based; levels past 6 count as 6, as
    /// CommonMark has six). Empty headings are skipped.
    pub(crate) fn heading(&mut self, level: usize, text: &str, offset: usize) {
        if text.trim().is_empty() {
            return;
        }
        self.close_lists(offset);
        let level = heading_level(level);
        let tag = Tag::Heading { level, id: None, classes: Vec::new(), attrs: Vec::new() };
        self.emit(Event::Start(tag), offset);
        self.text(text, offset);
        self.emit(Event::End(TagEnd::Heading(level)), offset);
    }

    /// A paragraph outside any list; `\n` in `text` is a line break.
    pub(crate) fn paragraph(&mut self, text: &str, offset: usize) {
        if text.trim().is_empty() {
            return;
        }
        self.close_lists(offset);
        self.wrapped(text, offset);
    }

    /// A list item at `depth` (1 = top level), opening and closing lists
    /// to get there. `list` identifies the list in the source (a Word
    /// `numId`): an item of another list at the same depth ends the open
    /// one, as two adjacent Markdown lists are two lists.
    pub(crate) fn item(&mut self, depth: usize, list: Option<&str>, text: &str, offset: usize) {
        let depth = depth.max(1);
        self.close_deeper(depth, offset);
        let other_list = |id: &Option<String>| id.is_some() && list.is_some() && id.as_deref() != list;
        if self.lists.len() == depth && self.lists.last().is_some_and(|(_, id)| other_list(id)) {
            self.close_one(offset);
        }
        if self.lists.len() == depth && self.lists.last().is_some_and(|(open, _)| *open) {
            self.emit(Event::End(TagEnd::Item), offset);
        }
        while self.lists.len() < depth {
            self.emit(Event::Start(Tag::List(None)), offset);
            self.lists.push((false, None));
        }
        self.emit(Event::Start(Tag::Item), offset);
        if let Some(last) = self.lists.last_mut() {
            *last = (true, list.map(str::to_string));
        }
        self.wrapped(text, offset);
    }

    /// The list at `depth` ended (and any inside it), as a closing `</ul>`
    /// or `</text:list>` says.
    pub(crate) fn end_list(&mut self, depth: usize, offset: usize) {
        while self.lists.len() >= depth.max(1) {
            self.close_one(offset);
        }
    }

    /// A paragraph continuing the item open at `depth` (a list paragraph
    /// without its own bullet or number); a plain paragraph when no item
    /// is open there.
    pub(crate) fn continuation(&mut self, depth: usize, text: &str, offset: usize) {
        if text.trim().is_empty() {
            return;
        }
        self.close_deeper(depth.max(1), offset);
        if self.lists.last().is_some_and(|(open, _)| *open) {
            self.wrapped(text, offset);
        } else {
            self.paragraph(text, offset);
        }
    }

    /// A paragraph of a block quote; inside an open list item it stays in
    /// the item, as a quote nested in a Markdown item does.
    pub(crate) fn quote(&mut self, text: &str, offset: usize) {
        if text.trim().is_empty() {
            return;
        }
        self.emit(Event::Start(Tag::BlockQuote(None)), offset);
        self.wrapped(text, offset);
        self.emit(Event::End(TagEnd::BlockQuote(None)), offset);
    }

    /// A code block, kept verbatim (`text` holds its lines).
    pub(crate) fn code(&mut self, text: &str, offset: usize) {
        if text.trim().is_empty() {
            return;
        }
        self.close_lists(offset);
        self.emit(Event::Start(Tag::CodeBlock(CodeBlockKind::Indented)), offset);
        let mut body = text.to_string();
        if !body.ends_with('\n') {
            body.push('\n');
        }
        self.text(&body, offset);
        self.emit(Event::End(TagEnd::CodeBlock), offset);
    }

    /// A table; the first row is its head. Rows with no text are skipped.
    pub(crate) fn table(&mut self, rows: &[Vec<String>], offset: usize) {
        let rows: Vec<&Vec<String>> = rows.iter().filter(|r| r.iter().any(|c| !c.trim().is_empty())).collect();
        if rows.is_empty() {
            return;
        }
        self.close_lists(offset);
        self.emit(Event::Start(Tag::Table(Vec::new())), offset);
        for (i, row) in rows.iter().enumerate() {
            let (start, end) =
                if i == 0 { (Tag::TableHead, TagEnd::TableHead) } else { (Tag::TableRow, TagEnd::TableRow) };
            self.emit(Event::Start(start), offset);
            for cell in row.iter() {
                self.emit(Event::Start(Tag::TableCell), offset);
                self.text(cell.trim(), offset);
                self.emit(Event::End(TagEnd::TableCell), offset);
            }
            self.emit(Event::End(end), offset);
        }
        self.emit(Event::End(TagEnd::Table), offset);
    }

    /// Close every list and return the sections and the first heading.
    pub(crate) fn finish(mut self, offset: usize) -> (Vec<Section>, Option<String>) {
        self.close_lists(offset);
        self.renderer.finish()
    }

    /// `text` as one paragraph (so that it ends its line inside an item).
    fn wrapped(&mut self, text: &str, offset: usize) {
        self.emit(Event::Start(Tag::Paragraph), offset);
        self.text(text.trim(), offset);
        self.emit(Event::End(TagEnd::Paragraph), offset);
    }

    fn text(&mut self, text: &str, offset: usize) {
        if !text.is_empty() {
            self.emit(Event::Text(CowStr::from(text.to_string())), offset);
        }
    }

    /// Close lists deeper than `depth`.
    fn close_deeper(&mut self, depth: usize, offset: usize) {
        while self.lists.len() > depth {
            self.close_one(offset);
        }
    }

    fn close_lists(&mut self, offset: usize) {
        while !self.lists.is_empty() {
            self.close_one(offset);
        }
    }

    fn close_one(&mut self, offset: usize) {
        if self.lists.pop().is_some_and(|(open, _)| open) {
            self.emit(Event::End(TagEnd::Item), offset);
        }
        self.emit(Event::End(TagEnd::List(false)), offset);
    }

    fn emit(&mut self, event: Event<'_>, offset: usize) {
        self.renderer.event(event, offset);
    }
}

/// A CommonMark heading level for a 1-based outline level.
fn heading_level(level: usize) -> HeadingLevel {
    match level {
        0 | 1 => HeadingLevel::H1,
        2 => HeadingLevel::H2,
        3 => HeadingLevel::H3,
        4 => HeadingLevel::H4,
        5 => HeadingLevel::H5,
        _ => HeadingLevel::H6,
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn texts(s: Structure) -> Vec<(Vec<String>, String)> {
        s.finish(0).0.into_iter().map(|s| (s.heading_path, s.text)).collect()
    }

    #[test]
    fn renders_as_markdown_does() {
        let md = "# A\n\nIntro *x* | y.\n\n- one\n- two\n\n  more of two\n- three\n  - nested\n- four\n\n1. another list\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```\nlet x = 1;\n\nlet y = 2;\n```\n\n> Quoted.\n\n## B\n\nEnd.\n";
        let expected = crate::markdown::tests_support::sections(md);
        let mut s = Structure::default();
        s.heading(1, "A", 0);
        s.paragraph("Intro x | y.", 0);
        s.item(1, Some("5"), "one", 0);
        s.item(1, Some("5"), "two", 0);
        s.continuation(1, "more of two", 0);
        s.item(1, Some("5"), "three", 0);
        s.item(2, Some("6"), "nested", 0);
        s.item(1, Some("5"), "four", 0);
        s.item(1, Some("7"), "another list", 0);
        s.table(&[vec!["a".into(), "b".into()], vec!["1".into(), "2".into()]], 0);
        s.code("let x = 1;\n\nlet y = 2;", 0);
        s.quote("Quoted.", 0);
        s.heading(2, "B", 0);
        s.paragraph("End.", 0);
        assert_eq!(texts(s), expected);
    }

    #[test]
    fn literal_markdown_characters_stay_text() {
        let mut s = Structure::default();
        s.paragraph("# not a heading * nor | a table `x`", 0);
        assert_eq!(texts(s), vec![(vec![], "# not a heading * nor | a table `x`".to_string())]);
    }

    #[test]
    fn a_quote_in_an_item_stays_in_it() {
        let expected = crate::markdown::tests_support::sections("- one\n\n  > quoted\n- two\n");
        let mut s = Structure::default();
        s.item(1, None, "one", 0);
        s.quote("quoted", 0);
        s.item(1, None, "two", 0);
        assert_eq!(texts(s), expected);
    }

    #[test]
    fn a_closed_list_ends_before_the_next_one() {
        let expected = crate::markdown::tests_support::sections("1. one\n\n- two\n");
        let mut s = Structure::default();
        s.item(1, None, "one", 0);
        s.end_list(1, 0);
        s.item(1, None, "two", 0);
        assert_eq!(texts(s), expected);
    }

    #[test]
    fn a_deeper_item_without_a_parent_opens_only_lists() {
        let mut s = Structure::default();
        s.item(2, None, "child", 0);
        s.paragraph("after", 0);
        assert_eq!(
            texts(s),
            vec![(vec![], "- child\n\nafter".to_string())],
            "the leading indent is trimmed, as for Markdown"
        );
    }
}
