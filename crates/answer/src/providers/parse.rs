//! Tool calls that a model wrote in its text instead of `tool_calls`.
//!
//! Small local models (Qwen2.5-Coder through llama.cpp or Ollama) often leave
//! `tool_calls` empty and write the call in the content (DEPENDENCIES.md,
//! "Models (offline)"). Recognised shapes, alone, in a list, or several in a row:
//!
//! - `{"name": "search_documents", "arguments": {…}}` (also `"parameters"`, `"args"`, `"input"`);
//! - `{"tool": "…", "arguments": …}`, `{"tool_name": "…", …}`;
//! - `{"function": {"name": …, "arguments": …}}` and `{"tool_calls": [ … ]}`;
//!
//! written bare, in a ```` ```json ```` fence, or in Qwen's
//! `<tool_call>{…}</tool_call>`. Arguments given as a JSON string are parsed.
//! A block becomes tool calls only when **every** call in it names an offered
//! tool; anything else stays content, so an answer that merely contains JSON
//! is never mistaken for a call.

use std::sync::LazyLock;

use regex::Regex;
use serde_json::{Map, Value};

use crate::model::{ChatRequest, ChatResponse, ToolCall, Usage};

static TOOL_CALL_TAG: LazyLock<Regex> = LazyLock::new(|| re(r"(?s)<tool_call>(.*?)(?:</tool_call>|\z)"));
static FENCE: LazyLock<Regex> = LazyLock::new(|| re(r"(?s)```[A-Za-z_]*[ \t]*\r?\n?(.*?)```"));
static THINK: LazyLock<Regex> = LazyLock::new(|| re(r"(?s)<think>.*?(?:</think>|\z)"));

/// Keys that may hold a tool's name, and its arguments, in order of preference.
const NAME_KEYS: [&str; 4] = ["name", "tool", "tool_name", "function"];
const ARG_KEYS: [&str; 4] = ["arguments", "parameters", "args", "input"];

#[allow(clippy::expect_used)]
fn re(pattern: &str) -> Regex {
    // The patterns are constants; a bad one is a programming error caught by the unit tests.
    Regex::new(pattern).expect("valid pattern")
}

/// Splits `content` into the text that is left and the tool calls it spells
/// out, keeping only calls to tools named in `offered`.
///
/// # Returns
/// `(content, calls)`; `content` is returned unchanged (trimmed) when no call was found.
pub fn tool_calls_in_content(content: &str, offered: &[&str]) -> (String, Vec<ToolCall>) {
    let trimmed = content.trim();
    if let Some(calls) = block_calls(trimmed, offered) {
        return (String::new(), calls);
    }
    let mut calls = Vec::new();
    let mut rest = trimmed.to_string();
    for pattern in [&*TOOL_CALL_TAG, &*FENCE] {
        rest = pattern
            .replace_all(&rest, |caps: &regex::Captures<'_>| match block_calls(&caps[1], offered) {
                Some(found) => {
                    calls.extend(found);
                    String::new()
                }
                None => caps[0].to_string(),
            })
            .into_owned();
    }
    (rest.trim().to_string(), calls)
}

/// The reply: native tool calls when there are any; otherwise tool calls
/// written in the text, but only when no JSON schema was asked for (then
/// the text is the structured answer, read by the caller).
pub fn chat_response(text: String, native: Vec<ToolCall>, usage: Usage, request: &ChatRequest) -> ChatResponse {
    let (content, tool_calls) = if native.is_empty() && request.response_schema.is_none() {
        let offered: Vec<&str> = request.tools.iter().map(|t| t.name.as_str()).collect();
        tool_calls_in_content(&text, &offered)
    } else {
        (text, native)
    };
    ChatResponse { content, tool_calls, usage }
}

/// `content` without `<think>…</think>` reasoning blocks (Qwen3, DeepSeek-R1), trimmed.
pub fn strip_thinking(content: &str) -> String {
    THINK.replace_all(content, "").trim().to_string()
}

/// The JSON value in a structured reply: the whole text, else the first
/// fenced block, else the span from the first `{` to the last `}`.
///
/// # Returns
/// `None` when none of these parses.
pub fn json_payload(content: &str) -> Option<Value> {
    let text = strip_thinking(content);
    let fenced = || FENCE.captures(&text).and_then(|c| serde_json::from_str(c[1].trim()).ok());
    let braced = || {
        let (start, end) = (text.find('{')?, text.rfind('}')?);
        serde_json::from_str(text.get(start..=end)?).ok()
    };
    serde_json::from_str(&text).ok().or_else(fenced).or_else(braced)
}

/// The calls of one block, if it is nothing but JSON calls to offered tools.
fn block_calls(block: &str, offered: &[&str]) -> Option<Vec<ToolCall>> {
    let mut calls = Vec::new();
    for value in json_values(block)? {
        calls.extend(value_calls(value, offered)?);
    }
    (!calls.is_empty()).then_some(calls)
}

/// Every JSON value of `text` (one or several in a row), or `None` if any part is not JSON.
fn json_values(text: &str) -> Option<Vec<Value>> {
    let text = text.trim();
    if !text.starts_with(['{', '[']) {
        return None;
    }
    serde_json::Deserializer::from_str(text).into_iter::<Value>().collect::<Result<Vec<_>, _>>().ok()
}

fn value_calls(value: Value, offered: &[&str]) -> Option<Vec<ToolCall>> {
    match value {
        Value::Array(items) if !items.is_empty() => {
            let nested: Option<Vec<Vec<ToolCall>>> = items.into_iter().map(|v| value_calls(v, offered)).collect();
            Some(nested?.into_iter().flatten().collect())
        }
        Value::Object(mut obj) => match obj.remove("tool_calls") {
            Some(list) => value_calls(list, offered),
            None => match obj.remove("function") {
                Some(Value::Object(function)) => object_call(function, offered).map(|c| vec![c]),
                Some(other) => {
                    obj.insert("function".into(), other);
                    object_call(obj, offered).map(|c| vec![c])
                }
                None => object_call(obj, offered).map(|c| vec![c]),
            },
        },
        _ => None,
    }
}

/// `{"name": …, "arguments": …}` and its variants, if the name is offered.
fn object_call(mut obj: Map<String, Value>, offered: &[&str]) -> Option<ToolCall> {
    let name = NAME_KEYS.iter().find_map(|k| obj.get(*k).and_then(Value::as_str))?.to_string();
    if !offered.contains(&name.as_str()) {
        return None;
    }
    let arguments = ARG_KEYS.iter().find_map(|k| obj.remove(*k)).map_or_else(empty_object, parse_arguments);
    Some(ToolCall { name, arguments })
}

/// Arguments as JSON: a JSON string is parsed (empty means `{}`); a string that
/// is not JSON is kept as a string for the caller's validation to reject.
pub(crate) fn parse_arguments(arguments: Value) -> Value {
    match arguments {
        Value::String(s) if s.trim().is_empty() => empty_object(),
        Value::String(s) => serde_json::from_str(&s).unwrap_or(Value::String(s)),
        Value::Null => empty_object(),
        other => other,
    }
}

fn empty_object() -> Value {
    Value::Object(Map::new())
}
