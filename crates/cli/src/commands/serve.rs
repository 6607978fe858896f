//! `almirah mcp` (MCP over stdio) and `almirah serve [--port N] [--bind
//! ADDR]` (the HTTP API and MCP over streamable HTTP, with the watcher):
//! thin adapters over `almirah-server`.

use std::net::{IpAddr, SocketAddr, ToSocketAddrs};
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
    let addr = SocketAddr::new(bind_ip(bind)?, flags.port.unwrap_or(file.serve.port));
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
    let summary = serve::run(Arc::new(engine), setup, ServeOptions { addr, watch: !flags.no_watch }, on_ready)
        .map_err(suggest_no_watch)?;
    let (stopped, stats) = (summary.stopped, summary.stats);
    if json {
        let line =
            serde_json::json!({"stopped": {"connections": stopped.connections, "cut": stopped.cut, "stats": stats}});
        println!("{line}");
    } else {
        eprintln!(
            "stopped: {} requests ({} refused without a valid token), {} questions answered, {} connections{}",
            stats.requests,
            stats.unauthorized,
            stats.asks_answered,
            stopped.connections,
            if stopped.cut > 0 { format!(" ({} still open were cut)", stopped.cut) } else { String::new() }
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The address `--bind` (or `[serve] bind`) names: an IP address, or a
/// host name such as `localhost` resolved to its first address (IPv4
/// first), which must then pass the same loopback-or-token check.
fn bind_ip(bind: &str) -> Result<IpAddr> {
    if let Ok(ip) = bind.parse::<IpAddr>() {
        return Ok(ip);
    }
    if bind.eq_ignore_ascii_case("localhost") {
        return Ok(IpAddr::from([127, 0, 0, 1]));
    }
    let hint = || format!("--bind {bind:?}: give an IP address such as 127.0.0.1, or a host name of this machine");
    let resolved: Vec<IpAddr> = (bind, 0).to_socket_addrs().with_context(hint)?.map(|a| a.ip()).collect();
    let ip = resolved.iter().find(|ip| ip.is_ipv4()).or(resolved.first()).copied();
    ip.with_context(hint)
}

/// A library another process watches: say who, and that `--no-watch`
/// serves it anyway (the other watcher keeps it current).
fn suggest_no_watch(e: almirah_server::ServerError) -> anyhow::Error {
    match e {
        almirah_server::ServerError::Core(almirah_core::Error::AlreadyWatched { holder }) => anyhow::anyhow!(
            "this library is already watched by {holder}; stop it first, or serve without watching: `almirah serve \
             --no-watch` (the other watcher keeps the library current)"
        ),
        other => other.into(),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::bind_ip;

    #[test]
    fn bind_takes_addresses_and_localhost() {
        assert_eq!(bind_ip("localhost").unwrap().to_string(), "127.0.0.1");
        assert_eq!(bind_ip("LOCALHOST").unwrap().to_string(), "127.0.0.1");
        assert_eq!(bind_ip("::1").unwrap().to_string(), "::1");
        assert_eq!(bind_ip("0.0.0.0").unwrap().to_string(), "0.0.0.0");
        assert!(bind_ip("not a host name").unwrap_err().to_string().contains("give an IP address"));
    }
}
