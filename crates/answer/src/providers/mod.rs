//! Chat-model back-ends behind [`ChatModel`] (ARCHITECTURE §6): any
//! OpenAI-compatible `/v1/chat/completions` server ([`OpenAiChat`]: Ollama,
//! llama.cpp, LM Studio, vLLM, OpenAI) and Gemini `generateContent`
//! ([`GeminiChat`]), chosen by a spec string ([`from_spec`]).
//!
//! Calls are blocking (`reqwest::blocking`), as the trait is synchronous: the
//! agent runner calls them from `tokio::task::spawn_blocking`, never on an
//! async worker. Every request has a timeout; 429, 5xx and connection
//! failures are retried with capped, jittered backoff (`almirah-embed`'s
//! [`RetryPolicy`]); any other 4xx and a timeout fail at once. All errors are
//! [`ModelError`]s whose text never holds an API key ([`keys`]).
//!
//! - [`parse`] finds tool calls that small models write in their text.
//! - [`prompt`] builds the answer prompt (retrieved text as delimited data,
//!   ARCHITECTURE §7) and parses the reply into a [`Draft`].

mod gemini;
pub mod keys;
mod openai;
pub mod parse;
pub mod prompt;
mod schema_support;
mod spec;
mod transport;

use almirah_embed::RetryPolicy;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use almirah_embed::transport::TransportConfig;
pub use gemini::{DEFAULT_GEMINI_URL, GeminiChat};
use keys::FoundKey;
pub use openai::OpenAiChat;
pub use spec::{DEFAULT_OLLAMA_URL, ModelSpec, for_library, from_spec, parse_spec};
use transport::AuthStyle;

use crate::evidence::Evidence;
use crate::model::{ChatModel, ChatRequest, Draft, ModelError};

/// Settings shared by the HTTP chat models; every field has a default, so a
/// config file may give any subset (`[model]` table of the CLI config).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ProviderOptions {
    /// TCP connect timeout in milliseconds. Default 10 000.
    pub connect_timeout_ms: u64,
    /// Whole-request timeout in milliseconds; a timeout is not retried.
    /// Default 300 000: a 1.5B model on 2 cores reads about 50-90 tokens/s
    /// and writes about 20-28 tokens/s.
    pub request_timeout_ms: u64,
    /// Attempts in total for 429, 5xx and connection failures (at least 1). Default 4.
    pub max_attempts: u32,
    /// Delay before the first retry in milliseconds; doubles per retry, jittered. Default 500.
    pub retry_base_ms: u64,
    /// Upper bound of any retry delay (`Retry-After` included) in milliseconds. Default 8 000.
    pub retry_cap_ms: u64,
    /// Base URL of `ollama:NAME`, `/v1` included. Default [`DEFAULT_OLLAMA_URL`].
    pub ollama_url: Option<String>,
    /// Base URL of `gemini:NAME`. Default [`DEFAULT_GEMINI_URL`].
    pub gemini_url: Option<String>,
    /// Environment variable holding the API key, instead of the provider's
    /// default (`OPENAI_API_KEY`; `GEMINI_API_KEY`, `GOOGLE_API_KEY`).
    pub api_key_env: Option<String>,
    /// Whether to look for a key in the OS keyring after the environment. Default true.
    pub keyring: bool,
    /// Sampling temperature. Default 0 (reproducible answers).
    pub temperature: f32,
    /// Output tokens per call at most (`max_tokens`, `maxOutputTokens`). Default 1 024.
    pub max_output_tokens: u32,
    /// How the model drafts an answer (`drafting = "auto"`, `"pick"` or
    /// `"write"`). Default `auto`: a model on a local server that takes a
    /// reply schema picks sentences ([`crate::pick`]), any other writes.
    pub drafting: Drafting,
}

/// How a chat model drafts an answer from the passages it is shown.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Drafting {
    /// `pick` for a model on a local server that takes a reply schema
    /// ([`crate::model::ChatModel::prefers_structured_output`]), else `write`.
    #[default]
    Auto,
    /// Choose among the builtin's best sentences, which are quoted verbatim
    /// ([`crate::pick`]); the builtin's gate decides whether to answer.
    Pick,
    /// Write short sentences that cite the passages; the checks verify them.
    Write,
}

impl Default for ProviderOptions {
    fn default() -> Self {
        Self {
            connect_timeout_ms: 10_000,
            request_timeout_ms: 300_000,
            max_attempts: 4,
            retry_base_ms: 500,
            retry_cap_ms: 8_000,
            ollama_url: None,
            gemini_url: None,
            api_key_env: None,
            keyring: true,
            temperature: 0.0,
            max_output_tokens: 1_024,
            drafting: Drafting::Auto,
        }
    }
}

impl ProviderOptions {
    /// The retry policy these options describe.
    pub fn retry_policy(&self) -> RetryPolicy {
        RetryPolicy { max_attempts: self.max_attempts, base_ms: self.retry_base_ms, cap_ms: self.retry_cap_ms }
    }
}

/// Where one model lives.
#[derive(Debug, Clone)]
pub struct Endpoint {
    /// The model's id in traces, e.g. `ollama:qwen2.5-coder:1.5b`.
    pub id: String,
    /// Base URL (OpenAI-compatible: with `/v1`; Gemini: the host).
    pub base_url: String,
    /// Model name sent to the server.
    pub model: String,
    /// API key and where it came from, if any.
    pub key: Option<FoundKey>,
}

/// `answer` for HTTP models: one chat call with the answer prompt over
/// exactly `evidence` (a caller focuses it first for a model that [reads
/// focused evidence](ChatModel::reads_focused_evidence):
/// [`crate::focus::shown`]), no tools. No evidence means no call and no
/// sentences (the abstention).
fn answer_with(
    model: &dyn ChatModel,
    question: &crate::question::Question,
    evidence: &[Evidence],
    retry_note: Option<&str>,
) -> Result<Draft, ModelError> {
    if evidence.is_empty() {
        return Ok(Draft::default());
    }
    let messages = prompt::answer_messages(question, evidence, retry_note, prompt::Citing::Numbers);
    let reply = model.chat(&ChatRequest { messages, ..Default::default() })?;
    if reply.content.trim().is_empty() {
        return Err(ModelError::BadReply(format!("{}: empty answer", model.id())));
    }
    Ok(prompt::parse_draft(&reply.content, reply.usage, evidence))
}

fn transport_config(key: Option<FoundKey>, auth: AuthStyle, options: &ProviderOptions) -> TransportConfig {
    let (key, key_source) = key.map_or((None, None), |k| (Some(k.secret), Some(k.source)));
    TransportConfig {
        connect_timeout_ms: options.connect_timeout_ms,
        request_timeout_ms: options.request_timeout_ms,
        retry: options.retry_policy(),
        retry_timeouts: false,
        key,
        key_source,
        auth,
    }
}

/// Parses a JSON answer, mapping failures to [`ModelError::BadReply`].
fn parse_json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ModelError> {
    serde_json::from_slice(bytes).map_err(|e| ModelError::BadReply(format!("bad JSON answer: {e}")))
}

/// `base` without trailing slashes, joined with `path`.
fn join_url(base: &str, path: &str) -> String {
    format!("{}/{}", base.trim_end_matches('/'), path.trim_start_matches('/'))
}

#[cfg(test)]
mod tests;
