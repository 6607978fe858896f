//! Spreadsheets (`.xlsx` SpreadsheetML, ECMA-376 Part 1 §18; `.xls` BIFF8,
//! MS-XLS; `.ods`, OASIS ODF 1.3 Part 3 §9) read with calamine 0.38. Each
//! worksheet with rows becomes a [`Table`] with one section per row, exactly
//! as a CSV file does ([`crate::tabular`]).
//!
//! Cells are read sparsely: `.xlsx` through calamine's streaming cell
//! reader, so a sheet whose dimension claims a million rows costs only the
//! cells it holds; a sheet with more than [`MAX_CELLS`] values, or a table
//! wider × longer than [`MAX_TABLE_CELLS`], is refused as too large. The
//! first row with a value is the header row; columns empty in every row are
//! dropped; an empty header cell becomes `column N`. Values are written as
//! a reader sees them: whole numbers without `.0`, dates and times in ISO
//! form (`2026-07-01`, `2026-07-01 09:30`, `09:30`), durations `h:mm:ss`,
//! booleans `TRUE`/`FALSE`, errors as Excel shows them (`#DIV/0!`).
//! Number formats (currency, percentages, decimals shown) are not applied:
//! a cell reads as the value stored (`0.05`, not `5%`).

use std::collections::{BTreeMap, BTreeSet};
use std::io::Cursor;
use std::path::Path;

use calamine::{Data, DataRef, ExcelDateTime, Ods, Reader, Xls, Xlsx};

use crate::container::{Container, Package, sniff};
use crate::guard::guarded;
use crate::ole::{self, OleKind};
use crate::tabular::{Row, stem, table_doc, table_sections};
use crate::{ExtractError, Extracted, FileKind, Limits, Properties, Table};

/// Most non-empty cells read from one sheet.
pub(crate) const MAX_CELLS: usize = 2_000_000;
/// Most cells (rows × columns) of one sheet's table.
pub(crate) const MAX_TABLE_CELLS: usize = 4_000_000;

/// A sheet's non-empty cells: `(row, column, text)`, 0-based.
type Cells = Vec<(u32, u32, String)>;

/// Extract a workbook.
pub(crate) fn extract_sheets(path: &Path, kind: FileKind, bytes: &[u8]) -> Result<Extracted, ExtractError> {
    let (sheets, properties) = match sniff(bytes) {
        Container::Ole => match ole::classify(bytes)? {
            OleKind::EncryptedOoxml => return Err(ExtractError::NeedsPassword),
            OleKind::Excel97 => (read_xls(bytes)?, Properties::default()),
            OleKind::Word97 => return Err(ole::word97()),
            OleKind::PowerPoint97 | OleKind::Other => return Err(ExtractError::Unsupported),
        },
        Container::Zip => read_zip(bytes)?,
        Container::Other if bytes.iter().all(u8::is_ascii_whitespace) => return Err(ExtractError::Empty),
        Container::Rtf | Container::Other => {
            return Err(ExtractError::Failed("not a spreadsheet: neither a ZIP package nor an OLE file".into()));
        }
    };
    let kind = match (kind, sniff(bytes)) {
        (FileKind::Xls, Container::Zip) => FileKind::Xlsx,
        (k, _) => k,
    };
    build(&stem(path), kind, sheets, properties)
}

/// An `.xlsx` or `.ods` package, checked against the ZIP limits first.
fn read_zip(bytes: &[u8]) -> Result<(Vec<(String, Cells)>, Properties), ExtractError> {
    let mut pkg = Package::open(bytes, "spreadsheet", Limits::default())?;
    pkg.check_all()?;
    if pkg.has("content.xml") {
        if pkg.text("META-INF/manifest.xml")?.is_some_and(|m| m.contains("encryption-data")) {
            return Err(ExtractError::NeedsPassword);
        }
        let properties = pkg.text("meta.xml")?.map(|m| crate::odt::meta(&m)).unwrap_or_default();
        return Ok((read_ods(bytes)?, properties));
    }
    let properties = pkg
        .text("docProps/core.xml")?
        .map(|x| crate::docx::core_properties(&x, "docProps/core.xml"))
        .unwrap_or_default();
    Ok((read_xlsx(bytes)?, properties))
}

fn read_xlsx(bytes: &[u8]) -> Result<Vec<(String, Cells)>, ExtractError> {
    guarded(|| {
        let mut book: Xlsx<_> = Xlsx::new(Cursor::new(bytes)).map_err(|e| sheet_error(&e.to_string()))?;
        let mut out = Vec::new();
        for name in book.sheet_names() {
            let Ok(mut reader) = book.worksheet_cells_reader(&name) else { continue };
            let mut cells = Vec::new();
            while let Some(cell) = reader.next_cell().map_err(|e| sheet_error(&e.to_string()))? {
                let (row, col) = cell.get_position();
                if let Some(text) = ref_text(cell.get_value()) {
                    push_cell(&mut cells, &name, (row, col, text))?;
                }
            }
            out.push((name, cells));
        }
        Ok(out)
    })?
}

