//! Bad office files through the real binary (child-process extraction with
//! its time and memory limits, issue 20): a truncated `.docx`, ZIP bombs
//! renamed `.docx` (one huge entry; tens of thousands of entries), a 50 MB
//! HTML page, an `.xlsx` with a million empty rows, a password-protected
//! `.docx` and a Word 97-2003 `.doc` each end with a clear status within
//! the limits, and the good files of the same batch are indexed.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::collections::BTreeMap;
use std::io::{Cursor, Write};
use std::path::Path;
use std::time::{Duration, Instant};

fn office() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../extract/tests/fixtures/office")
}

fn deflated() -> zip::write::SimpleFileOptions {
    zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated).large_file(true)
}

/// A `.docx` whose `word/document.xml` expands to `mib` MiB (about 1 MiB
/// on disk per 1000 MiB inside).
fn size_bomb(mib: usize) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
    w.start_file("word/document.xml", deflated()).unwrap();
    let block = vec![b' '; 1 << 20];
    for _ in 0..mib {
        w.write_all(&block).unwrap();
    }
    w.finish().unwrap().into_inner()
}

/// A `.docx` of `n` tiny entries.
fn entry_bomb(n: usize) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let stored = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    for i in 0..n {
        w.start_file(format!("word/media/{i}.xml"), stored).unwrap();
        w.write_all(b"<a/>").unwrap();
    }
    w.finish().unwrap().into_inner()
}

