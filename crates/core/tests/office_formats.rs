//! Word, OpenDocument, HTML and spreadsheets index through the one
//! extraction model (issue 20): real 18F handbook pages converted by pandoc
//! (`scripts/make-office-fixtures.sh`) keep the heading paths and chunk
//! texts of their Markdown originals beside them in one library; a
//! hand-made Word document keeps its list and table; an intranet page's
//! navigation and footer reach no chunk; spreadsheets made from the fee
//! CSV give its `lookup_table` rows, with date cells as dates.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use almirah_core::freshness::Provenance;
use almirah_core::read::TableLookup;
use almirah_core::store::FileStatus;

fn office() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../extract/tests/fixtures/office")
}

fn norm(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Each indexed file's chunks, `(heading path, text)` with white space
/// normalised, by file name.
fn chunks_by_file(engine: &almirah_core::Engine) -> BTreeMap<String, Vec<(Vec<String>, String)>> {
    let dbs = engine.store().dbs();
    let rtxn = engine.store().read_txn().unwrap();
    let mut out = BTreeMap::new();
    for entry in dbs.files.iter(&rtxn).unwrap() {
        let (path, record) = entry.unwrap();
        let Some(doc_id) = record.doc_id else { continue };
        let doc = dbs.documents.get(&rtxn, &doc_id).unwrap().unwrap();
        let chunks = doc
            .chunks
            .iter()
            .map(|id| dbs.chunks.get(&rtxn, id).unwrap().unwrap())
            .map(|c| (c.heading_path.iter().map(|h| norm(h)).collect(), norm(&c.text)))
            .collect();
        out.insert(path.rsplit('/').next().unwrap().to_string(), chunks);
    }
    out
}

#[test]
fn converted_handbook_pages_keep_the_heading_paths_and_chunk_texts_of_their_markdown() {
    let docs = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(office().join("handbook")).unwrap().flatten() {
        std::fs::copy(entry.path(), docs.path().join(entry.file_name())).unwrap();
    }
    let data = tempfile::tempdir().unwrap();
    let engine = common::hash_engine(data.path());
    let report = common::index(&engine, &[docs.path()]);
    let not_indexed: Vec<_> = report.outcomes.iter().filter(|o| o.status != Some(FileStatus::Indexed)).collect();
    assert!(not_indexed.is_empty(), "{not_indexed:?}");
    assert_eq!(report.outcomes.len(), 48, "12 pages in 4 formats");
    let chunks = chunks_by_file(&engine);
    let mut compared = 0;
    for (name, want) in chunks.iter().filter(|(n, _)| n.ends_with(".md")) {
        assert!(want.len() >= 3 && want.iter().any(|(path, _)| !path.is_empty()), "{name}: {want:?}");
        for ext in ["docx", "odt", "html"] {
            let other = name.replace(".md", &format!(".{ext}"));
            let got = &chunks[&other];
            for (i, (w, g)) in want.iter().zip(got).enumerate() {
                assert_eq!(w, g, "{other}: chunk {i} differs from {name}");
            }
            assert_eq!(want.len(), got.len(), "{other}: chunk count");
            compared += 1;
        }
    }
    assert_eq!(compared, 36);
    // Every converted document is current beside its original: the series
    // holds copies with no version to order them (properties' save dates
    // are weak), so none supersedes another.
    let as_of = engine.as_of(chrono::NaiveDate::from_ymd_opt(2026, 11, 29), None);
    let views = engine.documents(as_of).unwrap();
    assert_eq!(views.len(), 48);
    assert!(views.iter().all(|d| d.is_current()), "{:?}", views.iter().find(|d| !d.is_current()));
    let docx = views.iter().find(|d| d.path.ends_with("paid-parental-leave.docx")).unwrap();
    assert_eq!(docx.title, "Paid parental leave (PPL)");
    let issued = docx.meta.issued.as_ref().unwrap();
    assert_eq!((issued.value.to_string().as_str(), issued.source), ("2025-02-27", Provenance::Properties));
}

#[test]
fn a_hand_made_word_document_keeps_its_list_and_table() {
    let docs = tempfile::tempdir().unwrap();
    std::fs::copy(
        office().join("handmade/travel-allowance-circular.docx"),
        docs.path().join("travel-allowance-circular.docx"),
    )
    .unwrap();
    let data = tempfile::tempdir().unwrap();
    let engine = common::hash_engine(data.path());
    common::index(&engine, &[docs.path()]);
    let chunks = &chunks_by_file(&engine)["travel-allowance-circular.docx"];
    let allowance = chunks.iter().find(|(path, _)| path == &["Daily allowance"]).unwrap();
    assert!(
        allowance.1.contains("- Hotel invoices - Only for stays of more than one night - The approved tour programme"),
        "{allowance:?}"
    );
    assert!(allowance.1.contains("grade | city class | daily allowance (INR) Professor | X | 4500"), "{allowance:?}");
    let hits = common::search(&engine, "daily allowance assistant professor");
    assert!(hits.hits.iter().any(|h| h.text.contains("Assistant professor | X | 3500")));
    let as_of = engine.as_of(chrono::NaiveDate::from_ymd_opt(2026, 11, 29), None);
    let view = engine.documents(as_of).unwrap().remove(0);
    let title = view.meta.title.unwrap();
    assert_eq!((title.value.as_str(), title.source), ("Travel allowance circular 2026-27", Provenance::Title));
    let issued = view.meta.issued.unwrap();
    assert_eq!((issued.value.to_string().as_str(), issued.source), ("2026-03-02", Provenance::Properties));
}

#[test]
fn an_intranet_page_keeps_navigation_and_footer_out_of_every_chunk() {
    let docs = tempfile::tempdir().unwrap();
    std::fs::copy(office().join("handmade/intranet-leave-page.html"), docs.path().join("leave.html")).unwrap();
    let data = tempfile::tempdir().unwrap();
    let engine = common::hash_engine(data.path());
    common::index(&engine, &[docs.path()]);
    let chunks = &chunks_by_file(&engine)["leave.html"];
    let text: String = chunks.iter().map(|(_, t)| t.as_str()).collect::<Vec<_>>().join("\n");
    assert!(text.contains("Earned leave is 30 days a year"), "{text}");
    for chrome in ["Intranet home", "Staff directory", "Quick links", "Copyright", "Contact the web team", "trackVisit"]
    {
        assert!(!text.contains(chrome), "{chrome} in {text}");
    }
    let as_of = engine.as_of(chrono::NaiveDate::from_ymd_opt(2026, 11, 29), None);
    let view = engine.documents(as_of).unwrap().remove(0);
    assert_eq!(view.title, "Leave rules for staff");
    let issued = view.meta.issued.unwrap();
    assert_eq!((issued.value.to_string().as_str(), issued.source), ("2026-04-01", Provenance::Properties));
    let paths: Vec<&Vec<String>> = chunks.iter().map(|(p, _)| p).collect();
    assert!(paths.contains(&&vec!["Leave rules for staff".to_string(), "Earned leave".to_string()]), "{paths:?}");
}

/// What a lookup gave: document, sheet, headers, values, rows.
type Lookup = (String, Option<String>, Vec<String>, Vec<String>, Vec<(Vec<String>, String)>);

/// `lookup_table(table, key)` in a library holding only `file`.
fn lookup(file: &Path, table: &str, key: &str) -> Lookup {
    let docs = tempfile::tempdir().unwrap();
    std::fs::copy(file, docs.path().join(file.file_name().unwrap())).unwrap();
    let data = tempfile::tempdir().unwrap();
    let engine = common::hash_engine(data.path());
    let report = common::index(&engine, &[docs.path()]);
    assert_eq!(report.outcomes[0].status, Some(FileStatus::Indexed), "{:?}", report.outcomes);
    let as_of = engine.as_of(chrono::NaiveDate::from_ymd_opt(2026, 11, 29), None);
    match engine.lookup_table(table, key, 50, as_of).unwrap() {
        TableLookup::Rows { document, sheet, headers, rows, values } => {
            let rows = rows.into_iter().map(|h| (h.heading_path, h.text)).collect();
            (document, sheet, headers, values, rows)
        }
        other => panic!("{table}: {other:?}"),
    }
}

#[test]
fn spreadsheets_made_from_the_fee_csv_give_its_lookup_rows() {
    let csv = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../sample-docs/university/fees-2026-27.csv");
    for key in ["tuition", "hostel", "PhD", ""] {
        let want = lookup(&csv, "fees", key);
        assert!(!want.4.is_empty(), "{key}: the CSV has rows");
        for ext in ["xlsx", "ods"] {
            let got = lookup(&office().join(format!("sheets/fees-2026-27.{ext}")), "fees", key);
            assert_eq!(got, want, "{ext}: lookup_table(fees, {key:?})");
        }
    }
    let (document, _, headers, values, rows) = lookup(&office().join("sheets/fees-2026-27.xlsx"), "fees", "MTech");
    assert_eq!(document, "fees@2026-27");
    assert_eq!(headers, ["programme", "component", "amount_inr", "per"]);
    assert!(values.contains(&"hostel fee".to_string()), "{values:?}");
    assert_eq!(
        rows,
        [(
            vec!["fees-2026-27".to_string()],
            "programme: MTech; component: tuition; amount_inr: 48500; per: semester".to_string()
        )]
    );
}

#[test]
fn date_cells_read_as_dates_in_every_sheet() {
    for ext in ["xlsx", "ods"] {
        let file = office().join(format!("sheets/academic-calendar-2026-27.{ext}"));
        let (_, sheet, headers, _, rows) = lookup(&file, "academic-calendar-2026-27/semester", "hostel");
        assert_eq!(sheet.as_deref(), Some("Semester"), "{ext}");
        assert_eq!(headers, ["event", "starts", "ends"]);
        let path = vec!["academic-calendar-2026-27".to_string(), "Semester".to_string()];
        assert_eq!(rows, [(path, "event: Hostel fee due; starts: 2026-07-01; ends: 2026-07-15".to_string())], "{ext}");
        let (_, _, _, _, rows) = lookup(&file, "semester", "results");
        assert_eq!(rows[0].1, "event: Examination results; starts: 2026-12-18 17:30", "{ext}");
        let (_, sheet, _, _, rows) = lookup(&file, "office hours", "accounts");
        assert_eq!(sheet.as_deref(), Some("Office hours"));
        assert_eq!(rows[0].1, "office: Accounts; opens: 09:30; closes: 16:00", "{ext}");
    }
}
