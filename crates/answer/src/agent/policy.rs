//! Who decides the agent loop's next step: the configured chat model
//! ([`ModelPolicy`], one [`ChatModel::chat`] call), or, for the builtin,
//! the deterministic planner in code ([`PlannerPolicy`]). The loop talks to
//! a [`Policy`]; [`ChatModel`] stays a provider interface that knows nothing
//! of the loop's state.

use std::sync::Arc;

use super::AgentContext;
use crate::model::{ChatModel, ChatRequest, ChatResponse, ModelError};

/// The source of the agent loop's steps and sufficiency verdicts.
pub trait Policy: Send + Sync {
    /// The reply to `request` given the loop's typed state `context`: tool
    /// calls (or none, to stop searching), or the verdict JSON when
    /// `context.judging`.
    ///
    /// # Errors
    /// [`ModelError`] from the model.
    fn decide(&self, request: &ChatRequest, context: &AgentContext) -> Result<ChatResponse, ModelError>;
}

/// The configured model decides, from the messages alone.
pub struct ModelPolicy(pub Arc<dyn ChatModel>);

impl Policy for ModelPolicy {
    fn decide(&self, request: &ChatRequest, _context: &AgentContext) -> Result<ChatResponse, ModelError> {
        self.0.chat(request)
    }
}

/// The builtin's deterministic planner decides: the next tool call of its
/// plan, or no call when the plan is complete; asked for the sufficiency
/// verdict, it says yes exactly when the plan is complete.
pub struct PlannerPolicy;

impl Policy for PlannerPolicy {
    fn decide(&self, _request: &ChatRequest, context: &AgentContext) -> Result<ChatResponse, ModelError> {
        let next = super::planner::next_call(context);
        if !context.judging {
            return Ok(ChatResponse { tool_calls: next.into_iter().collect(), ..Default::default() });
        }
        let content = match next {
            None => serde_json::json!({"enough": true, "missing": ""}),
            Some(c) => {
                let args = &c.arguments;
                let missing = match (args["query"].as_str(), args["key"].as_str()) {
                    (Some(q), _) => q.to_string(),
                    (None, Some(k)) => format!("{k} in {}", args["table"].as_str().unwrap_or("the table")),
                    _ => args.to_string(),
                };
                serde_json::json!({"enough": false, "missing": missing})
            }
        };
        Ok(ChatResponse { content: content.to_string(), ..Default::default() })
    }
}

/// The policy for `model`: the planner when the model plans in code
/// ([`ChatModel::plans_in_code`]), else the model itself.
pub fn for_model(model: Arc<dyn ChatModel>) -> Arc<dyn Policy> {
    if model.plans_in_code() { Arc::new(PlannerPolicy) } else { Arc::new(ModelPolicy(model)) }
}
