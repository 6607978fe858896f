//! The chat model, mode and agent settings for `ask` and `eval`: flags
//! first, then the config file's `[model]` and `[agent]` sections.

use std::str::FromStr;
use std::sync::Arc;

use almirah_answer::agent::AgentConfig;
use almirah_answer::mode::Mode;
use almirah_answer::model::ChatModel;
use almirah_answer::providers;
use almirah_core::Engine;
use std::process::ExitCode;

use almirah_answer::providers::keys::{KEYRING_SERVICE, Secret, store_in_keyring};
use anyhow::{Context, Result, anyhow, bail};

use crate::Cli;
use almirah_settings as config;

/// How questions are answered.
pub struct Answering {
    /// The chat model.
    pub model: Arc<dyn ChatModel>,
    /// The mode.
    pub mode: Mode,
    /// The agent loop's settings.
    pub agent: AgentConfig,
}

impl Answering {
    /// From `--model` / `--mode` and the config.
    ///
    /// # Errors
    /// A malformed spec or mode, or a provider that cannot be set up (no key).
    /// The builtin model ranks its sentences by meaning with `engine`'s
    /// embedder when it can be loaded, by words alone otherwise.
    pub fn from_cli(cli: &Cli, engine: &Engine, model: Option<&str>, mode: Option<&str>) -> Result<Self> {
        let (file, _) = config::load(cli.config.as_deref())?;
        let spec = model.unwrap_or(&file.model.spec);
        let chat = providers::for_library(spec, &file.model.options, &engine.reader())
            .with_context(|| format!("model {spec:?}"))?;
        let mode = match mode {
            Some(m) => Mode::from_str(m).map_err(|e| anyhow!(e))?,
            None => file.model.mode,
        };
        Ok(Self { model: Arc::from(chat), mode, agent: file.agent })
    }
}

/// `almirah key PROVIDER`: read a key from standard input and store it in
/// the OS keyring (service `almirah`, user = provider).
///
/// # Errors
/// An unknown provider, an empty key, or a keyring that refuses.
pub fn store_key(provider: &str, json: bool) -> Result<ExitCode> {
    if !matches!(provider, "openai" | "gemini") {
        bail!("keys are stored for openai or gemini, not {provider:?}");
    }
    if !json {
        eprintln!("Paste the {provider} API key and press Enter:");
    }
    let mut line = String::new();
    std::io::stdin().read_line(&mut line).context("reading the key from standard input")?;
    let secret = Secret::new(line);
    if secret.expose().is_empty() {
        bail!("no key was given");
    }
    store_in_keyring(provider, &secret).map_err(|e| {
        anyhow!("the OS keyring refused the key ({e}); set the environment variable instead (see README)")
    })?;
    if json {
        println!("{}", serde_json::json!({"stored": provider, "service": KEYRING_SERVICE}));
    } else {
        println!("stored the {provider} key in the OS keyring (service {KEYRING_SERVICE}, user {provider})");
    }
    Ok(ExitCode::SUCCESS)
}
