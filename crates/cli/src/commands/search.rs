//! `almirah search "<query>"`

use std::process::ExitCode;

use almirah_core::{Engine, SearchOptions};
use anyhow::Result;

/// Search and print the hits with their explanations.
pub fn run(engine: &Engine, query: &str, k: usize, json: bool) -> Result<ExitCode> {
    let opts = SearchOptions {
        k: k.clamp(1, 100),
        ..engine.config().search
    };
    let results = engine.search(query, &opts)?;
    if json {
        println!("{}", serde_json::to_string_pretty(&results)?);
        return Ok(ExitCode::SUCCESS);
    }
    if results.hits.is_empty() {
        println!("No results.");
    }
    for (i, hit) in results.hits.iter().enumerate() {
        let pages = hit.pages.map(|(a, b)| {
            if a == b {
                format!(" p.{a}")
            } else {
                format!(" pp.{a}-{b}")
            }
        });
        println!(
            "{}. [{}] {}{}",
            i + 1,
            hit.key,
            hit.title,
            pages.unwrap_or_default()
        );
        let bm25 = hit
            .bm25
            .map_or("-".to_string(), |r| format!("#{} ({:.2})", r.rank, r.score));
        let vector = hit.vector.map_or("-".to_string(), |r| {
            format!("#{} (cos {:.3})", r.rank, r.score)
        });
        println!(
            "   rrf {:.4} | bm25 {bm25} | vector {vector} | {}",
            hit.score, hit.verdict
        );
        println!("   {}", snippet(&hit.text, 240));
    }
    eprintln!(
        "{} candidates, {:.1} ms",
        results.candidates, results.elapsed_ms
    );
    Ok(ExitCode::SUCCESS)
}

fn snippet(text: &str, max_chars: usize) -> String {
    let flat: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() <= max_chars {
        return flat;
    }
    let cut: String = flat.chars().take(max_chars).collect();
    format!("{cut}…")
}
