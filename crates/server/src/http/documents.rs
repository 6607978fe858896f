//! `GET /v1/documents?as_of=…&session=…&status=…`: the documents the
//! caller's audience may see, with their statuses and reasons (as `almirah
//! docs --json` shows them); documents outside it do not appear, nor do
//! their keys or paths.

use std::sync::Arc;

use axum::extract::{Extension, State};
use axum::response::Json;
use serde::Deserialize;
use serde_json::{Value, json};

use super::limits::QueryParams;
use crate::error::ApiError;
use crate::service::Service;
use crate::tokens::Principal;

const STATUSES: [&str; 5] = ["current", "superseded", "expired", "pending", "other-session"];

/// Listing parameters.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DocumentParams {
    /// The date statuses are computed for (default today).
    pub as_of: Option<String>,
    /// The session they are computed for.
    pub session: Option<String>,
    /// Only documents with this status.
    pub status: Option<String>,
}

/// `GET /v1/documents`.
///
/// # Errors
/// 400 for a bad date, session or status.
pub async fn get(
    State(service): State<Arc<Service>>,
    Extension(principal): Extension<Principal>,
    QueryParams(params): QueryParams<DocumentParams>,
) -> Result<Json<Value>, ApiError> {
    let date = super::parse_as_of(params.as_of.as_deref())?;
    let session = super::parse_session(params.session.as_deref())?;
    let status = params.status.filter(|s| !s.is_empty());
    if let Some(s) = status.as_deref().filter(|s| !STATUSES.contains(s)) {
        return Err(ApiError::bad_request("bad-status", format!("status {s:?}: one of {}", STATUSES.join(", "))));
    }
    let view = service
        .read(&principal, move |reader| {
            let snapshot = reader.snapshot(reader.as_of(date, session))?;
            let mut docs = snapshot.documents()?;
            if let Some(s) = &status {
                docs.retain(|d| d.statuses.iter().any(|x| x.as_str() == s));
            }
            Ok(json!({"as_of": snapshot.as_of(), "documents": docs}))
        })
        .await?;
    Ok(Json(view))
}
