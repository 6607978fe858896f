#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::test_server::{Reply, Request, Server};
use super::transport::Secret;
use super::*;
use crate::vector::norm;

const KEY: &str = "sk-test-SECRET-123";
const KEY_VAR: &str = "ALMIRAH_TEST_EMBED_KEY";

fn fast(max_attempts: u32) -> HttpOptions {
    HttpOptions {
        retry: RetryPolicy {
            max_attempts,
            base_ms: 1,
            cap_ms: 5,
        },
        connect_timeout_ms: 2_000,
        request_timeout_ms: 5_000,
        max_batch: None,
    }
}

/// Vector for input text `t<i>`: `[i+1, 1, 0]`, so order survives normalisation.
fn fake_vector(text: &str) -> Vec<f32> {
    let digits: String = text.chars().filter(char::is_ascii_digit).collect();
    vec![digits.parse::<f32>().unwrap_or(0.0) + 1.0, 1.0, 0.0]
}

/// The `i` encoded by [`fake_vector`].
fn decode(v: &[f32]) -> usize {
    (v[0] / v[1]).round() as usize - 1
}

fn inputs(req: &Request) -> Vec<String> {
    let texts = req.body["input"].as_array().unwrap();
    texts
        .iter()
        .map(|t| t.as_str().unwrap().to_string())
        .collect()
}

fn ollama_reply(req: &Request) -> Reply {
    let vectors: Vec<Vec<f32>> = inputs(req).iter().map(|t| fake_vector(t)).collect();
    Reply::json(200, &json!({ "embeddings": vectors }))
}

fn ollama(server: &Server, options: &HttpOptions) -> HttpEmbedder<ollama::Ollama> {
    ollama::build(Some(&server.url), "nomic-embed-text", options).unwrap()
}

fn openai(server: &Server, options: &HttpOptions) -> HttpEmbedder<openai::OpenAi> {
    let params = openai::Params {
        url: &server.url,
        model: "m",
        dimensions: Some(3),
    };
    let key = Some(Secret::new(KEY.into()));
    openai::build(&params, key, Some(KEY_VAR.into()), options).unwrap()
}

fn texts(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("t{i}")).collect()
}

fn embed_n(e: &dyn Embedder, n: usize) -> Result<Vec<Vec<f32>>, EmbedError> {
    let t = texts(n);
    let refs: Vec<&str> = t.iter().map(String::as_str).collect();
    e.embed(&refs, InputKind::Document)
}

#[test]
fn ollama_keeps_order_normalises_and_learns_dimensions() {
    let server = Server::start(|_, req| ollama_reply(req));
    let e = ollama(&server, &fast(1));
    assert_eq!(e.id().dimensions, 0, "unknown until the first answer");
    let v = embed_n(&e, 5).unwrap();
    assert_eq!(
        v.iter().map(|v| decode(v)).collect::<Vec<_>>(),
        vec![0, 1, 2, 3, 4]
    );
    assert!(v.iter().all(|v| (norm(v) - 1.0).abs() < 1e-5));
    assert_eq!(e.id().dimensions, 3);
    let req = &server.requests()[0];
    assert_eq!(req.path, "/api/embed");
    assert_eq!(req.body["model"], "nomic-embed-text");
}

#[test]
fn resolve_id_probes_once() {
    let server = Server::start(|_, req| ollama_reply(req));
    let e = ollama(&server, &fast(1));
    assert_eq!(e.resolve_id().unwrap().dimensions, 3);
    assert_eq!(e.resolve_id().unwrap().dimensions, 3);
    assert_eq!(server.count(), 1);
}

#[test]
fn inputs_are_split_into_max_batch_requests() {
    let server = Server::start(|_, req| ollama_reply(req));
    let e = ollama(
        &server,
        &HttpOptions {
            max_batch: Some(2),
            ..fast(1)
        },
    );
    let v = embed_n(&e, 5).unwrap();
    assert_eq!(
        v.iter().map(|v| decode(v)).collect::<Vec<_>>(),
        vec![0, 1, 2, 3, 4]
    );
    assert_eq!(server.count(), 3);
}

#[test]
fn openai_reorders_by_index_and_sends_bearer_key() {
    let server = Server::start(|_, req| {
        let mut data: Vec<Value> = inputs(req)
            .iter()
            .enumerate()
            .map(|(i, t)| json!({ "index": i, "embedding": fake_vector(t) }))
            .collect();
        data.reverse();
        Reply::json(200, &json!({ "data": data }))
    });
    let e = openai(&server, &fast(1));
    let v = embed_n(&e, 4).unwrap();
    assert_eq!(
        v.iter().map(|v| decode(v)).collect::<Vec<_>>(),
        vec![0, 1, 2, 3]
    );
    let req = &server.requests()[0];
    assert_eq!(req.path, "/embeddings");
    assert_eq!(req.headers["authorization"], format!("Bearer {KEY}"));
    assert_eq!(req.body["dimensions"], 3);
}

#[test]
fn openai_duplicate_index_is_protocol_error() {
    let server = Server::start(|_, _| {
        let item = json!({ "index": 0, "embedding": [1.0, 0.0, 0.0] });
        Reply::json(200, &json!({ "data": [item.clone(), item] }))
    });
    let err = embed_n(&openai(&server, &fast(1)), 2).unwrap_err();
    assert!(matches!(err, EmbedError::Protocol(_)), "{err}");
}

fn gemini(server: &Server, model: &str) -> HttpEmbedder<gemini::Gemini> {
    let params = gemini::Params {
        url: Some(&server.url),
        model,
        dimensions: Some(3),
    };
    gemini::build(
        &params,
        Secret::new(KEY.into()),
        "GEMINI_API_KEY".into(),
        &fast(1),
    )
    .unwrap()
}

