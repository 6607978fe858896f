//! OCR of scanned PDFs with poppler-utils and tesseract, run as child
//! processes (never linked): `pdfimages` takes a page's image out as it is
//! stored when the page is one image (about 0.02 s), `pdftoppm` renders the
//! page otherwise (about 3 s at 300 dpi), and `tesseract` recognises it (about
//! 4 CPU-seconds a page at 300 dpi with `eng+hin`), one thread per
//! recognition (`OMP_THREAD_LIMIT=1`) and pages in parallel up to the cores.
//!
//! Pages are keyed by their content (page content streams and image bytes,
//! plus the OCR settings), so a host can serve pages it recognised before
//! from a cache ([`OcrHost::cached`]): a re-index, a metadata edit or an
//! edit to other pages never recognises a page twice.

mod page_keys;
mod programs;
mod recognise;
mod source;
mod words;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::{ExtractError, Extracted, FileKind, Section, quality};

pub use page_keys::PageKey;
pub use programs::PACKAGES;

/// OCR settings (the `[ocr]` section of the config file).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct OcrOptions {
    /// Read scans at all (default true).
    pub enabled: bool,
    /// tesseract languages, `+`-joined (default `eng+hin`).
    pub languages: String,
    /// Resolution pages are rendered at, in dots per inch (default 300).
    pub dpi: u32,
    /// Time limit for one page (image out, render, recognise), in ms
    /// (default 120,000). A file's limit is this times its pages over the jobs.
    pub page_timeout_ms: u64,
    /// Pages recognised at once; 0 = the number of cores (default 0).
    pub jobs: usize,
    /// Mean word confidence (0–100) below which a page is marked as
    /// low-confidence (default 60).
    pub min_confidence: f32,
    /// Mean word confidence (0–100) below which a page is not indexed at
    /// all: it is noise, or in a language not in [`OcrOptions::languages`]
    /// (default 35).
    pub reject_confidence: f32,
    /// The `tesseract` program (default: found on `PATH`).
    pub tesseract: PathBuf,
    /// The `pdftoppm` program (default: found on `PATH`).
    pub pdftoppm: PathBuf,
    /// The `pdfimages` program (default: found on `PATH`).
    pub pdfimages: PathBuf,
}

impl Default for OcrOptions {
    fn default() -> Self {
        Self {
            enabled: true,
            languages: "eng+hin".into(),
            dpi: 300,
            page_timeout_ms: 120_000,
            jobs: 0,
            min_confidence: 60.0,
            reject_confidence: 35.0,
            tesseract: "tesseract".into(),
            pdftoppm: "pdftoppm".into(),
            pdfimages: "pdfimages".into(),
        }
    }
}

impl OcrOptions {
    /// Pages recognised at once: [`OcrOptions::jobs`], or the cores when 0.
    pub fn parallel_jobs(&self) -> usize {
        match self.jobs {
            0 => std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get),
            n => n,
        }
    }

    /// Wall-clock limit for recognising `pages` pages, in ms: the page limit
    /// times the rounds of [`OcrOptions::parallel_jobs`] pages.
    pub fn file_timeout_ms(&self, pages: usize) -> u64 {
        let rounds = pages.div_ceil(self.parallel_jobs().max(1)) as u64;
        self.page_timeout_ms.saturating_mul(rounds.max(1))
    }
}

/// One recognised page, as a cache keeps it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OcrPage {
    /// The page text, lines joined by `\n`, paragraphs by a blank line.
    pub text: String,
    /// Mean word confidence, 0–100, weighted by word length (0 for a blank page).
    pub confidence: f32,
}

