//! HTML pages (WHATWG HTML Living Standard), parsed by html5ever through
//! scraper 0.29, which builds the same tree a browser does from any markup.
//!
//! Decoding follows the WHATWG encoding sniffing order in short: a
//! byte-order mark, then a `charset` in the first 1024 bytes (`<meta
//! charset>` or `http-equiv` content), then UTF-8 when the bytes are valid
//! UTF-8, else chardetng's guess.

mod content;
mod head;

use std::collections::BTreeMap;

use encoding_rs::{Encoding, UTF_8};
use scraper::{Html, Node};

use crate::guard::guarded;
use crate::{ExtractError, Extracted, FileKind, quality};

/// Bytes searched for a `charset` declaration (WHATWG prescan).
const PRESCAN_BYTES: usize = 1024;

/// Extract an HTML page.
pub(crate) fn extract_html(bytes: &[u8]) -> Result<Extracted, ExtractError> {
    let (text, encoding) = decode(bytes);
    if text.trim().is_empty() {
        return Err(ExtractError::Empty);
    }
    let (sections, title, properties) = guarded(|| {
        let page = Html::parse_document(&text);
        let properties = head::properties(&page);
        let mut walker = content::Walker::default();
        walker.walk(content_root(&page));
        let title = walker.title.take();
        let (sections, _) = std::mem::take(&mut walker.out).finish(text.len());
        (sections, title, properties)
    })?;
    if sections.is_empty() {
        return Err(ExtractError::Empty);
    }
    let notes = if encoding == "UTF-8" { Vec::new() } else { vec![format!("decoded as {encoding}")] };
    let all: String = sections.iter().map(|s| s.text.as_str()).collect();
    Ok(Extracted {
        kind: FileKind::Html,
        title,
        front_matter: BTreeMap::new(),
        quality: quality::score(&all),
        sections,
        tables: Vec::new(),
        properties,
        pages: None,
        notes,
        ocr: None,
    })
}

/// The first `<main>` or `role="main"` element that is not hidden, else
/// `<body>`, else the whole tree.
fn content_root(page: &Html) -> ego_tree::NodeRef<'_, Node> {
    let mut body = None;
    for node in page.tree.root().descendants() {
        let Node::Element(e) = node.value() else { continue };
        if (e.name() == "main" || e.attr("role") == Some("main")) && e.attr("hidden").is_none() {
            return node;
        }
        if e.name() == "body" && body.is_none() {
            body = Some(node);
        }
    }
    body.unwrap_or_else(|| page.tree.root())
}

/// The page's text and the name of the encoding it was decoded from.
fn decode(bytes: &[u8]) -> (String, &'static str) {
    let encoding = Encoding::for_bom(bytes)
        .map(|(e, _)| e)
        .or_else(|| declared(bytes))
        .or_else(|| std::str::from_utf8(bytes).is_ok().then_some(UTF_8))
        .unwrap_or_else(|| {
            let mut detector = chardetng::EncodingDetector::new();
            detector.feed(bytes, true);
            detector.guess(None, true)
        });
    let (text, used, _) = encoding.decode(bytes);
    (crate::decode::strip_controls(&text), used.name())
}

/// A `charset=` in the first [`PRESCAN_BYTES`]; UTF-16 labels mean UTF-8
/// there (a page declaring UTF-16 in ASCII cannot be UTF-16).
fn declared(bytes: &[u8]) -> Option<&'static Encoding> {
    let head = String::from_utf8_lossy(&bytes[..bytes.len().min(PRESCAN_BYTES)]).to_ascii_lowercase();
    let at = head.find("charset")? + "charset".len();
    let rest = head[at..].trim_start().strip_prefix('=')?.trim_start().trim_start_matches(['"', '\'']);
    let label: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || "-_:.".contains(*c)).collect();
    let encoding = Encoding::for_label(label.as_bytes())?;
    Some(if encoding.name().starts_with("UTF-16") { UTF_8 } else { encoding })
}

#[cfg(test)]
mod tests;
