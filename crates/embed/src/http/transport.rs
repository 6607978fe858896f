//! One blocking HTTP client per embedder: JSON POST with retries, typed
//! errors and hints, and an API key that never leaves this module in clear.

use std::time::Duration;

use reqwest::blocking::{Client, RequestBuilder, Response};

use super::HttpOptions;
use super::retry::{is_transient, parse_retry_after};
use crate::EmbedError;

/// Longest server message kept in an error, in bytes.
const MAX_MESSAGE_BYTES: usize = 400;

/// An API key. `Debug` prints `Secret(***)`; the value is only read to build
/// the request header.
#[derive(Clone)]
pub(crate) struct Secret(String);

impl Secret {
    pub(crate) fn new(value: String) -> Self {
        Self(value)
    }
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secret(***)")
    }
}

/// How the key goes on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AuthStyle {
    /// `Authorization: Bearer <key>` (OpenAI).
    Bearer,
    /// `x-goog-api-key: <key>` (Gemini).
    GoogApiKey,
}

/// The result of one attempt.
enum Attempt {
    Done(Vec<u8>),
    Retry { message: String, after: Option<Duration> },
    Fail(EmbedError),
}

/// A client, its options and its credentials.
#[derive(Debug)]
pub(crate) struct Transport {
    client: Client,
    options: HttpOptions,
    key: Option<Secret>,
    /// Name of the variable the key came from, for hints.
    key_env: Option<String>,
    auth: AuthStyle,
}

impl Transport {
    /// Builds the client (no network I/O).
    pub(crate) fn new(
        options: &HttpOptions,
        key: Option<Secret>,
        key_env: Option<String>,
        auth: AuthStyle,
    ) -> Result<Self, EmbedError> {
        let client = Client::builder()
            .connect_timeout(Duration::from_millis(options.connect_timeout_ms))
            .timeout(Duration::from_millis(options.request_timeout_ms))
            .build()
            .map_err(|e| EmbedError::Config(format!("HTTP client: {e}")))?;
        Ok(Self { client, options: *options, key, key_env, auth })
    }

    /// POSTs `body` as JSON to `url`, retrying transient failures; returns the
    /// response body of the first 2xx answer.
    pub(crate) fn post_json(&self, url: &str, body: &serde_json::Value) -> Result<Vec<u8>, EmbedError> {
        let policy = self.options.retry;
        let mut last = String::new();
        for attempt in 1..=policy.attempts() {
            match self.attempt(url, body) {
                Attempt::Done(bytes) => return Ok(bytes),
                Attempt::Fail(err) => return Err(err),
                Attempt::Retry { message, after } => {
                    tracing::debug!(attempt, %message, "embedding request failed, may retry");
                    last = message;
                    if attempt < policy.attempts() {
                        std::thread::sleep(policy.delay(attempt, after));
                    }
                }
            }
        }
        Err(EmbedError::Unavailable { attempts: policy.attempts(), message: last })
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
        let message = format!("{message}{}", self.hint(status));
        Attempt::Fail(EmbedError::Refused { status, message })
    }

    fn authorise(&self, request: RequestBuilder) -> RequestBuilder {
        match (&self.key, self.auth) {
            (None, _) => request,
            (Some(key), AuthStyle::Bearer) => request.bearer_auth(&key.0),
            (Some(key), AuthStyle::GoogApiKey) => request.header("x-goog-api-key", &key.0),
        }
    }

    /// Connection failures and timeouts are transient; anything else
    /// (a malformed URL, a body that cannot be built) fails at once.
    fn transport_error(&self, e: &reqwest::Error) -> Attempt {
        let message = self.redact(&error_chain(e));
        if e.is_connect() || e.is_timeout() || e.is_request() || e.is_body() {
            Attempt::Retry { message, after: None }
        } else {
            Attempt::Fail(EmbedError::Config(message))
        }
    }

    fn hint(&self, status: u16) -> String {
        let var = self.key_env.as_deref();
        match (status, var) {
            (401 | 403, Some(var)) => format!(" (check the API key in ${var})"),
            (401 | 403, None) => " (the server wants an API key: set api_key_env in the config)".into(),
            (404, _) => " (check the model name / URL)".into(),
            _ => String::new(),
        }
    }

    /// Removes the key from any text that might be shown or logged.
    fn redact(&self, text: &str) -> String {
        match &self.key {
            Some(key) if !key.0.is_empty() => text.replace(&key.0, "***"),
            _ => text.to_string(),
        }
    }
}

fn retry_after(response: &Response) -> Option<Duration> {
    let value = response.headers().get(reqwest::header::RETRY_AFTER)?;
    parse_retry_after(value.to_str().ok()?)
}

/// The server's error text: `error.message` / `error` / `message` of a JSON
/// body when present, else the raw body; truncated.
fn server_message(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let json: Option<serde_json::Value> = serde_json::from_str(&text).ok();
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
