//! `almirah eval <set.jsonl> [--mode classic,agent,auto] [--model SPEC] [--json] [--report DIR]`

use std::path::Path;
use std::process::ExitCode;

use std::str::FromStr;

use almirah_answer::eval::{self, QuestionResult};
use almirah_answer::mode::Mode;
use almirah_core::Engine;
use almirah_core::freshness::dates::{DateOrder, parse_date};
use anyhow::{Context, Result, bail};

/// Run an evaluation set and print the per-mode table.
pub fn run(
    engine: &Engine,
    answering: &super::model::Answering,
    set: &Path,
    modes: &[String],
    report: Option<&Path>,
    json: bool,
) -> Result<ExitCode> {
    let modes: Vec<Mode> =
        modes.iter().map(|m| Mode::from_str(m).map_err(anyhow::Error::msg)).collect::<Result<_>>()?;
    let text = std::fs::read_to_string(set).with_context(|| format!("reading {}", set.display()))?;
    let (items, errors) = eval::load(&text);
    for (line, err) in &errors {
        eprintln!("{}:{line}: skipped a malformed line: {err}", set.display());
    }
    if items.is_empty() {
        bail!("{} holds no questions", set.display());
    }
    let mut results: Vec<QuestionResult> = Vec::new();
    let mut summaries = Vec::new();
    for mode in modes {
        let mode_name = mode.to_string();
        let mut mode_results = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            eprint!("\r{mode}: {}/{} {}", i + 1, items.len(), item.id);
            let today = item
                .as_of
                .as_deref()
                .and_then(|d| parse_date(d, DateOrder::DayMonth))
                .unwrap_or_else(|| chrono::Local::now().date_naive());
            let model = answering.model.clone();
            let answer = almirah_answer::mode::answer(
                engine,
                model,
                &item.question,
                today,
                &|_: &str| {},
                mode,
                &answering.agent,
            )?;
            mode_results.push(eval::score(item, &answer, &mode_name));
        }
        eprintln!();
        summaries.push(eval::summarise(&mode_name, &mode_results));
        results.extend(mode_results);
    }
    if let Some(dir) = report {
        eval::plots::write_report(dir, &summaries, &results)?;
        eprintln!("report written to {}", dir.join("report.md").display());
    }
    if json {
        println!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({ "summaries": summaries, "results": results }))?
        );
    } else {
        println!("{}", eval::plots::table(&summaries));
        for r in results.iter().filter(|r| !r.correct) {
            println!("wrong: {} ({}): {}", r.id, r.mode, r.answer.replace('\n', " "));
        }
    }
    Ok(if errors.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(2) })
}
