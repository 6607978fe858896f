//! The chat models' HTTP transport: `almirah-embed`'s one [`Transport`]
//! (retries, timeouts, hints, key scrubbing), with a chat call's settings
//! (a request timeout is not retried: a call that took the whole timeout
//! will most likely take it again) and its errors as [`ModelError`]s that
//! name the model.

pub(crate) use almirah_embed::transport::AuthStyle;
pub(crate) use almirah_embed::transport::TransportError;
use almirah_embed::transport::{self, TransportConfig};

use crate::model::ModelError;

/// One model's client.
#[derive(Debug)]
pub(crate) struct Transport {
    inner: transport::Transport,
    /// Model id for messages, e.g. `openai:…:qwen`.
    label: String,
}

impl Transport {
    /// Builds the client for the model `label` (no network I/O).
    ///
    /// # Errors
    /// [`ModelError::Unavailable`] when the HTTP client cannot be built.
    pub(crate) fn new(label: &str, config: TransportConfig) -> Result<Self, ModelError> {
        let config = TransportConfig { retry_timeouts: false, ..config };
        let inner = transport::Transport::new(config).map_err(|e| ModelError::Unavailable(format!("{label}: {e}")))?;
        Ok(Self { inner, label: label.to_string() })
    }

    /// POSTs `body` as JSON to `url`; the body of the first 2xx answer.
    ///
    /// # Errors
    /// [`ModelError::Unavailable`] naming the model: refused (not retried),
    /// given up after the retries, or timed out.
    pub(crate) fn post_json(&self, url: &str, body: &serde_json::Value) -> Result<Vec<u8>, ModelError> {
        self.post_json_raw(url, body).map_err(|e| self.error(&e))
    }

    /// As [`Transport::post_json`], with the transport's own error (so a
    /// caller can tell a refusal's status).
    ///
    /// # Errors
    /// [`TransportError`].
    pub(crate) fn post_json_raw(&self, url: &str, body: &serde_json::Value) -> Result<Vec<u8>, TransportError> {
        self.inner.post_json(url, body)
    }

    /// `e` as a [`ModelError::Unavailable`] naming the model.
    pub(crate) fn error(&self, e: &TransportError) -> ModelError {
        ModelError::Unavailable(format!("{}: {e}", self.label))
    }
}
