//! Text extraction and structure-aware chunking.
//!
//! `extract` turns one file's bytes into an [`Extracted`] document (sections with
//! heading paths and page numbers, front matter, an optional table); `chunk`
//! splits it along that structure into [`ChunkDraft`]s. Both are pure functions
//! of their input: no I/O beyond the bytes given, no global state, so the core
//! can run them in a child process (ARCHITECTURE §4) and cache by content hash.
//!
//! INTERFACE CONTRACT (owned by the core; implementation lives in submodules).

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

mod binary;
mod chunk;
mod container;
mod decode;
mod docx;
mod frontmatter;
mod guard;
mod html;
mod markdown;
pub mod ocr;
mod odt;
mod ole;
mod pdf;
mod quality;
mod render;
mod sheet;
mod shortcode;
mod structure;
mod tabular;
#[cfg(test)]
mod testing;
mod text;
mod xml;

pub use container::Limits;

/// The kinds of file Almirah reads, decided by extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FileKind {
    /// `.md`, `.markdown`.
    Markdown,
    /// `.txt`, `.text` and extension-less text.
    Text,
    /// `.pdf`.
    Pdf,
    /// `.csv`.
    Csv,
    /// `.docx`, `.docm`: Office Open XML WordprocessingML (ECMA-376).
    Docx,
    /// `.odt`: OpenDocument Text (OASIS ODF 1.3).
    Odt,
    /// `.html`, `.htm`, `.xhtml` (WHATWG HTML).
    Html,
    /// `.xlsx`, `.xlsm`: Office Open XML SpreadsheetML.
    Xlsx,
    /// `.xls`: Excel 97-2003 (BIFF8 in an OLE compound file).
    Xls,
    /// `.ods`: OpenDocument Spreadsheet.
    Ods,
    /// `.doc`: Word 97-2003, not read; its status says to save it as `.docx`.
    Doc,
    /// Anything else; recorded with status `unsupported`.
    Unsupported,
}

impl FileKind {
    /// Whether files of this kind are kept as tables for `lookup_table`
    /// (CSV and spreadsheets), each row a section.
    pub fn is_table(self) -> bool {
        matches!(self, FileKind::Csv | FileKind::Xlsx | FileKind::Xls | FileKind::Ods)
    }

    /// The kind's name as stored and shown (`markdown`, `docx`, …).
    pub fn name(self) -> &'static str {
        match self {
            FileKind::Markdown => "markdown",
            FileKind::Text => "text",
            FileKind::Pdf => "pdf",
            FileKind::Csv => "csv",
            FileKind::Docx => "docx",
            FileKind::Odt => "odt",
            FileKind::Html => "html",
            FileKind::Xlsx => "xlsx",
            FileKind::Xls => "xls",
            FileKind::Ods => "ods",
            FileKind::Doc => "doc",
            FileKind::Unsupported => "unsupported",
        }
    }
}

/// File extensions Almirah reads (lower case, without the dot), for file
/// pickers and drop targets. Extension-less files are read as text too.
pub const READ_EXTENSIONS: &[&str] = &[
    "md", "markdown", "txt", "text", "pdf", "csv", "docx", "docm", "odt", "html", "htm", "xhtml", "xlsx", "xlsm",
    "xls", "ods",
];

/// One structural unit of a document: the text under a heading (Markdown,
/// Word, OpenDocument, HTML), a PDF page, a block of plain text, or one row
/// of a table (CSV, spreadsheets).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Section {
    /// Headings from the top level down to this section; empty when none.
    pub heading_path: Vec<String>,
    /// Clean text of the section (no front matter, no shortcodes, no control bytes).
    pub text: String,
    /// 1-based PDF page number; `None` for non-paginated formats.
    pub page: Option<u32>,
    /// Byte offset of this section's text in the source file (Markdown, text,
    /// CSV, HTML), in the page's extracted text (PDF), in the XML part holding
    /// it (`word/document.xml`, `content.xml`), or the 0-based row number in
    /// its sheet (spreadsheets). Chunk spans are relative to it.
    pub source_offset: u64,
}

