//! Removal of template tags left in Markdown sources.
//!
//! Static-site generators (Jekyll/Liquid, Eleventy/Nunjucks, Hugo) leave tags
//! such as `{% page "/x/" %}`, `{%- include "a.html" -%}`, `{{ site.url }}` and
//! `{# note #}` in the Markdown. They are noise for search, so they are
//! removed before parsing, with two readable exceptions from the 18F handbook:
//! `{% slack_channel "x" %}` becomes `#x` and `{% image "src" "alt" %}` becomes
//! its alt text. `{% comment %}…{% endcomment %}` is removed with its content.
//! An offset map keeps positions in the cleaned text traceable to the source.

/// Longest tag body we look for a closing delimiter in, in bytes.
const MAX_TAG_BYTES: usize = 2000;

/// Cleaned text plus a map back to source byte offsets.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Cleaned {
    /// Text with template tags removed or replaced.
    pub text: String,
    /// `(cleaned offset, source offset)` at the start of each copied run.
    map: Vec<(usize, usize)>,
}

impl Cleaned {
    /// Source byte offset of a byte offset in [`Cleaned::text`].
    pub(crate) fn source_offset(&self, clean: usize) -> usize {
        let idx = self.map.partition_point(|&(c, _)| c <= clean);
        match idx.checked_sub(1).and_then(|i| self.map.get(i)) {
            Some(&(c, s)) => s + (clean - c),
            None => clean,
        }
    }
}

/// Remove template tags from `src` (see the module docs).
pub(crate) fn strip_templates(src: &str) -> Cleaned {
    let mut out = Cleaned { text: String::with_capacity(src.len()), map: vec![(0, 0)] };
    let mut pos = 0;
    while let Some(found) = next_tag(src, pos) {
        out.text.push_str(&src[pos..found.start]);
        out.text.push_str(&found.replacement);
        pos = found.end;
        out.map.push((out.text.len(), pos));
    }
    out.text.push_str(&src[pos..]);
    out
}

/// One template tag found in the source.
struct Found {
    start: usize,
    end: usize,
    replacement: String,
}

/// The next complete template tag at or after `from`.
fn next_tag(src: &str, from: usize) -> Option<Found> {
    let mut search = from;
    loop {
        let rel = src.get(search..)?.find('{')?;
        let start = search + rel;
        if let Some(found) = tag_at(src, start) {
            return Some(found);
        }
        search = start + 1;
    }
}

/// The tag starting exactly at `start`, if there is a complete one.
fn tag_at(src: &str, start: usize) -> Option<Found> {
    let rest = &src[start..];
    let (close, liquid) = if rest.starts_with("{%") {
        ("%}", true)
    } else if rest.starts_with("{{") {
        ("}}", false)
    } else if rest.starts_with("{# ") || rest.starts_with("{#-") {
        ("#}", false)
    } else {
        return None;
    };
    let body_end = rest.get(2..)?.find(close)? + 2;
    if body_end > MAX_TAG_BYTES {
        return None;
    }
    let end = start + body_end + 2;
    let (end, replacement) = if liquid { liquid_tag(src, &rest[2..body_end], end) } else { (end, String::new()) };
    Some(Found { start, end, replacement })
}

/// Replacement for a `{% … %}` tag whose body is `body` and which ends at `end`.
fn liquid_tag(src: &str, body: &str, end: usize) -> (usize, String) {
    let body = body.trim_matches(|c: char| c == '-' || c.is_whitespace());
    let name = body.split_whitespace().next().unwrap_or("");
    let args = quoted_args(body);
    match name {
        "comment" => (end_of_block(src, end, "endcomment"), String::new()),
        "slack_channel" => (end, args.first().map(|a| format!("#{a}")).unwrap_or_default()),
        "image" | "image_with_class" if args.len() >= 2 => (end, args.last().cloned().unwrap_or_default()),
        _ => (end, String::new()),
    }
}

/// End of the `{% <closer> %}` tag after `from`, or `from` when there is none.
fn end_of_block(src: &str, from: usize, closer: &str) -> usize {
    let mut search = from;
    while let Some(found) = next_tag_raw(src, search) {
        let body = &src[found.0 + 2..found.1 - 2];
        if body.trim_matches(|c: char| c == '-' || c.is_whitespace()).starts_with(closer) {
            return found.1;
        }
        search = found.1;
    }
    from
}

/// Start and end of the next `{% … %}` after `from`.
fn next_tag_raw(src: &str, from: usize) -> Option<(usize, usize)> {
    let start = from + src.get(from..)?.find("{%")?;
    let end = start + 2 + src.get(start + 2..)?.find("%}")? + 2;
    Some((start, end))
}

/// The double-quoted (or single-quoted) arguments of a tag body.
fn quoted_args(body: &str) -> Vec<String> {
    let mut args = Vec::new();
    let mut chars = body.char_indices();
    while let Some((_, c)) = chars.next() {
        if c == '"' || c == '\'' {
            let arg: String = chars.by_ref().map(|(_, ch)| ch).take_while(|&ch| ch != c).collect();
            args.push(arg);
        }
    }
    args
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_links_lose_their_shortcode() {
        let c = strip_templates(r#"[use]({% page "/tools/hrlinks/#x" %}) now"#);
        assert_eq!(c.text, "[use]() now");
    }

    #[test]
    fn slack_and_image_become_text() {
        let c = strip_templates(r#"Ask in {% slack_channel "people-ops" %}. {% image "_img/a.png" "A cat" %}"#);
        assert_eq!(c.text, "Ask in #people-ops. A cat");
    }

    #[test]
    fn comments_are_removed_with_content_and_trim_markers_work() {
        let c = strip_templates(
            "a {% comment %}TODO x{% endcomment %}b {%- include \"x.html\" -%} {{ site.url }}{# hidden #}c",
        );
        assert_eq!(c.text, "a b  c");
    }

    #[test]
    fn offsets_map_back_to_source() {
        let src = "ab{{ x }}cd";
        let c = strip_templates(src);
        assert_eq!(c.text, "abcd");
        assert_eq!(c.source_offset(2), 9);
        assert_eq!(&src[c.source_offset(2)..], "cd");
        assert_eq!(c.source_offset(1), 1);
    }

    #[test]
    fn heading_ids_and_unclosed_braces_are_kept() {
        assert_eq!(strip_templates("# Title {#anchor}").text, "# Title {#anchor}");
        assert_eq!(strip_templates("a {% b").text, "a {% b");
    }
}
