//! `GET /v1/search?q=…&k=…&as_of=…&session=…&series=…` and `POST
//! /v1/search` with the same fields as JSON (`q` or `query`). Hybrid search
//! through the gate of one snapshot for the caller's audience at `as_of`
//! (default today): admitted passages with their text and status, and the
//! withheld documents the caller may see, by name and reason only.

use std::sync::Arc;

use almirah_answer::evidence::Evidence;
use almirah_core::SearchOptions;
use almirah_core::read::{DocFilter, GatedResults};
use axum::extract::{Extension, State};
use axum::response::{IntoResponse, Json, Response};
use serde::Deserialize;
use serde_json::{Value, json};

use super::limits::{JsonBody, QueryParams};
use crate::error::ApiError;
use crate::render;
use crate::service::Service;
use crate::tokens::Principal;

/// Most hits one search returns (`k` is clamped to 1..=50).
pub const MAX_K: usize = 50;
/// Hits when no `k` is given.
pub const DEFAULT_K: usize = 5;
/// Withheld hits searched for the notes.
const WITHHELD_K: usize = 5;

/// A search request.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SearchParams {
    /// The query.
    #[serde(alias = "query")]
    pub q: String,
    /// Hits wanted (clamped to 1..=50; default 5).
    pub k: Option<usize>,
    /// The date the search speaks for (`YYYY-MM-DD`; default today).
    pub as_of: Option<String>,
    /// The session it speaks for (`2024-25`; a historical search).
    pub session: Option<String>,
    /// Only this series (narrows; never admits anything).
    pub series: Option<String>,
}

/// `GET /v1/search`.
///
/// # Errors
/// 400 for an empty or too long query, a bad date or session.
pub async fn get(
    State(service): State<Arc<Service>>,
    Extension(principal): Extension<Principal>,
    QueryParams(params): QueryParams<SearchParams>,
) -> Result<Response, ApiError> {
    run(&service, &principal, params).await
}

/// `POST /v1/search`.
///
/// # Errors
/// As [`get`], and 400/413 for a malformed or oversized body.
pub async fn post(
    State(service): State<Arc<Service>>,
    Extension(principal): Extension<Principal>,
    JsonBody(params): JsonBody<SearchParams>,
) -> Result<Response, ApiError> {
    run(&service, &principal, params).await
}

async fn run(service: &Service, principal: &Principal, params: SearchParams) -> Result<Response, ApiError> {
    super::check_text("query", &params.q, service.limits().max_query_chars)?;
    let date = super::parse_as_of(params.as_of.as_deref())?;
    let session = super::parse_session(params.session.as_deref())?;
    let k = params.k.unwrap_or(DEFAULT_K).clamp(1, MAX_K);
    let filter = DocFilter { series: params.series.filter(|s| !s.trim().is_empty()), session: None };
    let query = params.q;
    let view = service
        .read(principal, move |reader| {
            let snapshot = reader.snapshot(reader.as_of(date, session))?;
            let opts = SearchOptions { k, ..reader.settings().search };
            Ok(view(&snapshot.search(&query, &opts, WITHHELD_K, &filter)?))
        })
        .await?;
    Ok(Json(view).into_response())
}

/// The response: hits (passages with score and status) and the withheld
/// documents (name, statuses, reason; never their text).
fn view(results: &GatedResults) -> Value {
    let hits: Vec<Value> = results
        .results
        .hits
        .iter()
        .map(|h| {
            let mut v = render::passage_json(&Evidence::from(h));
            v["score"] = json!(h.score);
            v["path"] = json!(h.path);
            v
        })
        .collect();
    let mut withheld: Vec<Value> = Vec::new();
    for w in &results.withheld {
        let document = render::document_of(&w.hit.key);
        if withheld.iter().any(|v| v["document"] == document) {
            continue;
        }
        withheld.push(
            json!({"document": document, "title": w.hit.title, "statuses": w.statuses, "reason": w.reason.to_string()}),
        );
    }
    json!({
        "as_of": results.as_of,
        "hits": hits,
        "withheld": withheld,
        "candidates": results.results.candidates,
        "elapsed_ms": results.results.elapsed_ms,
    })
}
