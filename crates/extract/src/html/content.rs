//! Walking an HTML page's main content into [`Structure`] blocks.
//!
//! The content is the first `<main>` (or `role="main"`) element, else
//! `<body>`. Page furniture is left out (WHATWG HTML §4.3 sections, §4.4
//! grouping, WAI-ARIA landmark roles): `nav`, `aside`, `footer`, a `header`
//! that is the page's banner (outside `main`, `article` and `section`),
//! scripts, styles, templates, forms and embedded objects, hidden elements
//! (`hidden`, `aria-hidden="true"`, `display:none`), navigation, banner,
//! search and complementary landmarks, and footnote marks and back-links
//! (DPUB-ARIA `doc-noteref`, `doc-backlink`; the notes themselves, in
//! `doc-endnotes`, are kept as paragraphs).
//!
//! Text is laid out as CSS `white-space: normal` does: runs of spaces, tabs
//! and line feeds are one space, trimmed at block edges; `<pre>` is kept
//! verbatim and `<br>` breaks the line. `<h1>`…`<h6>` are headings, `<ul>`,
//! `<ol>` and `<li>` lists, `<table>` rows (nested tables flattened into
//! their cell), `<img alt>` its alternative text.

use ego_tree::NodeRef;
use ego_tree::iter::Edge;
use scraper::Node;
use scraper::node::Element;

use crate::structure::Structure;

/// Elements left out with their subtree.
const SKIPPED: &[&str] = &[
    "head", "script", "style", "noscript", "template", "nav", "aside", "footer", "form", "button", "select",
    "textarea", "input", "dialog", "iframe", "object", "embed", "svg", "canvas", "audio", "video", "map", "menu",
];
/// Landmark and DPUB-ARIA roles left out.
const SKIPPED_ROLES: &[&str] = &[
    "navigation",
    "banner",
    "contentinfo",
    "search",
    "complementary",
    "menu",
    "menubar",
    "toolbar",
    "doc-noteref",
    "doc-backlink",
];
/// Elements that start and end a block of text.
const BLOCKS: &[&str] = &[
    "address",
    "article",
    "blockquote",
    "body",
    "caption",
    "center",
    "details",
    "dd",
    "div",
    "dl",
    "dt",
    "fieldset",
    "figcaption",
    "figure",
    "header",
    "hgroup",
    "hr",
    "legend",
    "main",
    "p",
    "section",
    "summary",
    "tbody",
    "tfoot",
    "thead",
];
/// Stands for `<br>` in inline text until white space is collapsed.
const BREAK: char = '\u{2028}';

/// Where the walker is.
#[derive(Debug, Default)]
pub(super) struct Walker {
    pub(super) out: Structure,
    /// The first `<h1>`.
    pub(super) title: Option<String>,
    /// The content root is `<body>` (so page banners can be told apart).
    root_is_body: bool,
    skip: Option<ego_tree::NodeId>,
    inline: String,
    heading: Option<(usize, String)>,
    lists: usize,
    /// Open items: whether each has started (its first block seen).
    items: Vec<bool>,
    tables: Vec<Vec<Vec<String>>>,
    pre: Option<String>,
    /// Open `main`, `article` and `section` elements.
    sectioning: usize,
    /// Inside `doc-endnotes`: list items are paragraphs.
    endnotes: usize,
    /// Open `<blockquote>` elements.
    quotes: usize,
    /// Bytes of text emitted so far (block offsets).
    emitted: usize,
}

impl Walker {
    /// Walk the subtree of `root`.
    pub(super) fn walk(&mut self, root: NodeRef<'_, Node>) {
        self.root_is_body = root.value().as_element().is_some_and(|e| e.name() == "body");
        for edge in root.traverse() {
            match edge {
                Edge::Open(node) => self.open(node),
                Edge::Close(node) => self.close(node),
            }
        }
        self.flush();
    }

    fn open(&mut self, node: NodeRef<'_, Node>) {
        if self.skip.is_some() {
            return;
        }
        match node.value() {
            Node::Text(t) => self.text(t),
            Node::Element(e) if self.skipped(e) => self.skip = Some(node.id()),
            Node::Element(e) => self.open_element(e),
            _ => {}
        }
    }

    fn close(&mut self, node: NodeRef<'_, Node>) {
        if let Some(id) = self.skip {
            if id == node.id() {
                self.skip = None;
            }
            return;
        }
        if let Node::Element(e) = node.value() {
            self.close_element(e);
        }
    }

    fn skipped(&self, e: &Element) -> bool {
        let name = e.name();
        let role = e.attr("role").unwrap_or_default();
        let style: String = e.attr("style").unwrap_or_default().chars().filter(|c| !c.is_whitespace()).collect();
        SKIPPED.contains(&name)
            || SKIPPED_ROLES.contains(&role)
            || (name == "header" && self.root_is_body && self.sectioning == 0)
            || e.attr("hidden").is_some()
            || e.attr("aria-hidden").is_some_and(|v| v.eq_ignore_ascii_case("true"))
            || style.to_ascii_lowercase().contains("display:none")
    }

