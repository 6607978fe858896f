//! One module per subcommand; each is a few lines around one `Engine` call.

mod ask;
mod docs;
mod eval;
mod folders;
mod index;
mod model;
mod search;
mod serve;
mod status;
mod watch;

use std::process::ExitCode;
use std::sync::atomic::AtomicBool;

use almirah_core::embed::{BuiltinModel, EmbedderConfig};
use almirah_core::{Engine, ExtractorMode};
use anyhow::{Context, Result};

use crate::{Cli, Command};
use almirah_settings as config;

/// Run the parsed command.
pub fn run(cli: &Cli) -> Result<ExitCode> {
    if let Command::Key { provider } = &cli.command {
        return model::store_key(provider, cli.json);
    }
    if matches!(cli.command, Command::Status) {
        let (file, path) = config::load(cli.config.as_deref())?;
        let source = library_source(cli, &file)?;
        if !source.holds_a_library() {
            // A setting out of range is still reported.
            config::engine_config(&file, &source.data_dir).with_context(|| config_named(path.as_deref()))?;
            return status::no_library(&source, cli.json);
        }
    }
    require_library(cli)?;
    let engine = open_engine(cli)?;
    match &cli.command {
        Command::Index { folders, quiet, no_wait } => {
            index::run(&engine, folders, index::Options { quiet: *quiet || cli.json, json: cli.json, wait: !no_wait })
        }
        Command::Search { query, k, as_of, session, all_versions, mode } => {
            let as_of = docs::parse_as_of(&engine, as_of.as_deref(), session.as_deref())?;
            search::run(
                &engine,
                search::Args { query, k: *k, as_of, all_versions: *all_versions, mode: *mode },
                cli.json,
            )
        }
        Command::Docs { action, status, as_of, session } => match action {
            None => {
                let as_of = docs::parse_as_of(&engine, as_of.as_deref(), session.as_deref())?;
                docs::list(&engine, as_of, status.as_deref(), cli.json)
            }
            Some(action) => docs::edit(&engine, action, cli.json),
        },
        Command::Ask { question, as_of, trace, mode, model } => {
            let as_of = match as_of {
                Some(d) => Some(docs::parse_as_of(&engine, Some(d), None)?),
                None => None,
            };
            let answering = model::Answering::from_cli(cli, &engine, model.as_deref(), mode.as_deref())?;
            ask::run(&engine, &answering, question, as_of, *trace, cli.json)
        }
        Command::Eval { set, mode, report, model, half, journal, run_key, time_limit } => {
            let answering = model::Answering::from_cli(cli, &engine, model.as_deref(), None)?;
            let resume = eval::Resume::new(journal.as_deref(), run_key.as_deref(), &answering, *time_limit)?;
            let set = eval::SetRun { path: set, half: *half };
            eval::run(&engine, &answering, set, resume, mode, report.as_deref(), cli.json)
        }
        Command::Status => status::run(&engine, cli.json),
        Command::Folders { action } => folders::run(&engine, cli, action),
        Command::Watch { folders, reconcile_secs } => watch::run(engine, cli, folders, *reconcile_secs),
        Command::Mcp => serve::mcp(engine, cli),
        Command::Serve { port, bind, no_watch } => {
            serve::run(engine, cli, serve::Flags { port: *port, bind: bind.as_deref(), no_watch: *no_watch })
        }
        Command::Reindex { .. } => status::re_embed(&engine, cli.json),
        Command::Dump => {
            let dump = engine.dump()?;
            println!("{}", serde_json::to_string_pretty(&dump)?);
            Ok(ExitCode::SUCCESS)
        }
        Command::Extract { .. } | Command::Key { .. } => Ok(ExitCode::SUCCESS),
    }
}

/// The data folder a command would open, and where that choice came from
/// (`--data-dir`, `ALMIRAH_DATA_DIR`, the config file, the default).
pub struct LibrarySource {
    /// The folder.
    pub data_dir: std::path::PathBuf,
    /// Where it came from.
    pub from: &'static str,
}

impl LibrarySource {
    /// Whether the folder holds a library.
    fn holds_a_library(&self) -> bool {
        self.data_dir.join("data.mdb").is_file()
    }
}

/// The data folder `cli` names with the config `file`, and where from.
fn library_source(cli: &Cli, file: &config::Config) -> Result<LibrarySource> {
    let data_dir = config::data_dir(cli.data_dir.as_deref(), file)?;
    let from = if cli.data_dir.is_some() {
        "--data-dir"
    } else if std::env::var_os("ALMIRAH_DATA_DIR").is_some() {
        "ALMIRAH_DATA_DIR"
    } else if file.data_dir.is_some() {
        "data_dir in the config file"
    } else {
        "the default data folder"
    };
    Ok(LibrarySource { data_dir, from })
}

