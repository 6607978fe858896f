//! CSV extraction with the `csv` crate (flexible record lengths). The file is
//! kept as a [`Table`] and each row becomes a searchable section rendered as
//! `header: value; header: value` (empty cells omitted).

use std::collections::BTreeMap;
use std::path::Path;

use crate::{ExtractError, Extracted, FileKind, Section, Table, decode, quality};

/// Extract a CSV file (first record = headers).
pub(crate) fn extract_csv(path: &Path, bytes: &[u8]) -> Result<Extracted, ExtractError> {
    let decoded = decode::decode(bytes);
    let (headers, records) = read_records(&decoded.text)?;
    let (table, sections) = table_sections(headers, records, &[stem(path)], None);
    table_doc(FileKind::Csv, vec![table], sections, crate::Properties::default())
}

/// The file name without its extension: the heading of a table's rows.
pub(crate) fn stem(path: &Path) -> String {
    path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default()
}

/// A table and one section per row with a value, under `heading_path`.
/// Headers are extended to the widest row (`column 4`, …) and rows padded
/// with empty cells to that width.
pub(crate) fn table_sections(
    mut headers: Vec<String>,
    records: Vec<Row>,
    heading_path: &[String],
    sheet: Option<String>,
) -> (Table, Vec<Section>) {
    let width = records.iter().map(|(_, r)| r.len()).max().unwrap_or(0).max(headers.len());
    for i in headers.len()..width {
        headers.push(format!("column {}", i + 1));
    }
    let sections: Vec<Section> =
        records.iter().filter_map(|(off, row)| row_section(&headers, row, *off, heading_path)).collect();
    let rows = records.into_iter().map(|(_, r)| pad(r, width)).collect();
    (Table { headers, rows, sheet }, sections)
}

/// A table kind's document from its tables and row sections.
///
/// # Errors
/// [`ExtractError::Empty`] when no row has a value.
pub(crate) fn table_doc(
    kind: FileKind,
    tables: Vec<Table>,
    sections: Vec<Section>,
    properties: crate::Properties,
) -> Result<Extracted, ExtractError> {
    if sections.is_empty() {
        return Err(ExtractError::Empty);
    }
    let all: String = sections.iter().map(|s| s.text.as_str()).collect();
    Ok(Extracted {
        kind,
        title: None,
        front_matter: BTreeMap::new(),
        quality: quality::score(&all),
        sections,
        tables,
        properties,
        pages: None,
        notes: Vec::new(),
        ocr: None,
    })
}

/// A data row with its byte offset in the decoded text (its row number
/// for spreadsheets).
pub(crate) type Row = (u64, Vec<String>);

/// Headers and data rows; fails on malformed CSV or a missing header row.
fn read_records(text: &str) -> Result<(Vec<String>, Vec<Row>), ExtractError> {
    let mut reader = csv::ReaderBuilder::new().flexible(true).has_headers(false).from_reader(text.as_bytes());
    let mut headers = None;
    let mut rows = Vec::new();
    for record in reader.records() {
        let record = record.map_err(|e| ExtractError::Failed(format!("csv: {e}")))?;
        let offset = record.position().map_or(0, csv::Position::byte);
        let cells: Vec<String> = record.iter().map(|c| c.trim().to_string()).collect();
        if headers.is_none() {
            headers = Some(cells);
        } else if cells.iter().any(|c| !c.is_empty()) {
            rows.push((offset, cells));
        }
    }
    headers.map(|h| (h, rows)).ok_or(ExtractError::Empty)
}

/// `row` extended with empty cells to `width`.
fn pad(mut row: Vec<String>, width: usize) -> Vec<String> {
    row.resize(width, String::new());
    row
}

/// One row as `header: value; …`, or `None` when every cell is empty.
fn row_section(headers: &[String], row: &[String], offset: u64, heading_path: &[String]) -> Option<Section> {
    let text = headers
        .iter()
        .zip(row)
        .filter(|(_, v)| !v.is_empty())
        .map(|(h, v)| format!("{h}: {v}"))
        .collect::<Vec<_>>()
        .join("; ");
    (!text.is_empty()).then(|| Section { heading_path: heading_path.to_vec(), text, page: None, source_offset: offset })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn rows_are_padded_and_rendered() {
        let csv = "grade,rate,note\nGS-12,54.2\nGS-13,64.5,\"cap, 2024\",extra\n";
        let doc = extract_csv(Path::new("pay/rates.csv"), csv.as_bytes()).unwrap();
        let table = doc.tables.into_iter().next().unwrap();
        assert_eq!(table.headers, ["grade", "rate", "note", "column 4"]);
        assert_eq!(table.rows[0], ["GS-12", "54.2", "", ""]);
        assert_eq!(doc.sections[1].text, "grade: GS-13; rate: 64.5; note: cap, 2024; column 4: extra");
        assert_eq!(doc.sections[0].heading_path, ["rates"]);
        assert_eq!(doc.sections[1].source_offset, 27);
        assert_eq!(&csv[27..32], "GS-13");
    }

    #[test]
    fn header_only_is_empty() {
        assert_eq!(extract_csv(Path::new("a.csv"), b"a,b\n").unwrap_err(), ExtractError::Empty);
    }
}