fn read_xls(bytes: &[u8]) -> Result<Vec<(String, Cells)>, ExtractError> {
    guarded(|| {
        let book: Xls<_> = Xls::new(Cursor::new(bytes)).map_err(|e| sheet_error(&e.to_string()))?;
        ranges(book)
    })?
}

fn read_ods(bytes: &[u8]) -> Result<Vec<(String, Cells)>, ExtractError> {
    guarded(|| {
        let book: Ods<_> = Ods::new(Cursor::new(bytes)).map_err(|e| sheet_error(&e.to_string()))?;
        ranges(book)
    })?
}

/// Every sheet of a reader that gives whole ranges (`.xls`, `.ods`).
fn ranges<RS, R>(mut book: R) -> Result<Vec<(String, Cells)>, ExtractError>
where
    RS: std::io::Read + std::io::Seek,
    R: Reader<RS>,
    R::Error: std::fmt::Display,
{
    let mut out = Vec::new();
    for name in book.sheet_names() {
        let range = book.worksheet_range(&name).map_err(|e| sheet_error(&e.to_string()))?;
        let (row0, col0) = range.start().unwrap_or((0, 0));
        let mut cells = Vec::new();
        for (r, c, value) in range.used_cells() {
            if let Some(text) = data_text(value) {
                push_cell(&mut cells, &name, (row0 + r as u32, col0 + c as u32, text))?;
            }
        }
        out.push((name, cells));
    }
    Ok(out)
}

fn push_cell(cells: &mut Cells, sheet: &str, cell: (u32, u32, String)) -> Result<(), ExtractError> {
    if cells.len() >= MAX_CELLS {
        return Err(ExtractError::Failed(format!("too large: sheet {sheet:?} holds more than {MAX_CELLS} values")));
    }
    cells.push(cell);
    Ok(())
}

/// A calamine error as a status: a password is `needs-password`.
fn sheet_error(message: &str) -> ExtractError {
    if message.contains("password protected") {
        ExtractError::NeedsPassword
    } else {
        ExtractError::Failed(format!("spreadsheet: {message}"))
    }
}

/// The workbook's tables and row sections.
fn build(
    stem: &str,
    kind: FileKind,
    sheets: Vec<(String, Cells)>,
    properties: Properties,
) -> Result<Extracted, ExtractError> {
    let filled: Vec<(String, Cells)> = sheets.into_iter().filter(|(_, c)| !c.is_empty()).collect();
    let several = filled.len() > 1;
    let (mut tables, mut sections): (Vec<Table>, Vec<_>) = (Vec::new(), Vec::new());
    for (name, cells) in filled {
        let path = if several { vec![stem.to_string(), name.clone()] } else { vec![stem.to_string()] };
        let (headers, rows) = grid(&name, cells)?;
        let (table, rows) = table_sections(headers, rows, &path, several.then_some(name));
        if !rows.is_empty() {
            tables.push(table);
            sections.extend(rows);
        }
    }
    table_doc(kind, tables, sections, properties)
}

/// Headers and data rows of a sheet's cells (row numbers as offsets).
fn grid(sheet: &str, cells: Cells) -> Result<(Vec<String>, Vec<Row>), ExtractError> {
    let columns: BTreeSet<u32> = cells.iter().map(|(_, c, _)| *c).collect();
    let index: BTreeMap<u32, usize> = columns.iter().enumerate().map(|(i, c)| (*c, i)).collect();
    let mut rows: BTreeMap<u32, Vec<String>> = BTreeMap::new();
    for (r, c, text) in cells {
        if !rows.contains_key(&r) && (rows.len() + 1).saturating_mul(columns.len()) > MAX_TABLE_CELLS {
            return Err(ExtractError::Failed(format!(
                "too large: sheet {sheet:?} spans more than {MAX_TABLE_CELLS} cells ({} columns)",
                columns.len()
            )));
        }
        let row = rows.entry(r).or_insert_with(|| vec![String::new(); columns.len()]);
        if let Some(cell) = index.get(&c).and_then(|i| row.get_mut(*i)) {
            *cell = text;
        }
    }
    let mut rows = rows.into_iter();
    let headers = rows.next().map(|(_, h)| h).unwrap_or_default();
    let headers = headers
        .into_iter()
        .enumerate()
        .map(|(i, h)| if h.is_empty() { format!("column {}", i + 1) } else { h })
        .collect();
    Ok((headers, rows.map(|(r, cells)| (u64::from(r), cells)).collect()))
}

/// A streamed `.xlsx` cell as text; `None` when empty.
fn ref_text(value: &DataRef<'_>) -> Option<String> {
    let text = match value {
        DataRef::Int(i) => i.to_string(),
        DataRef::Float(f) => number(*f),
        DataRef::String(s) => s.trim().to_string(),
        DataRef::SharedString(s) => s.trim().to_string(),
        DataRef::Bool(b) => bool_text(*b),
        DataRef::DateTime(d) => date_time(d),
        DataRef::DateTimeIso(s) => iso_date_time(s),
        DataRef::DurationIso(s) => iso_duration(s),
        DataRef::Error(e) => e.to_string(),
        DataRef::Empty => String::new(),
    };
    (!text.is_empty()).then_some(text)
}

