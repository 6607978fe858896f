//! Walking `office:text` (OASIS ODF 1.3 Part 3 §5 paragraphs and headings,
//! §5.3 lists, §9 tables, §6.3 notes) into [`Structure`] blocks.
//!
//! White space follows §6.1.2: inside a paragraph or heading, a run of
//! spaces, tabs and line feeds is one space and leading white space is
//! dropped; `text:s`, `text:tab` and `text:line-break` are kept as written.
//! The first paragraph of a list item starts the item, later ones continue
//! it; notes (`text:note-body`) follow the body, their marks are dropped.
//! Left out: tracked changes, annotations, generated indexes (tables of
//! contents, bibliographies), forms and declarations.

use quick_xml::events::{BytesStart, Event};

use super::styles::{Role, Styles};
use crate::ExtractError;
use crate::structure::Structure;
use crate::xml::{attr, local, reader, reference};

/// Elements whose subtree is not content.
const SKIPPED: &[&str] = &[
    "tracked-changes",
    "annotation",
    "note-citation",
    "table-of-content",
    "alphabetical-index",
    "illustration-index",
    "table-index",
    "object-index",
    "user-index",
    "bibliography",
    "sequence-decls",
    "variable-decls",
    "user-field-decls",
    "forms",
    "automatic-styles",
    "font-face-decls",
    "scripts",
];

/// Qualified names skipped whose local names mean other things elsewhere
/// (`text:title` is a field showing the title; an image's `svg:title` is
/// its alternative text, left out).
const SKIPPED_QUALIFIED: &[&str] = &["svg:title", "svg:desc"];

/// Most copies made of a repeated table cell.
const MAX_REPEAT: usize = 64;

#[derive(Debug)]
struct Para {
    heading: Option<usize>,
    style: Option<String>,
    text: String,
    /// The last character was collapsible white space (or none yet).
    space: bool,
    offset: usize,
}

/// An open list item: whether its first paragraph was seen.
#[derive(Debug, Default)]
struct Item {
    started: bool,
}

/// Turns `office:text` into blocks.
pub(super) struct Walker<'a> {
    styles: &'a Styles,
    pub(super) out: Structure,
    pub(super) title: Option<String>,
    skip: usize,
    paras: Vec<Para>,
    /// Open lists (their depth) and the items in them.
    lists: usize,
    items: Vec<Item>,
    /// Open tables: rows of cells; with the repeat count of each open cell.
    tables: Vec<Vec<Vec<String>>>,
    repeats: Vec<usize>,
    /// Inside `text:note-body`: paragraphs go to `notes`.
    in_note: usize,
    notes: Vec<(String, usize)>,
    code: Option<(String, usize)>,
}

impl<'a> Walker<'a> {
    pub(super) fn new(styles: &'a Styles) -> Self {
        Self {
            styles,
            out: Structure::default(),
            title: None,
            skip: 0,
            paras: Vec::new(),
            lists: 0,
            items: Vec::new(),
            tables: Vec::new(),
            repeats: Vec::new(),
            in_note: 0,
            notes: Vec::new(),
            code: None,
        }
    }

    /// Walk `content.xml`.
    ///
    /// # Errors
    /// [`ExtractError::Failed`] when the XML is not well-formed.
    pub(super) fn walk(&mut self, xml: &str) -> Result<(), ExtractError> {
        let mut r = reader(xml);
        loop {
            let offset = usize::try_from(r.buffer_position()).unwrap_or(usize::MAX);
            match r.read_event() {
                Ok(Event::Start(e)) => self.start(&e, offset),
                Ok(Event::End(e)) => self.end(local(e.name().as_ref()), offset),
                Ok(Event::Text(t)) if self.skip == 0 => self.text(&t.xml10_content()),
                Ok(Event::CData(t)) if self.skip == 0 => self.text(&t),
                Ok(Event::GeneralRef(g)) if self.skip == 0 => self.text(&reference(&g).unwrap_or_default()),
                Ok(Event::Eof) => break,
                Err(e) => return Err(crate::xml::failed("content.xml", &e)),
                Ok(_) => {}
            }
        }
        self.flush_code();
        for (text, offset) in std::mem::take(&mut self.notes) {
            self.out.paragraph(&text, offset);
        }
        Ok(())
    }

