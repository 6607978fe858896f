//! Provider tests: loopback servers only, no network.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod gemini;
mod keys;
mod openai;
mod parse;
mod prompt;
mod spec;

use serde_json::{Value, json};

use super::ProviderOptions;
use super::keys::{FoundKey, Secret};
use crate::evidence::Evidence;
use crate::model::{ChatRequest, Message, Role, ToolSpec};

/// A key that must never show in Debug output or errors.
const KEY: &str = "sk-test-SECRET-4711";

/// Fast retries, short timeouts, no keyring.
fn fast() -> ProviderOptions {
    ProviderOptions {
        connect_timeout_ms: 2_000,
        request_timeout_ms: 5_000,
        max_attempts: 3,
        retry_base_ms: 1,
        retry_cap_ms: 5,
        keyring: false,
        ..ProviderOptions::default()
    }
}

fn test_key() -> FoundKey {
    FoundKey { secret: Secret::new(KEY), source: "$ALMIRAH_TEST_KEY".into() }
}

fn search_tool() -> ToolSpec {
    ToolSpec {
        name: "search_documents".into(),
        description: "Search the documents.".into(),
        parameters: json!({
            "type": "object",
            "additionalProperties": false,
            "properties": {"query": {"type": "string"}, "k": {"type": "integer", "minimum": 1, "maximum": 8}},
            "required": ["query"],
        }),
    }
}

fn read_tool() -> ToolSpec {
    ToolSpec {
        name: "read_chunk".into(),
        description: "Read one chunk.".into(),
        parameters: json!({"type": "object", "properties": {"key": {"type": "string"}}, "required": ["key"]}),
    }
}

fn message(role: Role, content: &str) -> Message {
    Message { role, content: content.into() }
}

/// A conversation with a system prompt, a question, an assistant turn and a tool result.
fn request_with_tools() -> ChatRequest {
    ChatRequest {
        messages: vec![
            message(Role::System, "You are a policy assistant."),
            message(Role::User, "How many days of earned leave?"),
            message(Role::Assistant, "Searching."),
            message(Role::Tool, "search_documents: 2 hits"),
        ],
        tools: vec![search_tool(), read_tool()],
        ..ChatRequest::default()
    }
}

fn evidence(key: &str, title: &str, text: &str) -> Evidence {
    // Built from JSON so that fields added later with a serde default need no change here.
    serde_json::from_value(json!({
        "key": key,
        "title": title,
        "path": format!("docs/{title}.md"),
        "pages": null,
        "heading_path": ["Leave"],
        "text": text,
        "score": 1.0,
        "note": null,
    }))
    .unwrap()
}

/// The ids of the messages' roles in a request body.
fn roles(messages: &Value) -> Vec<String> {
    messages.as_array().unwrap().iter().map(|m| m["role"].as_str().unwrap().to_string()).collect()
}
