//! Settings: the same config file as the CLI (comments kept), API keys in
//! the OS keyring, and the offline indicator.

use std::time::Duration;

use almirah_answer::providers::keys;
use almirah_answer::providers::{ModelSpec, parse_spec};
use almirah_core::embed::{BuiltinModel, EmbedderConfig};
use almirah_settings::Config;
use tauri::State;
use toml_edit::{Array, Value};

use crate::error::{CmdResult, CommandError, blocking};
use crate::payload::{Connectivity, KeyStatus, SettingsView};
use crate::state::AppState;

/// The settings as the form shows them.
///
/// # Errors
/// `invalid-input` when the config does not parse.
#[tauri::command]
pub async fn get_settings(state: State<'_, AppState>) -> CmdResult<SettingsView> {
    Ok(view(&state.config()?))
}

/// Save the form into the config file (other keys and comments stay).
/// The model, mode and budgets apply to the next question; the embedder
/// and audience apply when the app restarts (then the Library page offers
/// the re-embed a new embedder needs, as `almirah reindex --re-embed` does).
///
/// # Errors
/// `invalid-input` for an unknown provider, a month outside 1-12 or zero budgets.
#[tauri::command]
pub async fn save_settings(state: State<'_, AppState>, settings: SettingsView) -> CmdResult<SettingsView> {
    let values = values(&settings)?;
    let refs: Vec<(&str, Option<Value>)> = values.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
    almirah_settings::edit::set_values(&state.config_path, &refs)?;
    Ok(view(&state.config()?))
}

/// Whether the keyring holds a key for `provider` (`openai`, `gemini`).
///
/// # Errors
/// `invalid-input` for another provider.
#[tauri::command]
pub async fn key_status(provider: String) -> CmdResult<KeyStatus> {
    let provider = key_provider(&provider)?;
    blocking(move || Ok(status_of(&provider))).await
}

/// Store an API key in the OS keyring.
///
/// # Errors
/// `invalid-input` for an empty key or another provider; `keyring` when no
/// keyring service runs (the message says which environment variable to set instead).
#[tauri::command]
pub async fn set_api_key(provider: String, key: String) -> CmdResult<KeyStatus> {
    let provider = key_provider(&provider)?;
    if key.trim().is_empty() {
        return Err(CommandError::invalid("the key is empty"));
    }
    blocking(move || {
        keys::store_in_keyring(&provider, &keys::Secret::new(key.trim())).map_err(|e| keyring_error(&provider, &e))?;
        Ok(status_of(&provider))
    })
    .await
}

/// Remove an API key from the OS keyring.
///
/// # Errors
/// As [`set_api_key`].
#[tauri::command]
pub async fn delete_api_key(provider: String) -> CmdResult<KeyStatus> {
    let provider = key_provider(&provider)?;
    blocking(move || {
        keys::delete_from_keyring(&provider).map_err(|e| keyring_error(&provider, &e))?;
        Ok(status_of(&provider))
    })
    .await
}

/// Whether answering works offline, and whether the chat model answers.
///
/// # Errors
/// `invalid-input` when the config does not parse.
#[tauri::command]
pub async fn connectivity(state: State<'_, AppState>) -> CmdResult<Connectivity> {
    let config = state.config()?;
    blocking(move || Ok(check(&config))).await
}

fn env_var(provider: &str) -> &'static str {
    if provider == "gemini" { "GEMINI_API_KEY" } else { "OPENAI_API_KEY" }
}

fn key_provider(provider: &str) -> CmdResult<String> {
    match provider.trim() {
        p @ ("openai" | "gemini") => Ok(p.to_string()),
        other => Err(CommandError::invalid(format!("keys are kept for openai and gemini, not {other:?}"))),
    }
}

fn keyring_error(provider: &str, e: &str) -> CommandError {
    let var = env_var(provider);
    CommandError::new("keyring", format!("the OS keyring is not available ({e}); set {var} in the environment instead"))
}

fn status_of(provider: &str) -> KeyStatus {
    let var = env_var(provider);
    let from_env = std::env::var(var).is_ok_and(|v| !v.trim().is_empty());
    match keys::keyring_has(provider) {
        Ok(true) => KeyStatus { provider: provider.into(), stored: true, message: "stored in the OS keyring".into() },
        Ok(false) if from_env => {
            KeyStatus { provider: provider.into(), stored: false, message: format!("none stored; ${var} is used") }
        }
        Ok(false) => KeyStatus { provider: provider.into(), stored: false, message: "no key stored".into() },
        Err(e) => KeyStatus {
            provider: provider.into(),
            stored: false,
            message: format!("no keyring service here ({e}); set {var} in the environment instead"),
        },
    }
}