/// What OCR made of one page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "kebab-case")]
pub enum PageOutcome {
    /// Text was read (the text is the page's [`Section`]).
    Read {
        /// Mean word confidence, 0–100.
        confidence: f32,
        /// Served from the host's cache, not recognised now.
        cached: bool,
    },
    /// Text was read but with a confidence below
    /// [`OcrOptions::reject_confidence`]; not indexed.
    Unsure {
        /// Mean word confidence, 0–100.
        confidence: f32,
    },
    /// No text on the page (a blank or a picture).
    Blank {
        /// Served from the host's cache.
        cached: bool,
    },
    /// The page's time limit ran out; its processes were killed.
    TimedOut {
        /// The limit, in ms.
        after_ms: u64,
    },
    /// The page could not be taken out or recognised.
    Failed {
        /// What the program said.
        reason: String,
    },
}

/// One page of an OCR run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OcrPageReport {
    /// 1-based page number.
    pub page: u32,
    /// Content key of the page (see [`PageKey`]).
    pub key: PageKey,
    /// What happened.
    pub outcome: PageOutcome,
}

/// How a document was read by OCR.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OcrReport {
    /// tesseract languages used.
    pub languages: String,
    /// The low-confidence floor in force, 0–100.
    pub min_confidence: f32,
    /// Every page, in order.
    pub pages: Vec<OcrPageReport>,
    /// Wall time of the run, in ms.
    pub elapsed_ms: u64,
    /// Pages recognised in this run, for the host's cache (the host takes
    /// them out before storing the report).
    #[serde(default)]
    pub fresh: Vec<(PageKey, OcrPage)>,
}

impl OcrReport {
    /// Mean confidence of the pages with text, 0–100 (0 when none).
    pub fn mean_confidence(&self) -> f32 {
        let read: Vec<f32> = self.read_confidences().map(|(_, c)| c).collect();
        if read.is_empty() { 0.0 } else { read.iter().sum::<f32>() / read.len() as f32 }
    }

    /// Pages with text whose confidence is below [`OcrReport::min_confidence`].
    pub fn low_confidence_pages(&self) -> Vec<u32> {
        self.read_confidences().filter(|(_, c)| *c < self.min_confidence).map(|(p, _)| p).collect()
    }

    /// Confidence of `page`, if it was read.
    pub fn page_confidence(&self, page: u32) -> Option<f32> {
        self.read_confidences().find(|(p, _)| *p == page).map(|(_, c)| c)
    }

    /// Pages recognised in this run (not served from the cache).
    pub fn recognised(&self) -> usize {
        self.fresh.len()
    }

    /// Pages served from the host's cache.
    pub fn cached(&self) -> usize {
        self.pages
            .iter()
            .filter(|p| {
                matches!(p.outcome, PageOutcome::Read { cached: true, .. } | PageOutcome::Blank { cached: true })
            })
            .count()
    }

    fn read_confidences(&self) -> impl Iterator<Item = (u32, f32)> + '_ {
        self.pages.iter().filter_map(|p| match p.outcome {
            PageOutcome::Read { confidence, .. } => Some((p.page, confidence)),
            _ => None,
        })
    }
}

/// What OCR asks of the process that runs it: pages recognised before, and
/// where to report progress. Called from several threads.
pub trait OcrHost: Sync {
    /// The file has been parsed for its pages and recognition is about to
    /// start (the extraction child lifts its memory limit here, so the
    /// programs it starts are not held to it).
    fn starting(&self) {}
    /// The cached pages among `keys` (missing keys are simply absent).
    fn cached(&self, keys: &[PageKey]) -> HashMap<PageKey, OcrPage>;
    /// `done` of `total` pages are finished (cached pages count as done).
    fn page_done(&self, done: u32, total: u32);
}

/// A host with no cache and no progress.
pub struct NoCache;

impl OcrHost for NoCache {
    fn cached(&self, _keys: &[PageKey]) -> HashMap<PageKey, OcrPage> {
        HashMap::new()
    }
    fn page_done(&self, _done: u32, _total: u32) {}
}

