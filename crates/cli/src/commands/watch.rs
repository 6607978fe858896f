//! `almirah watch [FOLDERS…]`: keep the library current until Ctrl-C.
//! Each change is logged with its latency (event seen → committed): as a
//! line on stderr, or as one JSON object per line on stdout with `--json`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, SystemTime};

use almirah_core::watch::{Notice, WatchMode};
use almirah_core::{Engine, Watcher};
use anyhow::Result;

use crate::Cli;
use almirah_settings as config;

/// Set by SIGINT or SIGTERM.
static STOP: AtomicBool = AtomicBool::new(false);

extern "C" fn on_signal(_: libc::c_int) {
    STOP.store(true, Ordering::SeqCst);
}

/// Ctrl-C and `kill` stop the watcher cleanly: the batch in progress is
/// cancelled (the last commit stays), the stop is recorded for `status`.
#[allow(unsafe_code)]
fn install_stop_handlers() {
    // SAFETY: the handler only stores to an atomic, which is async-signal-safe.
    unsafe {
        libc::signal(libc::SIGINT, on_signal as *const () as libc::sighandler_t);
        libc::signal(libc::SIGTERM, on_signal as *const () as libc::sighandler_t);
    }
}

/// Watch the configured folders plus `extra` until stopped.
pub fn run(engine: Engine, cli: &Cli, extra: &[PathBuf], reconcile_secs: Option<u64>) -> Result<ExitCode> {
    let (file, config_path) = config::load(cli.config.as_deref())?;
    if let Some(code) = super::missing_paths(extra, cli.json) {
        return Ok(code);
    }
    let roots = roots_of(&file, extra);
    anyhow::ensure!(!roots.is_empty(), "nothing to watch: give folders, or add them with `almirah folders add PATH`");
    // A library another process watches is refused by `Watcher::start`,
    // naming the holder from its lock (`almirah serve`, the desktop app…).
    let mut options = file.watch.options(roots);
    options.owner = Some("almirah watch".into());
    if let Some(secs) = reconcile_secs {
        options.reconcile_every = Duration::from_secs(secs.max(1));
    }
    install_stop_handlers();
    let json = cli.json;
    let engine = Arc::new(engine);
    let watcher = Watcher::start(engine.clone(), options, Box::new(move |n| log(&n, json)))?;
    let mut config_seen = config_path.as_deref().and_then(modified);
    let mut ticks = 0u32;
    while !STOP.load(Ordering::SeqCst) {
        std::thread::sleep(Duration::from_millis(100));
        ticks += 1;
        if ticks.is_multiple_of(10) {
            follow_config(&engine, &watcher, cli, extra, &mut config_seen);
        }
    }
    if !json {
        eprintln!("stopping…");
    }
    watcher.stop();
    Ok(ExitCode::SUCCESS)
}

fn roots_of(file: &config::Config, extra: &[PathBuf]) -> Vec<PathBuf> {
    let mut roots: Vec<PathBuf> = file.folders.iter().map(|f| f.path.clone()).collect();
    roots.extend(extra.iter().cloned());
    roots
}

fn modified(path: &Path) -> Option<SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

/// `almirah folders add|remove` (or an edit) changed the config file: watch
/// the folders it lists now, with their new settings.
fn follow_config(engine: &Engine, watcher: &Watcher, cli: &Cli, extra: &[PathBuf], seen: &mut Option<SystemTime>) {
    let Some(path) = config::config_path(cli.config.as_deref()) else { return };
    let now = modified(&path);
    if now == *seen {
        return;
    }
    *seen = now;
    match config::load(cli.config.as_deref()) {
        Ok((file, _)) => {
            engine.set_folders(file.folders.clone());
            let roots: Vec<PathBuf> = roots_of(&file, extra);
            eprintln!("config changed: watching {} folders", roots.len());
            watcher.set_roots(roots);
        }
        Err(e) => eprintln!("problem    config changed but cannot be read ({e:#}); keeping the folders watched"),
    }
}

fn log(notice: &Notice, json: bool) {
    if json {
        if let Ok(line) = serde_json::to_string(notice) {
            println!("{line}");
        }
        return;
    }
    match notice {
        Notice::Watching(f) => match (&f.mode, &f.reason) {
            (WatchMode::Poll, Some(reason)) => eprintln!("polling    {} ({reason})", f.path.display()),
            (WatchMode::Missing, reason) => {
                eprintln!("missing    {} ({})", f.path.display(), reason.as_deref().unwrap_or("folder missing"))
            }
            _ => eprintln!("watching   {}", f.path.display()),
        },
        Notice::Change(c) => {
            let reason = c.reason.as_deref().map(|r| format!(": {r}")).unwrap_or_default();
            eprintln!("{:<10} {} ({} ms){reason}", c.action, c.path, c.latency_ms);
        }
        Notice::Reconciled { files_seen, changes, elapsed_ms } => {
            eprintln!("reconciled {files_seen} files, {changes} changes, in {elapsed_ms} ms");
        }
        Notice::Problem { message } => eprintln!("problem    {message}"),
    }
    tracing::debug!(?notice, "watch");
}