    fn open_element(&mut self, e: &Element) {
        let name = e.name();
        if e.attr("role") == Some("doc-endnotes") {
            self.endnotes += 1;
        }
        if matches!(name, "main" | "article" | "section") {
            self.sectioning += 1;
        }
        if name == "blockquote" {
            self.flush();
            self.quotes += 1;
        }
        match name {
            _ if heading_level(name).is_some() => {
                self.flush();
                self.heading = heading_level(name).map(|l| (l, String::new()));
            }
            "ul" | "ol" | "dir" if self.endnotes == 0 => {
                self.flush();
                self.lists += 1;
            }
            "li" if self.endnotes == 0 => {
                self.flush();
                self.items.push(false);
            }
            "table" => {
                self.flush();
                self.tables.push(Vec::new());
            }
            "tr" => {
                self.flush();
                if let Some(t) = self.tables.last_mut() {
                    t.push(Vec::new());
                }
            }
            "td" | "th" => {
                self.flush();
                if let Some(row) = self.tables.last_mut().and_then(|t| t.last_mut()) {
                    row.push(String::new());
                }
            }
            "pre" => {
                self.flush();
                self.pre = Some(String::new());
            }
            "br" => self.inline.push(BREAK),
            "img" => {
                if let Some(alt) = e.attr("alt").filter(|a| !a.trim().is_empty()) {
                    self.inline.push_str(alt.trim());
                }
            }
            _ if BLOCKS.contains(&name) || name == "li" || name == "ul" || name == "ol" => self.flush(),
            _ => {}
        }
    }

    fn close_element(&mut self, e: &Element) {
        let name = e.name();
        match name {
            _ if heading_level(name).is_some() => self.close_heading(),
            "ul" | "ol" | "dir" if self.endnotes == 0 => {
                self.flush();
                self.out.end_list(self.lists, self.emitted);
                self.lists = self.lists.saturating_sub(1);
            }
            "li" if self.endnotes == 0 => {
                self.flush();
                self.items.pop();
            }
            "table" => {
                self.flush();
                if let Some(rows) = self.tables.pop() {
                    self.table(rows);
                }
            }
            "pre" => {
                if let Some(code) = self.pre.take() {
                    self.emitted += code.len();
                    self.out.code(code.trim_end_matches('\n'), self.emitted);
                }
            }
            _ if BLOCKS.contains(&name) || matches!(name, "td" | "th" | "tr" | "li" | "ul" | "ol") => self.flush(),
            _ => {}
        }
        if matches!(name, "main" | "article" | "section") {
            self.sectioning = self.sectioning.saturating_sub(1);
        }
        if name == "blockquote" {
            self.flush();
            self.quotes = self.quotes.saturating_sub(1);
        }
        if e.attr("role") == Some("doc-endnotes") {
            self.endnotes = self.endnotes.saturating_sub(1);
        }
    }

    fn text(&mut self, text: &str) {
        if let Some(code) = &mut self.pre {
            code.push_str(text);
        } else if let Some((_, heading)) = &mut self.heading {
            heading.push_str(text);
        } else {
            self.inline.push_str(text);
        }
    }

    fn close_heading(&mut self) {
        let Some((level, raw)) = self.heading.take() else { return };
        let text = collapse(&raw).replace(BREAK, " ");
        if level == 1 && self.title.is_none() && !text.is_empty() {
            self.title = Some(text.clone());
        }
        self.emitted += text.len();
        self.out.heading(level, &text, self.emitted);
    }

    /// End the inline text run: into the open heading, table cell or list
    /// item, else a paragraph.
    fn flush(&mut self) {
        let raw = std::mem::take(&mut self.inline);
        let text = collapse(&raw).replace(BREAK, "\n");
        let text = text.lines().map(str::trim).collect::<Vec<_>>().join("\n");
        if text.trim().is_empty() {
            return;
        }
        if let Some((_, heading)) = &mut self.heading {
            heading.push_str(&text);
            return;
        }
        if let Some(cell) = self.tables.last_mut().and_then(|t| t.last_mut()).and_then(|r| r.last_mut()) {
            append(cell, &text);
            return;
        }
        self.emitted += text.len();
        match self.items.last_mut() {
            Some(started) if self.lists > 0 && !*started => {
                *started = true;
                self.out.item(self.lists, None, &text, self.emitted);
            }
            _ if self.quotes > 0 => self.out.quote(&text, self.emitted),
            Some(_) if self.lists > 0 => self.out.continuation(self.lists, &text, self.emitted),
            _ => self.out.paragraph(&text, self.emitted),
        }
    }

    fn table(&mut self, rows: Vec<Vec<String>>) {
        if let Some(cell) = self.tables.last_mut().and_then(|t| t.last_mut()).and_then(|r| r.last_mut()) {
            for row in &rows {
                append(cell, &row.join(" | "));
            }
            return;
        }
        self.emitted += rows.iter().map(|r| r.iter().map(String::len).sum::<usize>()).sum::<usize>();
        self.out.table(&rows, self.emitted);
    }
}

/// `h1`…`h6` → 1…6.
fn heading_level(name: &str) -> Option<usize> {
    let digit = name.strip_prefix('h')?;
    digit.parse::<usize>().ok().filter(|l| (1..=6).contains(l) && digit.len() == 1)
}

/// CSS `white-space: normal`: runs of ASCII white space become one space,
/// trimmed at both ends (`BREAK` is not white space here).
fn collapse(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut space = false;
    for c in text.chars() {
        if c.is_ascii_whitespace() {
            space = !out.is_empty();
        } else {
            if space {
                out.push(' ');
                space = false;
            }
            out.push(c);
        }
    }
    out
}

/// Add a block's text to a table cell, one space between blocks.
fn append(cell: &mut String, text: &str) {
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if !cell.is_empty() && !text.is_empty() {
        cell.push(' ');
    }
    cell.push_str(&text);
}