/// A CSV file or one spreadsheet sheet, kept as a table for the
/// `lookup_table` tool.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Table {
    /// Header row.
    pub headers: Vec<String>,
    /// Data rows, each as long as `headers` (short rows padded with "").
    pub rows: Vec<Vec<String>>,
    /// The sheet's name for a workbook of several sheets (its rows' heading
    /// path is `[file stem, sheet]`); `None` for a CSV file or a workbook
    /// of one sheet (heading path `[file stem]`, as for CSV).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sheet: Option<String>,
}

/// What a file states about itself outside its text: the OOXML core
/// properties (`docProps/core.xml`, ECMA-376 Part 2 §11), the ODF
/// `meta.xml` (OASIS ODF 1.3 Part 3 §4), or an HTML page's `<title>` and
/// `<meta>` elements (WHATWG HTML §4.2). Office software fills these in by
/// itself (a template's title, the last save as the modified date), so the
/// core treats them as weak metadata, with their own provenance.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Properties {
    /// Where they were read: `docProps/core.xml`, `meta.xml` or `<head>`;
    /// empty when the file has none.
    pub source: String,
    /// The declared title (`dc:title`, HTML `<title>`).
    pub title: Option<String>,
    /// Date of issue as written (HTML `dcterms.issued`, `DC.date`, `date`,
    /// `article:published_time`): ISO 8601, possibly `YYYY-MM` only.
    pub issued: Option<String>,
    /// Creation date as written (`dcterms:created`, `meta:creation-date`).
    pub created: Option<String>,
    /// Last modification as written (`dcterms:modified`, ODF `dc:date`,
    /// HTML `dcterms.modified`).
    pub modified: Option<String>,
    /// Documents this one replaces, as written (`<meta name="dct.replaces">`
    /// on the IETF's RFC pages: `urn:ietf:rfc:2616`).
    pub replaces: Vec<String>,
}

/// The result of extracting one file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Extracted {
    /// What the file was read as.
    pub kind: FileKind,
    /// Front-matter title, else the `Title`-styled paragraph (Word,
    /// OpenDocument), else the first heading (the first `<h1>` for HTML),
    /// else the PDF info title, else `None`.
    pub title: Option<String>,
    /// Front matter (YAML `---` or TOML `+++`) as JSON values; never chunked.
    pub front_matter: BTreeMap<String, serde_json::Value>,
    /// Sections in document order.
    pub sections: Vec<Section>,
    /// The tables of a CSV file (one) or a spreadsheet (one per sheet that
    /// has rows); empty for other kinds.
    pub tables: Vec<Table>,
    /// The file's own document properties (weak metadata; see [`Properties`]).
    #[serde(default)]
    pub properties: Properties,
    /// Number of pages for PDFs.
    pub pages: Option<u32>,
    /// Share of characters, 0.0..=1.0, in plausible whitespace-separated tokens:
    /// tokens with a letter or digit, no U+FFFD/private-use/control character,
    /// every combining mark (Indic vowel sign, virama, Thai mark) attached to a
    /// valid base, and no OCR-style case or digit noise. PDFs below 0.8 are
    /// reported as [`ExtractError::LowQualityText`].
    pub quality: f32,
    /// Non-fatal notes, e.g. "opened with empty password", "3 pages had no text".
    pub notes: Vec<String>,
    /// Set when the text was read by OCR: languages, and each page's outcome
    /// and confidence.
    #[serde(default)]
    pub ocr: Option<ocr::OcrReport>,
}

impl Extracted {
    /// The title to show and to give chunks as context: [`Extracted::title`],
    /// else the file's declared title ([`Properties::title`]) unless it is a
    /// placeholder ("Untitled", "Microsoft Word - x.docx", a file name).
    pub fn best_title(&self) -> Option<String> {
        self.title.clone().or_else(|| self.properties.sane_title())
    }
}

impl Properties {
    /// [`Properties::title`] unless it is a placeholder or garbled.
    pub fn sane_title(&self) -> Option<String> {
        self.title.clone().filter(|t| pdf::sane_title(t))
    }
}

