//! The bearer-token check (RFC 6750 §2.1, the `Authorization` request
//! header; tokens in query strings or bodies are not accepted, so they
//! never reach access logs). A request without a token, or with one that
//! matches none, gets 401 with a `WWW-Authenticate: Bearer` challenge
//! (RFC 6750 §3) and no data. A request that passes carries its
//! [`Principal`] in its extensions.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::header::AUTHORIZATION;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;
use crate::service::{Service, bump};
use crate::tokens::Principal;

/// Middleware: 401 unless the request carries a configured token.
pub async fn require_token(State(service): State<Arc<Service>>, mut request: Request, next: Next) -> Response {
    let presented = request.headers().get(AUTHORIZATION).and_then(|v| v.to_str().ok()).and_then(bearer);
    let principal: Option<Principal> = presented.and_then(|t| service.tokens().lookup(t));
    let Some(principal) = principal else {
        bump(&service.stats.unauthorized);
        return ApiError::unauthorized(presented.is_some()).into_response();
    };
    bump(&service.stats.requests);
    let caller = Caller(principal.name.clone());
    request.extensions_mut().insert(principal);
    let mut response = next.run(request).await;
    response.extensions_mut().insert(caller);
    response
}

/// The token entry's name a response was made for (for the request log).
#[derive(Debug, Clone)]
pub struct Caller(pub String);

/// The token of an `Authorization: Bearer <token>` value (the scheme is
/// case-insensitive, RFC 9110 §11.1).
fn bearer(value: &str) -> Option<&str> {
    let (scheme, token) = value.trim().split_once(' ')?;
    let token = token.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty()).then_some(token)
}

#[cfg(test)]
mod tests {
    use super::bearer;

    #[test]
    fn reads_the_bearer_scheme_only() {
        assert_eq!(bearer("Bearer abc"), Some("abc"));
        assert_eq!(bearer("bearer  abc "), Some("abc"));
        assert_eq!(bearer("Basic abc"), None);
        assert_eq!(bearer("Bearer "), None);
        assert_eq!(bearer("abc"), None);
    }
}
