//! The shared state of a running server: the engine, the tokens, the
//! answering settings, the limits and the counters. Every read takes one
//! snapshot for one request, on the blocking pool, with the caller's
//! audience ([`Service::read`]); nothing here can write to the library.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use almirah_answer::agent::AgentConfig;
use almirah_answer::mode::Mode;
use almirah_answer::model::ChatModel;
use almirah_core::{Audience, Engine, Reader};
use almirah_settings::Config;
use serde::Serialize;
use tokio::sync::Semaphore;

use crate::error::{ApiError, ServerError};
use crate::tokens::{ExtraTokens, LiveTokens, Principal, TokenTable};

/// Builds the chat model for one question (on the blocking pool: the HTTP
/// providers hold a blocking client).
pub type ModelFactory = Arc<dyn Fn() -> Result<Arc<dyn ChatModel>, String> + Send + Sync>;

/// Limits on requests, from `[serve]`.
#[derive(Debug, Clone)]
pub struct Limits {
    /// Largest request body, bytes.
    pub max_body_bytes: usize,
    /// Longest query or question, characters.
    pub max_query_chars: usize,
    /// Questions answered at once.
    pub max_concurrent_asks: usize,
    /// `Retry-After` of a refused question, seconds.
    pub retry_after_secs: u64,
    /// SSE keep-alive interval.
    pub sse_keep_alive: Duration,
    /// Browser origins allowed besides loopback ones.
    pub allowed_origins: Vec<String>,
    /// `Host` names allowed on the MCP endpoint besides loopback ones.
    pub allowed_hosts: Vec<String>,
}

impl Limits {
    fn of(config: &Config) -> Self {
        let s = &config.serve;
        Self {
            max_body_bytes: s.max_body_bytes.max(1024),
            max_query_chars: s.max_query_chars.max(1),
            max_concurrent_asks: s.max_concurrent_asks.max(1),
            retry_after_secs: s.retry_after_secs.max(1),
            sse_keep_alive: Duration::from_millis(s.sse_keep_alive_ms.max(10)),
            allowed_origins: s.allowed_origins.clone(),
            allowed_hosts: s.allowed_hosts.clone(),
        }
    }
}

/// A query or question: not empty, at most `max` characters.
///
/// # Errors
/// 400 `empty-query` or `query-too-long`.
pub fn check_text(what: &str, text: &str, max: usize) -> Result<(), ApiError> {
    if text.trim().is_empty() {
        return Err(ApiError::bad_request("empty-query", format!("the {what} is empty")));
    }
    check_length(what, text, max)
}

/// Any text argument: at most `max` characters (it may be empty).
///
/// # Errors
/// 400 `query-too-long`.
pub fn check_length(what: &str, text: &str, max: usize) -> Result<(), ApiError> {
    let n = text.chars().count();
    if n > max {
        return Err(ApiError::bad_request(
            "query-too-long",
            format!("the {what} has {n} characters; the limit is {max}"),
        ));
    }
    Ok(())
}

/// How long connections may take: reading a request's headers, and the
/// drain after a stop (`[serve] header_timeout_secs`, `shutdown_grace_secs`).
#[derive(Debug, Clone, Copy)]
pub struct Timeouts {
    /// A client that has not sent a whole request head by then is cut
    /// (slow or half-sent requests cannot hold connections open).
    pub header_read: Duration,
    /// After a stop, requests in progress may finish this long; then
    /// every connection still open is cut.
    pub grace: Duration,
    /// Connections served at once; more wait in the listen backlog.
    pub max_connections: usize,
}

impl Timeouts {
    /// The timeouts `[serve]` of `config` asks for.
    pub fn of(config: &Config) -> Self {
        let s = &config.serve;
        Self {
            header_read: Duration::from_millis(s.header_timeout_ms.max(100)),
            grace: Duration::from_millis(s.shutdown_grace_ms),
            max_connections: s.max_connections.max(1),
        }
    }
}

/// Counters since the start, for `status` and the tests.
#[derive(Debug, Default)]
pub struct Stats {
    pub(crate) requests: AtomicU64,
    pub(crate) unauthorized: AtomicU64,
    pub(crate) asks_started: AtomicU64,
    pub(crate) asks_answered: AtomicU64,
    pub(crate) asks_cancelled: AtomicU64,
    pub(crate) asks_failed: AtomicU64,
    pub(crate) asks_refused: AtomicU64,
    pub(crate) asks_in_flight: AtomicU64,
}

