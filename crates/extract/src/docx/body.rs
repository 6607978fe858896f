//! Walking a WordprocessingML story (`w:body`, footnotes, endnotes;
//! ECMA-376 Part 1 §17.2–17.4, §17.11) into [`Structure`] blocks.
//!
//! Paragraphs (`w:p`) take their role from their style; list paragraphs
//! (`w:numPr`) become items at `w:ilvl + 1`, or continue the item above when
//! their level shows no marker; tables (`w:tbl`) become table rows, with the
//! paragraphs of a cell joined by a space and a nested table flattened into
//! its cell; consecutive code paragraphs form one code block. Left out:
//! tracked deletions (`w:del`, `w:moveFrom`), field instructions
//! (`w:instrText`), the VML fallback of alternate content (`mc:Fallback`,
//! which repeats `mc:Choice`), property elements, note and comment marks,
//! and table-of-contents content controls and paragraphs.

use quick_xml::events::{BytesStart, Event};

use super::styles::{Numbering, Role, Styles};
use crate::ExtractError;
use crate::structure::Structure;
use crate::xml::{attr, local, reader, reference};

/// Elements whose whole subtree is not content.
const SKIPPED: &[&str] = &[
    "rPr",
    "sectPr",
    "tblPr",
    "tblPrEx",
    "trPr",
    "tcPr",
    "tblGrid",
    "del",
    "moveFrom",
    "instrText",
    "delInstrText",
    "delText",
    "Fallback",
    "footnoteRef",
    "endnoteRef",
    "separator",
    "continuationSeparator",
    "commentReference",
    "annotationRef",
    "fldData",
    "altChunk",
];

/// A paragraph being read.
#[derive(Debug, Default)]
struct Para {
    style: Option<String>,
    num_id: Option<String>,
    ilvl: usize,
    outline: Option<usize>,
    text: String,
    offset: usize,
}

/// A table being read.
#[derive(Debug, Default)]
struct TableBuild {
    rows: Vec<Vec<String>>,
}

/// Which property element is open, and how deep inside it the reader is.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Props {
    /// `w:pPr`: style, numbering and outline level are read.
    Paragraph(usize),
    /// `w:sdtPr`: the gallery of a content control is read.
    Sdt(usize),
}

/// Turns WordprocessingML stories into blocks.
pub(super) struct Walker<'a> {
    styles: &'a Styles,
    numbering: &'a Numbering,
    pub(super) out: Structure,
    /// The first `Title` paragraph.
    pub(super) title: Option<String>,
    skip: usize,
    props: Option<Props>,
    paras: Vec<Para>,
    tables: Vec<TableBuild>,
    /// Open content controls: whether each is a table of contents.
    sdts: Vec<bool>,
    /// Reading text (inside `w:t`).
    in_text: bool,
    /// Code lines waiting to form a block, and the block's offset.
    code: Option<(String, usize)>,
}

impl<'a> Walker<'a> {
    pub(super) fn new(styles: &'a Styles, numbering: &'a Numbering) -> Self {
        Self {
            styles,
            numbering,
            out: Structure::default(),
            title: None,
            skip: 0,
            props: None,
            paras: Vec::new(),
            tables: Vec::new(),
            sdts: Vec::new(),
            in_text: false,
            code: None,
        }
    }

    /// Walk one story part (`part` names it in errors).
    ///
    /// # Errors
    /// [`ExtractError::Failed`] when the XML is not well-formed.
    pub(super) fn walk(&mut self, xml: &str, part: &str) -> Result<(), ExtractError> {
        let mut r = reader(xml);
        loop {
            let offset = usize::try_from(r.buffer_position()).unwrap_or(usize::MAX);
            match r.read_event() {
                Ok(Event::Start(e)) => self.start(&e, offset),
                Ok(Event::End(e)) => self.end(local(e.name().as_ref()), offset),
                Ok(Event::Text(t)) if self.reading_text() => self.push(&t.xml10_content()),
                Ok(Event::CData(t)) if self.reading_text() => self.push(&t),
                Ok(Event::GeneralRef(g)) if self.reading_text() => self.push(&reference(&g).unwrap_or_default()),
                Ok(Event::Eof) => break,
                Err(e) => return Err(crate::xml::failed(part, &e)),
                Ok(_) => {}
            }
        }
        self.flush_code();
        Ok(())
    }

    fn reading_text(&self) -> bool {
        self.in_text && self.skip == 0 && self.props.is_none()
    }

    fn start(&mut self, e: &BytesStart<'_>, offset: usize) {
        let qname = e.name();
        let name = local(qname.as_ref());
        if self.skip > 0 {
            self.skip += 1;
            return;
        }
        if let Some(props) = self.props {
            self.prop(props, name, e);
            return;
        }
        if SKIPPED.contains(&name) {
            self.skip = 1;
            return;
        }
        match name {
            "p" => self.paras.push(Para { offset, ..Para::default() }),
            "pPr" => self.props = Some(Props::Paragraph(1)),
            "sdtPr" => self.props = Some(Props::Sdt(1)),
            "sdt" => self.sdts.push(false),
            "sdtContent" if self.sdts.last() == Some(&true) => self.skip = 1,
            "t" => self.in_text = true,
            "tab" | "ptab" => self.push("\t"),
            "br" | "cr" => self.push("\n"),
            "noBreakHyphen" => self.push("-"),
            "docPr" => self.alt_text(e),
            "tbl" => {
                self.flush_code();
                self.tables.push(TableBuild::default());
            }
            "tr" => self.with_table(|t| t.rows.push(Vec::new())),
            "tc" => self.with_table(|t| {
                if let Some(row) = t.rows.last_mut() {
                    row.push(String::new());
                }
            }),
            _ => {}
        }
    }

