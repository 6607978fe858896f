//! An HTML page's own metadata (WHATWG HTML §4.2): `<title>` and `<meta
//! name|property content>`, kept as written in [`Properties`].
//!
//! Names are Dublin Core in HTML (`dcterms.issued`, `DC.date`, DCMI's
//! "Expressing Dublin Core metadata using HTML/XHTML meta and link
//! elements"), Open Graph `article:*_time`, Highwire `citation_*`, and the
//! plain `date`. `dct.replaces` (and `dcterms.replaces`) name replaced
//! documents; the IETF's RFC pages write `urn:ietf:rfc:2616` there.

use scraper::{Html, Node};

use crate::Properties;

/// `<meta>` names for the date of issue, strongest first.
const ISSUED: &[&str] = &[
    "dcterms.issued",
    "dct.issued",
    "dc.date.issued",
    "dcterms.date",
    "dc.date",
    "citation_publication_date",
    "citation_date",
    "article:published_time",
    "date",
];
/// Names for the creation date.
const CREATED: &[&str] = &["dcterms.created", "dct.created", "dc.date.created"];
/// Names for the last modification.
const MODIFIED: &[&str] =
    &["dcterms.modified", "dct.modified", "dc.date.modified", "article:modified_time", "last-modified"];
/// Names for replaced documents.
const REPLACES: &[&str] = &["dct.replaces", "dcterms.replaces", "dc.relation.replaces"];

/// The page's title and dated, replacing `<meta>` elements.
pub(super) fn properties(page: &Html) -> Properties {
    let mut metas: Vec<(String, String)> = Vec::new();
    let mut title = None;
    for node in page.tree.root().descendants() {
        let Node::Element(e) = node.value() else { continue };
        match e.name() {
            "title" if title.is_none() => {
                let text: String =
                    node.descendants().filter_map(|n| n.value().as_text().map(|t| t.to_string())).collect();
                title = Some(text.split_whitespace().collect::<Vec<_>>().join(" ")).filter(|t| !t.is_empty());
            }
            "meta" => {
                let name = e.attr("name").or_else(|| e.attr("property"));
                if let (Some(name), Some(content)) = (name, e.attr("content")) {
                    metas.push((name.trim().to_ascii_lowercase(), content.trim().to_string()));
                }
            }
            _ => {}
        }
    }
    let first = |names: &[&str]| {
        names.iter().find_map(|n| metas.iter().find(|(k, v)| k == n && !v.is_empty()).map(|(_, v)| v.clone()))
    };
    let replaces =
        metas.iter().filter(|(k, v)| REPLACES.contains(&k.as_str()) && !v.is_empty()).map(|(_, v)| v.clone());
    Properties {
        source: "<head>".into(),
        title,
        issued: first(ISSUED),
        created: first(CREATED),
        modified: first(MODIFIED),
        replaces: replaces.collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn title_dates_and_replaced_documents() {
        let page = Html::parse_document(
            r#"<html><head><title> RFC 7230 -
            Message Syntax </title><meta name="DCTERMS.issued" content="2014-06"><meta name="dct.replaces" content="urn:ietf:rfc:2145"><meta name="dct.replaces" content="urn:ietf:rfc:2616"><meta property="article:modified_time" content="2015-01-01T00:00:00Z"></head><body></body></html>"#,
        );
        let p = properties(&page);
        assert_eq!(p.title.as_deref(), Some("RFC 7230 - Message Syntax"));
        assert_eq!(p.issued.as_deref(), Some("2014-06"));
        assert_eq!(p.modified.as_deref(), Some("2015-01-01T00:00:00Z"));
        assert_eq!(p.created, None);
        assert_eq!(p.replaces, ["urn:ietf:rfc:2145", "urn:ietf:rfc:2616"]);
    }
}
