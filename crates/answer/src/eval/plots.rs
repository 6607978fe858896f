//! The report: a Markdown summary, the per-question JSON, and SVG plots
//! (accuracy against cost; the latency distribution; recall and nDCG per
//! ranker when rankers were scored alone), drawn with plotters.

use std::path::Path;

use plotters::prelude::*;

use super::metrics::{QuestionResult, Summary};
use super::retrieval::{RetrievalResult, RetrievalSummary};

/// Errors writing the report.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// File-system error.
    #[error("writing the report: {0}")]
    Io(#[from] std::io::Error),
    /// Plotting error.
    #[error("drawing a plot: {0}")]
    Plot(String),
}

fn plot_err<E: std::fmt::Display>(e: E) -> ReportError {
    ReportError::Plot(e.to_string())
}

/// A table row: its name and how to render it from a summary.
type Row = (&'static str, Box<dyn Fn(&Summary) -> String>);

/// Markdown table of the summaries, one column per mode.
pub fn table(summaries: &[Summary]) -> String {
    let mut rows: Vec<Row> = vec![
        ("questions", Box::new(|s| s.questions.to_string())),
        ("accuracy", Box::new(|s| format!("{:.3}", s.accuracy))),
        ("accuracy of the model's own answers", Box::new(|s| format!("{:.3}", s.own_accuracy))),
        ("builtin-fallback rate", Box::new(|s| format!("{:.3}", s.fallback_rate))),
        ("abstained on answerable questions", Box::new(|s| format!("{:.3}", s.false_abstention_rate))),
        ("answer F1", Box::new(|s| format!("{:.3}", s.f1))),
        ("mean answer length (words)", Box::new(|s| format!("{:.1}", s.answer_words))),
        ("exact match", Box::new(|s| format!("{:.3}", s.exact_match))),
        ("recall@5 (gold sources)", Box::new(|s| format!("{:.3}", s.recall_at_5))),
        ("recall@10 (gold sources)", Box::new(|s| format!("{:.3}", s.recall_at_10))),
        ("retrieval coverage", Box::new(|s| format!("{:.3}", s.retrieval_coverage))),
        ("citation precision", Box::new(|s| format!("{:.3}", s.citation_precision))),
        ("citations per answer", Box::new(|s| format!("{:.2}", s.citations_per_answer))),
        ("stale-citation rate", Box::new(|s| format!("{:.3}", s.stale_citation_rate))),
        ("abstention precision", Box::new(|s| format!("{:.3}", s.abstention_precision))),
        ("abstention recall", Box::new(|s| format!("{:.3}", s.abstention_recall))),
        ("latency p50 (ms)", Box::new(|s| format!("{:.0}", s.p50_ms))),
        ("latency p95 (ms)", Box::new(|s| format!("{:.0}", s.p95_ms))),
        ("model calls", Box::new(|s| format!("{:.2}", s.model_calls))),
        ("tool calls", Box::new(|s| format!("{:.2}", s.tool_calls))),
        ("calls on simple questions", Box::new(|s| format!("{:.2}", s.simple_calls))),
        ("input tokens", Box::new(|s| format!("{:.0}", s.input_tokens))),
        ("tokens", Box::new(|s| format!("{:.0}", s.tokens))),
    ];
    let mut out = format!(
        "| metric | {} |\n|---|{}\n",
        summaries.iter().map(|s| s.mode.as_str()).collect::<Vec<_>>().join(" | "),
        "---|".repeat(summaries.len())
    );
    for (name, f) in rows.drain(..) {
        out.push_str(&format!("| {name} | {} |\n", summaries.iter().map(&f).collect::<Vec<_>>().join(" | ")));
    }
    out
}

/// Markdown table of rankers scored alone, one row per ranker.
pub fn retrieval_table(summaries: &[RetrievalSummary]) -> String {
    let mut out = String::from(
        "| ranker | questions | recall@5 | recall@10 | nDCG@10 | p50 ms | p95 ms |\n|---|---|---|---|---|---|---|\n",
    );
    for s in summaries {
        out.push_str(&format!(
            "| {} | {} | {:.3} | {:.3} | {:.3} | {:.1} | {:.1} |\n",
            s.mode, s.questions, s.recall_at_5, s.recall_at_10, s.ndcg_at_10, s.p50_ms, s.p95_ms
        ));
    }
    out
}

/// Answer-mode and ranker results of one set.
#[derive(Debug, Clone, Copy)]
pub struct Outcome<'a> {
    /// One summary per answering mode.
    pub summaries: &'a [Summary],
    /// Every answered question.
    pub results: &'a [QuestionResult],
    /// One summary per ranker scored alone.
    pub retrieval: &'a [RetrievalSummary],
    /// Every ranked question.
    pub retrieval_results: &'a [RetrievalResult],
    /// Which phase the library was in when the set ran (issue 16): its
    /// chunks and how many still wait for a vector (0: hybrid throughout).
    pub library: LibraryPhase,
}

