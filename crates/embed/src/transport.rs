//! The one blocking HTTP transport of every HTTP back-end: the embedders of
//! this crate and the chat models of `almirah-answer`. JSON POST with
//! retries decided by status ([`RetryPolicy`]: 429, 5xx and connection
//! failures are retried with capped, jittered backoff; other 4xx fail at
//! once), a timeout on every request, typed errors with hints, and an API
//! key that is only read to build the request header and is scrubbed from
//! every message.
//!
//! Whether a request timeout is retried is a setting
//! ([`TransportConfig::retry_timeouts`]): an embedding batch that timed out
//! once may pass on a retry, a chat call that took the whole timeout will
//! most likely take it again (a slow local model).

use std::time::Duration;

use reqwest::blocking::{Client, RequestBuilder, Response};

use crate::retry::RetryPolicy;

/// Longest server message kept in an error, in bytes.
const MAX_MESSAGE_BYTES: usize = 400;

/// An API key. `Debug` prints `Secret(***)`; it has no `Display` and no
/// `Serialize`, so it cannot reach an index, a trace or a log by accident.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    /// Wraps a key (surrounding whitespace is trimmed).
    pub fn new(value: impl Into<String>) -> Self {
        Self(value.into().trim().to_string())
    }

    /// The key in clear. Only for building a request; never log it.
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// `text` with every occurrence of the key replaced by `***`.
    pub fn redact(&self, text: &str) -> String {
        if self.0.is_empty() { text.to_string() } else { text.replace(&self.0, "***") }
    }
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secret(***)")
    }
}

/// How the key goes on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AuthStyle {
    /// `Authorization: Bearer <key>` (OpenAI-compatible, Ollama).
    Bearer,
    /// `x-goog-api-key: <key>` (Gemini).
    GoogApiKey,
}

/// Settings of one transport.
#[derive(Debug, Clone)]
pub struct TransportConfig {
    /// TCP connect timeout, ms.
    pub connect_timeout_ms: u64,
    /// Whole-request timeout, ms.
    pub request_timeout_ms: u64,
    /// Retries of transient failures.
    pub retry: RetryPolicy,
    /// Whether a request that hit `request_timeout_ms` is retried.
    pub retry_timeouts: bool,
    /// The API key, if the server gets one.
    pub key: Option<Secret>,
    /// Where the key came from (`$OPENAI_API_KEY`, `the OS keyring …`), for hints.
    pub key_source: Option<String>,
    /// How the key is sent.
    pub auth: AuthStyle,
}

/// Why a request failed. Messages never hold the key.
#[derive(Debug, thiserror::Error)]
pub enum TransportError {
    /// The HTTP client could not be built, or the request cannot be sent
    /// at all (a malformed URL).
    #[error("{0}")]
    Client(String),
    /// The server answered a status that is not retried (4xx other than
    /// 429), with its message and a hint where one helps.
    #[error("HTTP {status} (not retried): {message}")]
    Refused {
        /// HTTP status.
        status: u16,
        /// Server message and hint.
        message: String,
    },
    /// Every attempt failed with a transient error.
    #[error("gave up after {attempts} attempt(s): {message}")]
    Unavailable {
        /// Attempts made.
        attempts: u32,
        /// The last failure.
        message: String,
    },
    /// The request hit its time limit (only when timeouts are not retried).
    #[error("timed out after {ms} ms (request_timeout_ms): {message}")]
    TimedOut {
        /// The limit, ms.
        ms: u64,
        /// The client's message.
        message: String,
    },
}

/// The result of one attempt.
enum Attempt {
    Done(Vec<u8>),
    Retry { message: String, after: Option<Duration> },
    Fail(TransportError),
}

/// A client and its settings.
#[derive(Debug)]
pub struct Transport {
    client: Client,
    config: TransportConfig,
}

impl Transport {
    /// Builds the client (no network I/O).
    ///
    /// # Errors
    /// [`TransportError::Client`] when the TLS or HTTP client cannot be built.
    pub fn new(config: TransportConfig) -> Result<Self, TransportError> {
        let client = Client::builder()
            .connect_timeout(Duration::from_millis(config.connect_timeout_ms))
            .timeout(Duration::from_millis(config.request_timeout_ms))
            .build()
            .map_err(|e| TransportError::Client(format!("HTTP client: {e}")))?;
        Ok(Self { client, config })
    }

