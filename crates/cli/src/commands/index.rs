//! `almirah index <folder>…`

use std::path::PathBuf;
use std::process::ExitCode;

use almirah_core::{Engine, IngestReport};
use anyhow::Result;

use crate::progress::Bar;

/// How `index` runs.
pub struct Options {
    /// No progress bar.
    pub quiet: bool,
    /// JSON report.
    pub json: bool,
    /// Wait for the embedding backfill (phase 2).
    pub wait: bool,
}

/// Index folders, print the per-file report; exit 2 if any file failed.
pub fn run(engine: &Engine, folders: &[PathBuf], opts: Options) -> Result<ExitCode> {
    let Options { quiet, json, wait } = opts;
    if let Some(code) = super::missing_paths(folders, json) {
        return Ok(code);
    }
    let bar = Bar::new(quiet);
    let report = engine.index_with(folders, wait, &bar, &super::no_cancel());
    bar.finish();
    let report = report?;
    if json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print_human(&report);
    }
    Ok(if report.failures() > 0 { ExitCode::from(2) } else { ExitCode::SUCCESS })
}

fn print_human(report: &IngestReport) {
    for o in &report.outcomes {
        let reason = o.reason.as_deref().map(|r| format!(": {r}")).unwrap_or_default();
        let kept = if o.kept_previous { " (previous version kept)" } else { "" };
        let chunks = if o.chunks > 0 { format!(" ({} chunks)", o.chunks) } else { String::new() };
        let ocr = o.ocr.as_ref().map(|s| format!(": {}", s.describe())).unwrap_or_default();
        println!("{:<18} {}{chunks}{reason}{ocr}{kept}", o.action, o.path);
    }
    let secs = report.elapsed_ms as f64 / 1000.0;
    let searchable = report.searchable_ms as f64 / 1000.0;
    let vectors = match report.vectors_pending {
        0 => format!("searchable after {searchable:.1} s, vectors complete"),
        n => format!(
            "searchable by keywords after {searchable:.1} s; {n} chunks wait for vectors (`almirah index` or `watch` embeds them)"
        ),
    };
    let ocr = if report.ocr_files > 0 {
        format!(
            "; OCR: {} files, {} pages recognised, {} from cache",
            report.ocr_files, report.ocr_pages_recognised, report.ocr_pages_cached
        )
    } else {
        String::new()
    };
    println!(
        "\n{} files seen, {} unchanged, {} processed, {} failed; {} chunks added, {} removed; {} embedded, {} from cache{ocr}; {vectors}; {secs:.1} s",
        report.files_seen,
        report.unchanged,
        report.outcomes.len(),
        report.failures(),
        report.chunks_added,
        report.chunks_removed,
        report.embedded_texts,
        report.cache_hits,
    );
}