fn view(c: &Config) -> SettingsView {
    let (embedder_provider, embedder_model, embedder_url, builtin_model) = match &c.embedder {
        EmbedderConfig::Builtin { model, .. } => ("builtin", String::new(), String::new(), *model),
        EmbedderConfig::Ollama { url, model } => {
            ("ollama", model.clone(), url.clone().unwrap_or_default(), BuiltinModel::Auto)
        }
        EmbedderConfig::Openai { url, model, .. } => ("openai", model.clone(), url.clone(), BuiltinModel::Auto),
        _ => ("other", String::new(), String::new(), BuiltinModel::Auto),
    };
    let (chat_provider, chat_model, chat_url) = match parse_spec(&c.model.spec) {
        Ok(ModelSpec::Ollama { model }) => ("ollama", model, String::new()),
        Ok(ModelSpec::OpenAi { url, model }) => ("openai", model, url),
        Ok(ModelSpec::Gemini { model }) => ("gemini", model, String::new()),
        _ => ("builtin", String::new(), String::new()),
    };
    let b = &c.agent.budgets;
    SettingsView {
        embedder_provider: embedder_provider.into(),
        embedder_model,
        builtin_model: builtin_model.name().into(),
        embedder_url,
        chat_provider: chat_provider.into(),
        chat_model,
        chat_url,
        mode: c.model.mode.to_string(),
        max_rounds: b.max_rounds,
        max_tool_calls: b.max_tool_calls,
        max_input_tokens: b.max_input_tokens,
        max_wall_ms: b.max_wall_ms,
        session_start_month: c.sessions.start_month,
        audience: c.profile.audience.clone(),
    }
}

pub(crate) type Edits = Vec<(String, Option<Value>)>;

fn values(s: &SettingsView) -> CmdResult<Edits> {
    let text = |v: &str| Some(Value::from(v.trim()));
    let spec = match s.chat_provider.as_str() {
        "builtin" => "builtin".to_string(),
        "ollama" => format!("ollama:{}", required(&s.chat_model, "chat model")?),
        "openai" => {
            format!("openai:{}:{}", required(&s.chat_url, "chat server URL")?, required(&s.chat_model, "chat model")?)
        }
        "gemini" => format!("gemini:{}", required(&s.chat_model, "chat model")?),
        other => return Err(CommandError::invalid(format!("unknown chat provider {other:?}"))),
    };
    parse_spec(&spec).map_err(|e| CommandError::invalid(e.to_string()))?;
    <almirah_answer::mode::Mode as std::str::FromStr>::from_str(&s.mode).map_err(CommandError::invalid)?;
    if !(1..=12).contains(&s.session_start_month) {
        return Err(CommandError::invalid("the session start month must be 1-12"));
    }
    if s.max_rounds == 0 || s.max_tool_calls == 0 || s.max_input_tokens == 0 || s.max_wall_ms == 0 {
        return Err(CommandError::invalid("every budget must be above 0"));
    }
    let mut edits: Edits = vec![
        ("model.spec".into(), text(&spec)),
        ("model.mode".into(), text(&s.mode)),
        ("agent.budgets.max_rounds".into(), Some(Value::from(i64::from(s.max_rounds)))),
        ("agent.budgets.max_tool_calls".into(), Some(Value::from(i64::from(s.max_tool_calls)))),
        ("agent.budgets.max_input_tokens".into(), Some(Value::from(s.max_input_tokens as i64))),
        ("agent.budgets.max_wall_ms".into(), Some(Value::from(s.max_wall_ms as i64))),
        ("sessions.start_month".into(), Some(Value::from(i64::from(s.session_start_month)))),
    ];
    let audience: Array = s.audience.iter().map(|a| a.trim()).filter(|a| !a.is_empty()).collect();
    edits.push(("profile.audience".into(), Some(Value::Array(audience))));
    edits.extend(embedder_values(s)?);
    Ok(edits)
}

