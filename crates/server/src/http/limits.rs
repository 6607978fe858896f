//! Bounded request bodies: a `Content-Length` over `max_body_bytes` gets
//! 413 before anything is read, and a body streamed without one is cut at
//! the same size by axum's `DefaultBodyLimit` (also 413). [`JsonBody`] and
//! [`QueryParams`] turn malformed input into the JSON error shape.

use std::sync::Arc;

use axum::extract::{FromRequest, FromRequestParts, Query, Request, State};
use axum::http::StatusCode;
use axum::http::header::CONTENT_LENGTH;
use axum::http::request::Parts;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;

use crate::error::ApiError;
use crate::service::Service;

/// Middleware: 413 for a declared body over the limit.
pub async fn bound_body(State(service): State<Arc<Service>>, request: Request, next: Next) -> Response {
    let limit = service.limits().max_body_bytes;
    let declared =
        request.headers().get(CONTENT_LENGTH).and_then(|v| v.to_str().ok()).and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > limit as u64) {
        return ApiError::too_large(limit).into_response();
    }
    next.run(request).await
}

/// A JSON body of `T`; errors are 413 (too large) or 400 (`bad-json`,
/// naming the field), as JSON.
pub struct JsonBody<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        match axum::Json::<T>::from_request(request, state).await {
            Ok(axum::Json(value)) => Ok(Self(value)),
            Err(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => {
                Err(ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, "body-too-large", e.body_text()))
            }
            Err(e) if e.status() == StatusCode::UNSUPPORTED_MEDIA_TYPE => Err(ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "unsupported-media-type",
                "send the body as JSON with Content-Type: application/json",
            )),
            Err(e) => Err(ApiError::bad_request("bad-json", e.body_text())),
        }
    }
}

/// Query-string parameters of `T`; errors are 400 `bad-query`.
pub struct QueryParams<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequestParts<S> for QueryParams<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match Query::<T>::from_request_parts(parts, state).await {
            Ok(Query(value)) => Ok(Self(value)),
            Err(e) => Err(ApiError::bad_request("bad-query", e.body_text())),
        }
    }
}
