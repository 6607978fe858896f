#!/usr/bin/env python3
"""The hand-made office fixtures of issue 20 (called by make-office-fixtures.sh).

Writes, under crates/extract/tests/fixtures/office:
- sheets/fees-2026-27.xlsx and .ods: sample-docs/university/fees-2026-27.csv
  as a workbook of one sheet (numbers as numbers, text as text);
- sheets/academic-calendar-2026-27.xlsx and .ods: two sheets with date,
  date-time and time cells (dates must read as dates, not serial numbers);
- handmade/travel-allowance-circular.docx: a Word document made with
  python-docx from Word's own default template (its "Title", "Heading 1",
  "List Bullet", "List Bullet 2" and "List Number" styles, a table with a
  header row, core properties with a title and a modified date);
- handmade/password-protected.docx: that document encrypted with the
  password "almirah" by msoffcrypto-tool (ECMA-376 agile encryption: an OLE
  compound file holding EncryptionInfo and EncryptedPackage, as Word writes).

Needs openpyxl, odfpy, python-docx and msoffcrypto-tool (the shell script
installs them in a venv from PyPI). File times inside the packages are fixed so that a
re-run changes nothing but what the code changes.
"""

import csv
import datetime as dt
import pathlib
import sys

import docx
import openpyxl
from msoffcrypto.format.ooxml import OOXMLFile
from odf.opendocument import OpenDocumentSpreadsheet
from odf.table import Table, TableCell, TableRow
from odf.text import P

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "crates/extract/tests/fixtures/office"
FIXED = dt.datetime(2026, 3, 2, 10, 0, 0)


def fees_rows():
    with open(ROOT / "sample-docs/university/fees-2026-27.csv", newline="") as f:
        rows = list(csv.reader(f))
    typed = [rows[0]]
    for row in rows[1:]:
        typed.append([int(c) if c.isdigit() else c for c in row])
    return typed


CALENDAR = {
    "Semester": [
        ["event", "starts", "ends"],
        ["Odd semester classes", dt.date(2026, 7, 20), dt.date(2026, 11, 20)],
        ["Hostel fee due", dt.date(2026, 7, 1), dt.date(2026, 7, 15)],
        ["Examination results", dt.datetime(2026, 12, 18, 17, 30), None],
    ],
    "Office hours": [
        ["office", "opens", "closes"],
        ["Accounts", dt.time(9, 30), dt.time(16, 0)],
        ["Hostel warden", dt.time(8, 0), dt.time(20, 0)],
    ],
}


def write_xlsx(path, sheets):
    book = openpyxl.Workbook()
    book.remove(book.active)
    for name, rows in sheets.items():
        sheet = book.create_sheet(name)
        for row in rows:
            sheet.append(row)
    book.properties.created = FIXED
    book.properties.modified = FIXED
    book.save(path)


def odf_cell(value):
    if value is None:
        return TableCell()
    if isinstance(value, int):
        cell = TableCell(valuetype="float", value=value)
    elif isinstance(value, dt.datetime):
        cell = TableCell(valuetype="date", datevalue=value.strftime("%Y-%m-%dT%H:%M:%S"))
    elif isinstance(value, dt.date):
        cell = TableCell(valuetype="date", datevalue=value.isoformat())
    elif isinstance(value, dt.time):
        cell = TableCell(valuetype="time", timevalue=value.strftime("PT%HH%MM%SS"))
    else:
        cell = TableCell(valuetype="string")
    cell.addElement(P(text=str(value)))
    return cell


def write_ods(path, sheets):
    doc = OpenDocumentSpreadsheet()
    for name, rows in sheets.items():
        table = Table(name=name)
        for row in rows:
            tr = TableRow()
            for value in row:
                tr.addElement(odf_cell(value))
            table.addElement(tr)
        doc.spreadsheet.addElement(table)
    doc.save(str(path))


def write_docx(path):
    d = docx.Document()
    d.add_paragraph("Travel allowance circular 2026-27", style="Title")
    d.add_paragraph("This circular sets the daily allowance for official travel. "
                    "Literal marks stay text: # not a heading, * not a list, | not a table.")
    d.add_paragraph("Daily allowance", style="Heading 1")
    d.add_paragraph("Claims need the following:")
    d.add_paragraph("Tickets or boarding passes", style="List Bullet")
    d.add_paragraph("Hotel invoices", style="List Bullet")
    d.add_paragraph("Only for stays of more than one night", style="List Bullet 2")
    d.add_paragraph("The approved tour programme", style="List Bullet")
    table = d.add_table(rows=1, cols=3)
    for cell, text in zip(table.rows[0].cells, ["grade", "city class", "daily allowance (INR)"]):
        cell.text = text
    for row in [["Professor", "X", "4500"], ["Assistant professor", "X", "3500"], ["Staff", "Y", "2500"]]:
        cells = table.add_row().cells
        for cell, text in zip(cells, row):
            cell.text = text
    d.add_paragraph("How to claim", style="Heading 1")
    d.add_paragraph("Submit the claim form to the accounts office", style="List Number")
    d.add_paragraph("Attach the receipts within 15 days of return", style="List Number")
    props = d.core_properties
    props.title = "Travel allowance circular 2026-27"
    props.author = "Registrar"
    props.created = FIXED
    props.modified = FIXED
    props.last_modified_by = "Registrar"
    props.revision = 1
    d.save(path)


def write_encrypted(plain, path):
    with open(plain, "rb") as src, open(path, "wb") as out:
        OOXMLFile(src).encrypt("almirah", out)


def main():
    (OUT / "sheets").mkdir(parents=True, exist_ok=True)
    (OUT / "handmade").mkdir(parents=True, exist_ok=True)
    fees = {"fees": fees_rows()}
    write_xlsx(OUT / "sheets/fees-2026-27.xlsx", fees)
    write_ods(OUT / "sheets/fees-2026-27.ods", fees)
    write_xlsx(OUT / "sheets/academic-calendar-2026-27.xlsx", CALENDAR)
    write_ods(OUT / "sheets/academic-calendar-2026-27.ods", CALENDAR)
    write_docx(OUT / "handmade/travel-allowance-circular.docx")
    write_encrypted(OUT / "handmade/travel-allowance-circular.docx", OUT / "handmade/password-protected.docx")
    print("wrote", OUT / "sheets", "and", OUT / "handmade", file=sys.stderr)


if __name__ == "__main__":
    main()
