//! The JSON-schema "action" mode for small local models, which reliably
//! fill a `response_format` schema but often skip native tool calls
//! (DEPENDENCIES.md): each round the model returns `{"action": "search",
//! "query": …}` or `{"action": "answer"}`. Also reads tool calls written
//! as JSON in the reply text (fenced or bare).

use serde_json::{Value, json};

use crate::model::ToolCall;
pub use crate::model::first_json;

/// Schema of one action.
pub fn action_schema() -> Value {
    json!({"type": "object", "properties": {
        "action": {"type": "string", "enum": ["search", "answer"]},
        "query": {"type": "string"}
    }, "required": ["action", "query"]})
}

/// Schema of the sufficiency verdict.
pub fn verdict_schema() -> Value {
    json!({"type": "object", "properties": {
        "enough": {"type": "boolean"},
        "missing": {"type": "string"}
    }, "required": ["enough", "missing"]})
}

/// Tool calls in a reply's text: an action object, a `{name, arguments}`
/// object (or `{tool, …}`, `{function: {…}}`), or a list of them. An
/// `answer` action, prose, or unreadable JSON gives none.
pub fn parse_calls(content: &str) -> Vec<ToolCall> {
    let Some(value) = first_json(content) else { return Vec::new() };
    let items = match value {
        Value::Array(items) => items,
        other => vec![other],
    };
    items.iter().filter_map(as_call).collect()
}

fn as_call(v: &Value) -> Option<ToolCall> {
    if let Some(action) = v.get("action").and_then(Value::as_str) {
        let query = v.get("query").and_then(Value::as_str).unwrap_or_default().trim();
        return (action == "search" && !query.is_empty())
            .then(|| ToolCall { name: "search_documents".into(), arguments: json!({"query": query}) });
    }
    let inner = v.get("function").unwrap_or(v);
    let name = inner.get("name").or_else(|| inner.get("tool")).and_then(Value::as_str)?;
    let arguments = match inner.get("arguments").or_else(|| inner.get("parameters")) {
        Some(Value::String(s)) => serde_json::from_str(s).unwrap_or(Value::Null),
        Some(a) => a.clone(),
        None => json!({}),
    };
    Some(ToolCall { name: name.into(), arguments })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn reads_actions_and_calls_in_every_form() {
        let c = parse_calls(r#"{"action": "search", "query": "hostel fee"}"#);
        assert_eq!(c[0].name, "search_documents");
        assert_eq!(c[0].arguments["query"], "hostel fee");
        assert!(parse_calls(r#"{"action": "answer", "query": ""}"#).is_empty());
        let fenced = "Sure.\n```json\n{\"name\": \"lookup_table\", \"arguments\": {\"table\": \"fees\", \"key\": \"MTech\"}}\n```";
        assert_eq!(parse_calls(fenced)[0].arguments["key"], "MTech");
        let tagged =
            "<tool_call>\n{\"name\": \"read_chunk\", \"arguments\": \"{\\\"key\\\": \\\"a::b#1\\\"}\"}\n</tool_call>";
        assert_eq!(parse_calls(tagged)[0].arguments["key"], "a::b#1");
        let list =
            r#"[{"function": {"name": "search_documents", "arguments": {"query": "a"}}}, {"tool": "list_documents"}]"#;
        assert_eq!(parse_calls(list).len(), 2);
        assert!(parse_calls("The hostel fee is half.").is_empty());
    }
}
