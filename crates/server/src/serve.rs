//! Starting and running `almirah serve`: which address may be bound, the
//! local token file, the listener, the watcher, config changes, shutdown.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use almirah_core::{Engine, Notice, Watcher};
use almirah_settings::Config;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use crate::error::ServerError;
use crate::service::{Service, Setup, Timeouts};
use crate::tokens::ExtraTokens;

/// The environment variable of a token for the config's own profile.
pub const TOKEN_ENV: &str = "ALMIRAH_SERVE_TOKEN";
/// The file (in the library folder) holding the token of a loopback
/// server that has no other token.
pub const TOKEN_FILE: &str = "serve.token";

/// The tokens from outside the config file for a server on `addr`:
/// `ALMIRAH_SERVE_TOKEN`, else, when the config has no `[[serve.tokens]]`
/// either, the local token file (kept across restarts, readable by its
/// owner only) for a loopback address.
///
/// # Errors
/// [`ServerError::OpenBind`] for a non-loopback address with no token;
/// [`ServerError::Io`] when the token file cannot be read or written.
pub fn extra_tokens(
    config: &Config,
    data_dir: &Path,
    addr: SocketAddr,
) -> Result<(ExtraTokens, Option<PathBuf>), ServerError> {
    let env = std::env::var(TOKEN_ENV).ok().filter(|t| !t.trim().is_empty());
    if env.is_some() || !config.serve.tokens.is_empty() {
        return Ok((ExtraTokens { env, local: None }, None));
    }
    if !addr.ip().is_loopback() {
        return Err(ServerError::OpenBind { addr });
    }
    let path = data_dir.join(TOKEN_FILE);
    Ok((ExtraTokens { env: None, local: Some(local_token(&path)?) }, Some(path)))
}

/// The token in `path`, created (32 random bytes, hex) when missing.
///
/// # Errors
/// [`ServerError::Io`].
pub fn local_token(path: &Path) -> Result<String, ServerError> {
    if let Ok(text) = std::fs::read_to_string(path) {
        let token = text.trim().to_string();
        if token.len() >= 32 {
            return Ok(token);
        }
    }
    let token = format!("{:032x}{:032x}", rand::random::<u128>(), rand::random::<u128>());
    write_private(path, &token).map_err(ServerError::io(format!("writing {}", path.display())))?;
    Ok(token)
}

#[cfg(unix)]
fn write_private(path: &Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let _ = std::fs::remove_file(path);
    let mut file = std::fs::OpenOptions::new().write(true).create_new(true).mode(0o600).open(path)?;
    file.write_all(text.as_bytes())
}

#[cfg(not(unix))]
fn write_private(path: &Path, text: &str) -> std::io::Result<()> {
    std::fs::write(path, text)
}

/// The `Host` values the MCP endpoint accepts: loopback names, the bound
/// address, and the configured ones.
fn allowed_hosts(service: &Service, addr: SocketAddr) -> Vec<String> {
    let mut hosts: Vec<String> = ["localhost", "127.0.0.1", "::1"].map(String::from).to_vec();
    hosts.push(addr.ip().to_string());
    hosts.extend(service.limits().allowed_hosts.iter().cloned());
    hosts
}

/// What a stopped server did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stopped {
    /// Connections accepted since the start.
    pub connections: u64,
    /// Connections still open when the grace period ran out, cut.
    pub cut: usize,
}

/// A server listening in the background.
pub struct Running {
    /// The address it listens on (the real port when 0 was asked for).
    pub addr: SocketAddr,
    stop: CancellationToken,
    task: JoinHandle<Stopped>,
}

impl Running {
    /// Stop accepting, let requests in progress end within the grace
    /// period (then cut the connections still open), and wait.
    pub async fn stop(self) -> Stopped {
        self.stop.cancel();
        self.task.await.unwrap_or_default()
    }
}

/// Listen on `addr` and serve `service` until [`Running::stop`].
///
/// # Errors
/// [`ServerError::Io`] when the address cannot be bound.
pub async fn start(service: Arc<Service>, addr: SocketAddr) -> Result<Running, ServerError> {
    let listener =
        tokio::net::TcpListener::bind(addr).await.map_err(ServerError::io(format!("listening on {addr}")))?;
    let addr = listener.local_addr().map_err(ServerError::io("reading the bound address"))?;
    let stop = CancellationToken::new();
    let app = crate::http::router(service.clone(), allowed_hosts(&service, addr), stop.child_token());
    let task = tokio::spawn(accept_loop(listener, app, service.timeouts, stop.clone()));
    Ok(Running { addr, stop, task })
}

