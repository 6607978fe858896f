//! `GET /v1/status`: what the caller's audience may know of the library
//! (counts, files per status, problem files of visible documents and
//! folders), the watcher's health, and the server's own counters. Unlike
//! `almirah status` it names no folder and no data path of the server.

use std::sync::Arc;

use axum::extract::{Extension, State};
use axum::response::Json;
use serde_json::{Value, json};

use crate::error::ApiError;
use crate::service::Service;
use crate::tokens::Principal;

/// `GET /v1/status`.
///
/// # Errors
/// 500 for storage errors.
pub async fn get(
    State(service): State<Arc<Service>>,
    Extension(principal): Extension<Principal>,
) -> Result<Json<Value>, ApiError> {
    let engine = service.engine().clone();
    let audience = principal.audience.clone();
    let library =
        tokio::task::spawn_blocking(move || engine.status_as(&audience)).await.map_err(ApiError::internal)??;
    let watch = library.watch.as_ref().map(|w| {
        json!({
            "running": w.running,
            "started_at": w.started_at,
            "queue_len": w.queue_len,
            "last_reconcile_at": w.last_reconcile_at,
            "changes": w.changes,
            "last_change_latency_ms": w.last_change_latency_ms,
        })
    });
    let limits = service.limits();
    Ok(Json(json!({
        "documents": library.documents,
        "chunks": library.chunks,
        "vectors_pending": library.vectors_pending,
        "files_by_status": library.files_by_status,
        "problems": library.problems,
        "embedder": library.embedder,
        "format_version": library.format_version,
        "watch": watch,
        "server": {
            "version": env!("CARGO_PKG_VERSION"),
            "uptime_s": service.started.elapsed().as_secs(),
            "caller": principal.name,
            "audience": principal.audience.names(),
            "stats": service.stats(),
            "limits": {
                "max_body_bytes": limits.max_body_bytes,
                "max_query_chars": limits.max_query_chars,
                "max_concurrent_asks": limits.max_concurrent_asks,
            },
        },
    })))
}
