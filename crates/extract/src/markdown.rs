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
    let bom = if bytes.starts_with(b"\xEF\xBB\xBF") { 3 } else { 0 };
    let decoded = decode::decode(bytes);
    let fm = frontmatter::split(&decoded.text);
    let cleaned = shortcode::strip_templates(&decoded.text[fm.body_start..]);
    let (mut sections, first_heading) = render(&cleaned.text);
    for s in &mut sections {
        let clean = usize::try_from(s.source_offset).unwrap_or(usize::MAX);
        s.source_offset = (bom + fm.body_start + cleaned.source_offset(clean)) as u64;
    }
    // A page with front matter but no body (a redirect stub) is a valid,
    // empty document; a file with neither is an error.
    if sections.is_empty() && fm.values.is_empty() {
        return Err(ExtractError::Empty);
    }
    let notes = if sections.is_empty() { vec!["front matter only; no body text".to_string()] } else { Vec::new() };
    let title = front_matter_title(&fm.values).or(first_heading);
    let all: String = sections.iter().map(|s| s.text.as_str()).collect();
    Ok(Extracted {
        kind: FileKind::Markdown,
        title,
        front_matter: fm.values,
        quality: quality::score(&all),
        sections,
        tables: Vec::new(),
        properties: crate::Properties::default(),
        pages: None,
        notes: fm.note.into_iter().chain(notes).collect(),
        ocr: None,
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
fn front_matter_title(values: &std::collections::BTreeMap<String, serde_json::Value>) -> Option<String> {
    let title = values.get("title")?.as_str()?.trim();
    (!title.is_empty()).then(|| title.to_string())
}

#[cfg(test)]
pub(crate) mod tests_support {
    /// `(heading path, text)` of each section of Markdown `src`.
    pub(crate) fn sections(src: &str) -> Vec<(Vec<String>, String)> {
        super::render(src).0.into_iter().map(|s| (s.heading_path, s.text)).collect()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn md(src: &str) -> Extracted {
        extract_markdown(src.as_bytes()).unwrap()
    }

    fn all_text(doc: &Extracted) -> String {
        doc.sections.iter().map(|s| s.text.as_str()).collect::<Vec<_>>().join("\n")
    }

    #[test]
    fn front_matter_is_metadata_not_text() {
        let doc = md("---\ntitle: Leave policy\nseries: leave\n---\nIntro text.\n\n# Heading\n\nBody.\n");
        assert_eq!(doc.title.as_deref(), Some("Leave policy"));
        assert_eq!(doc.front_matter["series"], serde_json::json!("leave"));
        assert!(!all_text(&doc).contains("series"));
        assert_eq!(doc.sections[0].text, "Intro text.");
        assert_eq!(doc.sections[0].heading_path, Vec::<String>::new());
    }

    #[test]
    fn toml_front_matter_and_first_heading_title() {
        let doc = md("+++\nissued = 2025-02-28\n+++\n# Travel\n\nPer diem applies.\n");
        assert_eq!(doc.front_matter["issued"], serde_json::json!("2025-02-28"));
        assert_eq!(doc.title.as_deref(), Some("Travel"));
        assert_eq!(all_text(&doc), "Per diem applies.");
    }

    #[test]
    fn heading_paths_nest_and_reset() {
        let src = "# A\n\na\n\n## B\n\nb\n\n### C\n\nc\n\n## D\n\nd\n\n# E\n\ne\n";
        let paths: Vec<Vec<String>> = md(src).sections.into_iter().map(|s| s.heading_path).collect();
        assert_eq!(paths, vec![vec!["A"], vec!["A", "B"], vec!["A", "B", "C"], vec!["A", "D"], vec!["E"]]);
    }

    #[test]
    fn source_offset_points_at_section_start() {
        let src = "---\nx: 1\n---\n# A\n\nFirst para.\n\n## B\n\n[Link]({{ site.url }}) text.\n";
        let doc = md(src);
        assert_eq!(&src[doc.sections[0].source_offset as usize..][..5], "First");
        assert_eq!(&src[doc.sections[1].source_offset as usize..][..5], "[Link");
        assert_eq!(doc.sections[1].text, "Link text.");
    }

    #[test]
    fn lists_tables_code_and_html_render_as_plain_text() {
        let src = "Intro <a href=\"x\">chart</a>.\n\n- one\n- two [link](http://x)\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```\nlet x = 1;\n```\n\n<!-- hidden\ncomment -->\n<div>shown</div>\n";
        let text = all_text(&md(src));
        assert_eq!(text, "Intro chart.\n\n- one\n- two link\n\na | b\n1 | 2\n\nlet x = 1;\n\nshown");
    }

    #[test]
    fn real_18f_page_has_no_shortcodes() {
        let doc = md(include_str!("../tests/fixtures/markdown/18f-overtime.md"));
        let text = all_text(&doc);
        assert_eq!(doc.title.as_deref(), Some("Compensation for working extra hours"));
        assert!(!text.contains("{%") && !text.contains("%}"), "{text}");
        assert!(!text.contains("keywords:") && !text.contains("people-ops"));
        assert!(text.contains("manually request these hours in HR Links before using them."), "{text}");
        assert!(text.starts_with("Current employees can use this leave comparison chart"), "{text}");
        let cap = doc.sections.iter().find(|s| s.text.contains("GS-15, step 10")).unwrap();
        assert_eq!(
            cap.heading_path,
            ["Overtime and Compensatory (Comp) time", "Overtime, depending on your salary level"]
        );
    }

    #[test]
    fn slack_channels_and_comments_in_18f_pages() {
        let doc = md(include_str!("../tests/fixtures/markdown/18f-docker-hub.md"));
        assert!(all_text(&doc).contains("Ask #admins-docker for access to the TTS-wide account."));
        let doc = md(include_str!("../tests/fixtures/markdown/18f-engagements.md"));
        let text = all_text(&doc);
        assert!(!text.contains("TODO link") && !text.contains("{%"));
        assert!(text.contains("- Process agreements and SOWs\n"), "{text}");
    }

    #[test]
    fn front_matter_only_is_an_empty_document_and_nothing_at_all_is_an_error() {
        let doc = extract_markdown(b"---\ntitle: x\n---\n").unwrap();
        assert!(doc.sections.is_empty());
        assert_eq!(doc.title.as_deref(), Some("x"));
        assert_eq!(extract_markdown(b"  \n").unwrap_err(), ExtractError::Empty);
    }
}