/// Accept connections until `stop`, each served by hyper's HTTP/1 with a
/// header-read timeout; then drain them for `timeouts.grace` at most.
/// (axum's own `serve` has neither bound: a half-sent request held its
/// graceful shutdown forever.)
async fn accept_loop(
    listener: tokio::net::TcpListener,
    app: axum::Router,
    timeouts: Timeouts,
    stop: CancellationToken,
) -> Stopped {
    let mut open = tokio::task::JoinSet::new();
    let mut connections = 0u64;
    loop {
        let full = open.len() >= timeouts.max_connections;
        tokio::select! {
            () = stop.cancelled() => break,
            Some(_) = open.join_next(), if !open.is_empty() => {}
            accepted = listener.accept(), if !full => match accepted {
                Ok((io, _peer)) => {
                    connections += 1;
                    open.spawn(serve_connection(io, app.clone(), timeouts.header_read, stop.clone()));
                }
                Err(e) => {
                    // Out of file descriptors and the like: wait, do not spin.
                    tracing::warn!(%e, "accepting a connection failed");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            },
        }
    }
    drop(listener);
    let drained = tokio::time::timeout(timeouts.grace, async { while open.join_next().await.is_some() {} }).await;
    let cut = if drained.is_ok() { 0 } else { open.len() };
    open.abort_all();
    Stopped { connections, cut }
}

/// One connection: HTTP/1.1 with upgrades, cut when its request head
/// takes longer than `header_read`, shut down gracefully on `stop`.
async fn serve_connection(
    io: tokio::net::TcpStream,
    app: axum::Router,
    header_read: Duration,
    stop: CancellationToken,
) {
    let service = hyper_util::service::TowerToHyperService::new(app);
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder.timer(hyper_util::rt::TokioTimer::new()).header_read_timeout(header_read);
    let conn = builder.serve_connection(hyper_util::rt::TokioIo::new(io), service).with_upgrades();
    tokio::pin!(conn);
    tokio::select! {
        result = conn.as_mut() => {
            if let Err(e) = result {
                tracing::debug!(%e, "connection ended with an error");
            }
            return;
        }
        () = stop.cancelled() => conn.as_mut().graceful_shutdown(),
    }
    if let Err(e) = conn.await {
        tracing::debug!(%e, "connection ended with an error");
    }
}

/// Start the watcher over the config's folders (none: no watcher).
///
/// # Errors
/// [`almirah_core::Error::AlreadyWatched`] naming the process that holds
/// the library's watch lock; bad folder settings.
pub fn start_watcher(engine: &Arc<Engine>, config: &Config) -> Result<Option<Watcher>, ServerError> {
    let roots: Vec<PathBuf> = config.folders.iter().map(|f| f.path.clone()).collect();
    if roots.is_empty() {
        return Ok(None);
    }
    let sink = Box::new(|notice: Notice| match notice {
        Notice::Change(c) => tracing::info!(path = %c.path, action = %c.action, latency_ms = c.latency_ms, "watch"),
        Notice::Problem { message } => tracing::warn!(%message, "watch"),
        other => tracing::debug!(?other, "watch"),
    });
    let mut options = config.watch.options(roots);
    options.owner = Some("almirah serve".into());
    Ok(Some(Watcher::start(engine.clone(), options, sink)?))
}

/// Follows the config file for the watcher: when it changes, the engine
/// and the watcher take its folders (the tokens follow it by themselves).
pub struct ConfigFollower {
    path: Option<PathBuf>,
    seen: Option<SystemTime>,
}

impl ConfigFollower {
    /// Follow `path` from its state now.
    pub fn new(path: Option<PathBuf>) -> Self {
        let seen = path.as_deref().and_then(modified);
        Self { path, seen }
    }

    /// Apply a changed config's folders; a file that does not parse is
    /// logged and ignored.
    pub fn tick(&mut self, engine: &Engine, watcher: Option<&Watcher>) {
        let Some(path) = &self.path else { return };
        let now = modified(path);
        if now == self.seen {
            return;
        }
        self.seen = now;
        match almirah_settings::read(path) {
            Ok(config) => {
                engine.set_folders(config.folders.clone());
                if let Some(w) = watcher {
                    w.set_roots(config.folders.iter().map(|f| f.path.clone()).collect());
                }
                tracing::info!(folders = config.folders.len(), "config changed: following its folders");
            }
            Err(e) => tracing::warn!(%e, "config changed but cannot be read; keeping the folders watched"),
        }
    }
}

fn modified(path: &Path) -> Option<SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

/// Wait for Ctrl-C or SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = term => {},
    }
}

/// How `almirah serve` runs.
#[derive(Debug, Clone, Copy)]
pub struct ServeOptions {
    /// Where to listen.
    pub addr: SocketAddr,
    /// Run the watcher over the config's folders.
    pub watch: bool,
}

/// Run `almirah serve` until Ctrl-C or SIGTERM: the watcher (unless
/// `options.watch` is false), the server, and the config followed every
/// second; `on_ready` is told where it listens. After the signal,
/// requests in progress get `[serve] shutdown_grace_ms`; then it returns
/// what was served.
///
/// # Errors
/// [`ServerError::OpenBind`]; [`almirah_core::Error::AlreadyWatched`] when
/// another process watches the library; bind and runtime errors.
pub fn run(
    engine: Arc<Engine>,
    setup: Setup,
    options: ServeOptions,
    on_ready: impl FnOnce(&Running, Option<&Watcher>),
) -> Result<Summary, ServerError> {
    let watcher = if options.watch { start_watcher(&engine, &setup.config)? } else { None };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("almirah-serve")
        .build()
        .map_err(ServerError::io("starting the runtime"))?;
    let service = Service::new(engine.clone(), setup.clone())?;
    let summary = runtime.block_on(async {
        let running = start(service.clone(), options.addr).await?;
        on_ready(&running, watcher.as_ref());
        let mut follower = ConfigFollower::new(setup.config_path.clone());
        let signal = shutdown_signal();
        tokio::pin!(signal);
        let mut tick = tokio::time::interval(Duration::from_secs(1));
        loop {
            tokio::select! {
                () = &mut signal => break,
                _ = tick.tick() => follower.tick(&engine, watcher.as_ref()),
            }
        }
        let stopped = running.stop().await;
        Ok::<Summary, ServerError>(Summary { stopped, stats: service.stats() })
    });
    // Questions still running on the blocking pool are not waited for.
    runtime.shutdown_timeout(Duration::from_millis(500));
    if let Some(w) = watcher {
        w.stop();
    }
    summary
}

/// What `almirah serve` did, for its last line.
#[derive(Debug, Clone, Copy)]
pub struct Summary {
    /// Connections served and cut.
    pub stopped: Stopped,
    /// The request counters.
    pub stats: crate::service::StatsView,
}
