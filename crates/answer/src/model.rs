//! The `ChatModel` trait: messages, tools and structured output, and the
//! typed errors every back-end returns. It is a provider interface only: it
//! knows nothing of the agent loop (the loop's policy is `agent::policy`). The builtin model implements it
//! without a network; HTTP back-ends (OpenAI-compatible, Gemini) come next.

use serde::{Deserialize, Serialize};

use crate::evidence::Evidence;
use crate::question::Question;

/// Who wrote a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// Instructions.
    System,
    /// The user.
    User,
    /// The model.
    Assistant,
    /// A tool result.
    Tool,
}

/// One chat message.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Message {
    /// Author.
    pub role: Role,
    /// Text.
    pub content: String,
}

/// A tool the model may call (JSON-schema parameters).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolSpec {
    /// Name.
    pub name: String,
    /// What it does.
    pub description: String,
    /// JSON schema of the arguments.
    pub parameters: serde_json::Value,
}

/// A tool call requested by the model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolCall {
    /// Tool name.
    pub name: String,
    /// Arguments.
    pub arguments: serde_json::Value,
}

/// A request.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ChatRequest {
    /// Conversation so far.
    pub messages: Vec<Message>,
    /// Tools offered (empty: answer without tools).
    pub tools: Vec<ToolSpec>,
    /// JSON schema the reply must follow (structured output), if any.
    pub response_schema: Option<serde_json::Value>,
    /// What the call is for; back-ends may ignore it.
    #[serde(skip)]
    pub purpose: Purpose,
}

/// What a [`ChatRequest`] is for.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Purpose {
    /// A plain chat call (drafting, routing help).
    #[default]
    Chat,
    /// The next step of an agent loop: a tool call or the end of searching.
    AgentStep,
    /// The agent loop's sufficiency verdict on the evidence gathered.
    Verdict,
}

/// Token counts of one call.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    /// Prompt tokens.
    pub input_tokens: u64,
    /// Completion tokens.
    pub output_tokens: u64,
}

/// A reply.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ChatResponse {
    /// Text.
    pub content: String,
    /// Tool calls requested.
    pub tool_calls: Vec<ToolCall>,
    /// Tokens used.
    pub usage: Usage,
}

/// Errors of a chat model.
#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    /// The model cannot do this (e.g. free chat on the builtin model).
    #[error("{model} does not support {what}")]
    Unsupported {
        /// Model id.
        model: String,
        /// What was asked.
        what: String,
    },
    /// The provider could not be reached or kept failing.
    #[error("model provider unavailable: {0}")]
    Unavailable(String),
    /// The reply could not be used.
    #[error("model reply unusable: {0}")]
    BadReply(String),
}

/// A drafted answer: sentences, each with the evidence keys it cites.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Draft {
    /// Answer sentences in order, each `(text, cited chunk keys)`.
    pub sentences: Vec<(String, Vec<String>)>,
    /// Tokens used.
    pub usage: Usage,
    /// Sentences dropped because they failed verification twice.
    pub dropped: usize,
}

/// A chat model. `answer` drafts a cited answer from admitted evidence.
pub trait ChatModel: Send + Sync {
    /// `builtin`, `openai:…`, `gemini:…`.
    fn id(&self) -> String;

    /// One chat call.
    ///
    /// # Errors
    /// [`ModelError`].
    fn chat(&self, request: &ChatRequest) -> Result<ChatResponse, ModelError>;

    /// Draft an answer to `question` (parsed once by the caller:
    /// [`Question::parse`]) from `evidence` (admitted chunks only).
    /// `retry_note` is set on the regeneration after a failed check.
    ///
    /// # Errors
    /// [`ModelError`].
    fn answer(&self, question: &Question, evidence: &[Evidence], retry_note: Option<&str>)
    -> Result<Draft, ModelError>;

    /// Whether the agent loop should draft once per tool result (the
    /// extractive builtin) rather than once over all the evidence.
    fn drafts_per_query(&self) -> bool {
        false
    }

    /// Whether an agent loop should take its steps from code (the builtin's
    /// deterministic planner) instead of from [`ChatModel::chat`].
    fn plans_in_code(&self) -> bool {
        false
    }

    /// Whether, unless configured otherwise, the agent loop should ask this
    /// model for JSON actions and structured drafts (`[agent] action_mode`):
    /// true for a small model on a local server that honours schemas.
    fn prefers_structured_output(&self) -> bool {
        false
    }

    /// Whether it drafts by choosing among the builtin's best sentences
    /// ([`crate::pick`]) instead of writing: `[model] drafting`
    /// ([`crate::providers::Drafting`]); false unless a provider says so.
    fn picks(&self) -> bool {
        false
    }

    /// Whether drafting prompts should show this model focused evidence
    /// (the `focus` module's small budget: the best passages first, each
    /// cut around its best sentence) instead of every chunk whole: true for
    /// a model on a local server, which is small and reads prompts slowly.
    fn reads_focused_evidence(&self) -> bool {
        false
    }
}

/// The first JSON object or array in `text`: the whole text, a fenced
/// block, a `<tool_call>` block, or the first balanced `{…}` / `[…]`.
pub fn first_json(text: &str) -> Option<serde_json::Value> {
    let t = text.trim();
    if let Ok(v) = serde_json::from_str::<serde_json::Value>(t) {
        return v.is_object().then_some(v.clone()).or_else(|| v.is_array().then_some(v));
    }
    let starts: Vec<usize> = t.char_indices().filter(|(_, c)| *c == '{' || *c == '[').map(|(i, _)| i).collect();
    for start in starts {
        let mut stream = serde_json::Deserializer::from_str(&t[start..]).into_iter::<serde_json::Value>();
        if let Some(Ok(v)) = stream.next()
            && (v.is_object() || v.is_array())
        {
            return Some(v);
        }
    }
    None
}
