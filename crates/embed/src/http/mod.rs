//! HTTP embedders: Ollama, OpenAI-compatible and Gemini.
//!
//! One generic [`HttpEmbedder`] does what all three share: split the input
//! into batches, add prefixes, POST with retries ([`crate::retry`]), check that the
//! answer has one vector per text and consistent dimensions, L2-normalise.
//! Each provider ([`Wire`]) only builds its request body and parses its answer.
//!
//! **Dimensions.** When the configuration gives them, they are checked on
//! every answer. Otherwise they are learnt from the first successful answer
//! and cached (no network at construction): until then [`Embedder::id`]
//! reports `dimensions: 0`, and [`Embedder::resolve_id`] embeds one probe text
//! to learn them.

mod gemini;
mod ollama;
mod openai;

use std::fmt::Debug;
use std::sync::OnceLock;

use serde::de::DeserializeOwned;

pub use crate::retry::RetryPolicy;
use crate::transport::{AuthStyle, Secret, Transport, TransportConfig, TransportError};

use crate::vector::normalize;
use crate::{EmbedError, Embedder, EmbedderConfig, EmbedderId, InputKind};

/// Text embedded by [`Embedder::resolve_id`] to learn unknown dimensions.
const PROBE_TEXT: &str = "dimension probe";

/// Network settings shared by the HTTP embedders.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HttpOptions {
    /// Retries of 429, 5xx and connection failures.
    pub retry: RetryPolicy,
    /// TCP connect timeout in milliseconds. Default 10 000.
    pub connect_timeout_ms: u64,
    /// Whole-request timeout in milliseconds. Default 120 000.
    pub request_timeout_ms: u64,
    /// Texts per request; `None` uses the provider default (Ollama 32,
    /// OpenAI 64, Gemini 100, the documented `batchEmbedContents` limit).
    pub max_batch: Option<usize>,
}

impl Default for HttpOptions {
    fn default() -> Self {
        Self { retry: RetryPolicy::default(), connect_timeout_ms: 10_000, request_timeout_ms: 120_000, max_batch: None }
    }
}

/// A provider's request and response format.
pub(crate) trait Wire: Send + Sync + Debug {
    /// The full endpoint URL.
    fn url(&self) -> &str;
    /// The JSON body for `texts` (prefixes already applied).
    fn body(&self, texts: &[String], kind: InputKind) -> serde_json::Value;
    /// The vectors in input order (count and dimensions are checked by the caller).
    fn parse(&self, body: &[u8]) -> Result<Vec<Vec<f32>>, EmbedError>;
}

/// A remote embedder speaking `W`.
#[derive(Debug)]
pub(crate) struct HttpEmbedder<W> {
    wire: W,
    transport: Transport,
    provisional: EmbedderId,
    resolved: OnceLock<EmbedderId>,
    max_batch: usize,
}

impl<W: Wire> HttpEmbedder<W> {
    pub(crate) fn new(wire: W, transport: Transport, id: EmbedderId, max_batch: usize) -> Self {
        let resolved = OnceLock::new();
        if id.dimensions > 0 {
            let _ = resolved.set(id.clone());
        }
        Self { wire, transport, provisional: id, resolved, max_batch: max_batch.max(1) }
    }

    fn embed_batch(&self, texts: &[&str], kind: InputKind) -> Result<Vec<Vec<f32>>, EmbedError> {
        let id = self.id();
        let prefix = match kind {
            InputKind::Document => &id.document_prefix,
            InputKind::Query => &id.query_prefix,
        };
        let texts: Vec<String> = texts.iter().map(|t| format!("{prefix}{t}")).collect();
        let bytes = self.transport.post_json(self.wire.url(), &self.wire.body(&texts, kind)).map_err(embed_error)?;
        let mut vectors = self.wire.parse(&bytes)?;
        if vectors.len() != texts.len() {
            let (got, want) = (vectors.len(), texts.len());
            return Err(EmbedError::Protocol(format!("{got} vectors for {want} texts")));
        }
        self.check_dimensions(&vectors)?;
        for v in &mut vectors {
            if !normalize(v) {
                return Err(EmbedError::Protocol("zero or non-finite vector".into()));
            }
        }
        Ok(vectors)
    }

    /// All vectors have the known dimensions; with none known yet, the first
    /// answer's dimensions become the known ones (cached for the process).
    fn check_dimensions(&self, vectors: &[Vec<f32>]) -> Result<(), EmbedError> {
        let Some(first) = vectors.first().map(Vec::len) else {
            return Ok(());
        };
        let lens = || vectors.iter().map(Vec::len).collect::<Vec<_>>();
        if first == 0 {
            return Err(EmbedError::Protocol(format!("empty vectors: {:?}", lens())));
        }
        let learnt = || EmbedderId { dimensions: first, ..self.provisional.clone() };
        let want = self.resolved.get_or_init(learnt).dimensions;
        if vectors.iter().any(|v| v.len() != want) {
            return Err(EmbedError::Protocol(format!("expected {want} dimensions, got {:?}", lens())));
        }
        Ok(())
    }
}