/// Why a file produced no indexable text. The `Display` form is the status
/// string shown to users (`needs-password`, `no-text-layer`, ...).
#[derive(Debug, Clone, PartialEq, thiserror::Error, Serialize, Deserialize)]
#[serde(tag = "status", content = "reason", rename_all = "kebab-case")]
pub enum ExtractError {
    /// Encrypted PDF that does not open with the empty password, or a
    /// password-protected Office or OpenDocument file.
    #[error("needs-password")]
    NeedsPassword,
    /// A format Almirah does not read but can read once converted: a Word
    /// 97-2003 `.doc` or an RTF file; the reason says what to save it as.
    #[error("needs-conversion: {0}")]
    NeedsConversion(String),
    /// PDF whose pages carry no text (scanned images).
    #[error("no-text-layer")]
    NoTextLayer,
    /// Text came out garbled: [`Extracted::quality`] below 0.8 (the score is kept).
    #[error("low-quality-text: score {0:.2}")]
    LowQualityText(f32),
    /// The file type is not one Almirah reads.
    #[error("unsupported")]
    Unsupported,
    /// Bytes that are neither a known format nor text of a known encoding.
    #[error("not text and not a known format")]
    Binary,
    /// A readable file with nothing to index (no text, a heading alone, a
    /// table with a header row only).
    #[error("no text to index")]
    Empty,
    /// Anything else, with the parser's reason.
    #[error("failed: {0}")]
    Failed(String),
    /// A scan or a garbled text layer (`was`) that OCR could not read
    /// either: the programs or languages are missing (the reason names the
    /// packages), no page had text, or the OCR text was garbled too.
    #[error("{was}; {reason}")]
    Unread {
        /// Why the text layer was not used.
        was: Box<ExtractError>,
        /// Why OCR did not help.
        reason: String,
    },
    /// A scan or a garbled text layer (`was`) that OCR could not try: its
    /// programs or languages are not installed (the reason names the packages).
    #[error("{was}; {reason}")]
    OcrUnavailable {
        /// Why the text layer was not used.
        was: Box<ExtractError>,
        /// What is missing and the packages to install.
        reason: String,
    },
}

impl ExtractError {
    /// The error that decides the file's status: `was` for [`ExtractError::Unread`].
    pub fn status_error(&self) -> &ExtractError {
        match self {
            ExtractError::Unread { was, .. } | ExtractError::OcrUnavailable { was, .. } => was.status_error(),
            other => other,
        }
    }

    /// Whether OCR may read what the text layer could not: no text layer, a
    /// garbled one, or a PDF lopdf/pdf-extract could not parse (poppler
    /// recovers many of those).
    pub fn wants_ocr(&self) -> bool {
        matches!(self, ExtractError::NoTextLayer | ExtractError::LowQualityText(_) | ExtractError::Failed(_))
    }
}

/// Chunking parameters, in characters.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ChunkOptions {
    /// Smallest chunk the splitter aims for, in characters (default 400).
    pub min_chars: usize,
    /// Largest chunk, in characters (default 1200).
    pub max_chars: usize,
}

impl Default for ChunkOptions {
    fn default() -> Self {
        Self { min_chars: 400, max_chars: 1200 }
    }
}

/// One chunk before it gets ids and embeddings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChunkDraft {
    /// 0-based position of the chunk within its document.
    pub ordinal: u32,
    /// Heading path of the section the chunk came from.
    pub heading_path: Vec<String>,
    /// Slug of the innermost heading (or `p<page>` for PDFs, `text` otherwise),
    /// used for readable chunk keys such as `overtime@2024-11-26::pay-cap#2`.
    pub anchor: String,
    /// The chunk text.
    pub text: String,
    /// Byte span `[start, end)` in the source (see [`Section::source_offset`]).
    pub byte_span: (u64, u64),
    /// First and last 1-based page, for PDFs.
    pub pages: Option<(u32, u32)>,
}

/// Decide how a path is read, by its extension (case-insensitive).
pub fn kind_of(path: &Path) -> FileKind {
    let ext = path.extension().map(|e| e.to_string_lossy().to_ascii_lowercase());
    match ext.as_deref() {
        Some("md" | "markdown") => FileKind::Markdown,
        Some("txt" | "text") | None => FileKind::Text,
        Some("pdf") => FileKind::Pdf,
        Some("csv") => FileKind::Csv,
        Some("docx" | "docm") => FileKind::Docx,
        Some("odt") => FileKind::Odt,
        Some("html" | "htm" | "xhtml") => FileKind::Html,
        Some("xlsx" | "xlsm") => FileKind::Xlsx,
        Some("xls") => FileKind::Xls,
        Some("ods") => FileKind::Ods,
        Some("doc") => FileKind::Doc,
        Some(_) => FileKind::Unsupported,
    }
}

