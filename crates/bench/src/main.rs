//! `almirah-bench`: ingest throughput, query latency, vector recall,
//! multi-hop retrieval recall, and watch latency (save-to-searchable and
//! reconcile). Prints a readable report to stdout, progress
//! to stderr, and writes the figures as JSON. Figures are printed as
//! measured; nothing is asserted.

mod gate;
mod ingest;
mod latency;
mod multihop;
mod python;
mod report;
mod stats;
mod synth;
mod vector_store;
mod vectors;
mod watch;

use std::path::PathBuf;

use anyhow::{Result, bail};
use clap::Parser;
use tempfile::TempDir;

/// mimalloc keeps freed memory for reuse: the builtin embedder's forward
/// passes allocate and free tens of MB per batch, which the system
/// allocator returns to the kernel and faults back in (about a third of
/// embedding time on two cores; 7.4 -> 11.1 chunks/s measured with
/// `examples/embed_speed`).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Command-line flags.
#[derive(Debug, Parser)]
#[command(name = "almirah-bench", about = "Almirah benchmark", args_override_self = true)]
struct Args {
    /// Small sizes, for checking that the benchmark runs.
    #[arg(long)]
    quick: bool,
    /// Where the JSON report goes.
    #[arg(long, default_value = "bench-out/bench.json")]
    out: PathBuf,
    /// The shared corpora folder (default: $ALMIRAH_CORPORA, else ../shared/corpora).
    #[arg(long)]
    corpora: Option<PathBuf>,
    /// Parent folder of the temporary libraries (default: the system temp folder).
    #[arg(long)]
    work_dir: Option<PathBuf>,
    /// Parts to run, comma-separated: ingest, latency, vectors, multihop,
    /// watch, gate; `none` runs no synthetic part (with `--library`, only
    /// the library's questions are timed).
    #[arg(long, value_delimiter = ',', default_value = "ingest,latency,vectors,multihop,watch,gate")]
    parts: Vec<String>,
    /// Also time the handbook questions on this existing library (its own
    /// embedder; opened as is, so an older format is upgraded first):
    /// end-to-end, the query embedding alone, and the rest.
    #[arg(long)]
    library: Option<PathBuf>,
}

/// Settings shared by every part.
pub struct Options {
    /// Small sizes.
    pub quick: bool,
    /// The shared corpora folder.
    pub corpora: PathBuf,
    work_dir: Option<PathBuf>,
}

impl Options {
    /// A fresh temporary folder, removed when dropped.
    ///
    /// # Errors
    /// I/O errors.
    pub fn tempdir(&self, prefix: &str) -> Result<TempDir> {
        let prefix = format!("almirah-bench-{prefix}-");
        let mut b = tempfile::Builder::new();
        b.prefix(&prefix);
        Ok(match &self.work_dir {
            Some(dir) => {
                std::fs::create_dir_all(dir)?;
                b.tempdir_in(dir)?
            }
            None => b.tempdir()?,
        })
    }
}

/// The 1, 5 and 15 minute load averages (Linux), to judge contention.
fn loadavg() -> Option<String> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    Some(text.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
}

fn main() -> Result<()> {
    // The watch part extracts in child processes of this binary, as `almirah` does.
    let mut argv = std::env::args_os().skip(1);
    if argv.next().is_some_and(|a| a == watch::EXTRACT_ARG)
        && let Some(path) = argv.next()
    {
        std::process::exit(almirah_core::update::extract_child_main(std::path::Path::new(&path)));
    }
    let args = Args::parse();
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "warn".into()))
        .with_writer(std::io::stderr)
        .init();
    const PARTS: [&str; 6] = ["ingest", "latency", "vectors", "multihop", "watch", "gate"];
    for p in &args.parts {
        if !PARTS.contains(&p.as_str()) && p != "none" {
            bail!("unknown part {p:?} (expected one of {})", PARTS.join(", "));
        }
    }
    let corpora = args
        .corpora
        .or_else(|| std::env::var_os("ALMIRAH_CORPORA").map(PathBuf::from))
        .unwrap_or_else(|| PathBuf::from("../shared/corpora"));
    // Only the synthetic parts read the corpora; `--parts none --library DIR` does not.
    if args.parts.iter().any(|p| p != "none") && !corpora.is_dir() {
        bail!("corpora folder {} not found (set --corpora or ALMIRAH_CORPORA)", corpora.display());
    }
    let opts = Options { quick: args.quick, corpora, work_dir: args.work_dir };
    let wants = |p: &str| args.parts.iter().any(|x| x == p);
    let started = std::time::Instant::now();
    let mut rep = report::Report {
        quick: opts.quick,
        cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
        ingest: None,
        library: None,
        latency: None,
        vectors: None,
        multihop: None,
        watch: None,
        gate: None,
        errors: Vec::new(),
        part_seconds: Vec::new(),
        loadavg_start: loadavg(),
        loadavg_end: None,
    };
    // A failing part is reported and the others still run.
    let mut errors = Vec::new();
    let mut part_seconds = Vec::new();
    let mut keep = |part: &str, t: std::time::Instant, r: Result<()>| {
        part_seconds.push((part.to_string(), t.elapsed().as_secs_f64()));
        if let Err(e) = r {
            eprintln!("part {part} failed: {e:#}");
            errors.push(format!("{part}: {e:#}"));
        }
    };
    let now = std::time::Instant::now;
    if let Some(dir) = &args.library {
        let t = now();
        keep("library", t, ingest::library_queries(dir).map(|r| rep.library = Some(r)));
    }
    if wants("ingest") {
        let t = now();
        keep("ingest", t, ingest::run(&opts).map(|r| rep.ingest = Some(r)));
    }
    if wants("gate") {
        let t = now();
        keep("gate", t, gate::run(&opts).map(|r| rep.gate = Some(r)));
    }
    if wants("latency") {
        let t = now();
        keep("latency", t, latency::run(&opts).map(|r| rep.latency = Some(r)));
    }
    if wants("vectors") {
        let t = now();
        keep("vectors", t, vectors::run(&opts).map(|r| rep.vectors = Some(r)));
    }
    if wants("multihop") {
        let t = now();
        keep("multihop", t, multihop::run(&opts).map(|r| rep.multihop = Some(r)));
    }
    if wants("watch") {
        let t = now();
        keep("watch", t, watch::run(&opts).map(|r| rep.watch = Some(r)));
    }
    rep.errors = errors;
    rep.part_seconds = part_seconds;
    rep.loadavg_end = loadavg();
    report::print(&rep);
    report::write_json(&rep, &args.out)?;
    println!(
        "\nTotal benchmark time {:.1} min; JSON written to {}",
        started.elapsed().as_secs_f64() / 60.0,
        args.out.display()
    );
    if !rep.errors.is_empty() {
        bail!("{} part(s) failed", rep.errors.len());
    }
    Ok(())
}