    /// An element inside `w:pPr` or `w:sdtPr`.
    fn prop(&mut self, props: Props, name: &str, e: &BytesStart<'_>) {
        self.props = Some(match props {
            Props::Paragraph(d) => Props::Paragraph(d + 1),
            Props::Sdt(d) => Props::Sdt(d + 1),
        });
        match (props, name) {
            (Props::Paragraph(1), "pStyle") => self.with_para(|p| p.style = attr(e, "val")),
            (Props::Paragraph(_), "numId") => self.with_para(|p| p.num_id = attr(e, "val")),
            (Props::Paragraph(_), "ilvl") => {
                let level = attr(e, "val").and_then(|v| v.trim().parse().ok()).unwrap_or(0);
                self.with_para(|p| p.ilvl = level);
            }
            (Props::Paragraph(1), "outlineLvl") => {
                let level = attr(e, "val").and_then(|v| v.trim().parse::<usize>().ok()).filter(|l| *l < 9);
                self.with_para(|p| p.outline = level);
            }
            (Props::Sdt(_), "docPartGallery") => {
                let toc = attr(e, "val").is_some_and(|v| v.starts_with("Table of Contents"));
                if let Some(last) = self.sdts.last_mut() {
                    *last |= toc;
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
        if let Some(props) = self.props {
            self.props = match props {
                Props::Paragraph(1) | Props::Sdt(1) => None,
                Props::Paragraph(d) => Some(Props::Paragraph(d - 1)),
                Props::Sdt(d) => Some(Props::Sdt(d - 1)),
            };
            return;
        }
        match name {
            "t" => self.in_text = false,
            "p" => {
                if let Some(p) = self.paras.pop() {
                    self.paragraph(p);
                }
            }
            "sdt" => {
                self.sdts.pop();
            }
            "tbl" => {
                if let Some(t) = self.tables.pop() {
                    self.table(t, offset);
                }
            }
            _ => {}
        }
    }

    /// Text for the paragraph being read.
    fn push(&mut self, text: &str) {
        self.with_para(|p| p.text.push_str(text));
    }

    /// An image's alternative text (`wp:docPr/@descr`), as Markdown keeps
    /// an image's alt text; Word's machine-written descriptions are noise.
    fn alt_text(&mut self, e: &BytesStart<'_>) {
        if let Some(descr) = attr(e, "descr").filter(|d| !d.contains("automatically generated")) {
            self.push(descr.trim());
        }
    }

    fn with_para(&mut self, f: impl FnOnce(&mut Para)) {
        if let Some(p) = self.paras.last_mut() {
            f(p);
        }
    }

    fn with_table(&mut self, f: impl FnOnce(&mut TableBuild)) {
        if let Some(t) = self.tables.last_mut() {
            f(t);
        }
    }

    /// A finished paragraph: into its table cell, or a block by its role.
    fn paragraph(&mut self, p: Para) {
        if let Some(cell) = self.tables.last_mut().and_then(|t| t.rows.last_mut()).and_then(|r| r.last_mut()) {
            append(cell, &p.text);
            return;
        }
        let role = self.styles.role(p.style.as_deref(), p.outline);
        if role == Role::Code {
            let (code, _) = self.code.get_or_insert_with(|| (String::new(), p.offset));
            if !code.is_empty() {
                code.push('\n');
            }
            code.push_str(p.text.trim_end_matches('\n'));
            return;
        }
        self.flush_code();
        match role {
            Role::Toc => {}
            Role::Title if self.title.is_none() && !p.text.trim().is_empty() => {
                self.title = Some(p.text.split_whitespace().collect::<Vec<_>>().join(" "));
            }
            Role::Heading(level) => self.out.heading(level, &p.text, p.offset),
            _ if !p.text.trim().is_empty() => self.body(&p),
            _ => {}
        }
    }

    /// A body paragraph: a list item (by its numbering, or its list style's
    /// name), a continuation of one, or a plain paragraph.
    fn body(&mut self, p: &Para) {
        let style = p.style.as_deref();
        let by_style = self.styles.list_style(style);
        let numbering = match &p.num_id {
            Some(n) => Some((n.clone(), p.ilvl, p.ilvl + 1)),
            None => self.styles.numbering(style).map(|(n, l)| (n, l, by_style.map_or(l + 1, |(d, _)| d))),
        };
        match (numbering, by_style) {
            (Some((num, level, depth)), _) if num != "0" => {
                if self.numbering.has_marker(&num, level) {
                    self.out.item(depth, Some(&num), &p.text, p.offset);
                } else {
                    self.out.continuation(depth, &p.text, p.offset);
                }
            }
            (_, Some((depth, true))) => self.out.continuation(depth, &p.text, p.offset),
            _ => self.out.paragraph(&p.text, p.offset),
        }
    }

    /// A finished table: flattened into the enclosing cell, or a block.
    fn table(&mut self, t: TableBuild, offset: usize) {
        if let Some(cell) = self.tables.last_mut().and_then(|o| o.rows.last_mut()).and_then(|r| r.last_mut()) {
            for row in &t.rows {
                append(cell, &row.join(" | "));
            }
            return;
        }
        self.out.table(&t.rows, offset);
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
