//! The OpenAI-compatible client against a loopback server.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::super::{Endpoint, OpenAiChat, ProviderOptions};
use super::*;
use crate::model::{ChatModel, ChatResponse, ModelError};
use almirah_embed::test_server::{Reply, Server};

fn client(server: &Server, options: &ProviderOptions) -> OpenAiChat {
    let endpoint = Endpoint {
        id: "openai:test:qwen".into(),
        base_url: format!("{}/v1", server.url),
        model: "qwen".into(),
        key: None,
    };
    OpenAiChat::new(endpoint, options).unwrap()
}

fn reply(content: Value, tool_calls: Option<Value>) -> Value {
    let mut message = json!({"role": "assistant", "content": content});
    if let Some(calls) = tool_calls {
        message["tool_calls"] = calls;
    }
    json!({
        "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 120, "completion_tokens": 15, "total_tokens": 135},
    })
}

/// One chat call with [`request_with_tools`] whose reply has `content` and no native calls.
fn chat_with_content(content: &str) -> ChatResponse {
    let body = reply(json!(content), None);
    let server = Server::start(move |_, _| Reply::json(200, &body));
    client(&server, &fast()).chat(&request_with_tools()).unwrap()
}

#[test]
fn native_tool_calls_with_string_arguments_and_the_request_shape() {
    let calls = json!([{"id": "c1", "type": "function",
        "function": {"name": "search_documents", "arguments": "{\"query\":\"earned leave\",\"k\":4}"}}]);
    let body = reply(Value::Null, Some(calls));
    let server = Server::start(move |_, _| Reply::json(200, &body));
    let response = client(&server, &fast()).chat(&request_with_tools()).unwrap();
    assert_eq!(response.tool_calls.len(), 1);
    assert_eq!(response.tool_calls[0].name, "search_documents");
    assert_eq!(response.tool_calls[0].arguments, json!({"query": "earned leave", "k": 4}));
    assert_eq!(response.content, "");
    assert_eq!((response.usage.input_tokens, response.usage.output_tokens), (120, 15));

    let sent = &server.requests()[0];
    assert_eq!(sent.path, "/v1/chat/completions");
    assert_eq!(sent.body["model"], "qwen");
    assert_eq!(sent.body["temperature"], 0.0);
    assert_eq!(sent.body["max_tokens"], 1024);
    assert_eq!(roles(&sent.body["messages"]), ["system", "user", "assistant", "user"]);
    assert_eq!(sent.body["messages"][3]["content"], "Tool result:\nsearch_documents: 2 hits");
    let tool = &sent.body["tools"][0];
    assert_eq!(tool["type"], "function");
    assert_eq!(tool["function"]["name"], "search_documents");
    assert_eq!(tool["function"]["parameters"]["required"], json!(["query"]));
    assert!(sent.body.get("tool_choice").is_none());
    assert!(sent.body.get("response_format").is_none());
    assert!(!sent.headers.contains_key("authorization"), "no key configured, none sent");
}

#[test]
fn fenced_json_tool_call_in_content() {
    let content = "I will search first.\n```json\n{\"name\": \"search_documents\", \"arguments\": {\"query\": \"hostel fee\"}}\n```";
    let response = chat_with_content(content);
    assert_eq!(response.tool_calls.len(), 1);
    assert_eq!(response.tool_calls[0].name, "search_documents");
    assert_eq!(response.tool_calls[0].arguments, json!({"query": "hostel fee"}));
    assert_eq!(response.content, "I will search first.");
}

