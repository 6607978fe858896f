//! The HTTP API (axum). Every route but `GET /v1/ready` needs a bearer
//! token (RFC 6750, [`auth`]); every request with an `Origin` header must
//! come from a loopback or configured origin ([`origin`]; MCP specification
//! 2025-06-18, "Transports", security warning); bodies are bounded
//! ([`limits`]). Errors are JSON `{"error": {"code", "message"}}`. No
//! route writes to the library.
//!
//! | route | what |
//! |---|---|
//! | `GET /v1/search?q=…&k=…&as_of=…` | gated hybrid search |
//! | `POST /v1/search` | the same, JSON body (queries stay out of proxy logs) |
//! | `POST /v1/ask` | a cited answer; progress and the answer as server-sent events |
//! | `GET /v1/documents?as_of=…` | the documents the caller may see, with status |
//! | `GET /v1/status` | counts and problems the caller may see, the watcher, the server |
//! | `GET /v1/ready` | 200 once the library answers searches (no token needed, no data) |
//! | `POST /v1/chat/completions`, `GET /v1/models` | OpenAI-compatible answers (chat front-ends) |
//! | `/mcp` | MCP over streamable HTTP |

pub mod ask;
pub mod auth;
pub mod chat;
pub mod documents;
pub mod limits;
pub mod origin;
pub mod search;
pub mod status;

use std::sync::Arc;

use almirah_core::freshness::Session;
use almirah_core::freshness::dates::{DateOrder, parse_date};
use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::middleware::{Next, from_fn_with_state};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use chrono::NaiveDate;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use serde_json::json;
use tokio_util::sync::CancellationToken;

use crate::error::ApiError;
use crate::mcp::McpServer;
use crate::service::Service;
pub use crate::service::{check_length, check_text};

/// The whole API for `service`. `hosts` are the `Host` names the MCP
/// endpoint accepts (DNS-rebinding protection); `stop` ends its sessions.
pub fn router(service: Arc<Service>, hosts: Vec<String>, stop: CancellationToken) -> Router {
    let limits = service.limits().clone();
    let mcp_config = StreamableHttpServerConfig::default()
        .with_allowed_hosts(hosts)
        .with_sse_keep_alive(Some(limits.sse_keep_alive))
        .with_max_request_body_bytes(limits.max_body_bytes)
        .with_cancellation_token(stop);
    let handler = service.clone();
    let mcp = StreamableHttpService::new(
        move || Ok(McpServer::per_request(handler.clone())),
        Arc::new(LocalSessionManager::default()),
        mcp_config,
    );
    let protected = Router::new()
        .route("/v1/search", get(search::get).post(search::post))
        .route("/v1/ask", post(ask::post))
        .route("/v1/documents", get(documents::get))
        .route("/v1/status", get(status::get))
        .route("/v1/chat/completions", post(chat::post))
        .route("/v1/models", get(chat::models))
        .nest_service("/mcp", mcp)
        // The token is checked first (outermost): a caller without one
        // learns nothing, not even the body limit.
        .layer(from_fn_with_state(service.clone(), limits::bound_body))
        .layer(from_fn_with_state(service.clone(), auth::require_token));
    Router::new()
        .route("/v1/ready", get(ready))
        .merge(protected)
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(from_fn_with_state(service.clone(), origin::check_origin))
        .layer(axum::extract::DefaultBodyLimit::max(limits.max_body_bytes))
        .layer(axum::middleware::from_fn(json_errors))
        .layer(axum::middleware::from_fn(log_request))
        .with_state(service)
}

/// One line per request at info: method, path (never the query string,
/// which may hold a question), status, milliseconds to the response head
/// (an `ask` stream goes on after it), and the token's entry name (never
/// the token).
async fn log_request(request: Request, next: Next) -> Response {
    let (method, path) = (request.method().clone(), request.uri().path().to_string());
    let start = std::time::Instant::now();
    let response = next.run(request).await;
    let caller = response.extensions().get::<auth::Caller>().map_or("-", |c| c.0.as_str()).to_string();
    tracing::info!(
        target: "almirah_server::access",
        %method,
        path = %path.chars().take(200).collect::<String>(),
        status = response.status().as_u16(),
        ms = start.elapsed().as_millis() as u64,
        %caller,
        "request"
    );
    response
}

