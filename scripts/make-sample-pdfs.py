#!/usr/bin/env python3
"""Write the fictional university circulars in sample-docs/university/ as PDFs.

The Deccan Institute of Technology does not exist; these circulars are demo
and test material for Almirah's freshness gate (supersession, sessions,
effective dates). The text of every circular is kept in this script.

How to run (from the repository root):

    python3 -m venv /tmp/almirah-pdfvenv
    /tmp/almirah-pdfvenv/bin/pip install fpdf2
    /tmp/almirah-pdfvenv/bin/python scripts/make-sample-pdfs.py

It writes, in sample-docs/university/:

    Circular-09-2024-25.pdf   North-East scholarship: no hostel fee (full waiver)
    Circular-11-2026-27.pdf   end-semester examinations, November-December 2026
    Circular-12-2026-27.pdf   library hours
    Circular-14-2026-27.pdf   North-East scholarship: 50% hostel-fee concession,
                              in supersession of Circular No. 09 (2024-25)

The output is committed to the repository, so the tests and demos do not need
fpdf2. Run this script again only after changing the text below, and commit
the regenerated PDFs with it. The output is reproducible: the creation date
is fixed and fpdf2 derives the file id from the content, so an unchanged
script (with the same fpdf2 version) gives byte-identical PDFs.

The PDFs use the standard Helvetica font (no embedded fonts), A4 pages and a
real text layer, so `pdftotext` and other extractors read them. Helvetica has
no rupee sign, so amounts are written "Rs 14,000"; keep all text ASCII.
"""

from datetime import datetime, timezone
from pathlib import Path

from fpdf import FPDF
from fpdf.enums import XPos, YPos

OUT_DIR = Path(__file__).resolve().parent.parent / "sample-docs" / "university"

INSTITUTE = "DECCAN INSTITUTE OF TECHNOLOGY"
ADDRESS = "Rayagiri Campus, Deccan Plateau Road, Rayagiri 500 999  |  www.dit.example"

