#![allow(clippy::unwrap_used)]

use super::*;
use crate::testing::{outline, zip_of};

fn odt(text: &str, manifest: &str) -> Vec<u8> {
    let content = format!(
        r#"<?xml version="1.0"?><office:document-content xmlns:office="o" xmlns:text="t" xmlns:table="b" xmlns:style="s"><office:automatic-styles><style:style style:name="P4" style:family="paragraph" style:parent-style-name="Preformatted_20_Text"/></office:automatic-styles><office:body><office:text>{text}</office:text></office:body></office:document-content>"#
    );
    let meta = r#"<office:document-meta xmlns:office="o" xmlns:dc="d" xmlns:meta="m"><office:meta><dc:title>Meta title</dc:title><meta:creation-date>2025-01-02T03:04:05Z</meta:creation-date><dc:date>2025-02-27T17:51:14Z</dc:date></office:meta></office:document-meta>"#;
    zip_of(&[
        ("mimetype", b"application/vnd.oasis.opendocument.text"),
        ("META-INF/manifest.xml", manifest.as_bytes()),
        ("content.xml", content.as_bytes()),
        ("meta.xml", meta.as_bytes()),
    ])
}

#[test]
fn headings_lists_tables_code_and_notes_render_as_markdown_does() {
    let text = r#"
  <text:p text:style-name="Title">Leave   policy</text:p>
  <text:p text:style-name="Text_20_body">Intro   with
     spaces<text:s text:c="2"/>kept # | *x*.</text:p>
  <text:h text:outline-level="1">Earned <text:span>leave</text:span></text:h>
  <text:list>
    <text:list-item><text:p>one</text:p></text:list-item>
    <text:list-item><text:p>two</text:p><text:p>more about two</text:p>
      <text:list><text:list-item><text:p>nested</text:p></text:list-item></text:list>
    </text:list-item>
  </text:list>
  <table:table><table:table-header-rows><table:table-row><table:table-cell><text:p>grade</text:p></table:table-cell><table:table-cell><text:p>days</text:p></table:table-cell></table:table-row></table:table-header-rows>
    <table:table-row><table:table-cell><text:p>GS-12</text:p></table:table-cell><table:table-cell><text:p>18</text:p><text:p>a year</text:p></table:table-cell></table:table-row></table:table>
  <text:h text:outline-level="2">Code</text:h>
  <text:p text:style-name="P4">let x = 1;</text:p><text:p text:style-name="P4"/><text:p text:style-name="P4"><text:s text:c="2"/>let y = 2;</text:p>
  <text:p>Noted<text:note><text:note-citation>1</text:note-citation><text:note-body><text:p>The note body.</text:p></text:note-body></text:note>.<office:annotation><text:p>a comment</text:p></office:annotation></text:p>
  <text:table-of-content><text:index-body><text:p>Earned leave 3</text:p></text:index-body></text:table-of-content>"#;
    let doc = extract_odt(&odt(text, "<manifest:manifest/>")).unwrap();
    assert_eq!(doc.title.as_deref(), Some("Leave policy"));
    assert_eq!(doc.properties.title.as_deref(), Some("Meta title"));
    assert_eq!(doc.properties.created.as_deref(), Some("2025-01-02T03:04:05Z"));
    assert_eq!(doc.properties.modified.as_deref(), Some("2025-02-27T17:51:14Z"));
    let leave = vec!["Earned leave".to_string()];
    let code = vec!["Earned leave".to_string(), "Code".to_string()];
    assert_eq!(
        outline(&doc),
        vec![
            (vec![], "Intro with spaces  kept # | *x*.".to_string()),
            (leave, "- one\n- two\nmore about two\n  - nested\n\ngrade | days\nGS-12 | 18 a year".to_string()),
            (code, "let x = 1;\n\n  let y = 2;\n\nNoted.\n\nThe note body.".to_string()),
        ]
    );
}

#[test]
fn an_encrypted_package_needs_a_password() {
    let manifest = r#"<manifest:manifest><manifest:file-entry manifest:full-path="content.xml"><manifest:encryption-data/></manifest:file-entry></manifest:manifest>"#;
    assert_eq!(extract_odt(&odt("<text:p>x</text:p>", manifest)).unwrap_err(), ExtractError::NeedsPassword);
    assert!(matches!(extract_odt(b"not a zip"), Err(ExtractError::Failed(m)) if m.contains("not a ZIP package")));
}
