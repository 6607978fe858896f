//! Whether an OpenAI-compatible server honours `response_format` JSON
//! schemas (structured output; llama.cpp's server and Ollama do, some
//! servers refuse the field), found once per server and remembered for the
//! process: the first schema request to a server either succeeds (it
//! honours them) or is refused with a 400, 422 or 501 whose message names
//! the field (it does not: that request and every later one go without the
//! schema and are read by the tolerant parser, [`super::parse`]).
//!
//! Which servers are local decides the default of `[agent] action_mode`:
//! a model on a loopback address (or Ollama) is assumed small, and gets
//! the JSON action step and the drafting schema whose citation field is an
//! enum of the passages shown.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

/// What is known of one server's schema support.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SchemaSupport {
    /// No schema request has been answered yet.
    Unknown,
    /// A schema request succeeded.
    Honoured,
    /// A schema request was refused because of the schema.
    Refused,
}

fn known() -> &'static Mutex<HashMap<String, SchemaSupport>> {
    static KNOWN: OnceLock<Mutex<HashMap<String, SchemaSupport>>> = OnceLock::new();
    KNOWN.get_or_init(|| Mutex::new(HashMap::new()))
}

/// What is known of the server at `url` (its chat completions URL).
pub(crate) fn support(url: &str) -> SchemaSupport {
    let map = known().lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    map.get(url).copied().unwrap_or(SchemaSupport::Unknown)
}

/// Remember what a schema request to `url` showed. A refusal is final for
/// the process; a success never overrides it.
pub(crate) fn remember(url: &str, seen: SchemaSupport) {
    let mut map = known().lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let entry = map.entry(url.to_string()).or_insert(SchemaSupport::Unknown);
    if *entry != SchemaSupport::Refused {
        *entry = seen;
    }
}

/// Whether an HTTP refusal (`status`, the server's `message`) is about the
/// schema: 400, 422 or 501 with a message naming `response_format`,
/// `json_schema` or a grammar.
pub(crate) fn refuses_schema(status: u16, message: &str) -> bool {
    let m = message.to_ascii_lowercase();
    matches!(status, 400 | 422 | 501)
        && ["response_format", "json_schema", "response format", "grammar"].iter().any(|w| m.contains(w))
}

/// Whether `base_url` names this machine: `localhost`, a loopback address
/// (`127.x.x.x`, `::1`) or the unspecified address (`0.0.0.0`).
pub(crate) fn is_local(base_url: &str) -> bool {
    let rest = base_url.split_once("://").map_or(base_url, |(_, r)| r);
    let authority = rest.split('/').next().unwrap_or_default();
    let authority = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let host = match authority.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or_default(),
        None => authority.split(':').next().unwrap_or_default(),
    };
    let host = host.to_ascii_lowercase();
    host == "localhost"
        || host.ends_with(".localhost")
        || host.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback() || ip.is_unspecified())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_servers_are_loopback_hosts_only() {
        for url in
            ["http://127.0.0.1:8089/v1", "http://localhost:11434/v1", "http://[::1]:8080/v1", "http://0.0.0.0/v1"]
        {
            assert!(is_local(url), "{url}");
        }
        for url in ["https://api.openai.com/v1", "http://10.0.0.5:8080/v1", "http://127.0.0.1.evil.example/v1"] {
            assert!(!is_local(url), "{url}");
        }
    }

    #[test]
    fn only_a_refusal_that_names_the_schema_counts() {
        assert!(refuses_schema(400, "Unrecognized request argument supplied: response_format"));
        assert!(refuses_schema(422, "json_schema is not supported"));
        assert!(!refuses_schema(400, "model not found"));
        assert!(!refuses_schema(401, "response_format: bad key"));
    }

    #[test]
    fn a_refusal_is_remembered_and_never_undone() {
        let url = "http://127.0.0.1:1/v1/chat/completions#schema-support-test";
        assert_eq!(support(url), SchemaSupport::Unknown);
        remember(url, SchemaSupport::Refused);
        remember(url, SchemaSupport::Honoured);
        assert_eq!(support(url), SchemaSupport::Refused);
    }
}
