//! One blocking HTTP client per chat model: JSON POST with retries decided by
//! status, a timeout on every request, and an API key that is only read to
//! build the request header and is scrubbed from every message.
//!
//! This mirrors `almirah-embed`'s private transport rather than reusing it:
//! that one is `pub(crate)` and returns `EmbedError`. Its public
//! [`RetryPolicy`] (capped, jittered backoff) is reused as is.
//!
//! Unlike the embedder, a request timeout is **not** retried: a chat call that
//! took the whole timeout will most likely take it again (a slow local model).

use std::time::Duration;

use almirah_embed::RetryPolicy;
use reqwest::blocking::{Client, RequestBuilder, Response};

use super::keys::Secret;
use crate::model::ModelError;

/// Longest server message kept in an error, in bytes.
const MAX_MESSAGE_BYTES: usize = 400;

/// How the key goes on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AuthStyle {
    /// `Authorization: Bearer <key>` (OpenAI-compatible).
    Bearer,
    /// `x-goog-api-key: <key>` (Gemini).
    GoogApiKey,
}

/// Settings of one transport.
#[derive(Debug, Clone)]
pub(crate) struct TransportConfig {
    /// Model id for messages, e.g. `openai:…:qwen`.
    pub label: String,
    pub connect_timeout_ms: u64,
    pub request_timeout_ms: u64,
    pub retry: RetryPolicy,
    pub key: Option<Secret>,
    /// Where the key came from (`$OPENAI_API_KEY`, `the OS keyring`), for hints.
    pub key_source: Option<String>,
    pub auth: AuthStyle,
}

/// The result of one attempt.
enum Attempt {
    Done(Vec<u8>),
    Retry { message: String, after: Option<Duration> },
    Fail(ModelError),
}

/// A client and its settings.
#[derive(Debug)]
pub(crate) struct Transport {
    client: Client,
    config: TransportConfig,
}

impl Transport {
    /// Builds the client (no network I/O).
    pub(crate) fn new(config: TransportConfig) -> Result<Self, ModelError> {
        let client = Client::builder()
            .connect_timeout(Duration::from_millis(config.connect_timeout_ms))
            .timeout(Duration::from_millis(config.request_timeout_ms))
            .build()
            .map_err(|e| ModelError::Unavailable(format!("{}: HTTP client: {e}", config.label)))?;
        Ok(Self { client, config })
    }

    /// POSTs `body` as JSON to `url`, retrying 429, 5xx and connection
    /// failures; returns the body of the first 2xx answer.
    pub(crate) fn post_json(&self, url: &str, body: &serde_json::Value) -> Result<Vec<u8>, ModelError> {
        let policy = self.config.retry;
        let mut last = String::new();
        for attempt in 1..=policy.attempts() {
            match self.attempt(url, body) {
                Attempt::Done(bytes) => return Ok(bytes),
                Attempt::Fail(err) => return Err(err),
                Attempt::Retry { message, after } => {
                    tracing::debug!(attempt, %message, model = %self.config.label, "chat request failed, may retry");
                    last = message;
                    if attempt < policy.attempts() {
                        std::thread::sleep(policy.delay(attempt, after));
                    }
                }
            }
        }
        let (label, n) = (&self.config.label, policy.attempts());
        Err(ModelError::Unavailable(format!("{label}: gave up after {n} attempt(s): {last}")))
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
        let label = &self.config.label;
        let hint = self.hint(status);
        Attempt::Fail(ModelError::Unavailable(format!("{label}: HTTP {status} (not retried): {message}{hint}")))
    }

    fn authorise(&self, request: RequestBuilder) -> RequestBuilder {
        match (&self.config.key, self.config.auth) {
            (None, _) => request,
            (Some(key), AuthStyle::Bearer) => request.bearer_auth(key.expose()),
            (Some(key), AuthStyle::GoogApiKey) => request.header("x-goog-api-key", key.expose()),
        }
    }

    /// Connection failures are transient (a local server still starting);
    /// a timeout fails at once with the limit in the message; anything else
    /// (a malformed URL) fails at once.
    fn transport_error(&self, e: &reqwest::Error) -> Attempt {
        let message = self.redact(&error_chain(e));
        let label = &self.config.label;
        if e.is_timeout() {
            let ms = self.config.request_timeout_ms;
            let text = format!("{label}: timed out after {ms} ms (request_timeout_ms): {message}");
            Attempt::Fail(ModelError::Unavailable(text))
        } else if e.is_connect() || e.is_request() || e.is_body() {
            Attempt::Retry { message, after: None }
        } else {
            Attempt::Fail(ModelError::Unavailable(format!("{label}: {message}")))
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
        match &self.config.key {
            Some(key) => key.redact(text),
            None => text.to_string(),
        }
    }
}

/// Whether an HTTP status is worth retrying: 429 and 5xx.
pub(crate) fn is_transient(status: u16) -> bool {
    status == 429 || (500..600).contains(&status)
}

fn retry_after(response: &Response) -> Option<Duration> {
    let value = response.headers().get(reqwest::header::RETRY_AFTER)?.to_str().ok()?;
    let secs: f64 = value.trim().parse().ok()?;
    (secs.is_finite() && secs >= 0.0).then(|| Duration::from_secs_f64(secs.min(86_400.0)))
}

/// The server's error text: `error.message` / `error` / `message` of a JSON
/// body (Gemini answers a list of one such object), else the raw body; truncated.
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
