//! `almirah status` and `almirah reindex --re-embed`

use std::process::ExitCode;

use almirah_core::Engine;
use anyhow::Result;

use crate::progress::Bar;

/// Say that `source` holds no library (a mistyped path, or nothing indexed
/// yet) and how to make one, creating nothing; `--json`:
/// `{"library": null, "data_dir": …, "from": …}`. Exit 0: a status, not an error.
pub fn no_library(source: &super::LibrarySource, json: bool) -> Result<ExitCode> {
    let dir = source.data_dir.display().to_string();
    if json {
        let v = serde_json::json!({"library": null, "data_dir": dir, "from": source.from});
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        println!(
            "no library in {dir} (from {}): check the path for a typo, or create one with `almirah index <folder>`",
            source.from
        );
    }
    Ok(ExitCode::SUCCESS)
}

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
    if s.vectors_pending > 0 {
        println!(
            "vectors      {} of {} chunks wait for a vector (searchable by keywords now; `almirah index` embeds them)",
            s.vectors_pending, s.chunks
        );
    }
    println!("disk         {:.1} MiB", s.disk_bytes as f64 / (1024.0 * 1024.0));
    match &s.embedder {
        Some(e) => println!("embedder     {}:{} ({} dims)", e.provider, e.model, e.dimensions),
        None => println!("embedder     (nothing indexed yet)"),
    }
    for f in &s.folders {
        println!("folder       {} ({} documents, {} chunks, {} failing)", f.path, f.documents, f.chunks, f.failing);
    }
    print_watch(s.watch.as_ref());
    for (status, n) in &s.files_by_status {
        println!("files        {n:>6} {status}");
    }
    for p in &s.problems {
        let kept = if p.kept_previous { " (previous version kept)" } else { "" };
        println!("problem      {} {}: {}{kept}", p.status, p.path, p.reason.as_deref().unwrap_or(""));
    }
    Ok(ExitCode::SUCCESS)
}

fn print_watch(watch: Option<&almirah_core::watch::WatchHealth>) {
    let Some(w) = watch else {
        println!("watch        never run");
        return;
    };
    let state = if w.running { format!("running (pid {})", w.pid) } else { "stopped".to_string() };
    let seen = w.updated_at.map(|t| format!(", as of {}", t.to_rfc3339())).unwrap_or_default();
    println!("watch        {state}{seen}");
    println!("queue        {} paths waiting", w.queue_len);
    match (w.last_reconcile_at, w.last_reconcile_ms) {
        (Some(at), Some(ms)) => println!("reconciled   {} ({ms} ms)", at.to_rfc3339()),
        _ => println!("reconciled   never"),
    }
    if let Some(ms) = w.last_change_latency_ms {
        println!("latency      {ms} ms (last change; {} changes since start)", w.changes);
    }
    for f in w.folders.iter().filter(|f| f.reason.is_some()) {
        let what = if f.mode == almirah_core::watch::WatchMode::Missing { "missing " } else { "polled  " };
        println!("{what}     {}: {}", f.path.display(), f.reason.as_deref().unwrap_or(""));
    }
}

/// Re-embed every chunk with the configured embedder.
pub fn re_embed(engine: &Engine, json: bool) -> Result<ExitCode> {
    let bar = Bar::re_embed(json);
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
