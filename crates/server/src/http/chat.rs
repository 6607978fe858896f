//! An OpenAI-compatible front (`POST /v1/chat/completions`, `GET
//! /v1/models`), so chat front-ends such as Open WebUI can use the library
//! directly: the last user message is the question (a follow-up such as
//! "and for 2024-25?" is resolved against the one before), answered like
//! `/v1/ask`, with the sources and withheld notes under the answer. The
//! model name is ignored; `stream: true` sends the answer as one chunk.

use std::convert::Infallible;
use std::sync::Arc;

use axum::extract::{Extension, State};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Json, Response};
use futures_util::{StreamExt, stream};
use serde::Deserialize;
use serde_json::{Value, json};

use super::limits::JsonBody;
use crate::ask::AskRequest;
use crate::error::ApiError;
use crate::render;
use crate::service::Service;
use crate::tokens::Principal;

/// The model name this front answers as.
pub const MODEL: &str = "almirah";

/// The fields of a chat completion request that are read (others, such as
/// `temperature`, are accepted and ignored).
#[derive(Debug, Clone, Deserialize)]
pub struct ChatParams {
    /// The conversation.
    pub messages: Vec<ChatMessage>,
    /// Stream the answer as server-sent chunks.
    #[serde(default)]
    pub stream: bool,
}

/// One message.
#[derive(Debug, Clone, Deserialize)]
pub struct ChatMessage {
    /// `system`, `user`, `assistant` or `tool`.
    pub role: String,
    /// Text, or a list of parts of which the `text` ones are read.
    #[serde(default)]
    pub content: Value,
}

fn text_of(content: &Value) -> String {
    match content {
        Value::String(s) => s.clone(),
        Value::Array(parts) => parts.iter().filter_map(|p| p["text"].as_str()).collect::<Vec<_>>().join("\n"),
        _ => String::new(),
    }
}

/// `GET /v1/models`.
pub async fn models() -> Json<Value> {
    Json(json!({"object": "list", "data": [{"id": MODEL, "object": "model", "created": 0, "owned_by": "almirah"}]}))
}

/// `POST /v1/chat/completions`.
///
/// # Errors
/// 400 without a user message or for one that is too long; 429 when
/// every slot is taken.
pub async fn post(
    State(service): State<Arc<Service>>,
    Extension(principal): Extension<Principal>,
    JsonBody(params): JsonBody<ChatParams>,
) -> Result<Response, ApiError> {
    let users: Vec<String> = params.messages.iter().filter(|m| m.role == "user").map(|m| text_of(&m.content)).collect();
    let Some(last) = users.last() else {
        return Err(ApiError::bad_request("no-question", "send at least one message with role \"user\""));
    };
    super::check_text("question", last, service.limits().max_query_chars)?;
    let previous = users.len().checked_sub(2).and_then(|i| users.get(i)).map(String::as_str);
    let question = almirah_answer::followup::resolve(last, previous);
    let request = AskRequest { question, today: chrono::Local::now().date_naive(), mode: None };
    let run = service.start_ask(&principal, request)?;
    if params.stream {
        let keep_alive = KeepAlive::new().interval(service.limits().sse_keep_alive);
        return Ok(Sse::new(chunks(run)).keep_alive(keep_alive).into_response());
    }
    let answer = run.finish().await?;
    let id = format!("almirah-{}", chrono::Utc::now().timestamp_millis());
    Ok(Json(json!({
        "id": id,
        "object": "chat.completion",
        "created": chrono::Utc::now().timestamp(),
        "model": MODEL,
        "choices": [{"index": 0, "message": {"role": "assistant", "content": render::answer_text(&answer)}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0},
    }))
    .into_response())
}

/// The streamed form: one content chunk, one closing chunk, `[DONE]`.
fn chunks(run: crate::ask::AskRun) -> impl futures_util::Stream<Item = Result<Event, Infallible>> {
    stream::once(async move { run.finish().await }).flat_map(|answer| {
        let content = match answer {
            Ok(a) => render::answer_text(&a),
            Err(e) => format!("Could not answer: {}", e.message),
        };
        let chunk = |delta: Value, finish: Value| {
            json!({"id": "almirah", "object": "chat.completion.chunk", "created": chrono::Utc::now().timestamp(),
                   "model": MODEL, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})
            .to_string()
        };
        let events = vec![
            chunk(json!({"role": "assistant", "content": content}), Value::Null),
            chunk(json!({}), json!("stop")),
            "[DONE]".to_string(),
        ];
        stream::iter(events.into_iter().map(|data| Ok(Event::default().data(data))))
    })
}
