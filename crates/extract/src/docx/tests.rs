#![allow(clippy::unwrap_used)]

use super::*;
use crate::testing::{outline, zip_of};

const STYLES: &str = r#"<w:styles xmlns:w="w">
  <w:style w:type="paragraph" w:styleId="Title"><w:name w:val="Title"/></w:style>
  <w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/></w:style>
  <w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/></w:style>
  <w:style w:type="paragraph" w:styleId="SourceCode"><w:name w:val="Source Code"/></w:style>
  <w:style w:type="paragraph" w:styleId="TOC1"><w:name w:val="toc 1"/></w:style>
</w:styles>"#;

const NUMBERING: &str = r#"<w:numbering xmlns:w="w">
  <w:abstractNum w:abstractNumId="1"><w:lvl w:ilvl="0"><w:numFmt w:val="bullet"/><w:lvlText w:val="•"/></w:lvl><w:lvl w:ilvl="1"><w:numFmt w:val="bullet"/><w:lvlText w:val="o"/></w:lvl></w:abstractNum>
  <w:abstractNum w:abstractNumId="2"><w:lvl w:ilvl="0"><w:numFmt w:val="bullet"/><w:lvlText w:val=" "/></w:lvl></w:abstractNum>
  <w:num w:numId="5"><w:abstractNumId w:val="1"/></w:num>
  <w:num w:numId="6"><w:abstractNumId w:val="2"/></w:num>
</w:numbering>"#;

