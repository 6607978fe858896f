//! `almirah eval <set.jsonl> [--mode classic,agent,auto,bm25,vector,hybrid] [--model SPEC] [--json] [--report DIR]
//! [--journal FILE [--run-key KEY]] [--time-limit SECS]`
//!
//! Answering modes (`classic`, `agent`, `auto`) answer every question and
//! score the answer; rankers (`bm25`, `vector`, `hybrid`) only search, and
//! score the ranked documents against `sources_all` (recall@5/@10, nDCG@10).

use std::io::IsTerminal;
use std::path::Path;
use std::process::ExitCode;
use std::str::FromStr;
use std::time::Instant;

use almirah_answer::eval::plots::{LibraryPhase, Outcome};
use almirah_answer::eval::retrieval::{RetrievalResult, dedup_documents};
use almirah_answer::eval::{self, EvalItem, Half, Journal, QuestionResult};
use almirah_answer::mode::Mode;
use almirah_core::freshness::dates::{DateOrder, parse_date};
use almirah_core::{Engine, SearchMode, SearchOptions};
use anyhow::{Context, Result, bail};
use chrono::NaiveDate;

/// Chunks fetched per ranked search: enough for 10 distinct documents when
/// each document holds a few chunks.
const RANKED_CHUNKS: usize = 50;

/// What `--mode` asked for, split into answering modes and rankers.
struct Modes {
    answering: Vec<Mode>,
    rankers: Vec<(String, SearchMode)>,
}

fn parse_modes(names: &[String]) -> Result<Modes> {
    let mut modes = Modes { answering: Vec::new(), rankers: Vec::new() };
    for name in names {
        let ranker = match name.as_str() {
            "bm25" => Some(SearchMode::Bm25),
            "vector" => Some(SearchMode::Vector),
            "hybrid" => Some(SearchMode::Hybrid),
            _ => None,
        };
        match ranker {
            Some(r) => modes.rankers.push((name.clone(), r)),
            None => modes.answering.push(
                Mode::from_str(name)
                    .map_err(|e| anyhow::anyhow!("{e} (rankers scored alone: bm25, vector, hybrid)"))?,
            ),
        }
    }
    Ok(modes)
}

/// One progress line, rewritten in place on a terminal; nothing in a log.
fn progress(what: &str, i: usize, total: usize, id: &str) {
    if std::io::stderr().is_terminal() {
        eprint!("\r{what}: {}/{total} {id}\x1b[K", i + 1);
    }
}

fn today_of(item: &EvalItem) -> NaiveDate {
    item.as_of
        .as_deref()
        .and_then(|d| parse_date(d, DateOrder::DayMonth))
        .unwrap_or_else(|| chrono::Local::now().date_naive())
}

/// The set to run: its file and the half of its questions.
pub struct SetRun<'a> {
    /// The JSONL file.
    pub path: &'a Path,
    /// Which questions run.
    pub half: Half,
}

/// A resumable run: the journal finished questions go to and come from,
/// and when to stop starting new ones.
pub struct Resume {
    journal: Option<Journal>,
    deadline: Option<Instant>,
}

impl Resume {
    /// Opens `journal` (if given) for `run_key`, by default the model's id.
    ///
    /// # Errors
    /// When the journal cannot be opened or read.
    pub fn new(
        journal: Option<&Path>,
        run_key: Option<&str>,
        answering: &super::model::Answering,
        time_limit_secs: Option<u64>,
    ) -> Result<Self> {
        let key = run_key.map_or_else(|| answering.model.id(), str::to_string);
        let journal = journal.map(|path| Journal::open(path, &key)).transpose()?;
        if let Some(j) = &journal {
            eprintln!("journal: {} finished question(s) under run key {key:?}", j.len());
            if j.skipped_lines() > 0 {
                eprintln!("journal: skipped {} unreadable line(s) (cut short by a kill)", j.skipped_lines());
            }
        }
        let deadline = time_limit_secs.map(|s| Instant::now() + std::time::Duration::from_secs(s));
        Ok(Self { journal, deadline })
    }

