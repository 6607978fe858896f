//! OpenAI-compatible `POST {base}/chat/completions`: Ollama's `/v1`, the
//! llama.cpp server, LM Studio, vLLM and OpenAI itself
//! (<https://platform.openai.com/docs/api-reference/chat/create>).
//!
//! - Tools go out as `{"type": "function", "function": {name, description, parameters}}`.
//!   `tool_choice` is never sent: llama.cpp does not enforce `"required"`.
//! - A response schema goes out as `response_format: {"type": "json_schema",
//!   "json_schema": {"name": "action", "schema": …, "strict": true}}`; the
//!   reply then stays content (the caller parses it, see [`super::parse::json_payload`]).
//!   A server that refuses the field is remembered ([`super::schema_support`]):
//!   the request is sent again without it, and so is every later one.
//! - A model on a local server (loopback address, or Ollama) prefers
//!   structured output by default (`[agent] action_mode` unset) until its
//!   server refuses a schema.
//! - Replies: native `tool_calls` (arguments arrive as a JSON string), else
//!   calls written in the content ([`super::parse`]), only to offered tools.
//! - `Role::Tool` messages go out as user text (`Tool result:` …): a `tool`
//!   message needs the `tool_call_id` of an assistant `tool_calls` entry,
//!   which [`Message`](crate::model::Message) does not carry.

use serde::Deserialize;
use serde_json::{Value, json};

use super::parse::{chat_response, parse_arguments, strip_thinking};
use super::schema_support::{self, SchemaSupport};
use super::transport::{AuthStyle, Transport, TransportError};
use super::{Drafting, Endpoint, ProviderOptions, join_url, parse_json, transport_config};
use crate::evidence::Evidence;
use crate::model::{ChatModel, ChatRequest, ChatResponse, Draft, ModelError, Role, ToolCall, Usage};
use crate::question::Question;

/// A chat model behind an OpenAI-compatible endpoint.
#[derive(Debug)]
pub struct OpenAiChat {
    id: String,
    url: String,
    model: String,
    temperature: f32,
    max_output_tokens: u32,
    transport: Transport,
    /// Whether the server runs on this machine (see [`schema_support::is_local`]).
    local: bool,
    /// How it drafts ([`ProviderOptions::drafting`]).
    drafting: Drafting,
}

#[derive(Deserialize)]
struct Reply {
    #[serde(default)]
    choices: Vec<Choice>,
    usage: Option<WireUsage>,
}

#[derive(Deserialize)]
struct Choice {
    message: WireMessage,
}

#[derive(Deserialize)]
struct WireMessage {
    content: Option<String>,
    tool_calls: Option<Vec<WireToolCall>>,
}

#[derive(Deserialize)]
struct WireToolCall {
    function: WireFunction,
}

#[derive(Deserialize)]
struct WireFunction {
    name: String,
    #[serde(default)]
    arguments: Value,
}

#[derive(Deserialize)]
struct WireUsage {
    #[serde(default)]
    prompt_tokens: u64,
    #[serde(default)]
    completion_tokens: u64,
}

impl OpenAiChat {
    /// A client for `endpoint` (`base_url` includes `/v1`); the key, if any,
    /// goes in an `Authorization: Bearer` header. No network I/O.
    ///
    /// # Errors
    /// [`ModelError::Unavailable`] when the HTTP client cannot be built.
    pub fn new(endpoint: Endpoint, options: &ProviderOptions) -> Result<Self, ModelError> {
        let Endpoint { id, base_url, model, key } = endpoint;
        let transport = Transport::new(&id, transport_config(key, AuthStyle::Bearer, options))?;
        let url = join_url(&base_url, "chat/completions");
        let (temperature, max_output_tokens) = (options.temperature, options.max_output_tokens);
        let local = id.starts_with("ollama:") || schema_support::is_local(&base_url);
        let drafting = options.drafting;
        Ok(Self { id, url, model, temperature, max_output_tokens, transport, local, drafting })
    }

