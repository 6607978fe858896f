//! `almirah search "<query>" [--as-of DATE] [--session S] [--all-versions]`

use std::process::ExitCode;

use almirah_core::freshness::AsOf;
use almirah_core::{Engine, Hit, SearchMode, SearchOptions};
use anyhow::Result;

use crate::SearchModeArg;

/// The arguments of one search.
pub struct Args<'a> {
    /// The query.
    pub query: &'a str,
    /// Hits wanted.
    pub k: usize,
    /// When the search speaks for.
    pub as_of: AsOf,
    /// List withheld chunks too.
    pub all_versions: bool,
    /// Rankers.
    pub mode: SearchModeArg,
}

/// Search and print the hits with their explanations, then the withheld notes.
///
/// # Errors
/// An empty query; the library's errors.
pub fn run(engine: &Engine, args: Args<'_>, json: bool) -> Result<ExitCode> {
    anyhow::ensure!(!args.query.trim().is_empty(), "the query is empty: almirah search \"hostel fee\"");
    let mode = match args.mode {
        SearchModeArg::Hybrid => SearchMode::Hybrid,
        SearchModeArg::Bm25 => SearchMode::Bm25,
        SearchModeArg::Vector => SearchMode::Vector,
    };
    let opts = SearchOptions { k: args.k.clamp(1, 100), mode, ..engine.config().search };
    let withheld_k = if args.all_versions { opts.k } else { engine.config().withheld_notes };
    let results = engine.search(args.query, &opts, args.as_of, withheld_k)?;
    if json {
        println!("{}", serde_json::to_string_pretty(&results)?);
        return Ok(ExitCode::SUCCESS);
    }
    println!("as of {} (session {})", results.as_of.date, results.as_of.session);
    if results.results.hits.is_empty() {
        println!("No results in the documents in force.");
    }
    for (i, hit) in results.results.hits.iter().enumerate() {
        print_hit(i + 1, hit);
    }
    if args.all_versions {
        if !results.withheld.is_empty() {
            println!("\nWithheld:");
        }
        for (i, w) in results.withheld.iter().enumerate() {
            print_hit(i + 1, &w.hit);
        }
    } else if !results.withheld.is_empty() {
        println!("\n{} results withheld: {}", results.withheld.len(), withheld_summary(&results.withheld));
    }
    eprintln!("{} candidates, {:.1} ms", results.results.candidates, results.results.elapsed_ms);
    Ok(ExitCode::SUCCESS)
}

fn print_hit(n: usize, hit: &Hit) {
    let pages = hit.pages.map(|(a, b)| if a == b { format!(" p.{a}") } else { format!(" pp.{a}-{b}") });
    println!("{n}. [{}] {}{}", hit.key, hit.title, pages.unwrap_or_default());
    let bm25 = hit.bm25.map_or("-".to_string(), |r| format!("#{} ({:.2})", r.rank, r.score));
    let vector = hit.vector.map_or("-".to_string(), |r| format!("#{} (cos {:.3})", r.rank, r.score));
    println!("   rrf {:.4} | bm25 {bm25} | vector {vector} | {}", hit.score, hit.verdict);
    if let Some(note) = &hit.source_note {
        println!("   {note}");
    }
    println!("   {}", snippet(&hit.text, 240));
}

fn snippet(text: &str, max_chars: usize) -> String {
    let flat: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() <= max_chars {
        return flat;
    }
    let cut: String = flat.chars().take(max_chars).collect();
    format!("{cut}…")
}

/// "circular-09@2024-25 (2): superseded by …" — one entry per document.
fn withheld_summary(withheld: &[almirah_core::read::WithheldHit]) -> String {
    let mut per_doc: Vec<(String, usize, String)> = Vec::new();
    for w in withheld {
        let doc = w.hit.key.split("::").next().unwrap_or(&w.hit.key).to_string();
        match per_doc.iter_mut().find(|(d, _, _)| *d == doc) {
            Some(entry) => entry.1 += 1,
            None => per_doc.push((doc, 1, w.reason.to_string())),
        }
    }
    per_doc.iter().map(|(d, n, r)| format!("{d} ({n}): {r}")).collect::<Vec<_>>().join("; ")
}
