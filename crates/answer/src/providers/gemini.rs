//! Gemini `POST {base}/v1beta/models/{model}:generateContent`
//! (<https://ai.google.dev/api/generate-content>, <https://ai.google.dev/gemini-api/docs/function-calling>).
//!
//! - System messages become `systemInstruction`; user and tool messages
//!   `role: "user"`, assistant messages `role: "model"`; consecutive messages
//!   of one role are merged into one `Content` with several text parts.
//! - Tool results go as user text (`Tool result:` …), not `functionResponse`
//!   parts: a `functionResponse` must name its function and follow a model
//!   turn holding the matching `functionCall`, and
//!   [`Message`](crate::model::Message) carries neither.
//! - Tools go as one `{"functionDeclarations": […]}`; a response schema as
//!   `generationConfig.responseMimeType = "application/json"` and
//!   `responseSchema`. Both schemas are cut down to the OpenAPI subset Gemini
//!   accepts ([`schema::gemini_schema`]).
//! - The key goes in the `x-goog-api-key` header, never in the URL.

mod schema;

use serde::Deserialize;
use serde_json::{Value, json};

use super::parse::{chat_response, parse_arguments, strip_thinking};
use super::transport::{AuthStyle, Transport};
use super::{Endpoint, ProviderOptions, join_url, parse_json, transport_config};
use crate::evidence::Evidence;
use crate::model::{ChatModel, ChatRequest, ChatResponse, Draft, Message, ModelError, Role, ToolCall, Usage};
use crate::question::Question;

/// The public endpoint (without `/v1beta`).
pub const DEFAULT_GEMINI_URL: &str = "https://generativelanguage.googleapis.com";

/// A Gemini chat model.
#[derive(Debug)]
pub struct GeminiChat {
    id: String,
    url: String,
    temperature: f32,
    max_output_tokens: u32,
    transport: Transport,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Reply {
    #[serde(default)]
    candidates: Vec<Candidate>,
    usage_metadata: Option<UsageMetadata>,
    prompt_feedback: Option<Value>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Candidate {
    content: Option<Content>,
    finish_reason: Option<String>,
}

#[derive(Deserialize)]
struct Content {
    #[serde(default)]
    parts: Vec<Part>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Part {
    text: Option<String>,
    #[serde(default)]
    thought: bool,
    function_call: Option<FunctionCall>,
}

#[derive(Deserialize)]
struct FunctionCall {
    name: String,
    #[serde(default)]
    args: Value,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct UsageMetadata {
    #[serde(default)]
    prompt_token_count: u64,
    #[serde(default)]
    candidates_token_count: u64,
    #[serde(default)]
    thoughts_token_count: u64,
}

impl GeminiChat {
    /// A client for `endpoint`: `base_url` is the host (`/v1beta` is added
    /// unless it ends in a version already), the key goes in `x-goog-api-key`.
    /// No network I/O.
    ///
    /// # Errors
    /// [`ModelError::Unavailable`] when the HTTP client cannot be built.
    pub fn new(endpoint: Endpoint, options: &ProviderOptions) -> Result<Self, ModelError> {
        let Endpoint { id, base_url, model, key } = endpoint;
        let transport = Transport::new(&id, transport_config(key, AuthStyle::GoogApiKey, options))?;
        let model = model.strip_prefix("models/").unwrap_or(&model);
        let base = base_url.trim_end_matches('/');
        let versioned = base.ends_with("/v1beta") || base.ends_with("/v1");
        let base = if versioned { base.to_string() } else { join_url(base, "v1beta") };
        let url = join_url(&base, &format!("models/{model}:generateContent"));
        let (temperature, max_output_tokens) = (options.temperature, options.max_output_tokens);
        Ok(Self { id, url, temperature, max_output_tokens, transport })
    }

    /// The JSON body of `request`.
    fn body(&self, request: &ChatRequest) -> Value {
        let mut config = json!({"temperature": self.temperature, "maxOutputTokens": self.max_output_tokens});
        if let Some(s) = &request.response_schema {
            config["responseMimeType"] = json!("application/json");
            config["responseSchema"] = schema::gemini_schema(s);
        }
        let mut body = json!({"contents": contents(&request.messages), "generationConfig": config});
        let system: Vec<&str> =
            (request.messages.iter().filter(|m| m.role == Role::System)).map(|m| m.content.as_str()).collect();
        if !system.is_empty() {
            body["systemInstruction"] = json!({"parts": [{"text": system.join("\n\n")}]});
        }
        if !request.tools.is_empty() {
            let declarations: Vec<Value> = (request.tools.iter())
                .map(|t| {
                    let params = schema::gemini_schema(&t.parameters);
                    json!({"name": t.name, "description": t.description, "parameters": params})
                })
                .collect();
            body["tools"] = json!([{"functionDeclarations": declarations}]);
        }
        body
    }
}

/// The non-system messages as `contents`, consecutive same-role messages merged.
fn contents(messages: &[Message]) -> Vec<Value> {
    let mut out: Vec<(&str, Vec<Value>)> = Vec::new();
    for m in messages.iter().filter(|m| m.role != Role::System && !m.content.trim().is_empty()) {
        let (role, text) = match m.role {
            Role::Assistant => ("model", m.content.clone()),
            Role::Tool => ("user", format!("Tool result:\n{}", m.content)),
            Role::User | Role::System => ("user", m.content.clone()),
        };
        match out.last_mut() {
            Some((last, parts)) if *last == role => parts.push(json!({"text": text})),
            _ => out.push((role, vec![json!({"text": text})])),
        }
    }
    out.into_iter().map(|(role, parts)| json!({"role": role, "parts": parts})).collect()
}

/// The reply of a generateContent call for `request`.
fn parse_reply(bytes: &[u8], request: &ChatRequest) -> Result<ChatResponse, ModelError> {
    let reply: Reply = parse_json(bytes)?;
    let usage = reply.usage_metadata.map_or_else(Usage::default, |u| Usage {
        input_tokens: u.prompt_token_count,
        output_tokens: u.candidates_token_count + u.thoughts_token_count,
    });
    let Some(candidate) = reply.candidates.into_iter().next() else {
        let reason = reply.prompt_feedback.and_then(|f| f.get("blockReason").cloned());
        let reason = reason.as_ref().and_then(Value::as_str).unwrap_or("no reason given");
        return Err(ModelError::BadReply(format!("no candidates (prompt blocked: {reason})")));
    };
    let Some(content) = candidate.content else {
        let finish = candidate.finish_reason.unwrap_or_else(|| "unknown".into());
        return Err(ModelError::BadReply(format!("empty candidate (finishReason {finish})")));
    };
    let mut text = String::new();
    let mut calls = Vec::new();
    for part in content.parts.into_iter().filter(|p| !p.thought) {
        if let Some(call) = part.function_call {
            calls.push(ToolCall { name: call.name, arguments: parse_arguments(call.args) });
        }
        text.push_str(part.text.as_deref().unwrap_or_default());
    }
    let text = strip_thinking(&text);
    Ok(chat_response(text, calls, usage, request))
}

impl ChatModel for GeminiChat {
    fn id(&self) -> String {
        self.id.clone()
    }

    fn chat(&self, request: &ChatRequest) -> Result<ChatResponse, ModelError> {
        let bytes = self.transport.post_json(&self.url, &self.body(request))?;
        parse_reply(&bytes, request)
    }

    fn answer(
        &self,
        question: &Question,
        evidence: &[Evidence],
        retry_note: Option<&str>,
    ) -> Result<Draft, ModelError> {
        super::answer_with(self, question, evidence, retry_note)
    }
}