/// Read a scanned PDF by OCR. `was` is why its text layer was not used
/// (no text layer, low quality, or a parser failure); it is returned,
/// with a reason, when OCR cannot do better.
///
/// # Errors
/// [`ExtractError::OcrUnavailable`] wrapping `was` when the programs or
/// languages are missing (the reason names the Debian packages);
/// [`ExtractError::Unread`] wrapping `was` when no page yields text, or when
/// the text OCR yields scores below the quality threshold or reads as none
/// of the configured languages (`words::salad`).
pub fn read_scan(
    bytes: &[u8],
    opts: &OcrOptions,
    host: &dyn OcrHost,
    was: ExtractError,
) -> Result<Extracted, ExtractError> {
    let unread = |reason: String| ExtractError::Unread { was: Box::new(was.clone()), reason };
    let started = Instant::now();
    let tools =
        programs::check(opts).map_err(|reason| ExtractError::OcrUnavailable { was: Box::new(was.clone()), reason })?;
    let dir = tempfile::tempdir().map_err(|e| unread(format!("OCR could not make a temporary folder: {e}")))?;
    let pdf = dir.path().join("in.pdf");
    std::fs::write(&pdf, bytes).map_err(|e| unread(format!("OCR could not write a temporary file: {e}")))?;
    let plan = page_keys::plan(bytes, &pdf, opts, &tools).map_err(unread)?;
    host.starting();
    let run = Run { opts, host, pdf: &pdf, dir: dir.path(), sources: source::survey(opts, &pdf) };
    let pages = run.all_pages(&plan);
    build(pages, opts, started).map_err(unread)
}

/// One OCR run over one file.
struct Run<'a> {
    opts: &'a OcrOptions,
    host: &'a dyn OcrHost,
    pdf: &'a Path,
    dir: &'a Path,
    sources: source::Survey,
}

/// A page's report, its text when it was read, and whether it was
/// recognised in this run.
struct PageResult {
    report: OcrPageReport,
    page: Option<OcrPage>,
    fresh: bool,
}

impl Run<'_> {
    /// Every page, cached ones first, the rest recognised in parallel.
    fn all_pages(&self, plan: &[page_keys::PagePlan]) -> Vec<PageResult> {
        let keys: Vec<PageKey> = plan.iter().map(|p| p.key.clone()).collect();
        let cached = self.host.cached(&keys);
        let total = plan.len() as u32;
        let done = AtomicU32::new(0);
        let results: Mutex<Vec<PageResult>> = Mutex::new(Vec::with_capacity(plan.len()));
        let mut todo = Vec::new();
        for page in plan {
            match cached.get(&page.key) {
                Some(hit) => {
                    push(&results, from_cache(page, hit));
                    self.host.page_done(done.fetch_add(1, Ordering::Relaxed) + 1, total);
                }
                None => todo.push(page),
            }
        }
        let next = AtomicUsize::new(0);
        let workers = self.opts.parallel_jobs().min(todo.len());
        std::thread::scope(|scope| {
            for _ in 0..workers {
                scope.spawn(|| {
                    while let Some(page) = todo.get(next.fetch_add(1, Ordering::Relaxed)) {
                        push(&results, self.one_page(page));
                        self.host.page_done(done.fetch_add(1, Ordering::Relaxed) + 1, total);
                    }
                });
            }
        });
        let mut all = results.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);
        all.sort_by_key(|r| r.report.page);
        all
    }

    /// Take out or render one page and recognise it, within the page limit.
    fn one_page(&self, page: &page_keys::PagePlan) -> PageResult {
        let deadline = Instant::now() + Duration::from_millis(self.opts.page_timeout_ms);
        let outcome = source::page_image(self.opts, self.pdf, self.dir, page, &self.sources, deadline)
            .and_then(|image| recognise::recognise(self.opts, &image, deadline));
        let key = page.key.clone();
        let (outcome, text) = match outcome {
            Ok(p) if p.text.trim().is_empty() => (PageOutcome::Blank { cached: false }, Some(p)),
            Ok(p) => (PageOutcome::Read { confidence: p.confidence, cached: false }, Some(p)),
            Err(programs::Failure::TimedOut) => (PageOutcome::TimedOut { after_ms: self.opts.page_timeout_ms }, None),
            Err(programs::Failure::Failed(reason)) => (PageOutcome::Failed { reason }, None),
        };
        PageResult { report: OcrPageReport { page: page.number, key, outcome }, page: text, fresh: true }
    }
}

