//! Ollama `POST /api/embed` (<https://github.com/ollama/ollama/blob/main/docs/api.md#generate-embeddings>):
//! `{"model", "input": [..]}` → `{"embeddings": [[..], ..]}` in input order.

use serde::Deserialize;
use serde_json::json;

use super::{HttpEmbedder, HttpOptions, Wire, join_url, parse_json, plain_id};
use crate::transport::AuthStyle;
use crate::{EmbedError, InputKind};

/// Where Ollama listens by default.
pub(crate) const DEFAULT_URL: &str = "http://127.0.0.1:11434";
/// Texts per request.
const MAX_BATCH: usize = 32;

#[derive(Debug)]
pub(crate) struct Ollama {
    url: String,
    model: String,
}

#[derive(Deserialize)]
struct Answer {
    embeddings: Vec<Vec<f32>>,
}

impl Wire for Ollama {
    fn url(&self) -> &str {
        &self.url
    }

    fn body(&self, texts: &[String], _kind: InputKind) -> serde_json::Value {
        json!({ "model": self.model, "input": texts })
    }

    fn parse(&self, body: &[u8]) -> Result<Vec<Vec<f32>>, EmbedError> {
        Ok(parse_json::<Answer>(body)?.embeddings)
    }
}

/// An Ollama embedder for `model` at `url` (default [`DEFAULT_URL`]).
pub(crate) fn build(url: Option<&str>, model: &str, options: &HttpOptions) -> Result<HttpEmbedder<Ollama>, EmbedError> {
    let wire = Ollama { url: join_url(url.unwrap_or(DEFAULT_URL), "api/embed"), model: model.to_string() };
    let transport = super::transport(options, None, None, AuthStyle::Bearer)?;
    let id = plain_id("ollama", model, None);
    let batch = options.max_batch.unwrap_or(MAX_BATCH);
    Ok(HttpEmbedder::new(wire, transport, id, batch))
}