/// A workbook whose sheet declares a million rows: a header, three fee
/// rows, then a million formatted but empty rows.
fn empty_rows_xlsx() -> Vec<u8> {
    let mut sheet = String::from(
        r#"<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><dimension ref="A1:B1000004"/><sheetData>"#,
    );
    let cell = |r: usize, c: char, v: &str| format!(r#"<c r="{c}{r}" t="inlineStr"><is><t>{v}</t></is></c>"#);
    for (r, (a, b)) in
        [(1, ("item", "fee")), (2, ("hostel", "14000")), (3, ("mess", "19500")), (4, ("library", "5000"))]
    {
        sheet.push_str(&format!(r#"<row r="{r}">{}{}</row>"#, cell(r, 'A', a), cell(r, 'B', b)));
    }
    for r in 5..1_000_005 {
        sheet.push_str(&format!(r#"<row r="{r}"><c r="A{r}" s="1"/></row>"#));
    }
    sheet.push_str("</sheetData></worksheet>");
    let parts = [
        ("[Content_Types].xml", r#"<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>"#.to_string()),
        ("_rels/.rels", r#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>"#.to_string()),
        ("xl/workbook.xml", r#"<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Fees" sheetId="1" r:id="rId1"/></sheets></workbook>"#.to_string()),
        ("xl/_rels/workbook.xml.rels", r#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>"#.to_string()),
        ("xl/worksheets/sheet1.xml", sheet),
    ];
    let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
    for (name, text) in parts {
        w.start_file(name, deflated()).unwrap();
        w.write_all(text.as_bytes()).unwrap();
    }
    w.finish().unwrap().into_inner()
}

/// A 50 MB page: a site's navigation, a 48 MB inline script and image
/// blob, and a long policy of numbered sections.
fn big_html() -> Vec<u8> {
    let mut page = String::from("<!DOCTYPE html><html><head><title>Archived policies</title><script>var blob = \"");
    page.push_str(&"QUFBQUFBQUFB".repeat(3_000_000));
    page.push_str("\";</script></head><body><nav><a href='/'>Home</a></nav><main><h1>Archived policies</h1>");
    let mut n = 0;
    while page.len() < 50_000_000 {
        n += 1;
        page.push_str(&format!(
            "<h2>Section {n}</h2><p>Rule {n}: requests under section {n} go to the registrar within {} days.</p>",
            n % 30 + 1
        ));
    }
    page.push_str("</main><footer>Archive footer</footer></body></html>");
    page.into_bytes()
}

/// A Word 97-2003 document: an OLE compound file with a `WordDocument` stream.
fn legacy_doc() -> Vec<u8> {
    let mut file = cfb::CompoundFile::create(Cursor::new(Vec::new())).unwrap();
    file.create_stream("/WordDocument").unwrap().write_all(&[0xEC, 0xA5, 0xC1, 0x00]).unwrap();
    file.create_stream("/1Table").unwrap().write_all(&[0; 64]).unwrap();
    file.flush().unwrap();
    file.into_inner().into_inner()
}

#[test]
fn bad_office_files_each_get_a_clear_status_and_the_rest_of_the_batch_indexes() {
    let docs = tempfile::tempdir().unwrap();
    let d = docs.path();
    let circular = std::fs::read(office().join("handmade/travel-allowance-circular.docx")).unwrap();
    std::fs::write(d.join("good.docx"), &circular).unwrap();
    std::fs::copy(office().join("handmade/intranet-leave-page.html"), d.join("good.html")).unwrap();
    std::fs::copy(office().join("sheets/fees-2026-27.xlsx"), d.join("fees-2026-27.xlsx")).unwrap();
    std::fs::write(d.join("truncated.docx"), &circular[..circular.len() * 6 / 10]).unwrap();
    let bomb = size_bomb(1024);
    assert!(bomb.len() < 4 << 20, "a bomb is small on disk: {} bytes", bomb.len());
    std::fs::write(d.join("bomb.docx"), bomb).unwrap();
    std::fs::write(d.join("entries.docx"), entry_bomb(20_000)).unwrap();
    std::fs::write(d.join("archive.html"), big_html()).unwrap();
    std::fs::write(d.join("empty-rows.xlsx"), empty_rows_xlsx()).unwrap();
    std::fs::copy(office().join("handmade/password-protected.docx"), d.join("locked.docx")).unwrap();
    std::fs::write(d.join("old.doc"), legacy_doc()).unwrap();

    let lib = common::Library::with_config(
        "[embedder]\nprovider = \"hash\"\ndimensions = 64\n[index]\nextract_timeout_secs = 60\nextract_memory_mib = 2048\n",
    );
    let started = Instant::now();
    let out = lib.run(&["--json", "index", "--quiet", "--no-wait", d.to_str().unwrap()]);
    let took = started.elapsed();
    assert_eq!(out.status.code(), Some(2), "failures exit 2; stderr: {}", String::from_utf8_lossy(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let outcomes: BTreeMap<String, (String, String)> = report["outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            let name = o["path"].as_str().unwrap().rsplit('/').next().unwrap().to_string();
            (name, (o["status"].as_str().unwrap_or("").to_string(), o["reason"].as_str().unwrap_or("").to_string()))
        })
        .collect();
    let status = |name: &str| outcomes.get(name).unwrap_or_else(|| panic!("{name} not in {outcomes:?}")).clone();
    for good in ["good.docx", "good.html", "fees-2026-27.xlsx", "archive.html", "empty-rows.xlsx"] {
        assert_eq!(status(good).0, "indexed", "{good}: {:?}", status(good));
    }
    let (s, reason) = status("truncated.docx");
    assert!(s == "failed" && reason.contains("damaged or truncated"), "{s}: {reason}");
    let (s, reason) = status("bomb.docx");
    assert!(s == "failed" && reason.contains("expands past 256 MiB") && reason.contains("ZIP bomb"), "{s}: {reason}");
    let (s, reason) = status("entries.docx");
    assert!(s == "failed" && reason.contains("20000 entries"), "{s}: {reason}");
    assert_eq!(status("locked.docx").0, "needs-password");
    let (s, reason) = status("old.doc");
    assert!(s == "needs-conversion" && reason.contains("save it as .docx"), "{s}: {reason}");
    assert!(took < Duration::from_secs(600), "the batch took {took:?}");

    // The good rows of the sheet with a million empty rows are there, and
    // the page's navigation and footer are not.
    let hits = lib.json(&["search", "mess", "-k", "3"]);
    let texts: Vec<&str> =
        hits["results"]["hits"].as_array().unwrap().iter().map(|h| h["text"].as_str().unwrap()).collect();
    assert!(texts.contains(&"item: mess; fee: 19500"), "{texts:?}");
    let footer = lib.json(&["search", "archive footer home", "-k", "50"]);
    let all: Vec<&str> =
        footer["results"]["hits"].as_array().unwrap().iter().map(|h| h["text"].as_str().unwrap()).collect();
    assert!(all.iter().all(|t| !t.contains("Archive footer")), "{all:?}");
}
