//! Errors. [`ServerError`] is what stops a server from starting;
//! [`ApiError`] is what one request or tool call answers, always as JSON
//! `{"error": {"code": "…", "message": "…"}}` with an HTTP status.

use std::net::SocketAddr;

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::json;

/// Why a server cannot start.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// A non-loopback address without a configured token.
    #[error(
        "refusing to listen on {addr}: it is not a loopback address and no token is configured; add \
         [[serve.tokens]] to the config or set ALMIRAH_SERVE_TOKEN (or bind 127.0.0.1)"
    )]
    OpenBind {
        /// The address asked for.
        addr: SocketAddr,
    },
    /// The `[serve]` section cannot be used.
    #[error("[serve]: {0}")]
    Config(String),
    /// The library failed (e.g. another process already watches it).
    #[error(transparent)]
    Core(#[from] almirah_core::Error),
    /// The operating system failed (bind, token file).
    #[error("{context}: {source}")]
    Io {
        /// What was being done.
        context: String,
        /// The OS error.
        source: std::io::Error,
    },
}

impl ServerError {
    pub(crate) fn io(context: impl Into<String>) -> impl FnOnce(std::io::Error) -> Self {
        let context = context.into();
        move |source| Self::Io { context, source }
    }
}

/// One request's failure: an HTTP status, a stable kebab-case code, a
/// message for people, and the headers RFC 6750 (`WWW-Authenticate`) and
/// RFC 9110 (`Retry-After`) ask for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    /// HTTP status.
    pub status: StatusCode,
    /// Stable code, e.g. `unauthorized`, `body-too-large`, `busy`.
    pub code: &'static str,
    /// What went wrong and what to do.
    pub message: String,
    /// Seconds to wait before retrying (429).
    pub retry_after: Option<u64>,
    /// The `WWW-Authenticate` challenge (401).
    pub challenge: Option<&'static str>,
}

impl ApiError {
    /// An error with `status`, `code` and `message`.
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        Self { status, code, message: message.into(), retry_after: None, challenge: None }
    }

    /// 400: the request is malformed.
    pub fn bad_request(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, code, message)
    }

    /// 401 with an RFC 6750 §3 challenge: no token (`invalid` false) or a
    /// token that matches none (`invalid` true, `error="invalid_token"`).
    pub fn unauthorized(invalid: bool) -> Self {
        let (challenge, message) = if invalid {
            (r#"Bearer realm="almirah", error="invalid_token""#, "the bearer token is not valid")
        } else {
            (r#"Bearer realm="almirah""#, "send a bearer token: Authorization: Bearer <token>")
        };
        Self { challenge: Some(challenge), ..Self::new(StatusCode::UNAUTHORIZED, "unauthorized", message) }
    }

    /// 413: the body is larger than `limit` bytes.
    pub fn too_large(limit: usize) -> Self {
        Self::new(StatusCode::PAYLOAD_TOO_LARGE, "body-too-large", format!("the request body is over {limit} bytes"))
    }

    /// 429: every `ask` slot is taken.
    pub fn busy(limit: usize, retry_after: u64) -> Self {
        let message = format!("{limit} questions are being answered already; retry in {retry_after} s");
        Self { retry_after: Some(retry_after), ..Self::new(StatusCode::TOO_MANY_REQUESTS, "busy", message) }
    }

    /// 500 for a failure the caller cannot fix; the detail goes to the log only.
    pub fn internal(detail: impl std::fmt::Display) -> Self {
        tracing::error!(%detail, "request failed");
        Self::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", "the server failed; see its log")
    }

    /// The JSON body.
    pub fn body(&self) -> serde_json::Value {
        json!({"error": {"code": self.code, "message": self.message}})
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({})", self.message, self.code)
    }
}

impl From<almirah_core::Error> for ApiError {
    fn from(e: almirah_core::Error) -> Self {
        use almirah_core::Error as E;
        match e {
            E::Cancelled => Self::new(StatusCode::SERVICE_UNAVAILABLE, "cancelled", "the question was cancelled"),
            E::SnapshotExpired { .. } | E::EmbedderMismatch { .. } => {
                Self::new(StatusCode::SERVICE_UNAVAILABLE, "unavailable", e.to_string())
            }
            E::Embed(_) => Self::new(StatusCode::SERVICE_UNAVAILABLE, "embedder-unavailable", e.to_string()),
            other => Self::internal(other),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (self.status, axum::Json(self.body())).into_response();
        let headers = response.headers_mut();
        if let Some(secs) = self.retry_after {
            headers.insert(header::RETRY_AFTER, HeaderValue::from(secs));
        }
        if let Some(challenge) = self.challenge {
            headers.insert(header::WWW_AUTHENTICATE, HeaderValue::from_static(challenge));
        }
        response
    }
}