/// The counters at one moment.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct StatsView {
    /// Requests that passed the token check.
    pub requests: u64,
    /// Requests refused with 401.
    pub unauthorized: u64,
    /// Questions started.
    pub asks_started: u64,
    /// Questions answered.
    pub asks_answered: u64,
    /// Questions cancelled (the client went away); their snapshots are released.
    pub asks_cancelled: u64,
    /// Questions that failed.
    pub asks_failed: u64,
    /// Questions refused with 429.
    pub asks_refused: u64,
    /// Questions being answered now.
    pub asks_in_flight: u64,
}

impl Stats {
    /// The counters now.
    pub fn view(&self) -> StatsView {
        let get = |c: &AtomicU64| c.load(Ordering::Relaxed);
        StatsView {
            requests: get(&self.requests),
            unauthorized: get(&self.unauthorized),
            asks_started: get(&self.asks_started),
            asks_answered: get(&self.asks_answered),
            asks_cancelled: get(&self.asks_cancelled),
            asks_failed: get(&self.asks_failed),
            asks_refused: get(&self.asks_refused),
            asks_in_flight: get(&self.asks_in_flight),
        }
    }
}

pub(crate) fn bump(counter: &AtomicU64) {
    counter.fetch_add(1, Ordering::Relaxed);
}

/// Everything a server is made from besides the engine.
#[derive(Clone)]
pub struct Setup {
    /// The config file's contents.
    pub config: Config,
    /// Where it came from (followed for token changes); `None` for defaults.
    pub config_path: Option<PathBuf>,
    /// Tokens from outside the config file.
    pub extra_tokens: ExtraTokens,
}

/// A running server's state.
pub struct Service {
    pub(crate) engine: Arc<Engine>,
    pub(crate) tokens: LiveTokens,
    pub(crate) limits: Limits,
    pub(crate) mode: Mode,
    pub(crate) agent: AgentConfig,
    pub(crate) model: ModelFactory,
    pub(crate) asks: Arc<Semaphore>,
    pub(crate) stats: Arc<Stats>,
    pub(crate) own: Principal,
    pub(crate) started: Instant,
    pub(crate) timeouts: Timeouts,
}

impl Service {
    /// The service over `engine` as `setup` describes it; questions use
    /// the config's `[model]` spec.
    ///
    /// # Errors
    /// [`ServerError::Config`] for unusable tokens (see [`TokenTable::build`]).
    pub fn new(engine: Arc<Engine>, setup: Setup) -> Result<Arc<Self>, ServerError> {
        let (spec, options) = (setup.config.model.spec.clone(), setup.config.model.options.clone());
        let library = engine.clone();
        let model: ModelFactory = Arc::new(move || {
            almirah_answer::providers::for_library(&spec, &options, &library.reader())
                .map(Arc::from)
                .map_err(|e| format!("model {spec:?}: {e}"))
        });
        Self::with_model(engine, setup, model)
    }

    /// [`Service::new`] with another chat model (tests, embedding hosts).
    ///
    /// # Errors
    /// As [`Service::new`].
    pub fn with_model(engine: Arc<Engine>, setup: Setup, model: ModelFactory) -> Result<Arc<Self>, ServerError> {
        let config = &setup.config;
        let tokens = LiveTokens::new(config, setup.config_path.clone(), setup.extra_tokens.clone())?;
        let limits = Limits::of(config);
        let own = Principal { name: "own profile".into(), audience: Audience::new(config.profile.audience.clone()) };
        Ok(Arc::new(Self {
            engine,
            tokens,
            asks: Arc::new(Semaphore::new(limits.max_concurrent_asks)),
            limits,
            mode: config.model.mode,
            agent: config.agent.clone(),
            model,
            stats: Arc::new(Stats::default()),
            own,
            started: Instant::now(),
            timeouts: Timeouts::of(config),
        }))
    }

    /// The engine.
    pub fn engine(&self) -> &Arc<Engine> {
        &self.engine
    }

    /// The limits in force.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The counters.
    pub fn stats(&self) -> StatsView {
        self.stats.view()
    }

    /// The config's own profile (what `almirah mcp` over stdio answers as).
    pub fn own_principal(&self) -> &Principal {
        &self.own
    }

    /// The tokens in force now (re-read if the config file changed).
    pub fn tokens(&self) -> Arc<TokenTable> {
        self.tokens.current()
    }

    /// Run `work` on the blocking pool with a reader for `principal`'s
    /// audience; whatever snapshot it opens is released when it returns.
    ///
    /// # Errors
    /// What `work` returns; 500 if it panicked.
    pub async fn read<T: Send + 'static>(
        &self,
        principal: &Principal,
        work: impl FnOnce(&Reader<'_>) -> Result<T, ApiError> + Send + 'static,
    ) -> Result<T, ApiError> {
        let engine = self.engine.clone();
        let audience = principal.audience.clone();
        let job = tokio::task::spawn_blocking(move || work(&engine.reader_as(&audience)));
        job.await.map_err(ApiError::internal)?
    }
}
