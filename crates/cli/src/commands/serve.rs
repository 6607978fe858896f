//! `almirah mcp` (MCP over stdio) and `almirah serve [--port N] [--bind
//! ADDR]` (the HTTP API and MCP over streamable HTTP, with the watcher):
//! thin adapters over `almirah-server`.

use std::net::{IpAddr, SocketAddr};
use std::process::ExitCode;
use std::sync::Arc;

use almirah_core::Engine;
use almirah_server::serve::{self, ServeOptions};
use almirah_server::{ExtraTokens, Setup};
use anyhow::{Context, Result};

use crate::Cli;
use almirah_settings as config;

/// Serve MCP over stdin/stdout as the config's profile until the client
/// closes stdin. Nothing but MCP messages goes to stdout.
pub fn mcp(engine: Engine, cli: &Cli) -> Result<ExitCode> {
    let (file, config_path) = config::load(cli.config.as_deref())?;
    let setup = Setup { config: file, config_path, extra_tokens: ExtraTokens::default() };
    almirah_server::mcp::run_stdio(Arc::new(engine), setup)?;
    Ok(ExitCode::SUCCESS)
}

/// `almirah serve` flags.
pub struct Flags<'a> {
    /// `--port` (default `[serve] port`).
    pub port: Option<u16>,
    /// `--bind` (default `[serve] bind`).
    pub bind: Option<&'a str>,
    /// `--no-watch`.
    pub no_watch: bool,
}

/// Serve until Ctrl-C or SIGTERM.
pub fn run(engine: Engine, cli: &Cli, flags: Flags<'_>) -> Result<ExitCode> {
    let (file, config_path) = config::load(cli.config.as_deref())?;
    let bind = flags.bind.unwrap_or(&file.serve.bind);
    let ip: IpAddr = bind.parse().with_context(|| format!("--bind {bind:?}: give an IP address such as 127.0.0.1"))?;
    let addr = SocketAddr::new(ip, flags.port.unwrap_or(file.serve.port));
    let data_dir = engine.config().data_dir.clone();
    let (extra_tokens, token_file) = serve::extra_tokens(&file, &data_dir, addr)?;
    let setup = Setup { config: file, config_path, extra_tokens };
    let json = cli.json;
    let on_ready = move |running: &almirah_server::Running, watcher: Option<&almirah_core::Watcher>| {
        let url = format!("http://{}", running.addr);
        let token = token_file.as_ref().map(|p| p.display().to_string());
        if json {
            println!(
                "{}",
                serde_json::json!({"listening": url, "mcp": format!("{url}/mcp"), "token_file": token, "watching": watcher.is_some()})
            );
            return;
        }
        eprintln!("listening on {url} (MCP at {url}/mcp)");
        if let Some(path) = token {
            eprintln!("no token configured: clients send the token in {path} (Authorization: Bearer …)");
        }
        if watcher.is_none() {
            eprintln!("not watching folders (--no-watch, or none configured: `almirah folders add PATH`)");
        }
    };
    serve::run(Arc::new(engine), setup, ServeOptions { addr, watch: !flags.no_watch }, on_ready)?;
    Ok(ExitCode::SUCCESS)
}