/// The library an evaluation ran on: keyword search covers every chunk from
/// the first phase; vectors follow from the embedding queue.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct LibraryPhase {
    /// Chunks in the library.
    pub chunks: u64,
    /// Chunks still without a vector (found by BM25 only).
    pub vectors_pending: u64,
}

impl std::fmt::Display for LibraryPhase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.vectors_pending == 0 {
            write!(f, "library: {} chunks, vectors complete (hybrid search throughout)", self.chunks)
        } else {
            write!(
                f,
                "library: {} chunks, {} still without a vector (first phase: those are found by BM25 only)",
                self.chunks, self.vectors_pending
            )
        }
    }
}

/// Write `report.md`, `results.json` and the SVG plots into `dir`
/// (`accuracy-vs-cost.svg` and `latency.svg` when modes answered,
/// `retrieval.svg` when rankers were scored alone).
///
/// # Errors
/// [`ReportError`].
pub fn write_report(dir: &Path, outcome: Outcome<'_>) -> Result<(), ReportError> {
    let Outcome { summaries, results, retrieval, retrieval_results, library } = outcome;
    std::fs::create_dir_all(dir)?;
    let json = serde_json::json!({ "summaries": summaries, "results": results, "library": library,
        "retrieval": { "summaries": retrieval, "results": retrieval_results } });
    std::fs::write(dir.join("results.json"), serde_json::to_string_pretty(&json).unwrap_or_default())?;
    let mut md = format!("# Evaluation report\n\n{library}.\n\n");
    if !retrieval.is_empty() {
        retrieval_bars(&dir.join("retrieval.svg"), retrieval)?;
        md.push_str(&format!("## Rankers alone\n\n{}\n![retrieval](retrieval.svg)\n\n", retrieval_table(retrieval)));
    }
    if summaries.is_empty() {
        std::fs::write(dir.join("report.md"), md)?;
        return Ok(());
    }
    accuracy_vs_cost(&dir.join("accuracy-vs-cost.svg"), summaries)?;
    latency(&dir.join("latency.svg"), results)?;
    let failures: Vec<String> = results
        .iter()
        .filter(|r| !r.correct || r.stale_citation)
        .map(|r| format!("- `{}` ({}): {}", r.id, r.mode, r.answer.replace('\n', " ")))
        .collect();
    md.push_str(&format!(
        "## Answering\n\n{}\n![accuracy against cost](accuracy-vs-cost.svg)\n\n![latency](latency.svg)\n\n## Questions answered wrongly or citing a stale source\n\n{}\n",
        table(summaries),
        if failures.is_empty() { "None.".to_string() } else { failures.join("\n") }
    ));
    std::fs::write(dir.join("report.md"), md)?;
    Ok(())
}

