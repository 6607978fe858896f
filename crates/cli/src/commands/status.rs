//! `almirah status` and `almirah reindex --re-embed`

use std::process::ExitCode;

use almirah_core::Engine;
use anyhow::Result;

use crate::progress::Bar;

/// Print counts, sizes, problems and the embedder.
pub fn run(engine: &Engine, json: bool) -> Result<ExitCode> {
    let s = engine.status()?;
    if json {
        println!("{}", serde_json::to_string_pretty(&s)?);
        return Ok(ExitCode::SUCCESS);
    }
    println!("library      {}", s.data_dir);
    println!("format       v{}", s.format_version);
    println!("documents    {}", s.documents);
    println!("chunks       {}", s.chunks);
    println!("disk         {:.1} MiB", s.disk_bytes as f64 / (1024.0 * 1024.0));
    match &s.embedder {
        Some(e) => println!("embedder     {}:{} ({} dims)", e.provider, e.model, e.dimensions),
        None => println!("embedder     (nothing indexed yet)"),
    }
    for root in &s.roots {
        println!("folder       {root}");
    }
    for (status, n) in &s.files_by_status {
        println!("files        {n:>6} {status}");
    }
    for p in &s.problems {
        let kept = if p.kept_previous { " (previous version kept)" } else { "" };
        println!("problem      {} {}: {}{kept}", p.status, p.path, p.reason.as_deref().unwrap_or(""));
    }
    Ok(ExitCode::SUCCESS)
}

/// Re-embed every chunk with the configured embedder.
pub fn re_embed(engine: &Engine, json: bool) -> Result<ExitCode> {
    let bar = Bar::new(json);
    let report = engine.reindex_re_embed(&bar);
    bar.finish();
    let report = report?;
    if json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        println!(
            "re-embedded {} chunks ({} from cache); vector index {} in use",
            report.chunks, report.cache_hits, report.vector_index
        );
    }
    Ok(ExitCode::SUCCESS)
}
