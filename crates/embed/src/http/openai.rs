//! OpenAI-compatible `POST {base}/embeddings`
//! (<https://platform.openai.com/docs/api-reference/embeddings/create>):
//! `{"model", "input": [..], "dimensions"?, "encoding_format": "float"}` →
//! `{"data": [{"index", "embedding"}, ..]}`. Items are put back in `index`
//! order; servers such as vLLM or llama.cpp may answer out of order.

use serde::Deserialize;
use serde_json::json;

use super::{HttpEmbedder, HttpOptions, Wire, join_url, parse_json, plain_id};
use crate::transport::{AuthStyle, Secret};
use crate::{EmbedError, InputKind};

/// Texts per request.
const MAX_BATCH: usize = 64;

/// What the configuration says.
pub(crate) struct Params<'a> {
    /// Base URL including `/v1`.
    pub url: &'a str,
    pub model: &'a str,
    pub dimensions: Option<usize>,
}

#[derive(Debug)]
pub(crate) struct OpenAi {
    url: String,
    model: String,
    dimensions: Option<usize>,
}

#[derive(Deserialize)]
struct Answer {
    data: Vec<Item>,
}

#[derive(Deserialize)]
struct Item {
    index: usize,
    embedding: Vec<f32>,
}

impl Wire for OpenAi {
    fn url(&self) -> &str {
        &self.url
    }

    fn body(&self, texts: &[String], _kind: InputKind) -> serde_json::Value {
        let mut body = json!({ "model": self.model, "input": texts, "encoding_format": "float" });
        if let Some(d) = self.dimensions {
            body["dimensions"] = json!(d);
        }
        body
    }

    fn parse(&self, body: &[u8]) -> Result<Vec<Vec<f32>>, EmbedError> {
        in_index_order(parse_json::<Answer>(body)?.data)
    }
}

/// Orders items by `index`, which must be exactly `0..n`.
fn in_index_order(mut items: Vec<Item>) -> Result<Vec<Vec<f32>>, EmbedError> {
    items.sort_by_key(|i| i.index);
    if items.iter().enumerate().any(|(pos, item)| item.index != pos) {
        let idx: Vec<usize> = items.iter().map(|i| i.index).collect();
        return Err(EmbedError::Protocol(format!("indices {idx:?} are not 0..{}", items.len())));
    }
    Ok(items.into_iter().map(|i| i.embedding).collect())
}

/// An OpenAI-compatible embedder; `key` (from `$key_env`) goes in a Bearer header.
pub(crate) fn build(
    params: &Params<'_>,
    key: Option<Secret>,
    key_env: Option<String>,
    options: &HttpOptions,
) -> Result<HttpEmbedder<OpenAi>, EmbedError> {
    let wire = OpenAi {
        url: join_url(params.url, "embeddings"),
        model: params.model.to_string(),
        dimensions: params.dimensions,
    };
    let transport = super::transport(options, key, key_env, AuthStyle::Bearer)?;
    let id = plain_id("openai", params.model, params.dimensions);
    let batch = options.max_batch.unwrap_or(MAX_BATCH);
    Ok(HttpEmbedder::new(wire, transport, id, batch))
}