    /// POSTs `body` as JSON to `url`, retrying transient failures; returns
    /// the body of the first 2xx answer.
    ///
    /// # Errors
    /// [`TransportError`]: refused, unavailable after the retries, timed out,
    /// or a request that cannot be built.
    pub fn post_json(&self, url: &str, body: &serde_json::Value) -> Result<Vec<u8>, TransportError> {
        let policy = self.config.retry;
        let mut last = String::new();
        for attempt in 1..=policy.attempts() {
            match self.attempt(url, body) {
                Attempt::Done(bytes) => return Ok(bytes),
                Attempt::Fail(err) => return Err(err),
                Attempt::Retry { message, after } => {
                    tracing::debug!(attempt, %message, url, "HTTP request failed, may retry");
                    last = message;
                    if attempt < policy.attempts() {
                        std::thread::sleep(policy.delay(attempt, after));
                    }
                }
            }
        }
        Err(TransportError::Unavailable { attempts: policy.attempts(), message: last })
    }

    fn attempt(&self, url: &str, body: &serde_json::Value) -> Attempt {
        let response = match self.authorise(self.client.post(url).json(body)).send() {
            Ok(r) => r,
            Err(e) => return self.transport_error(&e),
        };
        let status = response.status().as_u16();
        let after = retry_after(&response);
        let bytes = match response.bytes() {
            Ok(b) => b.to_vec(),
            Err(e) => return self.transport_error(&e),
        };
        if (200..300).contains(&status) {
            return Attempt::Done(bytes);
        }
        let message = self.redact(&server_message(&bytes));
        if is_transient(status) {
            return Attempt::Retry { message: format!("HTTP {status}: {message}"), after };
        }
        Attempt::Fail(TransportError::Refused { status, message: format!("{message}{}", self.hint(status)) })
    }

    fn authorise(&self, request: RequestBuilder) -> RequestBuilder {
        match (&self.config.key, self.config.auth) {
            (None, _) => request,
            (Some(key), AuthStyle::Bearer) => request.bearer_auth(key.expose()),
            (Some(key), AuthStyle::GoogApiKey) => request.header("x-goog-api-key", key.expose()),
        }
    }

    /// Connection failures are transient (a local server still starting); a
    /// timeout is transient only with `retry_timeouts`; anything else (a
    /// malformed URL) fails at once.
    fn transport_error(&self, e: &reqwest::Error) -> Attempt {
        let message = self.redact(&error_chain(e));
        if e.is_timeout() && !self.config.retry_timeouts {
            Attempt::Fail(TransportError::TimedOut { ms: self.config.request_timeout_ms, message })
        } else if e.is_connect() || e.is_timeout() || e.is_request() || e.is_body() {
            Attempt::Retry { message, after: None }
        } else {
            Attempt::Fail(TransportError::Client(message))
        }
    }

    fn hint(&self, status: u16) -> String {
        match (status, self.config.key_source.as_deref()) {
            (401 | 403, Some(source)) => format!(" (check the API key from {source})"),
            (401 | 403, None) => " (the server wants an API key: set api_key_env or store one in the keyring)".into(),
            (404, _) => " (check the model name and the base URL)".into(),
            _ => String::new(),
        }
    }

    /// Removes the key from any text that might be shown or logged.
    fn redact(&self, text: &str) -> String {
        self.config.key.as_ref().map_or_else(|| text.to_string(), |k| k.redact(text))
    }
}

/// Whether an HTTP status is worth retrying: 429 and 5xx.
pub fn is_transient(status: u16) -> bool {
    status == 429 || (500..600).contains(&status)
}

/// Parses a `Retry-After` value given in seconds (RFC 9110 §10.2.3; HTTP
/// dates are ignored), at most a day.
pub fn parse_retry_after(value: &str) -> Option<Duration> {
    let secs: f64 = value.trim().parse().ok()?;
    (secs.is_finite() && secs >= 0.0).then(|| Duration::from_secs_f64(secs.min(86_400.0)))
}

fn retry_after(response: &Response) -> Option<Duration> {
    parse_retry_after(response.headers().get(reqwest::header::RETRY_AFTER)?.to_str().ok()?)
}

/// The server's error text: `error.message` / `error` / `message` of a JSON
/// body (Gemini answers a list of one such object), else the raw body;
/// truncated to [`MAX_MESSAGE_BYTES`].
fn server_message(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let json: Option<serde_json::Value> = serde_json::from_str(&text).ok();
    let json = json.map(|j| match j {
        serde_json::Value::Array(a) => a.into_iter().next().unwrap_or_default(),
        other => other,
    });
    let picked = json.as_ref().and_then(|j| {
        let e = j.get("error");
        e.and_then(|e| e.get("message")).or(e).or_else(|| j.get("message")).and_then(|m| m.as_str())
    });
    truncate(picked.unwrap_or(&text).trim(), MAX_MESSAGE_BYTES)
}

fn truncate(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    let cut = (0..=max).rev().find(|i| text.is_char_boundary(*i)).unwrap_or(0);
    format!("{}…", &text[..cut])
}

/// The error and its sources, e.g. "error sending request: connection refused".
fn error_chain(e: &dyn std::error::Error) -> String {
    let mut out = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        out.push_str(": ");
        out.push_str(&s.to_string());
        source = s.source();
    }
    out
}
