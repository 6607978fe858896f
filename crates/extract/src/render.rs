//! Markdown events → plain-text sections.
//!
//! Links keep their text, images their alt text, list items become `- ` lines,
//! code is kept verbatim, table rows become cells joined by ` | `, and HTML
//! tags and comments are dropped (their text content is kept).

use pulldown_cmark::{Event, Tag, TagEnd};

use crate::Section;

/// Accumulates sections while walking pulldown-cmark events.
#[derive(Debug, Default)]
pub(crate) struct Renderer {
    /// Open headings as `(level, text)`, outermost first.
    path: Vec<(usize, String)>,
    /// Heading being read, with its level.
    heading: Option<(usize, String)>,
    first_heading: Option<String>,
    /// Text of the section being read, and its first content offset.
    text: String,
    start: Option<usize>,
    sections: Vec<Section>,
    list_depth: usize,
    cell: usize,
    in_html_comment: bool,
}

impl Renderer {
    /// Feed one event; `offset` is its byte offset in the parsed text.
    pub(crate) fn event(&mut self, event: Event<'_>, offset: usize) {
        match event {
            Event::Start(tag) => self.start_tag(&tag, offset),
            Event::End(tag) => self.end_tag(tag),
            Event::Text(t) | Event::Code(t) | Event::InlineMath(t) | Event::DisplayMath(t) => self.push(&t, offset),
            Event::Html(t) | Event::InlineHtml(t) => {
                let visible = self.strip_html(&t);
                self.push(&visible, offset);
            }
            Event::SoftBreak => self.push(" ", offset),
            Event::HardBreak | Event::Rule => self.newline(),
            Event::TaskListMarker(done) => self.push(if done { "[x] " } else { "[ ] " }, offset),
            Event::FootnoteReference(_) => {}
        }
    }

    /// Close the last section; returns sections and the first heading's text.
    pub(crate) fn finish(mut self) -> (Vec<Section>, Option<String>) {
        self.flush();
        (self.sections, self.first_heading)
    }

    fn start_tag(&mut self, tag: &Tag<'_>, offset: usize) {
        let heading = matches!(tag, Tag::Heading { .. });
        if !heading && self.heading.is_none() && self.start.is_none() {
            self.start = Some(offset);
        }
        match tag {
            Tag::Heading { level, .. } => {
                self.flush();
                self.heading = Some((*level as usize, String::new()));
            }
            Tag::List(_) => {
                self.newline();
                self.list_depth += 1;
            }
            Tag::Item => {
                self.newline();
                let indent = "  ".repeat(self.list_depth.saturating_sub(1));
                self.push(&format!("{indent}- "), offset);
            }
            Tag::TableCell => {
                if self.cell > 0 {
                    self.push(" | ", offset);
                }
                self.cell += 1;
            }
            Tag::CodeBlock(_) | Tag::BlockQuote(_) | Tag::Table(_) | Tag::HtmlBlock => self.paragraph_break(),
            _ => {}
        }
    }

    fn end_tag(&mut self, tag: TagEnd) {
        match tag {
            TagEnd::Heading(_) => self.close_heading(),
            TagEnd::List(_) => {
                self.list_depth = self.list_depth.saturating_sub(1);
                self.paragraph_break();
            }
            TagEnd::Item => self.newline(),
            TagEnd::TableHead | TagEnd::TableRow => {
                self.cell = 0;
                self.newline();
            }
            TagEnd::Paragraph if self.list_depth > 0 => self.newline(),
            TagEnd::Paragraph | TagEnd::CodeBlock | TagEnd::BlockQuote(_) | TagEnd::Table | TagEnd::HtmlBlock => {
                self.paragraph_break();
            }
            _ => {}
        }
    }

    /// Append inline text to the heading being read or to the section.
    fn push(&mut self, s: &str, offset: usize) {
        if let Some((_, heading)) = &mut self.heading {
            heading.push_str(s);
            return;
        }
        if self.start.is_none() && !s.trim().is_empty() {
            self.start = Some(offset);
        }
        self.text.push_str(s);
    }

    fn newline(&mut self) {
        if self.heading.is_none() && !self.text.is_empty() && !self.text.ends_with('\n') {
            self.text.push('\n');
        }
    }

    fn paragraph_break(&mut self) {
        self.newline();
        if self.heading.is_none() && !self.text.is_empty() && !self.text.ends_with("\n\n") {
            self.text.push('\n');
        }
    }

    fn close_heading(&mut self) {
        let Some((level, text)) = self.heading.take() else {
            return;
        };
        let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        if self.first_heading.is_none() && !text.is_empty() {
            self.first_heading = Some(text.clone());
        }
        self.path.retain(|(l, _)| *l < level);
        self.path.push((level, text));
    }

    /// Emit the current section if it has any text.
    fn flush(&mut self) {
        let text = tidy(&std::mem::take(&mut self.text));
        let start = self.start.take();
        if text.is_empty() {
            return;
        }
        let heading_path = self.path.iter().map(|(_, h)| h.clone()).filter(|h| !h.is_empty()).collect();
        let source_offset = start.unwrap_or(0) as u64;
        self.sections.push(Section { heading_path, text, page: None, source_offset });
    }

    /// Visible text of an HTML fragment: tags and comments removed.
    fn strip_html(&mut self, html: &str) -> String {
        let mut out = String::new();
        let mut rest = html;
        while !rest.is_empty() {
            if self.in_html_comment {
                let Some(end) = rest.find("-->") else {
                    return out;
                };
                self.in_html_comment = false;
                rest = &rest[end + 3..];
            } else if let Some(lt) = rest.find('<') {
                out.push_str(&rest[..lt]);
                rest = self.skip_tag(&rest[lt..]);
            } else {
                out.push_str(rest);
                break;
            }
        }
        out
    }

    /// Skip the tag or comment at the start of `rest`.
    fn skip_tag<'a>(&mut self, rest: &'a str) -> &'a str {
        if let Some(comment) = rest.strip_prefix("<!--") {
            self.in_html_comment = true;
            return comment;
        }
        rest.find('>').map_or("", |gt| &rest[gt + 1..])
    }
}

/// Trim trailing spaces on each line and collapse runs of blank lines.
fn tidy(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut blank_run = 0;
    for line in text.trim().lines().map(str::trim_end) {
        blank_run = if line.is_empty() { blank_run + 1 } else { 0 };
        if blank_run <= 1 {
            out.push_str(line);
            out.push('\n');
        }
    }
    out.trim_end().to_string()
}