/// A cell of a whole range as text; `None` when empty.
fn data_text(value: &Data) -> Option<String> {
    let text = match value {
        Data::Int(i) => i.to_string(),
        Data::Float(f) => number(*f),
        Data::String(s) => s.trim().to_string(),
        Data::Bool(b) => bool_text(*b),
        Data::DateTime(d) => date_time(d),
        Data::DateTimeIso(s) => iso_date_time(s),
        Data::DurationIso(s) => iso_duration(s),
        Data::Error(e) => e.to_string(),
        Data::Empty => String::new(),
    };
    (!text.is_empty()).then_some(text)
}

/// A number as written in a cell: `62500`, not `62500.0`.
fn number(f: f64) -> String {
    if f.fract() == 0.0 && f.abs() < 1e15 { format!("{}", f as i64) } else { f.to_string() }
}

fn bool_text(b: bool) -> String {
    if b { "TRUE" } else { "FALSE" }.to_string()
}

/// An Excel serial date (1900 or 1904 epoch) in ISO form: the date alone
/// at midnight, the time alone before day 1, seconds only when set.
fn date_time(d: &ExcelDateTime) -> String {
    if d.is_duration() {
        let secs = (d.as_f64() * 86_400.0).round() as i64;
        return format!("{}:{:02}:{:02}", secs / 3600, (secs / 60) % 60, secs % 60);
    }
    let (y, mo, day, h, mi, s, _) = d.to_ymd_hms_milli();
    let time = if s > 0 { format!("{h:02}:{mi:02}:{s:02}") } else { format!("{h:02}:{mi:02}") };
    if d.as_f64() < 1.0 {
        return time;
    }
    let date = format!("{y:04}-{mo:02}-{day:02}");
    if (h, mi, s) == (0, 0, 0) { date } else { format!("{date} {time}") }
}

/// An ODF date-time value (`2026-07-01`, `2026-07-01T09:30:00`) in the
/// same form as [`date_time`].
fn iso_date_time(s: &str) -> String {
    let s = s.trim();
    let Some((date, time)) = s.split_once('T') else { return s.to_string() };
    let time = time.split('.').next().unwrap_or(time);
    let time = time.strip_suffix(":00").unwrap_or(time);
    if time == "00:00" { date.to_string() } else { format!("{date} {time}") }
}

/// An ODF time value (`PT09H30M00S`; ODF writes times of day as
/// durations) as `09:30`, seconds only when set.
fn iso_duration(s: &str) -> String {
    let Some(rest) = s.trim().strip_prefix("PT") else { return s.trim().to_string() };
    let mut parts = [0u64; 3];
    let mut num = String::new();
    for c in rest.chars() {
        let slot = match c {
            'H' => Some(0),
            'M' => Some(1),
            'S' => Some(2),
            _ => None,
        };
        match slot {
            Some(i) => {
                parts[i] = num.split('.').next().unwrap_or("0").parse().unwrap_or(0);
                num.clear();
            }
            None => num.push(c),
        }
    }
    let [h, m, sec] = parts;
    if sec > 0 { format!("{h:02}:{m:02}:{sec:02}") } else { format!("{h:02}:{m:02}") }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use calamine::ExcelDateTimeType;

    use super::*;

    #[test]
    fn values_read_as_a_person_reads_them() {
        assert_eq!(number(62500.0), "62500");
        assert_eq!(number(0.05), "0.05");
        let date = ExcelDateTime::new(46204.0, ExcelDateTimeType::DateTime, false);
        assert_eq!(date_time(&date), "2026-07-01");
        let with_time = ExcelDateTime::new(46204.395833333336, ExcelDateTimeType::DateTime, false);
        assert_eq!(date_time(&with_time), "2026-07-01 09:30");
        let time = ExcelDateTime::new(0.5, ExcelDateTimeType::DateTime, false);
        assert_eq!(date_time(&time), "12:00");
        let span = ExcelDateTime::new(1.5, ExcelDateTimeType::TimeDelta, false);
        assert_eq!(date_time(&span), "36:00:00");
        assert_eq!(iso_date_time("2026-07-01"), "2026-07-01");
        assert_eq!(iso_date_time("2026-07-01T09:30:00"), "2026-07-01 09:30");
        assert_eq!(iso_duration("PT09H30M00S"), "09:30");
        assert_eq!(iso_duration("PT36H00M05S"), "36:00:05");
    }

    #[test]
    fn the_first_row_heads_and_empty_columns_go() {
        let cells = vec![
            (2, 1, "programme".to_string()),
            (2, 5, "fee".to_string()),
            (3, 1, "BTech".to_string()),
            (3, 5, "62500".to_string()),
            (7, 5, "1".to_string()),
        ];
        let (headers, rows) = grid("Fees", cells).unwrap();
        assert_eq!(headers, ["programme", "fee"]);
        assert_eq!(
            rows,
            vec![(3, vec!["BTech".to_string(), "62500".to_string()]), (7, vec![String::new(), "1".into()])]
        );
    }
}
