//! The agent's tools (ARCHITECTURE §5): their JSON-schema specs, and the
//! validation that turns a model's tool call into a [`ToolRequest`] with
//! clamped arguments, or into an error note for the model. All tools are
//! read-only and gated; the as-of date and the audience are never model
//! arguments.

use almirah_core::freshness::Session;
use serde_json::{Value, json};

use crate::model::{ToolCall, ToolSpec};

/// Hits a search returns at most (`k` is clamped to 1..=8).
pub const MAX_K: usize = 8;
/// Hits a search returns when the model gives no `k`.
pub const DEFAULT_K: usize = 5;
/// Longest query kept, in characters; longer ones are cut.
pub const MAX_QUERY_CHARS: usize = 300;

/// A validated tool call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ToolRequest {
    /// Hybrid search through the gate, optionally narrowed.
    Search {
        /// Query text (1..=300 characters).
        query: String,
        /// Keep one series.
        series: Option<String>,
        /// Keep one session (can only narrow the admissible set).
        session: Option<Session>,
        /// Hits, 1..=8.
        k: usize,
    },
    /// One chunk by key.
    ReadChunk {
        /// Chunk key.
        key: String,
    },
    /// Admissible documents whose key or title contains `filter`.
    ListDocuments {
        /// Case-insensitive substring; empty lists all.
        filter: String,
    },
    /// Rows of a CSV table containing `key`.
    LookupTable {
        /// Table (document key, file name or title prefix).
        table: String,
        /// Cell value to find.
        key: String,
    },
}

impl ToolRequest {
    /// The tool's name.
    pub fn name(&self) -> &'static str {
        match self {
            Self::Search { .. } => "search_documents",
            Self::ReadChunk { .. } => "read_chunk",
            Self::ListDocuments { .. } => "list_documents",
            Self::LookupTable { .. } => "lookup_table",
        }
    }

    /// The arguments as JSON (after clamping), for the trace and the transcript.
    pub fn arguments(&self) -> Value {
        match self {
            Self::Search { query, series, session, k } => {
                json!({"query": query, "series": series, "session": session.map(|s| s.to_string()), "k": k})
            }
            Self::ReadChunk { key } => json!({"key": key}),
            Self::ListDocuments { filter } => json!({"filter": filter}),
            Self::LookupTable { table, key } => json!({"table": table, "key": key}),
        }
    }

    /// A normalised signature: two calls with the same signature are a
    /// repeat (case, spacing and `k` ignored).
    pub fn signature(&self) -> String {
        let norm = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase();
        match self {
            Self::Search { query, series, session, .. } => format!(
                "search|{}|{}|{}",
                norm(query),
                series.as_deref().map(norm).unwrap_or_default(),
                session.map(|s| s.to_string()).unwrap_or_default()
            ),
            Self::ReadChunk { key } => format!("read|{key}"),
            Self::ListDocuments { filter } => format!("list|{}", norm(filter)),
            Self::LookupTable { table, key } => format!("table|{}|{}", norm(table), norm(key)),
        }
    }
}

/// The four tool specs offered to the model.
pub fn specs() -> Vec<ToolSpec> {
    let spec = |name: &str, description: &str, parameters: Value| ToolSpec {
        name: name.into(),
        description: description.into(),
        parameters,
    };
    vec![
        spec(
            "search_documents",
            "Search the organisation's documents that are in force. Returns passages with their [key].",
            json!({"type": "object", "properties": {
                "query": {"type": "string", "description": "what to look for, in plain words"},
                "series": {"type": "string", "description": "optional: only this document series, e.g. circular"},
                "session": {"type": "string", "description": "optional: only this academic session, e.g. 2026-27"},
                "k": {"type": "integer", "minimum": 1, "maximum": MAX_K}
            }, "required": ["query"]}),
        ),
        spec(
            "read_chunk",
            "Read one passage in full by its key.",
            json!({"type": "object", "properties": {"key": {"type": "string"}}, "required": ["key"]}),
        ),
        spec(
            "list_documents",
            "List the documents in force whose key or title contains the filter.",
            json!({"type": "object", "properties": {"filter": {"type": "string"}}, "required": []}),
        ),
        spec(
            "lookup_table",
            "Find the rows of a table (e.g. a fee table) whose cells contain the key, e.g. table fees, key MTech.",
            json!({"type": "object", "properties": {
                "table": {"type": "string"}, "key": {"type": "string"}
            }, "required": ["table", "key"]}),
        ),
    ]
}

