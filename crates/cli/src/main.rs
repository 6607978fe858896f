//! `almirah`: a local policy assistant that keeps itself current.
//!
//! A thin adapter over `almirah-core`: argument parsing, rendering (human or
//! `--json`) and exit codes (0 success, 1 error, 2 when some files failed).

mod commands;
mod config;
mod progress;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Almirah: search your organisation's policies, circulars and handbooks offline.
#[derive(Debug, Parser)]
#[command(name = "almirah", version, about, long_about = None)]
pub struct Cli {
    /// Library folder (default: $ALMIRAH_DATA_DIR, else the OS data folder, e.g. ~/.local/share/almirah).
    #[arg(long, global = true)]
    pub data_dir: Option<PathBuf>,
    /// Config file (default: ~/.config/almirah/config.toml).
    #[arg(long, global = true)]
    pub config: Option<PathBuf>,
    /// Print machine-readable JSON instead of text.
    #[arg(long, global = true)]
    pub json: bool,
    /// The command.
    #[command(subcommand)]
    pub command: Command,
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Index folders: new and changed files are processed, deleted ones removed.
    Index {
        /// Folders to index.
        #[arg(required = true)]
        folders: Vec<PathBuf>,
        /// Do not show a progress bar.
        #[arg(long)]
        quiet: bool,
    },
    /// Hybrid (BM25 + vector) search.
    Search {
        /// The query.
        query: String,
        /// Number of results.
        #[arg(short, default_value_t = 5)]
        k: usize,
    },
    /// Counts, sizes, problems and the embedder of the library.
    Status,
    /// Rebuild parts of the index.
    Reindex {
        /// Re-embed every chunk with the configured embedder into a new vector index.
        #[arg(long, required = true)]
        re_embed: bool,
    },
    /// Internal: extract one file and print JSON (used by the indexer's child processes).
    #[command(name = "__extract", hide = true)]
    Extract {
        /// The file.
        path: PathBuf,
    },
    /// Internal: print the logical dump (counts and hash) of the library.
    #[command(name = "__dump", hide = true)]
    Dump,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Command::Extract { path } = &cli.command {
        return ExitCode::from(almirah_core::update::extract_child_main(path) as u8);
    }
    init_tracing();
    match commands::run(&cli) {
        Ok(code) => code,
        Err(err) => {
            report_error(&err, cli.json);
            ExitCode::from(1)
        }
    }
}

fn report_error(err: &anyhow::Error, json: bool) {
    let kind = err
        .downcast_ref::<almirah_core::Error>()
        .map(almirah_core::Error::kind);
    if json {
        let value = serde_json::json!({"error": {"kind": kind, "message": format!("{err:#}")}});
        println!("{value}");
    } else {
        eprintln!("error: {err:#}");
    }
}

fn init_tracing() {
    let filter = tracing_subscriber::EnvFilter::try_from_env("ALMIRAH_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .try_init();
}
