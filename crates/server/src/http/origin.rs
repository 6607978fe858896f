//! `Origin` validation. The MCP specification (2025-06-18, "Transports:
//! Streamable HTTP", security warning) requires servers to validate the
//! `Origin` header to prevent DNS-rebinding attacks from web pages; this
//! applies to every route. A request without `Origin` (curl, an MCP client,
//! a server-side front-end) passes; one with a loopback origin
//! (`http://localhost:*`, `http://127.0.0.1:*`, `http://[::1]:*`, any
//! port) or a configured one passes; any other, `null` included, gets 403.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::http::header::ORIGIN;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;
use crate::service::Service;

/// Middleware: 403 for a request from a non-local browser origin.
pub async fn check_origin(State(service): State<Arc<Service>>, request: Request, next: Next) -> Response {
    if let Some(origin) = request.headers().get(ORIGIN) {
        let allowed = origin.to_str().is_ok_and(|o| origin_allowed(o, &service.limits().allowed_origins));
        if !allowed {
            let shown = origin.to_str().unwrap_or("(not text)").chars().take(100).collect::<String>();
            let message = format!("origin {shown} is not allowed; only local origins and [serve] allowed_origins are");
            return ApiError::new(StatusCode::FORBIDDEN, "origin-not-allowed", message).into_response();
        }
    }
    next.run(request).await
}

/// Whether `origin` (`scheme://host[:port]`) is a loopback origin or one
/// of `extra` (compared without a trailing slash, case-insensitively).
pub fn origin_allowed(origin: &str, extra: &[String]) -> bool {
    let origin = origin.trim().trim_end_matches('/');
    if extra.iter().any(|e| e.trim().trim_end_matches('/').eq_ignore_ascii_case(origin)) {
        return true;
    }
    let Some(rest) = origin.strip_prefix("http://").or_else(|| origin.strip_prefix("https://")) else {
        return false;
    };
    is_loopback_host(host_of(rest))
}

/// The host of `host[:port]` (`[::1]:8080` → `[::1]`).
fn host_of(authority: &str) -> &str {
    if authority.starts_with('[') {
        return authority.split_inclusive(']').next().unwrap_or(authority);
    }
    authority.split(':').next().unwrap_or(authority)
}

fn is_loopback_host(host: &str) -> bool {
    let host = host.to_ascii_lowercase();
    host == "localhost" || host == "[::1]" || host.parse::<std::net::Ipv4Addr>().is_ok_and(|ip| ip.is_loopback())
}

#[cfg(test)]
mod tests {
    use super::origin_allowed;

    #[test]
    fn only_local_and_listed_origins_pass() {
        for ok in [
            "http://localhost:5173",
            "http://127.0.0.1",
            "https://127.3.4.5:8443",
            "http://[::1]:8765",
            "http://LOCALHOST",
        ] {
            assert!(origin_allowed(ok, &[]), "{ok}");
        }
        for bad in [
            "null",
            "https://evil.example",
            "http://localhost.evil.example",
            "http://127.0.0.1.evil.example",
            "file://",
            "http://[::2]",
        ] {
            assert!(!origin_allowed(bad, &[]), "{bad}");
        }
        assert!(origin_allowed("https://intranet.example.org", &["https://intranet.example.org/".into()]));
    }
}
