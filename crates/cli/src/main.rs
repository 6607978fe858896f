//! `almirah`: a local policy assistant that keeps itself current.
//!
//! A thin adapter over `almirah-core`: argument parsing, rendering (human or
//! `--json`) and exit codes (0 success, 1 error, 2 when some files failed).

mod commands;
mod progress;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// mimalloc keeps freed memory for reuse: the builtin embedder's forward
/// passes allocate and free tens of MB per batch, which the system
/// allocator returns to the kernel and faults back in (about a third of
/// embedding time on two cores; 7.4 -> 11.1 chunks/s measured with
/// `examples/embed_speed`).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

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
    /// Builtin embedder, instead of the config's `[embedder]`: `builtin` (auto:
    /// multilingual-e5-small when the first files hold Devanagari, else
    /// all-MiniLM-L6-v2), `builtin:all-MiniLM-L6-v2` or
    /// `builtin:multilingual-e5-small`. A library keeps the embedder it was
    /// created with; `almirah reindex --re-embed --embedder …` switches it.
    #[arg(long, global = true, value_name = "SPEC")]
    pub embedder: Option<String>,
    /// The command.
    #[command(subcommand)]
    pub command: Command,
}

/// Rankers for `search --mode`.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum SearchModeArg {
    /// BM25 and vectors fused with RRF.
    Hybrid,
    /// Keywords only.
    Bm25,
    /// Vectors only.
    Vector,
}

/// `almirah docs` actions.
#[derive(Debug, Subcommand)]
pub enum DocsAction {
    /// Override metadata of a document (key, id, path, or a file name only one document has); takes effect at once.
    Set {
        /// The document.
        doc: String,
        /// Session it is valid for, e.g. 2026-27.
        #[arg(long)]
        session: Option<String>,
        /// Series it belongs to.
        #[arg(long)]
        series: Option<String>,
        /// Version label.
        #[arg(long)]
        version: Option<String>,
        /// Documents it supersedes (keys, file names or "Circular No. 9 (2024-25)"), comma-separated.
        #[arg(long)]
        supersedes: Option<String>,
        /// Date of issue.
        #[arg(long)]
        issued: Option<String>,
        /// In force from.
        #[arg(long)]
        effective_from: Option<String>,
        /// In force until.
        #[arg(long)]
        effective_until: Option<String>,
        /// Audiences, comma-separated.
        #[arg(long)]
        audience: Option<String>,
        /// Title.
        #[arg(long)]
        title: Option<String>,
    },
    /// Remove overrides from a document.
    Unset {
        /// The document.
        doc: String,
        /// Fields to remove (session, series, version, supersedes, issued, effective_from, effective_until, audience, title).
        #[arg(required = true)]
        fields: Vec<String>,
    },
}

/// `almirah folders` actions.
#[derive(Debug, Subcommand)]
pub enum FoldersAction {
    /// Add a folder to the library's watched folders (or change its settings).
    Add(FolderArgs),
    /// Remove a folder from the config and drop its documents from the index.
    Remove {
        /// The folder.
        folder: PathBuf,
        /// Keep its documents in the index (only stop watching it).
        #[arg(long)]
        keep_documents: bool,
    },
    /// List the watched folders with their settings and what the index holds of each.
    List,
}

/// Settings of a folder for `almirah folders add`.
#[derive(Debug, clap::Args)]
pub struct FolderArgs {
    /// The folder.
    pub folder: PathBuf,
    /// Only the folder itself, not its subfolders.
    #[arg(long)]
    pub no_recursive: bool,
    /// Only files matching this glob (relative to the folder; repeatable), e.g. '*.md'.
    #[arg(long)]
    pub include: Vec<String>,
    /// Never files matching this glob (repeatable), e.g. 'drafts/**'.
    #[arg(long)]
    pub exclude: Vec<String>,
    /// auto (infer series and versions), explicit (front matter and sidecars only) or off.
    #[arg(long, default_value = "auto")]
    pub versioning: String,
    /// How numeric dates are read: day-month (28.02.2025) or month-day.
    #[arg(long, default_value = "day-month")]
    pub date_order: String,
    /// Audience of documents that do not state one, comma-separated (default: everyone).
    #[arg(long)]
    pub audience: Option<String>,
    /// Watch by polling instead of OS events (network shares).
    #[arg(long)]
    pub force_poll: bool,
}