/// Remove the template tags `extract` removes from Markdown (`{% … %}`,
/// `{{ … }}`, `{# … #}`; `{% slack_channel "x" %}` becomes `#x`, `{% image
/// "src" "alt" %}` its alt text), for tools that hand the same Markdown to
/// another converter (`scripts/make-office-fixtures.sh`).
pub fn strip_templates(markdown: &str) -> String {
    shortcode::strip_templates(markdown).text
}

/// Extract one file, read as [`kind_of`] decides.
///
/// Every format yields the same structure (ARCHITECTURE §4): sections under
/// heading paths whose text renders paragraphs, `- ` list items (indented two
/// spaces a level), table rows as cells joined by ` | ` and code verbatim,
/// exactly as for Markdown, so chunking, metadata, citations and
/// `lookup_table` work alike for all of them (the private `structure` module feeds the
/// Markdown renderer the CommonMark events of each format).
///
/// - Markdown: pulldown-cmark 0.13 (CommonMark + GFM); YAML (`---`) or TOML
///   (`+++`) front matter goes to [`Extracted::front_matter`], template tags
///   (`{% %}`, `{{ }}`, `{# #}`) are removed, one [`Section`] per heading.
/// - Text: encoding from the BOM (UTF-8, UTF-16 LE/BE), else UTF-8 if valid,
///   else guessed by chardetng and decoded by encoding_rs (WHATWG Encoding
///   Standard); control characters except `\n`, `\r`, `\t` are removed.
/// - PDF: pdf-extract 0.12.1 page by page (1-based [`Section::page`]); lopdf
///   tries the empty password on encrypted files. A page that fails or panics
///   is skipped and noted in [`Extracted::notes`].
/// - CSV: the `csv` crate with flexible rows; one section per data row.
/// - Word `.docx` (ECMA-376 Part 1 §17, WordprocessingML): `word/document.xml`
///   read with quick-xml from the ZIP package (the `zip` crate); headings
///   from paragraph styles (`heading 1`…`heading 9`, or an outline level),
///   the `Title` style as the title, lists from numbering (a level with no
///   bullet or number continues the item), tables, code styles verbatim,
///   footnotes and endnotes at the end; tracked deletions, field codes,
///   tables of contents, comments, headers and footers are left out.
///   [`Extracted::properties`] holds `docProps/core.xml`.
/// - OpenDocument `.odt` (OASIS ODF 1.3 Part 3 §5, §9): `content.xml`
///   with `text:h` outline levels, lists, tables, notes at the end,
///   ODF white-space rules (§6.1.2); `meta.xml` as properties.
/// - HTML (WHATWG HTML, parsed by html5ever through scraper): the `<main>`
///   element (or `role="main"`), else `<body>`, without navigation, page
///   headers and footers, asides, scripts, styles, forms, hidden elements
///   and footnote back-links; `<h1>`…`<h6>` as headings; `<title>`, dated
///   `<meta>` elements and `<meta name="dct.replaces">` as properties.
///   The encoding comes from the BOM, `<meta charset>`, UTF-8 validity or
///   chardetng.
/// - Spreadsheets `.xlsx`, `.xls`, `.ods` (calamine): each sheet with rows
///   becomes a [`Table`] (first non-empty row = headers, empty columns
///   dropped) and one section per row, as for CSV; date cells are written
///   as ISO dates (`2026-07-01`, `2026-07-01 09:30`), whole numbers without
///   a decimal point.
///
/// Offsets in [`Section::source_offset`] are described there.
///
/// # Errors
/// - [`ExtractError::Unsupported`] for other extensions;
/// - [`ExtractError::NeedsPassword`] for a PDF the empty password does not
///   open, and for password-protected Office files (an OLE compound file
///   holding `EncryptionInfo` and `EncryptedPackage`, ECMA-376 Part 2 /
///   MS-OFFCRYPTO), OpenDocument files (`manifest:encryption-data`) and
///   `.xls` workbooks;
/// - [`ExtractError::NeedsConversion`] for a Word 97-2003 `.doc` or RTF;
/// - [`ExtractError::NoTextLayer`] when no PDF page has text (scans);
/// - [`ExtractError::LowQualityText`] when the PDF text scores below 0.8 on the
///   plausible-token heuristic (garbled Devanagari, lost CJK glyphs, OCR noise);
/// - [`ExtractError::Binary`] for Markdown, text, CSV or extension-less
///   files whose bytes are not text (a NUL byte, or control-byte noise; see
///   ripgrep's binary detection);
/// - [`ExtractError::Empty`] for a file with no text, a heading alone or a
///   table header alone;
/// - [`ExtractError::Failed`] for parser errors, a parser panic on every
///   page (`"parser panicked: <msg>"`), a damaged or truncated ZIP package,
///   and a package over [`Limits`] (more entries, or more uncompressed
///   bytes, than a real document has: a ZIP bomb).
///
/// Never panics on malformed input: every call into pdf-extract, lopdf,
/// zip, quick-xml, html5ever, cfb and calamine runs under `catch_unwind`.
/// The default panic hook still prints the message.
pub fn extract(path: &Path, bytes: &[u8]) -> Result<Extracted, ExtractError> {
    let kind = kind_of(path);
    if matches!(kind, FileKind::Markdown | FileKind::Text | FileKind::Csv) && binary::looks_binary(bytes) {
        return Err(ExtractError::Binary);
    }
    match kind {
        FileKind::Markdown => markdown::extract_markdown(bytes),
        FileKind::Text => text::extract_text(bytes),
        FileKind::Pdf => pdf::extract_pdf(bytes),
        FileKind::Csv => tabular::extract_csv(path, bytes),
        FileKind::Docx | FileKind::Doc => docx::extract_docx(kind, bytes),
        FileKind::Odt => odt::extract_odt(bytes),
        FileKind::Html => html::extract_html(bytes),
        FileKind::Xlsx | FileKind::Xls | FileKind::Ods => sheet::extract_sheets(path, kind, bytes),
        FileKind::Unsupported => Err(ExtractError::Unsupported),
    }
}

