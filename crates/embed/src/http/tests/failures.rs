//! Retries, refusals and malformed answers.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::{Duration, Instant};

use serde_json::json;

use super::super::*;
use super::{KEY, KEY_VAR, embed_n, fast, ollama, ollama_reply, openai};
use crate::test_server::{Reply, Server};

#[test]
fn two_503s_then_success() {
    let server =
        Server::start(|n, req| if n < 2 { Reply::json(503, &json!({ "error": "busy" })) } else { ollama_reply(req) });
    let v = embed_n(&ollama(&server, &fast(5)), 2).unwrap();
    assert_eq!(v.len(), 2);
    assert_eq!(server.count(), 3);
}

#[test]
fn persistent_5xx_is_unavailable_after_max_attempts() {
    let server = Server::start(|_, _| Reply::json(500, &json!({ "error": { "message": "boom" } })));
    let err = embed_n(&ollama(&server, &fast(3)), 1).unwrap_err();
    assert!(matches!(&err, EmbedError::Unavailable { attempts: 3, message } if message.contains("boom")), "{err}");
    assert_eq!(server.count(), 3);
}

#[test]
fn retry_after_is_honoured_up_to_the_cap() {
    let server = Server::start(|n, req| {
        if n == 0 { Reply::json(429, &json!({})).with_header("Retry-After", "30") } else { ollama_reply(req) }
    });
    let options = HttpOptions { retry: RetryPolicy { max_attempts: 3, base_ms: 1, cap_ms: 300 }, ..fast(3) };
    let start = Instant::now();
    embed_n(&ollama(&server, &options), 1).unwrap();
    let waited = start.elapsed();
    assert!(waited >= Duration::from_millis(290), "{waited:?}");
    assert!(waited < Duration::from_secs(5), "{waited:?}");
    assert_eq!(server.count(), 2);
}

#[test]
fn bad_request_fails_after_exactly_one_request() {
    let server = Server::start(|_, _| Reply::json(400, &json!({ "error": "input too long" })));
    let err = embed_n(&ollama(&server, &fast(5)), 1).unwrap_err();
    assert!(matches!(&err, EmbedError::Refused { status: 400, message } if message.contains("input too long")));
    assert_eq!(server.count(), 1);
}

#[test]
fn unauthorised_hint_names_the_variable_never_the_key() {
    let server = Server::start(move |_, _| Reply::json(401, &json!({ "error": format!("bad key {KEY}") })));
    let e = openai(&server, &fast(5));
    let err = embed_n(&e, 1).unwrap_err();
    let shown = format!("{err} {err:?}");
    assert!(shown.contains(&format!("${KEY_VAR}")), "{shown}");
    assert!(!shown.contains(KEY), "{shown}");
    assert_eq!(server.count(), 1);
}

#[test]
fn not_found_hint_mentions_model_and_url() {
    let server = Server::start(|_, _| Reply::json(404, &json!({ "error": "model not found" })));
    let err = embed_n(&ollama(&server, &fast(5)), 1).unwrap_err();
    assert!(err.to_string().contains("check the model name and the base URL"), "{err}");
}

#[test]
fn key_is_not_in_debug_output() {
    let server = Server::start(|_, req| ollama_reply(req));
    let debug = format!("{:?}", openai(&server, &fast(1)));
    assert!(!debug.contains(KEY), "{debug}");
    assert!(debug.contains("Secret(***)"), "{debug}");
}

#[test]
fn count_mismatch_is_protocol_error() {
    let server = Server::start(|_, _| Reply::json(200, &json!({ "embeddings": [[1.0, 0.0]] })));
    let err = embed_n(&ollama(&server, &fast(1)), 2).unwrap_err();
    assert!(matches!(&err, EmbedError::Protocol(m) if m.contains("1 vectors for 2 texts")), "{err}");
}

#[test]
fn inconsistent_or_wrong_dimensions_are_protocol_errors() {
    let server = Server::start(|_, _| Reply::json(200, &json!({ "embeddings": [[1.0, 0.0], [1.0]] })));
    let err = embed_n(&ollama(&server, &fast(1)), 2).unwrap_err();
    assert!(matches!(err, EmbedError::Protocol(_)), "{err}");
    // openai is configured for 3 dimensions; the server answers 2.
    let server = Server::start(|_, _| Reply::json(200, &json!({ "data": [{ "index": 0, "embedding": [1.0, 0.0] }] })));
    let err = embed_n(&openai(&server, &fast(1)), 1).unwrap_err();
    assert!(matches!(err, EmbedError::Protocol(_)), "{err}");
}

#[test]
fn zero_vector_is_protocol_error() {
    let server = Server::start(|_, _| Reply::json(200, &json!({ "embeddings": [[0.0, 0.0]] })));
    let err = embed_n(&ollama(&server, &fast(1)), 1).unwrap_err();
    assert!(matches!(err, EmbedError::Protocol(_)), "{err}");
}

#[test]
fn connection_refused_is_retried_then_unavailable() {
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let e = ollama::build(Some(&format!("http://127.0.0.1:{port}")), "m", &fast(2)).unwrap();
    let err = embed_n(&e, 1).unwrap_err();
    assert!(matches!(err, EmbedError::Unavailable { attempts: 2, .. }), "{err}");
}

#[test]
fn empty_input_makes_no_request() {
    let server = Server::start(|_, req| ollama_reply(req));
    assert!(ollama(&server, &fast(1)).embed(&[], InputKind::Query).unwrap().is_empty());
    assert_eq!(server.count(), 0);
}

#[test]
fn missing_key_variable_is_a_config_error_without_network() {
    let config = EmbedderConfig::Gemini {
        model: "gemini-embedding-001".into(),
        api_key_env: Some("ALMIRAH_TEST_SURELY_UNSET_VAR".into()),
        dimensions: None,
        url: Some("http://127.0.0.1:9".into()),
    };
    let err = crate::from_config(&config).err().unwrap();
    assert!(matches!(&err, EmbedError::Config(m) if m.contains("ALMIRAH_TEST_SURELY_UNSET_VAR")), "{err}");
}