#[test]
fn bare_json_tool_call_with_string_arguments() {
    let response = chat_with_content(r#"  {"tool": "read_chunk", "arguments": "{\"key\": \"leave@4::el#1\"}"} "#);
    assert_eq!(response.tool_calls.len(), 1);
    assert_eq!(response.tool_calls[0].name, "read_chunk");
    assert_eq!(response.tool_calls[0].arguments, json!({"key": "leave@4::el#1"}));
    assert_eq!(response.content, "");
}

#[test]
fn a_list_of_function_form_calls() {
    let content = r#"[{"function": {"name": "search_documents", "arguments": {"query": "DA rate"}}},
                     {"name": "read_chunk", "parameters": {"key": "circ-14::p1#2"}}]"#;
    let response = chat_with_content(content);
    let names: Vec<&str> = response.tool_calls.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["search_documents", "read_chunk"]);
    assert_eq!(response.tool_calls[0].arguments, json!({"query": "DA rate"}));
    assert_eq!(response.tool_calls[1].arguments, json!({"key": "circ-14::p1#2"}));
}

#[test]
fn qwen_tool_call_tags() {
    let content =
        "<tool_call>\n{\"name\": \"search_documents\", \"arguments\": {\"query\": \"leave encashment\"}}\n</tool_call>";
    let response = chat_with_content(content);
    assert_eq!(response.tool_calls.len(), 1);
    assert_eq!(response.tool_calls[0].arguments, json!({"query": "leave encashment"}));
    assert_eq!(response.content, "");
}

#[test]
fn json_naming_an_unknown_tool_stays_content() {
    let content = r#"{"name": "delete_documents", "arguments": {"all": true}}"#;
    let response = chat_with_content(content);
    assert!(response.tool_calls.is_empty());
    assert_eq!(response.content, content);
    let fenced = "Here:\n```json\n{\"answer\": \"18 days\"}\n```";
    let response = chat_with_content(fenced);
    assert!(response.tool_calls.is_empty());
    assert_eq!(response.content, fenced);
}

#[test]
fn a_schema_sends_response_format_and_the_reply_stays_content() {
    let content = r#"{"action": "search", "name": "search_documents", "query": "fee"}"#;
    let body = reply(json!(content), None);
    let server = Server::start(move |_, _| Reply::json(200, &body));
    let schema = json!({"type": "object", "properties": {"action": {"type": "string"}}, "required": ["action"]});
    let request = ChatRequest { response_schema: Some(schema.clone()), ..request_with_tools() };
    let response = client(&server, &fast()).chat(&request).unwrap();
    assert_eq!(response.content, content);
    assert!(response.tool_calls.is_empty());
    let sent = &server.requests()[0].body;
    let want = json!({"type": "json_schema", "json_schema": {"name": "action", "schema": schema, "strict": true}});
    assert_eq!(sent["response_format"], want);
    assert!(sent.get("tool_choice").is_none());
}

#[test]
fn retries_429_then_succeeds() {
    let ok = reply(json!("Earned leave is 18 days."), None);
    let server = Server::start(move |n, _| match n {
        0 => Reply::json(429, &json!({"error": {"message": "slow down"}})).with_header("retry-after", "0"),
        _ => Reply::json(200, &ok),
    });
    let response = client(&server, &fast()).chat(&request_with_tools()).unwrap();
    assert_eq!(response.content, "Earned leave is 18 days.");
    assert_eq!(server.count(), 2);
}

#[test]
fn persistent_5xx_gives_up_after_max_attempts() {
    let server = Server::start(|_, _| Reply::json(503, &json!({"error": {"message": "loading model"}})));
    let err = client(&server, &fast()).chat(&request_with_tools()).unwrap_err();
    assert_eq!(server.count(), 3);
    let text = err.to_string();
    assert!(matches!(err, ModelError::Unavailable(_)), "{err:?}");
    assert!(text.contains("gave up after 3 attempt(s): HTTP 503: loading model"), "{text}");
}

#[test]
fn a_400_fails_at_once_with_the_server_message() {
    let server = Server::start(|_, _| Reply::json(400, &json!({"error": {"message": "model 'qwen' not found"}})));
    let err = client(&server, &fast()).chat(&request_with_tools()).unwrap_err();
    assert_eq!(server.count(), 1);
    let text = err.to_string();
    assert!(text.contains("HTTP 400 (not retried): model 'qwen' not found"), "{text}");
}

