#![allow(clippy::unwrap_used, clippy::expect_used)]

use serde_json::{Value, json};

use super::*;
use crate::test_server::{Reply, Request, Server};
use crate::transport::Secret;
use crate::vector::norm;

const KEY: &str = "sk-test-SECRET-123";
const KEY_VAR: &str = "ALMIRAH_TEST_EMBED_KEY";

fn fast(max_attempts: u32) -> HttpOptions {
    HttpOptions {
        retry: RetryPolicy { max_attempts, base_ms: 1, cap_ms: 5 },
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
    texts.iter().map(|t| t.as_str().unwrap().to_string()).collect()
}

fn ollama_reply(req: &Request) -> Reply {
    let vectors: Vec<Vec<f32>> = inputs(req).iter().map(|t| fake_vector(t)).collect();
    Reply::json(200, &json!({ "embeddings": vectors }))
}

fn ollama(server: &Server, options: &HttpOptions) -> HttpEmbedder<ollama::Ollama> {
    ollama::build(Some(&server.url), "nomic-embed-text", options).unwrap()
}

fn openai(server: &Server, options: &HttpOptions) -> HttpEmbedder<openai::OpenAi> {
    let params = openai::Params { url: &server.url, model: "m", dimensions: Some(3) };
    let key = Some(Secret::new(KEY));
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
    assert_eq!(v.iter().map(|v| decode(v)).collect::<Vec<_>>(), vec![0, 1, 2, 3, 4]);
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
    let e = ollama(&server, &HttpOptions { max_batch: Some(2), ..fast(1) });
    let v = embed_n(&e, 5).unwrap();
    assert_eq!(v.iter().map(|v| decode(v)).collect::<Vec<_>>(), vec![0, 1, 2, 3, 4]);
    assert_eq!(server.count(), 3);
}

#[test]
fn openai_reorders_by_index_and_sends_bearer_key() {
    let server = Server::start(|_, req| {
        let mut data: Vec<Value> =
            inputs(req).iter().enumerate().map(|(i, t)| json!({ "index": i, "embedding": fake_vector(t) })).collect();
        data.reverse();
        Reply::json(200, &json!({ "data": data }))
    });
    let e = openai(&server, &fast(1));
    let v = embed_n(&e, 4).unwrap();
    assert_eq!(v.iter().map(|v| decode(v)).collect::<Vec<_>>(), vec![0, 1, 2, 3]);
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
    let params = gemini::Params { url: Some(&server.url), model, dimensions: Some(3) };
    gemini::build(&params, Secret::new(KEY), "GEMINI_API_KEY".into(), &fast(1)).unwrap()
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

mod failures;