fn gemini_reply(req: &Request) -> Reply {
    let entries = req.body["requests"].as_array().unwrap();
    let vectors: Vec<Value> = entries
        .iter()
        .map(|r| json!({ "values": fake_vector(r["content"]["parts"][0]["text"].as_str().unwrap()) }))
        .collect();
    Reply::json(200, &json!({ "embeddings": vectors }))
}

#[test]
fn gemini_001_sends_one_content_per_text_with_task_type() {
    let server = Server::start(|_, req| gemini_reply(req));
    let e = gemini(&server, "gemini-embedding-001");
    let v = e.embed(&["t0", "t1"], InputKind::Query).unwrap();
    assert_eq!((decode(&v[0]), decode(&v[1])), (0, 1));
    let req = &server.requests()[0];
    assert_eq!(req.path, "/models/gemini-embedding-001:batchEmbedContents");
    assert_eq!(req.headers["x-goog-api-key"], KEY);
    let entries = req.body["requests"].as_array().unwrap();
    assert_eq!(entries.len(), 2);
    assert_eq!(entries[0]["taskType"], "RETRIEVAL_QUERY");
    assert_eq!(entries[0]["outputDimensionality"], 3);
    assert_eq!(entries[0]["model"], "models/gemini-embedding-001");
    assert_eq!(e.id().query_prefix, "");
}

#[test]
fn gemini_2_puts_the_task_in_a_recorded_prefix() {
    let server = Server::start(|_, req| gemini_reply(req));
    let e = gemini(&server, "models/gemini-embedding-2");
    e.embed(&["t0"], InputKind::Query).unwrap();
    e.embed(&["t0"], InputKind::Document).unwrap();
    let reqs = server.requests();
    let text = |i: usize| reqs[i].body["requests"][0]["content"]["parts"][0]["text"].clone();
    assert_eq!(text(0), "task: search result | query: t0");
    assert_eq!(text(1), "title: none | text: t0");
    assert!(reqs[0].body["requests"][0].get("taskType").is_none());
    assert_eq!(e.id().query_prefix, "task: search result | query: ");
    assert_eq!(e.id().document_prefix, "title: none | text: ");
    assert_eq!(e.id().model, "gemini-embedding-2");
}

#[test]
fn two_503s_then_success() {
    let server = Server::start(|n, req| {
        if n < 2 {
            Reply::json(503, &json!({ "error": "busy" }))
        } else {
            ollama_reply(req)
        }
    });
    let v = embed_n(&ollama(&server, &fast(5)), 2).unwrap();
    assert_eq!(v.len(), 2);
    assert_eq!(server.count(), 3);
}

#[test]
fn persistent_5xx_is_unavailable_after_max_attempts() {
    let server = Server::start(|_, _| Reply::json(500, &json!({ "error": { "message": "boom" } })));
    let err = embed_n(&ollama(&server, &fast(3)), 1).unwrap_err();
    assert!(
        matches!(&err, EmbedError::Unavailable { attempts: 3, message } if message.contains("boom")),
        "{err}"
    );
    assert_eq!(server.count(), 3);
}

#[test]
fn retry_after_is_honoured_up_to_the_cap() {
    let server = Server::start(|n, req| {
        if n == 0 {
            Reply::json(429, &json!({})).with_header("Retry-After", "30")
        } else {
            ollama_reply(req)
        }
    });
    let options = HttpOptions {
        retry: RetryPolicy {
            max_attempts: 3,
            base_ms: 1,
            cap_ms: 300,
        },
        ..fast(3)
    };
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
    assert!(
        matches!(&err, EmbedError::Refused { status: 400, message } if message.contains("input too long"))
    );
    assert_eq!(server.count(), 1);
}

#[test]
fn unauthorised_hint_names_the_variable_never_the_key() {
    let server =
        Server::start(move |_, _| Reply::json(401, &json!({ "error": format!("bad key {KEY}") })));
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
    assert!(
        err.to_string().contains("check the model name / URL"),
        "{err}"
    );
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
    assert!(
        matches!(&err, EmbedError::Protocol(m) if m.contains("1 vectors for 2 texts")),
        "{err}"
    );
}

#[test]
fn inconsistent_or_wrong_dimensions_are_protocol_errors() {
    let server =
        Server::start(|_, _| Reply::json(200, &json!({ "embeddings": [[1.0, 0.0], [1.0]] })));
    let err = embed_n(&ollama(&server, &fast(1)), 2).unwrap_err();
    assert!(matches!(err, EmbedError::Protocol(_)), "{err}");
    // openai is configured for 3 dimensions; the server answers 2.
    let server = Server::start(|_, _| {
        Reply::json(
            200,
            &json!({ "data": [{ "index": 0, "embedding": [1.0, 0.0] }] }),
        )
    });
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
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let e = ollama::build(Some(&format!("http://127.0.0.1:{port}")), "m", &fast(2)).unwrap();
    let err = embed_n(&e, 1).unwrap_err();
    assert!(
        matches!(err, EmbedError::Unavailable { attempts: 2, .. }),
        "{err}"
    );
}

#[test]
fn empty_input_makes_no_request() {
    let server = Server::start(|_, req| ollama_reply(req));
    assert!(
        ollama(&server, &fast(1))
            .embed(&[], InputKind::Query)
            .unwrap()
            .is_empty()
    );
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
    assert!(
        matches!(&err, EmbedError::Config(m) if m.contains("ALMIRAH_TEST_SURELY_UNSET_VAR")),
        "{err}"
    );
}