/// Validate and clamp one call. The error is the note the model sees.
///
/// # Errors
/// A readable message: unknown tool, missing or malformed argument.
pub fn validate(call: &ToolCall) -> Result<ToolRequest, String> {
    let args = &call.arguments;
    match call.name.as_str() {
        "search_documents" => {
            let query = required(args, "query")?;
            let query: String = query.chars().take(MAX_QUERY_CHARS).collect();
            let series = optional(args, "series");
            let session = match optional(args, "session") {
                Some(s) => Some(Session::parse(&s).ok_or_else(|| format!("session {s:?} is not like 2026-27"))?),
                None => None,
            };
            let k = args.get("k").and_then(as_count).map_or(DEFAULT_K, |k| k.clamp(1, MAX_K));
            Ok(ToolRequest::Search { query, series, session, k })
        }
        "read_chunk" => Ok(ToolRequest::ReadChunk { key: required(args, "key")?.trim_matches(['[', ']']).into() }),
        "list_documents" => Ok(ToolRequest::ListDocuments { filter: optional(args, "filter").unwrap_or_default() }),
        "lookup_table" => Ok(ToolRequest::LookupTable { table: required(args, "table")?, key: required(args, "key")? }),
        other => Err(format!(
            "unknown tool {other:?}; the tools are search_documents, read_chunk, list_documents, lookup_table"
        )),
    }
}

fn required(args: &Value, name: &str) -> Result<String, String> {
    optional(args, name).ok_or_else(|| format!("missing argument {name:?}"))
}

fn optional(args: &Value, name: &str) -> Option<String> {
    let v = args.get(name)?;
    let s = match v {
        Value::String(s) => s.trim().to_string(),
        Value::Number(n) => n.to_string(),
        _ => return None,
    };
    (!s.is_empty()).then_some(s)
}

fn as_count(v: &Value) -> Option<usize> {
    v.as_u64().map(|n| n as usize).or_else(|| v.as_str().and_then(|s| s.trim().parse().ok()))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::panic)]
    use super::*;

    fn call(name: &str, arguments: Value) -> ToolCall {
        ToolCall { name: name.into(), arguments }
    }

    #[test]
    fn arguments_are_clamped_and_validated() {
        let r = validate(&call("search_documents", json!({"query": "  hostel fee ", "k": 50}))).unwrap();
        assert_eq!(r, ToolRequest::Search { query: "hostel fee".into(), series: None, session: None, k: MAX_K });
        let r = validate(&call("search_documents", json!({"query": "x", "k": "0", "session": "2024-25"}))).unwrap();
        assert!(matches!(r, ToolRequest::Search { k: 1, session: Some(s), .. } if s.to_string() == "2024-25"));
        assert!(validate(&call("search_documents", json!({"k": 3}))).unwrap_err().contains("query"));
        assert!(validate(&call("search_documents", json!({"query": "x", "session": "last year"}))).is_err());
        assert!(validate(&call("delete_everything", json!({}))).unwrap_err().starts_with("unknown tool"));
        let long = "a".repeat(1000);
        let Ok(ToolRequest::Search { query, .. }) = validate(&call("search_documents", json!({"query": long}))) else {
            panic!()
        };
        assert_eq!(query.len(), MAX_QUERY_CHARS);
    }

    #[test]
    fn repeats_are_recognised_whatever_the_spacing() {
        let a = validate(&call("search_documents", json!({"query": "Hostel  fee"}))).unwrap();
        let b = validate(&call("search_documents", json!({"query": "hostel fee", "k": 2}))).unwrap();
        assert_eq!(a.signature(), b.signature());
    }
}