    fn start(&mut self, e: &BytesStart<'_>, offset: usize) {
        let qname = e.name();
        let name = local(qname.as_ref());
        if self.skip > 0 || SKIPPED.contains(&name) || SKIPPED_QUALIFIED.contains(&qname.as_ref()) {
            self.skip += 1;
            return;
        }
        match name {
            "p" | "h" => {
                let heading =
                    (name == "h").then(|| attr(e, "outline-level").and_then(|l| l.trim().parse().ok()).unwrap_or(1));
                let style = attr(e, "style-name");
                self.paras.push(Para { heading, style, text: String::new(), space: true, offset });
            }
            "s" => {
                let n = attr(e, "c").and_then(|c| c.trim().parse::<usize>().ok()).unwrap_or(1).min(1000);
                self.explicit(&" ".repeat(n));
            }
            "tab" => self.explicit("\t"),
            "line-break" => self.explicit("\n"),
            "list" => self.lists += 1,
            "list-item" | "list-header" => self.items.push(Item { started: name == "list-header" }),
            "note-body" => self.in_note += 1,
            "table" => {
                self.flush_code();
                self.tables.push(Vec::new());
            }
            "table-row" => {
                if let Some(t) = self.tables.last_mut() {
                    t.push(Vec::new());
                }
            }
            "table-cell" | "covered-table-cell" => {
                let n = attr(e, "number-columns-repeated").and_then(|c| c.trim().parse().ok()).unwrap_or(1);
                self.repeats.push(usize::max(n, 1));
                if let Some(row) = self.tables.last_mut().and_then(|t| t.last_mut()) {
                    row.push(String::new());
                }
            }
            _ => {}
        }
    }

    fn end(&mut self, name: &str, offset: usize) {
        if self.skip > 0 {
            self.skip -= 1;
            return;
        }
        match name {
            "p" | "h" => {
                if let Some(p) = self.paras.pop() {
                    self.paragraph(p);
                }
            }
            "list" => {
                self.out.end_list(self.lists, offset);
                self.lists = self.lists.saturating_sub(1);
            }
            "list-item" | "list-header" => {
                self.items.pop();
            }
            "note-body" => self.in_note = self.in_note.saturating_sub(1),
            "table-cell" | "covered-table-cell" => self.repeat_cell(),
            "table" => {
                if let Some(rows) = self.tables.pop() {
                    self.table(rows, offset);
                }
            }
            _ => {}
        }
    }

    /// Character data: collapsed inside a paragraph, ignored between
    /// elements.
    fn text(&mut self, text: &str) {
        let Some(p) = self.paras.last_mut() else { return };
        for c in text.chars() {
            if matches!(c, ' ' | '\t' | '\n' | '\r') {
                if !p.space {
                    p.text.push(' ');
                    p.space = true;
                }
            } else {
                p.text.push(c);
                p.space = false;
            }
        }
    }

    /// Text written with an element (`text:s`, `text:tab`, `text:line-break`).
    fn explicit(&mut self, text: &str) {
        if let Some(p) = self.paras.last_mut() {
            p.text.push_str(text);
            p.space = false;
        }
    }

    /// Copies of a repeated non-empty cell (an empty one stays one cell).
    fn repeat_cell(&mut self) {
        let n = self.repeats.pop().unwrap_or(1);
        if let Some(row) = self.tables.last_mut().and_then(|t| t.last_mut())
            && let Some(cell) = row.last().filter(|c| !c.is_empty()).cloned()
        {
            for _ in 1..n.min(MAX_REPEAT) {
                row.push(cell.clone());
            }
        }
    }

    fn paragraph(&mut self, p: Para) {
        if let Some(cell) = self.tables.last_mut().and_then(|t| t.last_mut()).and_then(|r| r.last_mut()) {
            append(cell, &p.text);
            return;
        }
        if self.in_note > 0 {
            self.notes.push((p.text.trim().to_string(), p.offset));
            return;
        }
        let role = match p.heading {
            Some(level) => Role::Heading(level),
            None => self.styles.role(p.style.as_deref()),
        };
        if role == Role::Code {
            let (code, _) = self.code.get_or_insert_with(|| (String::new(), p.offset));
            if !code.is_empty() {
                code.push('\n');
            }
            code.push_str(p.text.trim_end());
            return;
        }
        self.flush_code();
        match role {
            Role::Title if self.title.is_none() && !p.text.trim().is_empty() => {
                self.title = Some(p.text.trim().to_string());
            }
            Role::Heading(level) => self.out.heading(level, &p.text, p.offset),
            _ if self.lists > 0 && !p.text.trim().is_empty() => self.list_paragraph(&p),
            _ => self.out.paragraph(&p.text, p.offset),
        }
    }

    /// A paragraph in a list item: the item's first starts it.
    fn list_paragraph(&mut self, p: &Para) {
        match self.items.last_mut() {
            Some(item) if !item.started => {
                item.started = true;
                self.out.item(self.lists, None, &p.text, p.offset);
            }
            _ => self.out.continuation(self.lists, &p.text, p.offset),
        }
    }

    fn table(&mut self, rows: Vec<Vec<String>>, offset: usize) {
        if let Some(cell) = self.tables.last_mut().and_then(|t| t.last_mut()).and_then(|r| r.last_mut()) {
            for row in &rows {
                append(cell, &row.join(" | "));
            }
            return;
        }
        self.out.table(&rows, offset);
    }

    fn flush_code(&mut self) {
        if let Some((code, offset)) = self.code.take() {
            self.out.code(&code, offset);
        }
    }
}

/// Add a paragraph's text to a table cell, one space between paragraphs.
fn append(cell: &mut String, text: &str) {
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if text.is_empty() {
        return;
    }
    if !cell.is_empty() {
        cell.push(' ');
    }
    cell.push_str(&text);
}
