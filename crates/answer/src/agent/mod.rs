//! The agent loop (ARCHITECTURE §5): for multi-part and multi-hop
//! questions the model decides whether, where and what to search, within
//! budgets our code sets; our code runs every tool through the freshness
//! gate, checks sufficiency, verifies every citation and picks the stop
//! reason.
//!
//! - [`machine`] is the sans-IO state machine; [`run`] is its async runner
//!   (model calls on the blocking pool, under the wall-clock budget).
//! - [`tools`] validates and clamps calls; [`exec`] runs them gated.
//! - [`policy`] says who decides each step: the model, or for the builtin the
//!   deterministic [`planner`].
//! - [`action`] is the JSON-schema action mode for small local models.

pub mod action;
pub mod draft;
pub mod exec;
pub mod machine;
pub mod planner;
pub mod policy;
pub mod prompt;
pub mod sufficiency;
pub mod tools;

mod runner;

use serde::{Deserialize, Serialize};

pub use machine::{Action, Machine};
pub use runner::{ask_agent, run};

/// Limits on one question.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Budgets {
    /// Model rounds that may call tools (default 5).
    pub max_rounds: u32,
    /// Tool calls in all (default 8).
    pub max_tool_calls: u32,
    /// Prompt tokens over all model calls (default 24,000; estimated at 4
    /// characters a token when the provider does not report them).
    pub max_input_tokens: u64,
    /// Wall-clock time for the loop, ms (default 120,000).
    pub max_wall_ms: u64,
}

impl Default for Budgets {
    fn default() -> Self {
        Self { max_rounds: 5, max_tool_calls: 8, max_input_tokens: 24_000, max_wall_ms: 120_000 }
    }
}

/// The loop's settings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AgentConfig {
    /// Budgets.
    pub budgets: Budgets,
    /// Shown when no verified answer can be given (with the trace attached).
    pub handover: String,
    /// Ask for one JSON action per round (`response_format`) instead of
    /// native tool calls, and draft with a schema whose citation field is
    /// an enum of the passages shown: for small local models. Unset (the
    /// default): on for a model on a local server that has not refused a
    /// schema ([`crate::model::ChatModel::prefers_structured_output`]).
    pub action_mode: Option<bool>,
}

impl AgentConfig {
    /// Whether the loop asks for JSON actions and structured drafts.
    pub fn action_mode(&self) -> bool {
        self.action_mode.unwrap_or(false)
    }

    /// This configuration with `action_mode` decided for `model` when unset.
    pub fn for_model(&self, model: &dyn crate::model::ChatModel) -> Self {
        let action_mode = Some(self.action_mode.unwrap_or_else(|| model.prefers_structured_output()));
        Self { action_mode, ..self.clone() }
    }
}

impl Default for AgentConfig {
    fn default() -> Self {
        Self {
            budgets: Budgets::default(),
            handover: "I could not give a verified answer to all of this. Please ask the office that issued \
                       these documents."
                .into(),
            action_mode: None,
        }
    }
}

/// What the loop knows so far, passed with every model request to the
/// loop's [`policy::Policy`], so the builtin planner decides from typed
/// state (a model policy ignores it).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct AgentContext {
    /// The question.
    pub question: String,
    /// Its parts (multi-part) or hop templates (multi-hop).
    pub parts: Vec<String>,
    /// `parts` parsed once, placeholders stripped
    /// ([`AgentContext::parts_asked`]); parsed on use when not filled in.
    pub asked: Vec<crate::question::Question>,
    /// Whether `parts` are hops (`<answer N>` placeholders).
    pub hops: bool,
    /// Tool results so far, in order.
    pub done: Vec<exec::ToolOutcome>,
    /// Whether this request asks for the sufficiency verdict.
    pub judging: bool,
}

impl AgentContext {
    /// Each part with its parsed question: [`AgentContext::asked`] when it
    /// is filled in for every part, else parsed here; the question itself
    /// when there are no parts.
    pub fn parts_asked(&self) -> Vec<(String, crate::question::Question)> {
        let parts = if self.parts.is_empty() { std::slice::from_ref(&self.question) } else { &self.parts[..] };
        if self.asked.len() == parts.len() {
            return parts.iter().cloned().zip(self.asked.iter().cloned()).collect();
        }
        parts
            .iter()
            .map(|p| (p.clone(), crate::question::Question::parse(&sufficiency::strip_placeholders(p))))
            .collect()
    }
}