CIRCULARS = [
    {
        "file": "Circular-09-2024-25.pdf",
        "office": "Office of the Dean of Students",
        "number": "Circular No. 09 (2024-25)",
        "dated": "05.08.2024",
        "created": datetime(2024, 8, 5, 10, 0, tzinfo=timezone.utc),
        "subject": "Hostel fee for holders of the North-East Scholarship",
        "supersession": None,
        "body": [
            "With effect from 01.08.2024, students who hold the Institute's "
            "North-East Scholarship shall pay NO hostel fee. The hostel fee is "
            "waived in full for every semester in which the student holds the "
            "scholarship and lives in an Institute hostel.",
            "The waiver covers the hostel fee only. Mess charges, the "
            "examination fee and all other fees remain payable in full by the "
            "due dates in the academic handbook.",
        ],
        "sections": [
            ("Eligibility", [
                "The waiver applies to a student who (a) is registered for the "
                "BTech, MTech or PhD programme; (b) is domiciled in one of the "
                "eight north-eastern states: Arunachal Pradesh, Assam, Manipur, "
                "Meghalaya, Mizoram, Nagaland, Sikkim or Tripura; (c) holds the "
                "North-East Scholarship for the semester concerned; and (d) has "
                "been allotted a room in an Institute hostel.",
                "The waiver lapses from the semester in which the scholarship is "
                "withdrawn or not renewed.",
            ]),
            ("Documents to submit", [
                "Eligible students should submit the following to the "
                "Scholarship Cell, Room 112, Administrative Block, by "
                "31.08.2024: (1) the North-East Scholarship award or renewal "
                "letter; (2) a domicile certificate issued by the state "
                "government; (3) the hostel allotment letter for the session; "
                "(4) a copy of the Institute identity card. Students who have "
                "already paid the hostel fee for the odd semester of 2024-25 "
                "will have it refunded to their registered bank account.",
            ]),
            ("Contact", [
                "Scholarship Cell, Office of the Dean of Students: "
                "scholarships@dit.example, extension 2214, 10 am to 5 pm on "
                "working days.",
            ]),
        ],
        "signatory": ("Dean of Students", "Deccan Institute of Technology"),
        "copy_to": "Chief Warden; Accounts Section; all hostel wardens; "
                   "student notice boards.",
    },
    {
        "file": "Circular-11-2026-27.pdf",
        "office": "Office of the Controller of Examinations",
        "number": "Circular No. 11 (2026-27)",
        "dated": "06.07.2026",
        "created": datetime(2026, 7, 6, 10, 0, tzinfo=timezone.utc),
        "subject": "Schedule of end-semester examinations, November-December 2026",
        "supersession": None,
        "body": [
            "The end-semester examinations of the odd semester of 2026-27 will "
            "be held from Monday, 23.11.2026 to Friday, 04.12.2026. The "
            "forenoon session runs from 10:00 am to 1:00 pm and the afternoon "
            "session from 2:30 pm to 5:30 pm. The dates of the first papers "
            "are given below; the complete course-wise timetable will be "
            "published on the student portal by 02.11.2026.",
        ],
        "table": {
            "header": ("Date", "Day", "Session", "Programme and semester", "Paper"),
            "widths": (24, 24, 24, 48, 60),
            "rows": [
                ("23.11.2026", "Monday", "Forenoon", "BTech Semester I", "Engineering Mathematics I"),
                ("23.11.2026", "Monday", "Afternoon", "MTech Semester I", "Research Methodology"),
                ("24.11.2026", "Tuesday", "Forenoon", "BTech Semester III", "Data Structures"),
                ("25.11.2026", "Wednesday", "Forenoon", "BTech Semester V", "Operating Systems"),
                ("26.11.2026", "Thursday", "Forenoon", "BTech Semester VII", "Open Elective III"),
                ("27.11.2026", "Friday", "Afternoon", "PhD coursework", "Advanced Topics (all departments)"),
                ("30.11.2026", "Monday", "Forenoon", "BTech Semester I", "Engineering Physics"),
                ("04.12.2026", "Friday", "Forenoon", "All programmes", "Last paper of the semester"),
            ],
        },
        "sections": [
            ("Admit cards", [
                "Admit cards can be downloaded from the student portal from "
                "16.11.2026. Admit cards are issued only to students who have "
                "paid all fees due, including the examination fee, and who have "
                "at least 75% attendance in the course (after any condonation "
                "approved by the Dean of Academic Affairs).",
            ]),
            ("Instructions", [
                "Students must be seated 15 minutes before the start of each "
                "session and carry the admit card and the Institute identity "
                "card. No student will be admitted more than 30 minutes after "
                "the start of a session. Mobile phones and smart watches are not "
                "allowed in the examination hall.",
            ]),
            ("Contact", [
                "Office of the Controller of Examinations: exams@dit.example, "
                "extension 2301.",
            ]),
        ],
        "signatory": ("Controller of Examinations", "Deccan Institute of Technology"),
        "copy_to": "All Heads of Department; Dean of Academic Affairs; "
                   "Librarian; student notice boards.",
    },
    {
        "file": "Circular-12-2026-27.pdf",
        "office": "Office of the Librarian, Central Library",
        "number": "Circular No. 12 (2026-27)",
        "dated": "08.07.2026",
        "created": datetime(2026, 7, 8, 10, 0, tzinfo=timezone.utc),
        "subject": "Opening hours of the Central Library for the session 2026-27",
        "supersession": None,
        "body": [
            "With effect from 20.07.2026, the Central Library will keep the "
            "following opening hours:",
            "Weekdays (Monday to Saturday): 8:00 am to 11:00 pm.",
            "Sundays: 9:00 am to 6:00 pm.",
            "During examinations the closing time is extended to 12 midnight. "
            "For the end-semester examinations of November-December 2026 the "
            "library will stay open until midnight on every day, Sundays "
            "included, from 16.11.2026 to 04.12.2026.",
            "The library is closed on 15 August, 2 October and 26 January. On "
            "other public holidays it keeps Sunday hours.",
        ],
        "sections": [
            ("Borrowing", [
                "BTech students may borrow up to 4 books for 14 days, MTech "
                "students up to 6 books for 30 days, and PhD scholars up to 10 "
                "books for 60 days. A fine of Rs 5 a day is charged for each "
                "overdue book. The issue counter closes 30 minutes before the "
                "library closes.",
            ]),
            ("Reading hall and e-resources", [
                "The ground-floor reading hall keeps the same hours as the "
                "library. E-journals and databases can be used off campus at "
                "any time through the Institute's remote-access service.",
            ]),
            ("Contact", [
                "Circulation desk: library@dit.example, extension 2400.",
            ]),
        ],
        "signatory": ("Librarian", "Deccan Institute of Technology"),
        "copy_to": "Dean of Students; Chief Warden; student notice boards.",
    },
    {
        "file": "Circular-14-2026-27.pdf",
        "office": "Office of the Dean of Students",
        "number": "Circular No. 14 (2026-27)",
        "dated": "10.07.2026",
        "created": datetime(2026, 7, 10, 10, 0, tzinfo=timezone.utc),
        "subject": "Hostel fee for holders of the North-East Scholarship",
        "supersession": "In supersession of Circular No. 09 (2024-25) dated 05.08.2024",
        "body": [
            "With effect from 15.07.2026, students who hold the Institute's "
            "North-East Scholarship shall pay HALF the hostel fee: they receive "
            "a concession of 50% of the hostel fee for every semester in which "
            "they hold the scholarship and live in an Institute hostel.",
            "The hostel fee for the session 2026-27 is Rs 14,000 a semester. "
            "North-East Scholarship holders therefore pay Rs 7,000 a semester. "
            "The full waiver of the hostel fee granted by Circular No. 09 "
            "(2024-25) ends on 14.07.2026.",
            "The concession covers the hostel fee only. Mess charges, the "
            "examination fee and all other fees remain payable in full. The "
            "concessional hostel fee of Rs 7,000 for the odd semester is to be "
            "paid with the other semester fees by 31.07.2026.",
        ],
        "sections": [
            ("Eligibility", [
                "The concession applies to a student who (a) is registered for "
                "the BTech, MTech or PhD programme; (b) is domiciled in one of "
                "the eight north-eastern states: Arunachal Pradesh, Assam, "
                "Manipur, Meghalaya, Mizoram, Nagaland, Sikkim or Tripura; (c) "
                "holds the North-East Scholarship for the semester concerned; "
                "and (d) has been allotted a room in an Institute hostel.",
                "The concession lapses from the semester in which the "
                "scholarship is withdrawn or not renewed.",
            ]),
            ("Documents to submit", [
                "Eligible students should submit the following to the "
                "Scholarship Cell, Room 112, Administrative Block, by "
                "31.07.2026: (1) the North-East Scholarship award or renewal "
                "letter for 2026-27; (2) a domicile certificate issued by the "
                "state government; (3) the hostel allotment letter for "
                "2026-27; (4) a copy of the Institute identity card. Students "
                "who submitted these documents under Circular No. 09 (2024-25) "
                "need to submit only items (1) and (3).",
            ]),
            ("Contact", [
                "Scholarship Cell, Office of the Dean of Students: "
                "scholarships@dit.example, extension 2214, 10 am to 5 pm on "
                "working days.",
            ]),
        ],
        "signatory": ("Dean of Students", "Deccan Institute of Technology"),
        "copy_to": "Chief Warden; Accounts Section; all hostel wardens; "
                   "student notice boards.",
    },
]