    /// Send `request`, with its schema unless the server refused one; a
    /// refusal of the schema is remembered and the request sent without it.
    fn send(&self, request: &ChatRequest) -> Result<Vec<u8>, ModelError> {
        let with_schema =
            request.response_schema.is_some() && schema_support::support(&self.url) != SchemaSupport::Refused;
        match self.transport.post_json_raw(&self.url, &self.body(request, with_schema)) {
            Ok(bytes) => {
                if with_schema {
                    schema_support::remember(&self.url, SchemaSupport::Honoured);
                }
                Ok(bytes)
            }
            Err(TransportError::Refused { status, message })
                if with_schema && schema_support::refuses_schema(status, &message) =>
            {
                tracing::info!(model = %self.id, status, "the server refuses response_format; sending without it");
                schema_support::remember(&self.url, SchemaSupport::Refused);
                self.transport.post_json(&self.url, &self.body(request, false))
            }
            Err(e) => Err(self.transport.error(&e)),
        }
    }

    /// The JSON body of `request`, with its response schema if `with_schema`.
    fn body(&self, request: &ChatRequest, with_schema: bool) -> Value {
        let messages: Vec<Value> = request.messages.iter().map(|m| wire_message(m.role, &m.content)).collect();
        let mut body = json!({
            "model": self.model,
            "messages": messages,
            "temperature": self.temperature,
            "max_tokens": self.max_output_tokens,
            "stream": false,
        });
        if !request.tools.is_empty() {
            let tools: Vec<Value> = request
                .tools
                .iter()
                .map(|t| {
                    json!({"type": "function", "function": {
                        "name": t.name, "description": t.description, "parameters": t.parameters,
                    }})
                })
                .collect();
            body["tools"] = Value::Array(tools);
        }
        if let Some(schema) = request.response_schema.as_ref().filter(|_| with_schema) {
            body["response_format"] = json!({
                "type": "json_schema",
                "json_schema": {"name": "action", "schema": schema, "strict": true},
            });
        }
        body
    }
}

/// One message on the wire; tool results become user text.
fn wire_message(role: Role, content: &str) -> Value {
    match role {
        Role::System => json!({"role": "system", "content": content}),
        Role::User => json!({"role": "user", "content": content}),
        Role::Assistant => json!({"role": "assistant", "content": content}),
        Role::Tool => json!({"role": "user", "content": format!("Tool result:\n{content}")}),
    }
}

/// The reply of a chat call for `request`.
fn parse_reply(bytes: &[u8], request: &ChatRequest) -> Result<ChatResponse, ModelError> {
    let reply: Reply = parse_json(bytes)?;
    let usage = reply
        .usage
        .map_or_else(Usage::default, |u| Usage { input_tokens: u.prompt_tokens, output_tokens: u.completion_tokens });
    let Some(choice) = reply.choices.into_iter().next() else {
        return Err(ModelError::BadReply("no choices in the reply".into()));
    };
    let content = strip_thinking(choice.message.content.as_deref().unwrap_or_default());
    let native: Vec<ToolCall> = (choice.message.tool_calls.unwrap_or_default().into_iter())
        .map(|c| ToolCall { name: c.function.name, arguments: parse_arguments(c.function.arguments) })
        .collect();
    Ok(chat_response(content, native, usage, request))
}

impl ChatModel for OpenAiChat {
    fn id(&self) -> String {
        self.id.clone()
    }

    fn chat(&self, request: &ChatRequest) -> Result<ChatResponse, ModelError> {
        let bytes = self.send(request)?;
        parse_reply(&bytes, request)
    }

    fn prefers_structured_output(&self) -> bool {
        self.local && schema_support::support(&self.url) != SchemaSupport::Refused
    }

    fn reads_focused_evidence(&self) -> bool {
        self.local
    }

    fn picks(&self) -> bool {
        match self.drafting {
            Drafting::Auto => self.prefers_structured_output(),
            Drafting::Pick => true,
            Drafting::Write => false,
        }
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