/// Subcommands (parsed once, so variant sizes do not matter).
#[derive(Debug, Subcommand)]
#[allow(clippy::large_enum_variant)]
pub enum Command {
    /// Index folders: new and changed files are processed, deleted ones removed.
    Index {
        /// Folders to index.
        #[arg(required = true)]
        folders: Vec<PathBuf>,
        /// Do not show a progress bar.
        #[arg(long)]
        quiet: bool,
        /// Return once every file is searchable by keywords; chunks without
        /// a vector are embedded by the next `index`, `watch` or the app.
        #[arg(long)]
        no_wait: bool,
    },
    /// Hybrid (BM25 + vector) search over the documents in force.
    Search {
        /// The query.
        query: String,
        /// Number of results.
        #[arg(short, default_value_t = 5)]
        k: usize,
        /// Date the search speaks for (YYYY-MM-DD or DD.MM.YYYY; default today).
        #[arg(long)]
        as_of: Option<String>,
        /// Session the search speaks for, e.g. 2024-25 (a historical search).
        #[arg(long)]
        session: Option<String>,
        /// Also list withheld chunks with their statuses and reasons.
        #[arg(long)]
        all_versions: bool,
        /// Which rankers run.
        #[arg(long, value_enum, default_value = "hybrid")]
        mode: SearchModeArg,
    },
    /// List documents with their status, what supersedes them, and the
    /// provenance of every field; or set and unset metadata overrides.
    Docs {
        /// What to do (default: list).
        #[command(subcommand)]
        action: Option<DocsAction>,
        /// Only documents with this status (current, superseded, expired, pending, other-session).
        #[arg(long)]
        status: Option<String>,
        /// Date the statuses are computed for (default today).
        #[arg(long)]
        as_of: Option<String>,
        /// Session the statuses are computed for.
        #[arg(long)]
        session: Option<String>,
    },
    /// Answer a question from the documents in force, with citations.
    Ask {
        /// The question.
        question: String,
        /// Date the answer speaks for (default today, or the session the question names).
        #[arg(long)]
        as_of: Option<String>,
        /// Print the trace: route, searches, hits, withheld chunks, checks, time.
        #[arg(long)]
        trace: bool,
        /// classic (one search per part), agent (the model decides), or auto
        /// (agent for multi-part and multi-hop questions). Default from the config, else auto.
        #[arg(long)]
        mode: Option<String>,
        /// builtin | ollama:NAME | openai:URL:NAME | gemini:NAME. Default from the config, else builtin.
        #[arg(long)]
        model: Option<String>,
    },
    /// Run an evaluation set (JSONL) and print metrics per mode.
    Eval {
        /// The set, one JSON object per line.
        set: PathBuf,
        /// Modes to run, comma-separated: answering modes classic, agent,
        /// auto; rankers scored alone (recall@k, nDCG@10): bm25, vector, hybrid.
        #[arg(long, default_value = "classic", value_delimiter = ',')]
        mode: Vec<String>,
        /// builtin | ollama:NAME | openai:URL:NAME | gemini:NAME. Default from the config, else builtin.
        #[arg(long)]
        model: Option<String>,
        /// Write report.md, results.json and SVG plots into this folder.
        #[arg(long)]
        report: Option<PathBuf>,
        /// Which questions run: all, tuning or reporting (each question's
        /// half is fixed by the BLAKE3 hash of its id; quote the reporting half).
        #[arg(long, default_value = "all")]
        half: almirah_answer::eval::Half,
        /// Resumable run: append each answered question's result to this
        /// JSON-lines file as soon as it is scored, and reuse the results it
        /// already holds under the same --run-key instead of answering again.
        #[arg(long)]
        journal: Option<PathBuf>,
        /// What makes journal results reusable (say, the model and the
        /// commit). Default: the model's id.
        #[arg(long, requires = "journal")]
        run_key: Option<String>,
        /// Start no new question after this many seconds; the table covers
        /// the questions done (a re-run with --journal does the rest).
        #[arg(long)]
        time_limit: Option<u64>,
    },
    /// Keep the library current: watch the configured folders (and any given),
    /// index every change, reconcile periodically. Runs until Ctrl-C.
    Watch {
        /// Folders to watch besides the configured ones.
        folders: Vec<PathBuf>,
        /// Seconds between full reconciles (default from `[watch]`, else 300).
        #[arg(long)]
        reconcile_secs: Option<u64>,
    },
    /// Serve the library as MCP tools over stdin/stdout (search_documents, read_chunk,
    /// list_documents, lookup_table, ask), as the config's profile, for Claude Desktop,
    /// VS Code and other MCP clients.
    Mcp,
    /// Serve the library over HTTP for a team: search, ask (server-sent events),
    /// documents, status and MCP at /mcp, with bearer tokens mapped to audience profiles
    /// (`[serve]` in the config); runs the watcher too. Until Ctrl-C.
    Serve {
        /// Port (default `[serve] port`, else 8765; 0 picks a free one).
        #[arg(long)]
        port: Option<u16>,
        /// Address to listen on (default `[serve] bind`, else 127.0.0.1). A non-loopback
        /// address needs a configured token.
        #[arg(long)]
        bind: Option<String>,
        /// Do not run the watcher (another process keeps the library current).
        #[arg(long)]
        no_watch: bool,
    },
    /// Manage the watched folders in the config file.
    Folders {
        /// What to do.
        #[command(subcommand)]
        action: FoldersAction,
    },
    /// Counts, sizes, problems, folders, the watcher and the embedder of the library.
    Status,
    /// Store an API key in the OS keyring (read from standard input, never echoed to logs).
    Key {
        /// `openai` or `gemini`.
        provider: String,
    },
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

/// Die quietly on a closed pipe (`almirah docs | head`), as Unix tools do,
/// instead of panicking on the failed write.
#[cfg(unix)]
#[allow(unsafe_code)]
fn reset_sigpipe() {
    // SAFETY: restoring the default disposition of one signal at start-up,
    // before any thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

#[cfg(not(unix))]
fn reset_sigpipe() {}

fn main() -> ExitCode {
    reset_sigpipe();
    let cli = Cli::parse();
    if let Command::Extract { path } = &cli.command {
        return ExitCode::from(almirah_core::update::extract_child_main(path) as u8);
    }
    init_tracing(&cli.command);
    match commands::run(&cli) {
        Ok(code) => code,
        Err(err) => {
            report_error(&err, cli.json);
            ExitCode::from(if names_a_missing_file(&err) { 2 } else { 1 })
        }
    }
}

/// Whether `err` is a usage error of the kind that exits 2: a `--config`
/// file that does not exist (the README's exit codes).
fn names_a_missing_file(err: &anyhow::Error) -> bool {
    err.chain().any(|c| {
        matches!(c.downcast_ref::<almirah_settings::SettingsError>(), Some(almirah_settings::SettingsError::Missing(_)))
    })
}

fn report_error(err: &anyhow::Error, json: bool) {
    // Errors that are not the library's come from the command line or the
    // config file: the user can fix them.
    let kind =
        err.downcast_ref::<almirah_core::Error>().map_or(almirah_core::ErrorKind::User, almirah_core::Error::kind);
    let message = message_of(err);
    if json {
        let value = serde_json::json!({"error": {"kind": kind, "message": message}});
        println!("{value}");
    } else {
        eprintln!("error: {message}");
    }
}

/// The error and its causes joined by ": ", as `{err:#}` writes them, but
/// without a cause that its error already ends with (errors such as
/// "listening on …: Address already in use (os error 98)" show their
/// source themselves).
fn message_of(err: &anyhow::Error) -> String {
    let mut out = String::new();
    for cause in err.chain() {
        let text = cause.to_string();
        if out.ends_with(&text) {
            continue;
        }
        if !out.is_empty() {
            out.push_str(": ");
        }
        out.push_str(&text);
    }
    out
}

/// Logs go to stderr, coloured only on a terminal. `ALMIRAH_LOG` sets the
/// filter; by default warnings, and for `serve` also its info lines (one
/// per request, the watcher's changes).
fn init_tracing(command: &Command) {
    use std::io::IsTerminal;
    let default = if matches!(command, Command::Serve { .. }) { "warn,almirah_server=info" } else { "warn" };
    let filter = tracing_subscriber::EnvFilter::try_from_env("ALMIRAH_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::stderr().is_terminal())
        .with_writer(std::io::stderr)
        .try_init();
}
