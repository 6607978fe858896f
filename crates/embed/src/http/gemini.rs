//! Gemini `POST {base}/models/{model}:batchEmbedContents`
//! (<https://ai.google.dev/api/embeddings>, <https://ai.google.dev/gemini-api/docs/embeddings>).
//!
//! Each text is its own request entry with its own `Content`: several parts in
//! one `Content` are merged into a single vector. The key goes in the
//! `x-goog-api-key` header, never in the URL. `gemini-embedding-001` (and the
//! older `text-embedding-004`, `embedding-001`) take the task as `taskType`
//! (`RETRIEVAL_DOCUMENT` / `RETRIEVAL_QUERY`); newer models such as
//! `gemini-embedding-2` take it as a text prefix, recorded in the identity.

use serde::Deserialize;
use serde_json::json;

use super::{HttpEmbedder, HttpOptions, Wire, join_url, parse_json, plain_id};
use crate::transport::{AuthStyle, Secret};
use crate::{EmbedError, EmbedderId, InputKind};

/// The public endpoint.
pub(crate) const DEFAULT_URL: &str = "https://generativelanguage.googleapis.com/v1beta";
/// Variable read for the key when the configuration names none.
pub(crate) const DEFAULT_KEY_ENV: &str = "GEMINI_API_KEY";
/// Entries per `batchEmbedContents` call (the API's limit).
const MAX_BATCH: usize = 100;
/// Models that take `taskType` rather than a text prefix.
const TASK_TYPE_MODELS: [&str; 3] = ["gemini-embedding-001", "text-embedding-004", "embedding-001"];
/// Prefixes for models that take the task in the text.
const QUERY_PREFIX: &str = "task: search result | query: ";
const DOCUMENT_PREFIX: &str = "title: none | text: ";

/// What the configuration says.
pub(crate) struct Params<'a> {
    /// Base URL; default [`DEFAULT_URL`].
    pub url: Option<&'a str>,
    pub model: &'a str,
    /// `outputDimensionality`.
    pub dimensions: Option<usize>,
}

#[derive(Debug)]
pub(crate) struct Gemini {
    url: String,
    /// `models/<name>`.
    resource: String,
    dimensions: Option<usize>,
    task_type: bool,
}

#[derive(Deserialize)]
struct Answer {
    embeddings: Vec<Values>,
}

#[derive(Deserialize)]
struct Values {
    values: Vec<f32>,
}

impl Wire for Gemini {
    fn url(&self) -> &str {
        &self.url
    }

    fn body(&self, texts: &[String], kind: InputKind) -> serde_json::Value {
        let requests: Vec<_> = texts.iter().map(|t| self.entry(t, kind)).collect();
        json!({ "requests": requests })
    }

    fn parse(&self, body: &[u8]) -> Result<Vec<Vec<f32>>, EmbedError> {
        Ok(parse_json::<Answer>(body)?.embeddings.into_iter().map(|e| e.values).collect())
    }
}

impl Gemini {
    /// One `EmbedContentRequest`: one `Content` with one text part.
    fn entry(&self, text: &str, kind: InputKind) -> serde_json::Value {
        let mut entry = json!({
            "model": self.resource,
            "content": { "parts": [ { "text": text } ] },
        });
        if self.task_type {
            entry["taskType"] = json!(match kind {
                InputKind::Document => "RETRIEVAL_DOCUMENT",
                InputKind::Query => "RETRIEVAL_QUERY",
            });
        }
        if let Some(d) = self.dimensions {
            entry["outputDimensionality"] = json!(d);
        }
        entry
    }
}

/// The model name without a leading `models/`.
fn bare_model(model: &str) -> &str {
    model.strip_prefix("models/").unwrap_or(model)
}

/// The identity, with text prefixes for models that take no `taskType`.
fn identity(model: &str, dimensions: Option<usize>) -> EmbedderId {
    let mut id = plain_id("gemini", model, dimensions);
    if !TASK_TYPE_MODELS.contains(&model) {
        id.query_prefix = QUERY_PREFIX.into();
        id.document_prefix = DOCUMENT_PREFIX.into();
    }
    id
}

/// A Gemini embedder; `key` (from `$key_env`) goes in `x-goog-api-key`.
pub(crate) fn build(
    params: &Params<'_>,
    key: Secret,
    key_env: String,
    options: &HttpOptions,
) -> Result<HttpEmbedder<Gemini>, EmbedError> {
    let model = bare_model(params.model);
    let path = format!("models/{model}:batchEmbedContents");
    let wire = Gemini {
        url: join_url(params.url.unwrap_or(DEFAULT_URL), &path),
        resource: format!("models/{model}"),
        dimensions: params.dimensions,
        task_type: TASK_TYPE_MODELS.contains(&model),
    };
    let transport = super::transport(options, Some(key), Some(key_env), AuthStyle::GoogApiKey)?;
    let id = identity(model, params.dimensions);
    let batch = options.max_batch.unwrap_or(MAX_BATCH).min(MAX_BATCH);
    Ok(HttpEmbedder::new(wire, transport, id, batch))
}
