//! `POST /v1/ask` with `{"question": "…", "as_of": "2026-11-29", "mode":
//! "auto"}`: the answer as server-sent events (WHATWG HTML, "Server-sent
//! events"): `status` events (`{"line": "Searching: …"}`) while it works,
//! then one `answer` event (the answer as `almirah ask --json` prints it:
//! text with `[key]` citations, citations, withheld notes, trace) or one
//! `error` event. A client that disconnects cancels its question: the
//! stream is dropped, the answer stops at its next step and releases its
//! snapshot. Past `max_concurrent_asks`, 429 with `Retry-After`.

use std::convert::Infallible;
use std::str::FromStr;
use std::sync::Arc;

use almirah_answer::mode::Mode;
use axum::extract::{Extension, State};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::stream::{self, Stream};
use serde::Deserialize;
use serde_json::json;

use super::limits::JsonBody;
use crate::ask::{AskEvent, AskRequest, AskRun};
use crate::error::ApiError;
use crate::service::Service;
use crate::tokens::Principal;

/// An `ask` request.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AskParams {
    /// The question.
    pub question: String,
    /// The date it is asked on (default today); a past session named in
    /// the question still moves it, as in `almirah ask`.
    pub as_of: Option<String>,
    /// `classic`, `agent` or `auto` (default: the config's).
    pub mode: Option<String>,
}

/// `POST /v1/ask`.
///
/// # Errors
/// 400 for an empty or too long question, a bad date or mode; 413 for a
/// large body; 429 when every slot is taken.
pub async fn post(
    State(service): State<Arc<Service>>,
    Extension(principal): Extension<Principal>,
    JsonBody(params): JsonBody<AskParams>,
) -> Result<Response, ApiError> {
    let request = request(&service, params)?;
    let run = service.start_ask(&principal, request)?;
    let keep_alive = KeepAlive::new().interval(service.limits().sse_keep_alive);
    Ok(Sse::new(events(run)).keep_alive(keep_alive).into_response())
}

/// The checked request.
///
/// # Errors
/// 400 as for [`post`].
pub fn request(service: &Service, params: AskParams) -> Result<AskRequest, ApiError> {
    super::check_text("question", &params.question, service.limits().max_query_chars)?;
    let today = super::parse_as_of(params.as_of.as_deref())?.unwrap_or_else(|| chrono::Local::now().date_naive());
    let mode = match params.mode.as_deref().map(str::trim).filter(|m| !m.is_empty()) {
        Some(m) => Some(Mode::from_str(m).map_err(|e| ApiError::bad_request("bad-mode", e))?),
        None => None,
    };
    Ok(AskRequest { question: params.question.trim().to_string(), today, mode })
}

/// The run's events as SSE events; the run (and so the question) lives as
/// long as the stream.
fn events(run: AskRun) -> impl Stream<Item = Result<Event, Infallible>> {
    stream::unfold(run, |mut run| async move {
        let event = match run.events.recv().await? {
            AskEvent::Status(line) => Event::default().event("status").json_data(json!({ "line": line })),
            AskEvent::Done(result) => match *result {
                Ok(answer) => Event::default().event("answer").json_data(&answer),
                Err(e) => Event::default().event("error").json_data(e.body()),
            },
        };
        let event = event.unwrap_or_else(|e| Event::default().event("error").data(e.to_string()));
        Some((Ok(event), run))
    })
}