/// [`extract`], then OCR ([`ocr::read_scan`]) for a PDF whose text layer is
/// missing, garbled or unparseable, when `ocr.enabled`.
///
/// # Errors
/// As [`extract`]; a PDF that OCR could not read either gets
/// [`ExtractError::Unread`] wrapping the text layer's error.
pub fn extract_with_ocr(
    path: &Path,
    bytes: &[u8],
    ocr: &ocr::OcrOptions,
    host: &dyn ocr::OcrHost,
) -> Result<Extracted, ExtractError> {
    match extract(path, bytes) {
        Err(e) if ocr_may_read(path, &e, ocr) => ocr::read_scan(bytes, ocr, host, e),
        other => other,
    }
}

/// Whether OCR, as configured, should try `path` after its text layer
/// gave `text_layer`: a PDF whose text layer is missing, garbled or
/// unparseable, with OCR enabled.
pub fn ocr_may_read(path: &Path, text_layer: &ExtractError, ocr: &ocr::OcrOptions) -> bool {
    ocr.enabled && kind_of(path) == FileKind::Pdf && text_layer.wants_ocr()
}

/// Split an extracted document into chunks along its structure.
///
/// Each section is split on its own with text-splitter 0.33's `TextSplitter`
/// (sizes in characters, `opts.min_chars..opts.max_chars`; it prefers
/// paragraph, then line, sentence and word boundaries), so chunks never cross
/// a heading or a PDF page. Whitespace-only chunks are dropped; ordinals are
/// 0-based in document order; [`ChunkDraft::byte_span`] is
/// `section.source_offset` plus the chunk's byte offset in the section text
/// (exact for plain UTF-8 text, approximate for Markdown, whose section text
/// is rendered). Inconsistent options are repaired (`min` clamped to
/// `1..=max`) rather than rejected.
pub fn chunk(doc: &Extracted, opts: &ChunkOptions) -> Vec<ChunkDraft> {
    chunk::chunk_doc(doc, opts)
}