class CircularPDF(FPDF):
    def __init__(self, office):
        super().__init__(orientation="P", unit="mm", format="A4")
        self.office = office
        self.set_margins(20, 18, 20)
        self.set_auto_page_break(auto=True, margin=20)

    def header(self):
        # Letterhead on the first page only; later pages get a short running head.
        if self.page_no() == 1:
            self.set_font("Helvetica", "B", 16)
            self.cell(0, 8, INSTITUTE, align="C", new_x=XPos.LMARGIN, new_y=YPos.NEXT)
            self.set_font("Helvetica", "", 9)
            self.cell(0, 5, ADDRESS, align="C", new_x=XPos.LMARGIN, new_y=YPos.NEXT)
            self.set_font("Helvetica", "B", 11)
            self.cell(0, 6, self.office, align="C", new_x=XPos.LMARGIN, new_y=YPos.NEXT)
            self.set_line_width(0.6)
            y = self.get_y() + 1
            self.line(20, y, 190, y)
            self.set_line_width(0.2)
            self.set_y(y + 5)
        else:
            self.set_font("Helvetica", "I", 8)
            self.cell(0, 5, f"{INSTITUTE} - {self.office}", align="R",
                      new_x=XPos.LMARGIN, new_y=YPos.NEXT)
            self.ln(3)

    def footer(self):
        self.set_y(-14)
        self.set_font("Helvetica", "I", 8)
        self.cell(0, 5, f"Page {self.page_no()} of {{nb}}", align="C")