fn push(results: &Mutex<Vec<PageResult>>, item: PageResult) {
    results.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push(item);
}

fn from_cache(page: &page_keys::PagePlan, hit: &OcrPage) -> PageResult {
    let outcome = if hit.text.trim().is_empty() {
        PageOutcome::Blank { cached: true }
    } else {
        PageOutcome::Read { confidence: hit.confidence, cached: true }
    };
    let report = OcrPageReport { page: page.number, key: page.key.clone(), outcome };
    PageResult { report, page: Some(hit.clone()), fresh: false }
}

/// Pages to an [`Extracted`] (one section per page read with enough
/// confidence), or why not.
fn build(pages: Vec<PageResult>, opts: &OcrOptions, started: Instant) -> Result<Extracted, String> {
    let mut report = OcrReport {
        languages: opts.languages.clone(),
        min_confidence: opts.min_confidence,
        pages: Vec::with_capacity(pages.len()),
        elapsed_ms: 0,
        fresh: Vec::new(),
    };
    let mut sections = Vec::new();
    for PageResult { report: mut page_report, page, fresh } in pages {
        if let PageOutcome::Read { confidence, .. } = page_report.outcome
            && confidence < opts.reject_confidence
        {
            page_report.outcome = PageOutcome::Unsure { confidence };
        }
        if let (PageOutcome::Read { .. }, Some(p)) = (&page_report.outcome, &page) {
            let text = p.text.trim().to_string();
            sections.push(Section { heading_path: Vec::new(), text, page: Some(page_report.page), source_offset: 0 });
        }
        if let (true, Some(p)) = (fresh, page) {
            report.fresh.push((page_report.key.clone(), p));
        }
        report.pages.push(page_report);
    }
    report.elapsed_ms = started.elapsed().as_millis() as u64;
    let notes = page_notes(&report);
    if sections.is_empty() {
        return Err(notes.get(1).cloned().unwrap_or_else(|| "OCR found no text on any page".into()));
    }
    let all: String = sections.iter().map(|s| s.text.as_str()).collect::<Vec<_>>().join("\n");
    let score = quality::score(&all);
    if score < quality::THRESHOLD {
        return Err(format!("OCR ({}) text scores {score:.2}, below {:.2}", report.languages, quality::THRESHOLD));
    }
    if let Some(salad) = words::salad(&all, &opts.languages) {
        return Err(format!(
            "OCR ({}) text reads as none of its languages: {salad} (is the document in another language?)",
            report.languages
        ));
    }
    let title = sections.first().and_then(|s| scan_title(&s.text));
    Ok(Extracted {
        kind: FileKind::Pdf,
        title,
        front_matter: Default::default(),
        pages: Some(report.pages.len() as u32),
        sections,
        tables: Vec::new(),
        properties: crate::Properties::default(),
        quality: score,
        notes,
        ocr: Some(report),
    })
}

/// Longest title taken from a scan, in chars.
const MAX_TITLE_CHARS: usize = 160;

/// The title of a scanned page: its subject ("Sub:", "Subject:", "विषय:",
/// up to the end of its paragraph), since a letterhead is the same on every
/// circular of an office; else the first line. At most 160 chars.
fn scan_title(page: &str) -> Option<String> {
    let lines: Vec<&str> = page.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    let subject = lines.iter().find_map(|l| {
        let cue =
            ["subject", "sub", "विषय"].iter().find(|c| l.get(..c.len()).is_some_and(|p| p.eq_ignore_ascii_case(c)))?;
        let rest = l[cue.len()..].trim_start_matches('.').trim_start();
        let rest = rest.strip_prefix(':').or_else(|| rest.strip_prefix("- "))?;
        let mut title = rest.trim().to_string();
        // The subject runs on until its paragraph ends (a blank line).
        for next in page.lines().skip_while(|x| x.trim() != *l).skip(1).map(str::trim) {
            if next.is_empty() || title.chars().count() >= MAX_TITLE_CHARS {
                break;
            }
            title = format!("{title} {next}");
        }
        Some(title)
    });
    let title = subject.filter(|t| !t.is_empty()).or_else(|| lines.first().map(|l| l.to_string()))?;
    Some(title.chars().take(MAX_TITLE_CHARS).collect())
}