fn accuracy_vs_cost(path: &Path, summaries: &[Summary]) -> Result<(), ReportError> {
    let root = SVGBackend::new(path, (640, 420)).into_drawing_area();
    root.fill(&WHITE).map_err(plot_err)?;
    let max_ms = summaries.iter().map(|s| s.p50_ms).fold(1.0, f64::max) * 1.3;
    let mut chart = ChartBuilder::on(&root)
        .caption("Accuracy against cost (p50 latency)", ("sans-serif", 18))
        .margin(16)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(0.0..max_ms, 0.0..1.05)
        .map_err(plot_err)?;
    chart.configure_mesh().x_desc("p50 latency (ms)").y_desc("accuracy").draw().map_err(plot_err)?;
    for s in summaries {
        let point = (s.p50_ms, s.accuracy);
        chart.draw_series(std::iter::once(Circle::new(point, 6, BLUE.filled()))).map_err(plot_err)?;
        chart
            .draw_series(std::iter::once(Text::new(s.mode.clone(), (point.0, point.1 - 0.05), ("sans-serif", 14))))
            .map_err(plot_err)?;
    }
    root.present().map_err(plot_err)
}

fn latency(path: &Path, results: &[QuestionResult]) -> Result<(), ReportError> {
    let root = SVGBackend::new(path, (640, 420)).into_drawing_area();
    root.fill(&WHITE).map_err(plot_err)?;
    let max = results.iter().map(|r| r.ms).fold(1.0, f64::max);
    let bucket = (max / 20.0).max(1.0);
    let mut counts = [0u32; 21];
    for r in results {
        counts[((r.ms / bucket) as usize).min(20)] += 1;
    }
    let top = counts.iter().copied().max().unwrap_or(1) + 1;
    let mut chart = ChartBuilder::on(&root)
        .caption("Latency per question", ("sans-serif", 18))
        .margin(16)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(0.0..(bucket * 21.0), 0u32..top)
        .map_err(plot_err)?;
    chart.configure_mesh().x_desc("ms").y_desc("questions").draw().map_err(plot_err)?;
    let bars = counts.iter().enumerate().map(|(i, c)| {
        let x0 = i as f64 * bucket;
        Rectangle::new([(x0, 0), (x0 + bucket * 0.9, *c)], BLUE.mix(0.6).filled())
    });
    chart.draw_series(bars).map_err(plot_err)?;
    root.present().map_err(plot_err)
}

/// How to read one bar's value from a summary.
type Metric = fn(&RetrievalSummary) -> f64;

fn retrieval_bars(path: &Path, summaries: &[RetrievalSummary]) -> Result<(), ReportError> {
    let root = SVGBackend::new(path, (640, 420)).into_drawing_area();
    root.fill(&WHITE).map_err(plot_err)?;
    let n = summaries.len() as f64;
    let mut chart = ChartBuilder::on(&root)
        .caption("Rankers alone: recall@5, recall@10, nDCG@10", ("sans-serif", 18))
        .margin(16)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(0.0..n, 0.0..1.3)
        .map_err(plot_err)?;
    chart
        .configure_mesh()
        .x_labels(0)
        .disable_x_mesh()
        .y_max_light_lines(1)
        .y_desc("score")
        .draw()
        .map_err(plot_err)?;
    let names = summaries
        .iter()
        .enumerate()
        .map(|(i, s)| Text::new(s.mode.clone(), (i as f64 + 0.15, 1.03), ("sans-serif", 14)));
    chart.draw_series(names).map_err(plot_err)?;
    let metrics: [(Metric, RGBColor, &str); 3] = [
        (|s| s.recall_at_5, RGBColor(120, 160, 220), "recall@5"),
        (|s| s.recall_at_10, BLUE, "recall@10"),
        (|s| s.ndcg_at_10, RGBColor(230, 140, 40), "nDCG@10"),
    ];
    for (j, (value, colour, name)) in metrics.into_iter().enumerate() {
        let bars = summaries.iter().enumerate().map(|(i, s)| {
            let x0 = i as f64 + 0.15 + j as f64 * 0.23;
            Rectangle::new([(x0, 0.0), (x0 + 0.2, value(s))], colour.filled())
        });
        chart
            .draw_series(bars)
            .map_err(plot_err)?
            .label(name)
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 10, y + 5)], colour.filled()));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .border_style(BLACK)
        .background_style(WHITE)
        .draw()
        .map_err(plot_err)?;
    root.present().map_err(plot_err)
}
