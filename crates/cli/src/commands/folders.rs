//! `almirah folders add|remove|list`: the watched folders in the config file.

use std::process::ExitCode;

use almirah_core::Engine;
use almirah_core::freshness::FolderSettings;
use anyhow::{Context, Result};

use crate::{Cli, FolderArgs, FoldersAction};
use almirah_settings as config;
use almirah_settings::folders::{self as folders_config, normalise};

/// Run one `folders` action.
pub fn run(engine: &Engine, cli: &Cli, action: &FoldersAction) -> Result<ExitCode> {
    let path = config::config_path(cli.config.as_deref()).context("no config folder: pass --config FILE")?;
    match action {
        FoldersAction::Add(args) => {
            let folder = settings(args)?;
            let replaced = folders_config::add(&path, &folder)?;
            let verb = if replaced { "updated" } else { "added" };
            if cli.json {
                println!("{}", serde_json::json!({ verb: folder, "config": path }));
            } else {
                println!("{verb} {} in {}", folder.path.display(), path.display());
                println!("`almirah watch` keeps it current; `almirah index {}` indexes it now.", folder.path.display());
            }
            Ok(ExitCode::SUCCESS)
        }
        FoldersAction::Remove { folder, keep_documents } => {
            let folder = normalise(folder);
            let in_config = folders_config::remove(&path, &folder)?;
            let report = if *keep_documents { None } else { Some(engine.remove_folder(&folder)?) };
            let dropped = report.as_ref().map_or(0, |r| r.outcomes.len());
            anyhow::ensure!(in_config || dropped > 0, "{} is not a watched folder", folder.display());
            if cli.json {
                println!(
                    "{}",
                    serde_json::json!({ "removed": folder, "in_config": in_config, "files_dropped": dropped })
                );
            } else {
                println!("removed {}: {dropped} files dropped from the index", folder.display());
            }
            Ok(ExitCode::SUCCESS)
        }
        FoldersAction::List => list(engine, cli),
    }
}

fn settings(args: &FolderArgs) -> Result<FolderSettings> {
    anyhow::ensure!(args.folder.is_dir(), "{} is not a folder", args.folder.display());
    let folder = FolderSettings {
        path: normalise(&args.folder),
        recursive: !args.no_recursive,
        include: args.include.clone(),
        exclude: args.exclude.clone(),
        versioning: enum_value("versioning", &args.versioning)?,
        date_order: enum_value("date-order", &args.date_order)?,
        audience: args.audience.as_ref().map(|a| a.split(',').map(|s| s.trim().to_string()).collect()),
        force_poll: args.force_poll,
    };
    almirah_core::update::filter::FolderFilter::new(&folder)?;
    Ok(folder)
}

/// A kebab-case setting (`explicit`, `month-day`) as its enum.
fn enum_value<T: serde::de::DeserializeOwned>(name: &str, v: &str) -> Result<T> {
    serde_json::from_value(serde_json::Value::String(v.to_string())).with_context(|| format!("--{name} {v}"))
}

fn list(engine: &Engine, cli: &Cli) -> Result<ExitCode> {
    let (file, _) = config::load(cli.config.as_deref())?;
    let status = engine.status()?;
    let count_of = |f: &FolderSettings| {
        let p = normalise(&f.path).to_string_lossy().into_owned();
        status.folders.iter().find(|c| c.path == p).cloned()
    };
    // Since when the watcher has found a folder missing (else: missing now).
    let missing =
        |f: &FolderSettings| -> Option<String> {
            if f.path.is_dir() {
                return None;
            }
            let p = normalise(&f.path);
            let since = status.watch.as_ref().and_then(|w| w.folders.iter().find(|x| x.path == p)?.missing_since);
            Some(since.map_or("folder missing".into(), |t| {
                format!("folder missing since {}", t.format("%Y-%m-%d %H:%M UTC"))
            }))
        };
    if cli.json {
        let rows: Vec<_> = file
            .folders
            .iter()
            .map(|f| serde_json::json!({ "settings": f, "index": count_of(f), "missing": missing(f) }))
            .collect();
        println!("{}", serde_json::to_string_pretty(&rows)?);
        return Ok(ExitCode::SUCCESS);
    }
    if file.folders.is_empty() {
        println!("no watched folders; add one with `almirah folders add PATH`");
    }
    for f in &file.folders {
        let counts = count_of(f).map_or("not indexed yet".to_string(), |c| {
            format!("{} documents, {} chunks, {} failing", c.documents, c.chunks, c.failing)
        });
        let kept = if count_of(f).is_some_and(|c| c.documents > 0) { ", its documents are kept" } else { "" };
        let gone = missing(f).map(|m| format!("; {m}{kept}")).unwrap_or_default();
        println!("{}  ({counts}{gone})", f.path.display());
        println!("    {}", describe(f));
    }
    Ok(ExitCode::SUCCESS)
}

fn describe(f: &FolderSettings) -> String {
    let mut parts = vec![if f.recursive { "recursive" } else { "this folder only" }.to_string()];
    parts
        .push(format!("versioning {}", serde_json::to_value(f.versioning).unwrap_or_default().as_str().unwrap_or("?")));
    parts.push(format!("dates {}", serde_json::to_value(f.date_order).unwrap_or_default().as_str().unwrap_or("?")));
    if !f.include.is_empty() {
        parts.push(format!("include {}", f.include.join(" ")));
    }
    if !f.exclude.is_empty() {
        parts.push(format!("exclude {}", f.exclude.join(" ")));
    }
    if let Some(a) = &f.audience {
        parts.push(format!("audience {}", a.join(",")));
    }
    if f.force_poll {
        parts.push("polled".into());
    }
    parts.join(", ")
}