/// Notes for pages that were not read or read with low confidence.
fn page_notes(report: &OcrReport) -> Vec<String> {
    let mut notes =
        vec![format!("read by OCR ({}), mean confidence {:.0}%", report.languages, report.mean_confidence())];
    for p in &report.pages {
        match &p.outcome {
            PageOutcome::TimedOut { after_ms } => {
                notes.push(format!(
                    "page {}: OCR timed out after {} s; the page is not indexed",
                    p.page,
                    after_ms / 1000
                ));
            }
            PageOutcome::Failed { reason } => notes.push(format!("page {}: OCR failed: {reason}", p.page)),
            PageOutcome::Blank { .. } => notes.push(format!("page {}: OCR found no text", p.page)),
            PageOutcome::Unsure { confidence } => notes.push(format!(
                "page {}: OCR ({}) confidence {confidence:.0}%, too low to index (is the page in another language?)",
                p.page, report.languages
            )),
            PageOutcome::Read { confidence, .. } if *confidence < report.min_confidence => {
                notes.push(format!("page {}: low OCR confidence ({confidence:.0}%)", p.page));
            }
            PageOutcome::Read { .. } => {}
        }
    }
    notes
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::panic)]
    use super::*;

    #[test]
    fn a_scan_is_titled_by_its_subject_line_not_its_letterhead() {
        let page = "भारतीय राष्ट्रीय राजमार्ग प्राधिकरण\nPolicy Circular No.2.2.14/ 2025\nSub: Age Criteria for Empanelment & De-empanelment of Dispute Resolution Board\n(DRB) Members - reg.\n\nWith reference";
        assert_eq!(
            scan_title(page).as_deref(),
            Some("Age Criteria for Empanelment & De-empanelment of Dispute Resolution Board (DRB) Members - reg.")
        );
        assert_eq!(scan_title("Notice\nThe office is closed.").as_deref(), Some("Notice"));
        assert_eq!(scan_title("Subsidy rules\nSub-clause").as_deref(), Some("Subsidy rules"));
    }

    fn read_page(text: &str, confidence: f32) -> PageResult {
        let key = PageKey::parse(&"ab".repeat(32)).unwrap_or_else(|| unreachable!());
        let outcome = PageOutcome::Read { confidence, cached: false };
        let report = OcrPageReport { page: 1, key, outcome };
        PageResult { report, page: Some(OcrPage { text: text.into(), confidence }), fresh: true }
    }

    #[test]
    fn letter_salad_above_the_confidence_floor_is_not_indexed() {
        // The Japanese paper read with eng+hin, at the 45% confidence
        // tesseract's SSE path gives it (AVX2 gives 24%, below the floor).
        let salad = include_str!("../../tests/fixtures/ocr/japanese-read-as-eng-hin.txt");
        let opts = OcrOptions::default();
        let err = build(vec![read_page(salad, 45.0)], &opts, Instant::now()).map(|_| ()).unwrap_err();
        assert!(err.starts_with("OCR (eng+hin) text reads as none of its languages: only "), "{err}");
        let english = include_str!("../../tests/fixtures/ocr/nhai-2.1.82-eng.txt");
        let doc = build(vec![read_page(english, 88.0)], &opts, Instant::now()).unwrap_or_else(|e| panic!("{e}"));
        assert!(doc.sections[0].text.contains("Conciliation"));
    }
}