/// Commands that need a library to exist (`search`, `ask`, `docs`, `eval`,
/// `reindex`, `mcp`, `serve`): opening a folder with no library in it (a
/// typo in `--data-dir` or `ALMIRAH_DATA_DIR`) would create an empty one
/// and answer every question with nothing. They refuse it, naming the
/// folder and where it came from, unless `serve` watches configured folders
/// (the watcher fills the new library). `status` says there is none and
/// creates nothing.
fn require_library(cli: &Cli) -> Result<()> {
    let watches = match &cli.command {
        Command::Mcp
        | Command::Search { .. }
        | Command::Ask { .. }
        | Command::Docs { .. }
        | Command::Eval { .. }
        | Command::Reindex { .. } => false,
        Command::Serve { no_watch, .. } => !no_watch,
        _ => return Ok(()),
    };
    let (file, _) = config::load(cli.config.as_deref())?;
    let source = library_source(cli, &file)?;
    if source.holds_a_library() || (watches && !file.folders.is_empty()) {
        return Ok(());
    }
    let LibrarySource { data_dir, from } = source;
    let serve_hint = if matches!(cli.command, Command::Serve { .. }) {
        ", or configure folders for `almirah serve` to watch (`almirah folders add <folder>`)"
    } else {
        ""
    };
    anyhow::bail!(
        "no library in {} (from {from}): check the path for a typo, or create the library with `almirah index \
         <folder>`{serve_hint}",
        data_dir.display()
    )
}

/// The config file settings came from, for an error about one of them.
fn config_named(path: Option<&std::path::Path>) -> String {
    match path {
        Some(p) => format!("the config file {}", p.display()),
        None => "the default settings".to_string(),
    }
}

fn open_engine(cli: &Cli) -> Result<Engine> {
    let (file, path) = config::load(cli.config.as_deref())?;
    let data_dir = config::data_dir(cli.data_dir.as_deref(), &file)?;
    // A value out of range names its table; the file is named here.
    let mut cfg = config::engine_config(&file, &data_dir).with_context(|| config_named(path.as_deref()))?;
    if let Some(spec) = &cli.embedder {
        cfg.embedder = embedder_spec(spec, &cfg.embedder)?;
    }
    let program = std::env::current_exe().context("cannot find the almirah executable")?;
    cfg.index.extractor = ExtractorMode::Subprocess {
        program,
        args: vec!["__extract".into()],
        timeout_ms: file.index.extract_timeout_secs.saturating_mul(1000),
        memory_limit_bytes: file.index.extract_memory_mib.saturating_mul(1 << 20),
    };
    Engine::open(cfg).with_context(|| format!("opening the library in {}", data_dir.display()))
}

/// `--embedder SPEC`: `builtin` or `builtin:MODEL`; a configured model
/// folder is kept.
///
/// # Errors
/// Another provider or an unknown model.
fn embedder_spec(spec: &str, configured: &EmbedderConfig) -> Result<EmbedderConfig> {
    let (provider, model) = spec.split_once(':').unwrap_or((spec, "auto"));
    if !provider.eq_ignore_ascii_case("builtin") {
        anyhow::bail!(
            "--embedder takes builtin, builtin:all-MiniLM-L6-v2 or builtin:multilingual-e5-small (got {spec:?}); \
             other embedders are set in the config's [embedder]"
        );
    }
    let model: BuiltinModel = model.parse()?;
    let model_dir = match configured {
        EmbedderConfig::Builtin { model_dir, .. } => model_dir.clone(),
        _ => None,
    };
    Ok(EmbedderConfig::Builtin { model_dir, model })
}

/// A cancel flag that is never set (Ctrl-C ends the process; the index stays
/// consistent because every batch is one transaction).
pub fn no_cancel() -> AtomicBool {
    AtomicBool::new(false)
}

/// A folder named on the command line that does not exist is an error
/// naming it, with exit code 2 (a configured folder that is missing is only
/// a warning; see `watch`). `None` when every path exists.
pub fn missing_paths(paths: &[std::path::PathBuf], json: bool) -> Option<ExitCode> {
    let missing = paths.iter().find(|p| !p.exists())?;
    let message = format!("{}: no such file or folder", missing.display());
    if json {
        println!("{}", serde_json::json!({"error": {"kind": "user", "message": message}}));
    } else {
        eprintln!("error: {message}");
    }
    Some(ExitCode::from(2))
}
