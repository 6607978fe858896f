//! Model spec strings: `builtin`, `ollama:NAME`, `openai:URL:NAME`, `gemini:NAME`.
//!
//! In `openai:URL:NAME` the URL holds colons of its own (scheme, port). The
//! name starts at the first `:` after the URL's path begins, which is the
//! last `:` unless the name itself has one (an Ollama tag such as
//! `qwen2.5-coder:1.5b`); a URL without a path splits at the last `:`.
//!
//! Keys: Gemini always needs one. An OpenAI-compatible server gets one only
//! when it is `api.openai.com` or `api_key_env` is configured, so a key for
//! OpenAI is never sent to a local or third-party server by accident.

use std::sync::Arc;

use almirah_core::Reader;
use almirah_embed::Embedder;

use super::keys::{FoundKey, KeyLookup, find_key};
use super::{DEFAULT_GEMINI_URL, Endpoint, GeminiChat, OpenAiChat, ProviderOptions};
use crate::builtin::BuiltinModel;
use crate::model::{ChatModel, ModelError};

/// Base URL of `ollama:NAME` unless [`ProviderOptions::ollama_url`] says otherwise.
pub const DEFAULT_OLLAMA_URL: &str = "http://127.0.0.1:11434/v1";
/// The accepted forms, for error messages.
const FORMS: &str = "builtin, ollama:NAME, openai:URL:NAME (e.g. openai:http://127.0.0.1:8089/v1:qwen) or gemini:NAME";

/// A parsed model spec.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ModelSpec {
    /// The offline builtin model.
    Builtin,
    /// An Ollama model through its OpenAI-compatible `/v1`.
    Ollama {
        /// Model name, e.g. `qwen2.5-coder:1.5b`.
        model: String,
    },
    /// Any OpenAI-compatible server.
    OpenAi {
        /// Base URL with `/v1`.
        url: String,
        /// Model name.
        model: String,
    },
    /// A Gemini model.
    Gemini {
        /// Model name, e.g. `gemini-2.5-flash`.
        model: String,
    },
}

/// Parses `spec`.
///
/// # Errors
/// [`ModelError::Unavailable`] naming the accepted forms when `spec` is malformed.
pub fn parse_spec(spec: &str) -> Result<ModelSpec, ModelError> {
    let spec = spec.trim();
    if spec == "builtin" {
        return Ok(ModelSpec::Builtin);
    }
    let bad = |why: &str| ModelError::Unavailable(format!("malformed model spec {spec:?}: {why}; use {FORMS}"));
    let Some((provider, rest)) = spec.split_once(':') else { return Err(bad("no provider")) };
    let name = |s: &str| Some(s.trim().to_string()).filter(|s| !s.is_empty()).ok_or_else(|| bad("no model name"));
    match provider {
        "ollama" => Ok(ModelSpec::Ollama { model: name(rest)? }),
        "gemini" => Ok(ModelSpec::Gemini { model: name(rest)? }),
        "openai" => {
            let (url, model) = split_url_and_name(rest).ok_or_else(|| bad("no model name after the URL"))?;
            check_url(url).map_err(|why| bad(&why))?;
            if model.chars().all(|c| c.is_ascii_digit()) {
                return Err(bad("no model name after the URL (the last part is a port)"));
            }
            Ok(ModelSpec::OpenAi { url: url.to_string(), model: name(model)? })
        }
        _ => Err(bad(&format!("unknown provider {provider:?}"))),
    }
}

/// Builds the model `spec` names (no network I/O; keys are read now).
///
/// # Errors
/// [`ModelError::Unavailable`] for a malformed spec, a missing API key, or an
/// HTTP client that cannot be built.
pub fn from_spec(spec: &str, options: &ProviderOptions) -> Result<Box<dyn ChatModel>, ModelError> {
    from_spec_with(spec, options, None)
}

