//! `almirah ask "<question>" [--as-of DATE] [--trace] [--json]`

use std::process::ExitCode;

use almirah_answer::classic::Answer;
use almirah_core::Engine;
use almirah_core::freshness::AsOf;
use anyhow::Result;

use super::model::Answering;

/// Answer one question; status lines go to stderr while it works.
pub fn run(
    engine: &Engine,
    answering: &Answering,
    question: &str,
    as_of: Option<AsOf>,
    trace: bool,
    json: bool,
) -> Result<ExitCode> {
    anyhow::ensure!(
        !question.trim().is_empty(),
        "the question is empty: almirah ask \"How many days of leave do I get?\""
    );
    // A mistyped --data-dir opens a new, empty library: say so, or every
    // answer reads "not in the documents" for no visible reason.
    let library = engine.status()?;
    if library.documents == 0 {
        eprintln!(
            "warning: the library in {} holds no documents (none you may see); index a folder first: almirah index <folder>",
            library.data_dir
        );
    }
    let today = as_of.map_or_else(|| chrono::Local::now().date_naive(), |a| a.date);
    let quiet = json;
    let status = move |line: &str| {
        if !quiet {
            eprintln!("{line}");
        }
    };
    let model = answering.model.clone();
    let answer = almirah_answer::mode::answer(
        &engine.reader(),
        model,
        question,
        today,
        &status,
        answering.mode,
        &answering.agent,
    )?;
    let failed = answer.trace.stop_reason == almirah_answer::trace::StopReason::ProviderUnavailable;
    let code = if failed { ExitCode::FAILURE } else { ExitCode::SUCCESS };
    if json {
        println!("{}", serde_json::to_string_pretty(&answer)?);
        return Ok(code);
    }
    print_answer(&answer);
    if trace {
        println!("\nTrace:\n{}", answer.trace.render());
    }
    Ok(code)
}

fn print_answer(answer: &Answer) {
    println!("{}", answer.text);
    if !answer.citations.is_empty() {
        println!("\nSources (as of {}, session {}):", answer.as_of.date, answer.as_of.session);
        for c in &answer.citations {
            let pages = c.pages.map(|(a, b)| if a == b { format!(", p.{a}") } else { format!(", pp.{a}-{b}") });
            println!("  [{}] {} — {}{}", c.key, c.title, c.path, pages.unwrap_or_default());
            if let Some(note) = &c.note {
                println!("      note: {note}");
            }
        }
    }
    if !answer.withheld.is_empty() {
        println!("\nWithheld as out of date:");
        for w in &answer.withheld {
            println!("  {w}");
        }
    }
}
