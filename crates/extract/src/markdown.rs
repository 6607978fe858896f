//! Markdown extraction with pulldown-cmark 0.13 (CommonMark + GFM tables,
//! footnotes, task lists, strikethrough, heading attributes).
//!
//! Steps: decode bytes ([`crate::decode`]), cut front matter
//! ([`crate::frontmatter`]), strip template tags ([`crate::shortcode`]), then
//! render each heading's content as plain text ([`crate::render`]).

use pulldown_cmark::{Options, Parser};

use crate::render::Renderer;
use crate::{ExtractError, Extracted, FileKind, Section, decode, frontmatter, quality, shortcode};

/// Extract a Markdown file into sections under their heading paths.
pub(crate) fn extract_markdown(bytes: &[u8]) -> Result<Extracted, ExtractError> {
    let bom = if bytes.starts_with(b"\xEF\xBB\xBF") {
        3
    } else {
        0
    };
    let decoded = decode::decode(bytes);
    let fm = frontmatter::split(&decoded.text);
    let cleaned = shortcode::strip_templates(&decoded.text[fm.body_start..]);
    let (mut sections, first_heading) = render(&cleaned.text);
    for s in &mut sections {
        let clean = usize::try_from(s.source_offset).unwrap_or(usize::MAX);
        s.source_offset = (bom + fm.body_start + cleaned.source_offset(clean)) as u64;
    }
    if sections.is_empty() {
        return Err(ExtractError::Failed("empty".into()));
    }
    let title = front_matter_title(&fm.values).or(first_heading);
    let all: String = sections.iter().map(|s| s.text.as_str()).collect();
    Ok(Extracted {
        kind: FileKind::Markdown,
        title,
        front_matter: fm.values,
        quality: quality::score(&all),
        sections,
        table: None,
        pages: None,
        notes: fm.note.into_iter().collect(),
    })
}

/// Parse `text` and render its sections; offsets are relative to `text`.
fn render(text: &str) -> (Vec<Section>, Option<String>) {
    let options = Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_HEADING_ATTRIBUTES
        | Options::ENABLE_GFM;
    let mut renderer = Renderer::default();
    for (event, range) in Parser::new_ext(text, options).into_offset_iter() {
        renderer.event(event, range.start);
    }
    renderer.finish()
}

/// The front matter's `title`, if it is a non-empty string.
fn front_matter_title(
    values: &std::collections::BTreeMap<String, serde_json::Value>,
) -> Option<String> {
    let title = values.get("title")?.as_str()?.trim();
    (!title.is_empty()).then(|| title.to_string())
}