fn para(style: &str, text: &str) -> String {
    let style = if style.is_empty() { String::new() } else { format!(r#"<w:pPr><w:pStyle w:val="{style}"/></w:pPr>"#) };
    format!(r#"<w:p>{style}<w:r><w:t xml:space="preserve">{text}</w:t></w:r></w:p>"#)
}

fn item(num: u32, level: u32, text: &str) -> String {
    format!(
        r#"<w:p><w:pPr><w:numPr><w:ilvl w:val="{level}"/><w:numId w:val="{num}"/></w:numPr></w:pPr><w:r><w:t>{text}</w:t></w:r></w:p>"#
    )
}

fn docx(body: &str, notes: Option<&str>) -> Vec<u8> {
    let document =
        format!(r#"<?xml version="1.0"?><w:document xmlns:w="w"><w:body>{body}<w:sectPr/></w:body></w:document>"#);
    let core = r#"<cp:coreProperties xmlns:cp="c" xmlns:dc="d" xmlns:dcterms="t"><dc:title>Core title</dc:title><dcterms:modified>2025-02-27T17:51:14Z</dcterms:modified></cp:coreProperties>"#;
    let mut entries: Vec<(&str, &[u8])> = vec![
        ("word/document.xml", document.as_bytes()),
        ("word/styles.xml", STYLES.as_bytes()),
        ("word/numbering.xml", NUMBERING.as_bytes()),
        ("docProps/core.xml", core.as_bytes()),
    ];
    if let Some(n) = notes {
        entries.push(("word/footnotes.xml", n.as_bytes()));
    }
    zip_of(&entries)
}

fn read(body: &str) -> Extracted {
    extract_docx(FileKind::Docx, &docx(body, None)).unwrap()
}

#[test]
fn headings_lists_tables_and_code_render_as_markdown_does() {
    let body = [
        para("Title", "Leave policy"),
        para("", "Intro # not | a *heading*."),
        para("Heading1", "Earned leave"),
        item(5, 0, "one"),
        item(5, 1, "nested"),
        item(5, 0, "two"),
        item(6, 0, "more about two"),
        r#"<w:tbl><w:tblPr/><w:tr><w:tc><w:p><w:r><w:t>grade</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>days</w:t></w:r></w:p></w:tc></w:tr><w:tr><w:tc><w:p><w:r><w:t>GS-12</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>18</w:t></w:r></w:p><w:p><w:r><w:t>a year</w:t></w:r></w:p></w:tc></w:tr></w:tbl>"#.to_string(),
        para("Heading2", "Code"),
        r#"<w:p><w:pPr><w:pStyle w:val="SourceCode"/></w:pPr><w:r><w:t>let x = 1;</w:t></w:r><w:r><w:br/></w:r><w:r><w:br/></w:r><w:r><w:t>let y = 2;</w:t></w:r></w:p>"#.to_string(),
    ]
    .concat();
    let doc = read(&body);
    assert_eq!(doc.title.as_deref(), Some("Leave policy"));
    assert_eq!(doc.properties.title.as_deref(), Some("Core title"));
    assert_eq!(doc.properties.modified.as_deref(), Some("2025-02-27T17:51:14Z"));
    let leave = vec!["Earned leave".to_string()];
    let code = vec!["Earned leave".to_string(), "Code".to_string()];
    assert_eq!(
        outline(&doc),
        vec![
            (vec![], "Intro # not | a *heading*.".to_string()),
            (leave, "- one\n  - nested\n\n- two\nmore about two\n\ngrade | days\nGS-12 | 18 a year".to_string()),
            (code, "let x = 1;\n\nlet y = 2;".to_string()),
        ]
    );
}

#[test]
fn deletions_field_codes_fallbacks_and_tables_of_contents_are_not_text() {
    let body = [
        para("TOC1", "Earned leave ........ 3"),
        r#"<w:sdt><w:sdtPr><w:docPartObj><w:docPartGallery w:val="Table of Contents"/></w:docPartObj></w:sdtPr><w:sdtContent><w:p><w:r><w:t>Contents</w:t></w:r></w:p></w:sdtContent></w:sdt>"#.to_string(),
        r#"<w:p><w:pPr><w:tabs><w:tab w:val="left" w:pos="720"/></w:tabs></w:pPr><w:r><w:t>Kept </w:t></w:r><w:del><w:r><w:delText>deleted </w:delText></w:r></w:del><w:ins><w:r><w:t>inserted </w:t></w:r></w:ins><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> PAGE </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>7</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>"#.to_string(),
        r#"<w:p><w:r><mc:AlternateContent xmlns:mc="m"><mc:Choice><w:drawing><wp:docPr xmlns:wp="p" descr="Org chart"/></w:drawing></mc:Choice><mc:Fallback><w:pict><w:t>Org chart</w:t></w:pict></mc:Fallback></mc:AlternateContent></w:r></w:p>"#.to_string(),
    ]
    .concat();
    assert_eq!(outline(&read(&body)), vec![(vec![], "Kept inserted 7\n\nOrg chart".to_string())]);
}

#[test]
fn footnotes_follow_the_body_and_references_are_dropped() {
    let body = r#"<w:p><w:r><w:t>Text with a note</w:t></w:r><w:r><w:footnoteReference w:id="2"/></w:r><w:r><w:t>.</w:t></w:r></w:p>"#;
    let notes = r#"<w:footnotes xmlns:w="w"><w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote><w:footnote w:id="2"><w:p><w:r><w:footnoteRef/></w:r><w:r><w:t xml:space="preserve"> The note body.</w:t></w:r></w:p></w:footnote></w:footnotes>"#;
    let doc = extract_docx(FileKind::Docx, &docx(body, Some(notes))).unwrap();
    assert_eq!(outline(&doc), vec![(vec![], "Text with a note.\n\nThe note body.".to_string())]);
}

#[test]
fn other_containers_get_their_status() {
    assert_eq!(extract_docx(FileKind::Docx, b"").unwrap_err(), ExtractError::Empty);
    assert!(matches!(extract_docx(FileKind::Docx, b"{\\rtf1 x}"), Err(ExtractError::NeedsConversion(_))));
    assert!(
        matches!(extract_docx(FileKind::Doc, b"plain words"), Err(ExtractError::NeedsConversion(m)) if m.contains(".docx"))
    );
    let err = extract_docx(FileKind::Docx, b"plain words").unwrap_err();
    assert_eq!(err, ExtractError::Failed("not a Word document: not a ZIP package".into()));
    let only_title = docx(&para("Title", "Just a title"), None);
    assert_eq!(extract_docx(FileKind::Docx, &only_title).unwrap_err(), ExtractError::Empty);
    let doc = extract_docx(FileKind::Doc, &docx(&para("", "A docx named doc."), None)).unwrap();
    assert_eq!(doc.kind, FileKind::Docx);
    assert_eq!(doc.notes, ["an Office Open XML document named .doc"]);
}
