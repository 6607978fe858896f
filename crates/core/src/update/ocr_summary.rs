//! A short account of an OCR run for reports, `status` and `docs`.

use almirah_extract::ocr::{OcrReport, PageOutcome};
use serde::Serialize;

/// What OCR made of one file.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OcrSummary {
    /// Pages in the file.
    pub pages: usize,
    /// Pages with text.
    pub pages_read: usize,
    /// Mean confidence of the pages with text, 0–100.
    pub mean_confidence: f32,
    /// Pages with text below the confidence floor.
    pub low_confidence_pages: Vec<u32>,
    /// Pages that timed out, failed or were too unsure to index, with the reason.
    pub unread_pages: Vec<(u32, String)>,
    /// Pages recognised in this run (the rest came from the OCR cache).
    pub recognised: usize,
}

impl OcrSummary {
    /// Summarise `report`.
    pub fn of(report: &OcrReport) -> Self {
        let unread_pages = report
            .pages
            .iter()
            .filter_map(|p| match &p.outcome {
                PageOutcome::TimedOut { after_ms } => Some((p.page, format!("timed out after {} s", after_ms / 1000))),
                PageOutcome::Failed { reason } => Some((p.page, reason.clone())),
                PageOutcome::Unsure { confidence } => {
                    Some((p.page, format!("read with confidence {confidence:.0}%, too low to index")))
                }
                _ => None,
            })
            .collect();
        Self {
            pages: report.pages.len(),
            pages_read: report.pages.iter().filter(|p| matches!(p.outcome, PageOutcome::Read { .. })).count(),
            mean_confidence: report.mean_confidence(),
            low_confidence_pages: report.low_confidence_pages(),
            unread_pages,
            recognised: report.recognised(),
        }
    }

    /// One line, e.g. `3 of 3 pages, mean confidence 93%; page 2 timed out after 120 s`.
    pub fn describe(&self) -> String {
        let mut text =
            format!("{} of {} pages read, mean confidence {:.0}%", self.pages_read, self.pages, self.mean_confidence);
        if !self.low_confidence_pages.is_empty() {
            let pages: Vec<String> = self.low_confidence_pages.iter().map(u32::to_string).collect();
            text.push_str(&format!("; low confidence on page {}", pages.join(", ")));
        }
        for (page, why) in &self.unread_pages {
            text.push_str(&format!("; page {page} {why}"));
        }
        text
    }
}