impl<W: Wire> Embedder for HttpEmbedder<W> {
    fn id(&self) -> &EmbedderId {
        self.resolved.get().unwrap_or(&self.provisional)
    }

    fn max_batch(&self) -> usize {
        self.max_batch
    }

    fn embed(&self, texts: &[&str], kind: InputKind) -> Result<Vec<Vec<f32>>, EmbedError> {
        let mut out = Vec::with_capacity(texts.len());
        for batch in texts.chunks(self.max_batch) {
            out.extend(self.embed_batch(batch, kind)?);
        }
        Ok(out)
    }

    fn resolve_id(&self) -> Result<EmbedderId, EmbedError> {
        if self.resolved.get().is_none() {
            self.embed(&[PROBE_TEXT], InputKind::Document)?;
        }
        Ok(self.id().clone())
    }
}

/// Builds an HTTP embedder (no network I/O).
pub(crate) fn from_config(config: &EmbedderConfig, options: &HttpOptions) -> Result<Box<dyn Embedder>, EmbedError> {
    match config {
        EmbedderConfig::Ollama { url, model } => Ok(Box::new(ollama::build(url.as_deref(), model, options)?)),
        EmbedderConfig::Openai { url, model, api_key_env, dimensions } => {
            let key = api_key_env.as_deref().map(read_key).transpose()?;
            let params = openai::Params { url, model, dimensions: *dimensions };
            Ok(Box::new(openai::build(&params, key, api_key_env.clone(), options)?))
        }
        EmbedderConfig::Gemini { model, api_key_env, dimensions, url } => {
            let var = api_key_env.clone().unwrap_or_else(|| gemini::DEFAULT_KEY_ENV.into());
            let key = read_key(&var)?;
            let params = gemini::Params { url: url.as_deref(), model, dimensions: *dimensions };
            Ok(Box::new(gemini::build(&params, key, var, options)?))
        }
        EmbedderConfig::Builtin { .. } | EmbedderConfig::Hash { .. } => {
            Err(EmbedError::Config("not an HTTP embedder".into()))
        }
    }
}

/// Reads an API key from environment variable `var`.
/// The transport of an embedder: `options`' timeouts and retries (a
/// timed-out batch is retried), the key and the variable it came from.
///
/// # Errors
/// [`EmbedError::Config`] when the HTTP client cannot be built.
pub(crate) fn transport(
    options: &HttpOptions,
    key: Option<Secret>,
    key_env: Option<String>,
    auth: AuthStyle,
) -> Result<Transport, EmbedError> {
    Transport::new(TransportConfig {
        connect_timeout_ms: options.connect_timeout_ms,
        request_timeout_ms: options.request_timeout_ms,
        retry: options.retry,
        retry_timeouts: true,
        key,
        key_source: key_env.map(|v| format!("${v}")),
        auth,
    })
    .map_err(embed_error)
}

/// A transport failure as an [`EmbedError`].
fn embed_error(e: TransportError) -> EmbedError {
    match e {
        TransportError::Refused { status, message } => EmbedError::Refused { status, message },
        TransportError::Unavailable { attempts, message } => EmbedError::Unavailable { attempts, message },
        TransportError::TimedOut { message, .. } => EmbedError::Unavailable { attempts: 1, message },
        TransportError::Client(message) => EmbedError::Config(message),
    }
}

fn read_key(var: &str) -> Result<Secret, EmbedError> {
    match std::env::var(var) {
        Ok(v) if !v.trim().is_empty() => Ok(Secret::new(v.trim().to_string())),
        _ => Err(EmbedError::Config(format!("environment variable {var} (API key) is not set"))),
    }
}

/// Parses a JSON answer, mapping failures to [`EmbedError::Protocol`].
fn parse_json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, EmbedError> {
    serde_json::from_slice(bytes).map_err(|e| EmbedError::Protocol(format!("bad JSON answer: {e}")))
}

/// `base` without trailing slashes, joined with `path`.
fn join_url(base: &str, path: &str) -> String {
    format!("{}/{}", base.trim_end_matches('/'), path.trim_start_matches('/'))
}

/// An identity with no prefixes.
fn plain_id(provider: &str, model: &str, dimensions: Option<usize>) -> EmbedderId {
    EmbedderId {
        provider: provider.into(),
        model: model.into(),
        dimensions: dimensions.unwrap_or(0),
        document_prefix: String::new(),
        query_prefix: String::new(),
    }
}

#[cfg(test)]
mod tests;