def check_ascii(circ):
    def walk(x):
        if isinstance(x, str):
            yield x
        elif isinstance(x, (list, tuple)):
            for y in x:
                yield from walk(y)
        elif isinstance(x, dict):
            for y in x.values():
                yield from walk(y)
    for s in walk(circ):
        if not s.isascii():
            raise SystemExit(f"{circ['file']}: non-ASCII text: {s!r}")


def build(circ):
    check_ascii(circ)
    pdf = CircularPDF(circ["office"])
    pdf.set_title(f"{circ['number']}: {circ['subject']}")
    pdf.set_author(f"{circ['office']}, Deccan Institute of Technology")
    pdf.set_subject(circ["subject"])
    pdf.set_creator("scripts/make-sample-pdfs.py (Almirah sample documents)")
    pdf.set_creation_date(circ["created"])
    pdf.add_page()

    # Reference number and date, each on its own line.
    pdf.set_font("Helvetica", "B", 11)
    pdf.cell(0, 6, circ["number"], new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.cell(0, 6, f"Dated: {circ['dated']}", new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.ln(4)

    pdf.set_font("Helvetica", "B", 11)
    pdf.multi_cell(0, 6, f"Subject: {circ['subject']}", new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    if circ["supersession"]:
        pdf.set_font("Helvetica", "BI", 10)
        pdf.multi_cell(0, 6, circ["supersession"], new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.ln(3)

    pdf.set_font("Helvetica", "", 10.5)
    for para in circ["body"]:
        pdf.multi_cell(0, 5.5, para, align="L", new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        pdf.ln(2.5)

    table = circ.get("table")
    if table:
        pdf.set_font("Helvetica", "", 9.5)
        with pdf.table(col_widths=table["widths"], text_align="LEFT",
                       line_height=6, first_row_as_headings=True) as t:
            for row in [table["header"], *table["rows"]]:
                r = t.row()
                for cell in row:
                    r.cell(cell)
        pdf.ln(4)

    for heading, paras in circ["sections"]:
        pdf.set_font("Helvetica", "B", 10.5)
        pdf.cell(0, 6, heading, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        pdf.set_font("Helvetica", "", 10.5)
        for para in paras:
            pdf.multi_cell(0, 5.5, para, align="L", new_x=XPos.LMARGIN, new_y=YPos.NEXT)
            pdf.ln(2.5)

    # Signature block.
    pdf.ln(8)
    pdf.set_font("Helvetica", "", 10.5)
    # "(Signed)" rather than the customary "Sd/-": pdftotext would read a
    # trailing hyphen as a line-end hyphenation and glue it to the next line.
    pdf.cell(0, 6, "(Signed)", align="R", new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.line(130, pdf.get_y() + 1, 190, pdf.get_y() + 1)
    pdf.ln(2)
    pdf.set_font("Helvetica", "B", 10.5)
    pdf.cell(0, 6, circ["signatory"][0], align="R", new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.set_font("Helvetica", "", 10.5)
    pdf.cell(0, 6, circ["signatory"][1], align="R", new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.ln(6)
    pdf.set_font("Helvetica", "", 9)
    pdf.multi_cell(0, 5, f"Copy to: {circ['copy_to']}", new_x=XPos.LMARGIN, new_y=YPos.NEXT)

    out = OUT_DIR / circ["file"]
    pdf.output(str(out))
    return out


def main():
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    for circ in CIRCULARS:
        print(f"wrote {build(circ).relative_to(OUT_DIR.parent.parent)}")


if __name__ == "__main__":
    main()