/// [`from_spec`], with the library's embedder for the builtin model, which
/// then also ranks its sentences by meaning ([`BuiltinModel::with_meaning`]);
/// other models ignore it.
fn from_spec_with(
    spec: &str,
    options: &ProviderOptions,
    embedder: Option<Arc<dyn Embedder>>,
) -> Result<Box<dyn ChatModel>, ModelError> {
    match parse_spec(spec)? {
        ModelSpec::Builtin => Ok(Box::new(embedder.map_or_else(BuiltinModel::default, BuiltinModel::with_meaning))),
        ModelSpec::Ollama { model } => {
            let base_url = options.ollama_url.clone().unwrap_or_else(|| DEFAULT_OLLAMA_URL.into());
            let endpoint = Endpoint { id: format!("ollama:{model}"), base_url, model, key: None };
            Ok(Box::new(OpenAiChat::new(endpoint, options)?))
        }
        ModelSpec::OpenAi { url, model } => {
            let key = openai_key(&url, options)?;
            let endpoint = Endpoint { id: format!("openai:{url}:{model}"), base_url: url, model, key };
            Ok(Box::new(OpenAiChat::new(endpoint, options)?))
        }
        ModelSpec::Gemini { model } => {
            let lookup = lookup("gemini", &["GEMINI_API_KEY", "GOOGLE_API_KEY"], options);
            let key = Some(required_key(&lookup, "gemini")?);
            let base_url = options.gemini_url.clone().unwrap_or_else(|| DEFAULT_GEMINI_URL.into());
            let endpoint = Endpoint { id: format!("gemini:{model}"), base_url, model, key };
            Ok(Box::new(GeminiChat::new(endpoint, options)?))
        }
    }
}

/// [`from_spec`] for the library `reader` reads: the builtin model gets its
/// embedder (loaded now) to rank sentences by meaning, or words alone when
/// the embedder cannot be loaded. The reader lends the embedder only; it
/// cannot write.
///
/// # Errors
/// As [`from_spec`].
pub fn for_library(
    spec: &str,
    options: &ProviderOptions,
    reader: &Reader<'_>,
) -> Result<Box<dyn ChatModel>, ModelError> {
    let builtin = matches!(parse_spec(spec)?, ModelSpec::Builtin);
    let embedder = builtin.then(|| reader.embedder().ok()).flatten();
    from_spec_with(spec, options, embedder)
}

/// `URL:NAME` split where the name starts (see the module docs).
fn split_url_and_name(rest: &str) -> Option<(&str, &str)> {
    let after_scheme = rest.find("://").map_or(0, |i| i + 3);
    let cut = match rest[after_scheme..].find('/') {
        Some(path) => rest[after_scheme + path..].find(':').map(|i| after_scheme + path + i),
        None => rest.rfind(':').filter(|i| *i >= after_scheme),
    }?;
    Some((&rest[..cut], &rest[cut + 1..]))
}

fn check_url(url: &str) -> Result<(), String> {
    let parsed = reqwest::Url::parse(url).map_err(|e| format!("bad URL {url:?}: {e}"))?;
    match parsed.scheme() {
        "http" | "https" => Ok(()),
        other => Err(format!("URL scheme {other:?} is not http or https")),
    }
}

/// The key of an OpenAI-compatible server, if it should get one.
fn openai_key(url: &str, options: &ProviderOptions) -> Result<Option<FoundKey>, ModelError> {
    let official = reqwest::Url::parse(url).ok().and_then(|u| u.host_str().map(str::to_string));
    if options.api_key_env.is_none() && official.as_deref() != Some("api.openai.com") {
        return Ok(None);
    }
    required_key(&lookup("openai", &["OPENAI_API_KEY"], options), "openai").map(Some)
}

/// Where to look: the configured variable or the provider's defaults, then the keyring.
fn lookup(provider: &str, defaults: &[&str], options: &ProviderOptions) -> KeyLookup {
    let env_vars = match &options.api_key_env {
        Some(var) => vec![var.clone()],
        None => defaults.iter().map(|v| v.to_string()).collect(),
    };
    KeyLookup { env_vars, keyring_user: options.keyring.then(|| provider.to_string()) }
}

fn required_key(lookup: &KeyLookup, provider: &str) -> Result<FoundKey, ModelError> {
    find_key(lookup).ok_or_else(|| {
        ModelError::Unavailable(format!(
            "no API key for {provider}: set {} (api_key_env names another)",
            lookup.places()
        ))
    })
}