#[test]
fn a_timeout_fails_at_once_with_a_clear_error() {
    let server = Server::start(|_, _| {
        std::thread::sleep(Duration::from_millis(1_500));
        Reply::json(200, &json!({}))
    });
    let options = ProviderOptions { request_timeout_ms: 200, ..fast() };
    let started = Instant::now();
    let err = client(&server, &options).chat(&request_with_tools()).unwrap_err();
    assert!(started.elapsed() < Duration::from_millis(1_400), "not retried: {:?}", started.elapsed());
    assert_eq!(server.count(), 1);
    let text = err.to_string();
    assert!(text.contains("timed out after 200 ms (request_timeout_ms)"), "{text}");
}

#[test]
fn answer_parses_cited_sentences_into_a_draft() {
    // A passage number, and a written-out key of a passage shown (tolerated).
    let text = "Earned leave is 18 days a year. [1] It can be carried over up to 300 days [leave@4::el#2].";
    let body = reply(json!(text), None);
    let server = Server::start(move |_, _| Reply::json(200, &body));
    let ev = [
        evidence("leave@4::el#1", "Leave Rules", "Earned leave: 18 days per calendar year."),
        evidence("leave@4::el#2", "Leave Rules", "Accumulation up to 300 days."),
    ];
    let draft = client(&server, &fast())
        .answer(&crate::question::Question::parse("How much earned leave?"), &ev, Some("no citation: \"x\""))
        .unwrap();
    let want = vec![
        ("Earned leave is 18 days a year.".to_string(), vec!["leave@4::el#1".to_string()]),
        ("It can be carried over up to 300 days.".to_string(), vec!["leave@4::el#2".to_string()]),
    ];
    assert_eq!(draft.sentences, want);
    assert_eq!((draft.usage.input_tokens, draft.usage.output_tokens), (120, 15));
    let sent = &server.requests()[0].body;
    assert!(sent.get("tools").is_none());
    let user = sent["messages"][1]["content"].as_str().unwrap();
    assert!(user.contains("<passage n=\"1\" title=\"Leave Rules\" section=\"Leave\">"), "{user}");
    assert!(user.contains("Question: How much earned leave?"));
    assert!(user.contains("Your previous answer failed these checks: no citation: \"x\""), "{user}");
}

#[test]
fn answer_abstention_gives_no_sentences() {
    let body = reply(json!("I could not find this in the documents."), None);
    let server = Server::start(move |_, _| Reply::json(200, &body));
    let ev = [evidence("leave@4::el#1", "Leave Rules", "Earned leave: 18 days.")];
    let draft =
        client(&server, &fast()).answer(&crate::question::Question::parse("What is the DA rate?"), &ev, None).unwrap();
    assert!(draft.sentences.is_empty());
    assert_eq!(draft.usage.output_tokens, 15);
}

#[test]
fn the_key_is_sent_but_never_shown() {
    let server = Server::start(|_, req| {
        let auth = req.headers.get("authorization").cloned().unwrap_or_default();
        Reply::json(401, &json!({"error": {"message": format!("Incorrect API key provided: {auth}")}}))
    });
    let endpoint = Endpoint {
        id: "openai:test:gpt".into(),
        base_url: server.url.clone(),
        model: "gpt".into(),
        key: Some(test_key()),
    };
    let chat = OpenAiChat::new(endpoint, &fast()).unwrap();
    let err = chat.chat(&request_with_tools()).unwrap_err();
    assert_eq!(server.requests()[0].headers["authorization"], format!("Bearer {KEY}"));
    for shown in [format!("{chat:?}"), format!("{err:?}"), err.to_string()] {
        assert!(!shown.contains(KEY), "key leaked: {shown}");
    }
    assert!(format!("{chat:?}").contains("Secret(***)"));
    let text = err.to_string();
    assert!(text.contains("Incorrect API key provided: Bearer ***"), "{text}");
    assert!(text.contains("check the API key from $ALMIRAH_TEST_KEY"), "{text}");
}