/// `GET /v1/ready`: 200 `{"ready": true}` once a search can run (the
/// library is open and the embedder loads), else 503 with the reason.
async fn ready(State(service): State<Arc<Service>>) -> Response {
    let engine = service.engine().clone();
    let check = tokio::task::spawn_blocking(move || engine.embedder().map(|_| ())).await;
    match check {
        Ok(Ok(())) => Json(json!({"ready": true})).into_response(),
        Ok(Err(e)) => {
            (StatusCode::SERVICE_UNAVAILABLE, Json(json!({"ready": false, "reason": e.to_string()}))).into_response()
        }
        Err(e) => ApiError::internal(e).into_response(),
    }
}

async fn not_found() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "not-found",
        "no such endpoint; see /v1/search, /v1/ask, /v1/documents, /v1/status, /mcp",
    )
}

async fn method_not_allowed() -> ApiError {
    ApiError::new(StatusCode::METHOD_NOT_ALLOWED, "method-not-allowed", "this endpoint does not take that method")
}

/// Plain-text error bodies from lower layers (axum's own rejections, the
/// MCP transport) become the JSON error shape; successful responses and
/// MCP's JSON-RPC errors pass unchanged.
async fn json_errors(request: Request, next: Next) -> Response {
    let response = next.run(request).await;
    let status = response.status();
    let plain = response
        .headers()
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_none_or(|t| t.starts_with("text/plain"));
    if !(status.is_client_error() || status.is_server_error()) || !plain {
        return response;
    }
    let code = match status {
        StatusCode::PAYLOAD_TOO_LARGE => "body-too-large",
        StatusCode::FORBIDDEN => "forbidden",
        StatusCode::NOT_FOUND => "not-found",
        StatusCode::UNSUPPORTED_MEDIA_TYPE => "unsupported-media-type",
        StatusCode::NOT_ACCEPTABLE => "not-acceptable",
        s if s.is_server_error() => "internal",
        _ => "bad-request",
    };
    let (parts, body) = response.into_parts();
    let text =
        axum::body::to_bytes(body, 4096).await.map(|b| String::from_utf8_lossy(&b).into_owned()).unwrap_or_default();
    let message = if text.trim().is_empty() { status.canonical_reason().unwrap_or("error").to_string() } else { text };
    let mut out = ApiError::new(status, code, message.trim()).into_response();
    for (name, value) in parts
        .headers
        .iter()
        .filter(|(n, _)| **n != axum::http::header::CONTENT_TYPE && **n != axum::http::header::CONTENT_LENGTH)
    {
        out.headers_mut().insert(name.clone(), value.clone());
    }
    *out.extensions_mut() = parts.extensions;
    out
}

/// An `as_of` parameter: `YYYY-MM-DD` or `DD.MM.YYYY`.
///
/// # Errors
/// 400 `bad-date`.
pub fn parse_as_of(text: Option<&str>) -> Result<Option<NaiveDate>, ApiError> {
    match text.map(str::trim).filter(|t| !t.is_empty()) {
        None => Ok(None),
        Some(t) => parse_date(t, DateOrder::DayMonth)
            .map(Some)
            .ok_or_else(|| ApiError::bad_request("bad-date", format!("as_of {t:?}: write it as 2026-11-29"))),
    }
}

/// A `session` parameter such as `2024-25`.
///
/// # Errors
/// 400 `bad-session`.
pub fn parse_session(text: Option<&str>) -> Result<Option<Session>, ApiError> {
    match text.map(str::trim).filter(|t| !t.is_empty()) {
        None => Ok(None),
        Some(t) => Session::parse(t)
            .map(Some)
            .ok_or_else(|| ApiError::bad_request("bad-session", format!("session {t:?}: write it like 2026-27"))),
    }
}