    fn out_of_time(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// Run an evaluation set and print the per-mode table.
pub fn run(
    engine: &Engine,
    answering: &super::model::Answering,
    set: SetRun<'_>,
    mut resume: Resume,
    modes: &[String],
    report: Option<&Path>,
    json: bool,
) -> Result<ExitCode> {
    let modes = parse_modes(modes)?;
    let path = set.path;
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let (mut items, errors) = eval::load(&text);
    for (line, err) in &errors {
        eprintln!("{}:{line}: skipped a malformed line: {err}", path.display());
    }
    let total = items.len();
    items.retain(|item| set.half.holds_item(item));
    if items.is_empty() {
        bail!(
            "{} holds no questions{}",
            path.display(),
            if total > 0 { format!(" in the {} half", set.half) } else { String::new() }
        );
    }
    eprintln!("{} of {total} questions ({} half)", items.len(), set.half);
    let status = engine.status()?;
    if status.chunks == 0 {
        bail!("the library is empty: index the set's documents first (almirah index <folder>)");
    }
    let library = LibraryPhase { chunks: status.chunks, vectors_pending: status.vectors_pending };
    eprintln!("{library}");
    let (mut results, mut summaries) = (Vec::new(), Vec::new());
    for mode in &modes.answering {
        let mode_results = answer_all(engine, answering, &items, *mode, &mut resume)?;
        if !mode_results.is_empty() {
            summaries.push(eval::summarise(&mode.to_string(), &mode_results));
        }
        results.extend(mode_results);
    }
    let (mut ranked, mut rankers) = (Vec::new(), Vec::new());
    for (name, mode) in &modes.rankers {
        let mode_results = rank_all(engine, &items, name, *mode)?;
        rankers.push(eval::summarise_retrieval(name, &mode_results));
        ranked.extend(mode_results);
    }
    let outcome =
        Outcome { summaries: &summaries, results: &results, retrieval: &rankers, retrieval_results: &ranked, library };
    if let Some(dir) = report {
        eval::plots::write_report(dir, outcome)?;
        eprintln!("report written to {}", dir.join("report.md").display());
    }
    print(outcome, json)?;
    Ok(if errors.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(2) })
}

fn answer_all(
    engine: &Engine,
    answering: &super::model::Answering,
    items: &[EvalItem],
    mode: Mode,
    resume: &mut Resume,
) -> Result<Vec<QuestionResult>> {
    let name = mode.to_string();
    let (mut out, mut reused, mut not_run) = (Vec::with_capacity(items.len()), 0, 0);
    for (i, item) in items.iter().enumerate() {
        if let Some(done) = resume.journal.as_ref().and_then(|j| j.finished(&name, item)) {
            out.push(done.clone());
            reused += 1;
            continue;
        }
        if resume.out_of_time() {
            not_run += 1;
            continue;
        }
        progress(&name, i, items.len(), &item.id);
        let answer = almirah_answer::mode::answer(
            &engine.reader(),
            answering.model.clone(),
            &item.question,
            today_of(item),
            &|_: &str| {},
            mode,
            &answering.agent,
        )?;
        let result = eval::score(item, &answer, &name);
        if let Some(j) = resume.journal.as_mut() {
            j.record(item, &result)?;
        }
        out.push(result);
    }
    eprintln!("{mode}: {} questions answered, {reused} taken from the journal", out.len() - reused);
    if not_run > 0 {
        eprintln!("{mode}: {not_run} question(s) not run (time limit); the table covers the {} done", out.len());
    }
    Ok(out)
}

/// Search each question with one ranker alone and score the ranked
/// documents; questions without `sources_all` are skipped. Vector search
/// keeps every similarity (no 0.25 floor) so the ranker itself is measured.
/// One untimed search first warms the caches (memory maps, the embedder), so
/// the first question's time is not a cold start.
fn rank_all(engine: &Engine, items: &[EvalItem], name: &str, mode: SearchMode) -> Result<Vec<RetrievalResult>> {
    let base = engine.config().search;
    let opts = SearchOptions {
        mode,
        k: RANKED_CHUNKS,
        depth: base.depth.max(2 * RANKED_CHUNKS),
        min_similarity: if mode == SearchMode::Vector { f32::NEG_INFINITY } else { base.min_similarity },
        ..base
    };
    engine.search(&items[0].question, &opts, engine.as_of(None, None), 0)?;
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        progress(name, i, items.len(), &item.id);
        let started = Instant::now();
        let found = engine.search(&item.question, &opts, engine.as_of(Some(today_of(item)), None), 0)?;
        let ms = started.elapsed().as_secs_f64() * 1000.0;
        let documents = dedup_documents(found.results.hits.iter().map(|h| h.path.as_str()));
        out.extend(RetrievalResult::new(&item.id, name, documents, &item.expect.sources_all, ms));
    }
    eprintln!("{name}: {} questions with gold sources ranked", out.len());
    if out.is_empty() {
        bail!("no question has sources_all: nothing to score the {name} ranker against");
    }
    Ok(out)
}

fn print(outcome: Outcome<'_>, json: bool) -> Result<()> {
    if json {
        let value = serde_json::json!({
            "summaries": outcome.summaries,
            "results": outcome.results,
            "library": outcome.library,
            "retrieval": { "summaries": outcome.retrieval, "results": outcome.retrieval_results },
        });
        println!("{}", serde_json::to_string_pretty(&value)?);
        return Ok(());
    }
    println!("{}", outcome.library);
    if !outcome.summaries.is_empty() {
        println!("{}", eval::plots::table(outcome.summaries));
    }
    if !outcome.retrieval.is_empty() {
        println!("{}", eval::plots::retrieval_table(outcome.retrieval));
    }
    for r in outcome.results.iter().filter(|r| !r.correct) {
        println!("wrong: {} ({}): {}", r.id, r.mode, r.answer.replace('\n', " "));
    }
    Ok(())
}
