//! The chat model, mode and agent settings for `ask` and `eval`: flags
//! first, then the config file's `[model]` and `[agent]` sections.

use std::str::FromStr;
use std::sync::Arc;

use almirah_answer::agent::AgentConfig;
use almirah_answer::mode::Mode;
use almirah_answer::model::ChatModel;
use almirah_answer::providers;
use anyhow::{Context, Result, anyhow};

use crate::{Cli, config};

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
    pub fn from_cli(cli: &Cli, model: Option<&str>, mode: Option<&str>) -> Result<Self> {
        let (file, _) = config::load(cli.config.as_deref())?;
        let spec = model.unwrap_or(&file.model.spec);
        let chat = providers::from_spec(spec, &file.model.options).with_context(|| format!("model {spec:?}"))?;
        let mode = match mode {
            Some(m) => Mode::from_str(m).map_err(|e| anyhow!(e))?,
            None => file.model.mode,
        };
        Ok(Self { model: Arc::from(chat), mode, agent: file.agent })
    }
}