fn embedder_values(s: &SettingsView) -> CmdResult<Edits> {
    let text = |v: &str| (!v.trim().is_empty()).then(|| Value::from(v.trim()));
    Ok(match s.embedder_provider.as_str() {
        "builtin" => builtin_embedder_values(&s.builtin_model)?,
        "ollama" => vec![
            ("embedder.provider".into(), text("ollama")),
            ("embedder.model".into(), Some(Value::from(required(&s.embedder_model, "embedding model")?))),
            ("embedder.url".into(), text(&s.embedder_url)),
        ],
        "openai" => vec![
            ("embedder.provider".into(), text("openai")),
            ("embedder.model".into(), Some(Value::from(required(&s.embedder_model, "embedding model")?))),
            ("embedder.url".into(), Some(Value::from(required(&s.embedder_url, "embedding server URL")?))),
        ],
        "other" => Vec::new(),
        p => return Err(CommandError::invalid(format!("unknown embedder provider {p:?}"))),
    })
}

/// The config keys for the builtin embedder with `model` (`auto` leaves
/// `embedder.model` out, so the library decides when it is created).
///
/// # Errors
/// `invalid-input` for a name that is no builtin model.
pub(crate) fn builtin_embedder_values(model: &str) -> CmdResult<Edits> {
    let model: BuiltinModel =
        model.trim().parse().map_err(|e: almirah_core::embed::EmbedError| CommandError::invalid(e.to_string()))?;
    let name = (model != BuiltinModel::Auto).then(|| Value::from(model.name()));
    Ok(vec![
        ("embedder.provider".into(), Some(Value::from("builtin"))),
        ("embedder.model".into(), name),
        ("embedder.url".into(), None),
    ])
}

fn required<'a>(v: &'a str, what: &str) -> CmdResult<&'a str> {
    let v = v.trim();
    if v.is_empty() { Err(CommandError::invalid(format!("the {what} is empty"))) } else { Ok(v) }
}

/// Offline-ready: both models run here (builtin, or a server on loopback).
/// Reachable: the chat server accepts a connection (750 ms per address).
fn check(c: &Config) -> Connectivity {
    let embed_local = match &c.embedder {
        EmbedderConfig::Builtin { .. } | EmbedderConfig::Hash { .. } => true,
        EmbedderConfig::Ollama { url, .. } => url.as_deref().is_none_or(is_loopback),
        EmbedderConfig::Openai { url, .. } => is_loopback(url),
        _ => false,
    };
    let (chat_local, probe) = match parse_spec(&c.model.spec) {
        Ok(ModelSpec::Builtin) | Err(_) => (true, None),
        Ok(ModelSpec::Ollama { .. }) => {
            let url = c.model.options.ollama_url.clone();
            let url = url.unwrap_or_else(|| almirah_answer::providers::DEFAULT_OLLAMA_URL.into());
            (is_loopback(&url), Some(url))
        }
        Ok(ModelSpec::OpenAi { url, .. }) => (is_loopback(&url), Some(url)),
        Ok(ModelSpec::Gemini { .. }) => (false, None),
    };
    let reachable = probe.as_deref().is_none_or(answers);
    let offline_ready = embed_local && chat_local;
    let message = match (offline_ready, reachable, probe.as_deref()) {
        (true, true, None) => "Offline-ready · builtin models".to_string(),
        (true, true, Some(url)) => format!("Offline-ready · model server at {url}"),
        (_, false, Some(url)) => {
            format!("The model server at {url} is not answering; questions will fail until it runs")
        }
        (false, _, _) => "Online: the configured model needs the internet".to_string(),
        (true, false, None) => "Offline-ready".to_string(),
    };
    Connectivity { offline_ready, model_reachable: reachable, message }
}

fn is_loopback(url: &str) -> bool {
    let rest = url.split("://").nth(1).unwrap_or(url);
    let authority = rest.split('/').next().unwrap_or(rest);
    let host = match authority.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or(""),
        None => authority.split(':').next().unwrap_or(""),
    };
    matches!(host, "localhost" | "::1") || host.starts_with("127.")
}

/// A TCP connect to the URL's host and port within 1.5 s.
fn answers(url: &str) -> bool {
    let rest = url.split("://").nth(1).unwrap_or(url);
    let authority = rest.split('/').next().unwrap_or(rest);
    let with_port = if authority.contains(':') {
        authority.to_string()
    } else if url.starts_with("https") {
        format!("{authority}:443")
    } else {
        format!("{authority}:80")
    };
    use std::net::ToSocketAddrs;
    let Ok(addrs) = with_port.to_socket_addrs() else { return false };
    addrs.into_iter().any(|addr| std::net::TcpStream::connect_timeout(&addr, Duration::from_millis(750)).is_ok())
}
