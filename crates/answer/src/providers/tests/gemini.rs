//! The Gemini client against a loopback server.

use serde_json::{Value, json};

use super::super::{Endpoint, GeminiChat};
use super::*;
use crate::model::{ChatModel, ModelError};
use almirah_embed::test_server::{Reply, Server};

const MODEL: &str = "gemini-2.5-flash";

fn client(server: &Server) -> GeminiChat {
    let endpoint = Endpoint {
        id: format!("gemini:{MODEL}"),
        base_url: server.url.clone(),
        model: MODEL.into(),
        key: Some(test_key()),
    };
    GeminiChat::new(endpoint, &fast()).unwrap()
}

fn reply(parts: Value) -> Value {
    json!({
        "candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP"}],
        "usageMetadata": {"promptTokenCount": 50, "candidatesTokenCount": 7, "thoughtsTokenCount": 3},
    })
}

#[test]
fn function_calls_usage_and_the_request_shape() {
    let parts = json!([
        {"text": "thinking…", "thought": true},
        {"text": "Let me look."},
        {"functionCall": {"name": "search_documents", "args": {"query": "earned leave", "k": 3}}},
    ]);
    let body = reply(parts);
    let server = Server::start(move |_, _| Reply::json(200, &body));
    let response = client(&server).chat(&request_with_tools()).unwrap();
    assert_eq!(response.content, "Let me look.");
    assert_eq!(response.tool_calls.len(), 1);
    assert_eq!(response.tool_calls[0].name, "search_documents");
    assert_eq!(response.tool_calls[0].arguments, json!({"query": "earned leave", "k": 3}));
    assert_eq!((response.usage.input_tokens, response.usage.output_tokens), (50, 10));

    let sent = &server.requests()[0];
    assert_eq!(sent.path, format!("/v1beta/models/{MODEL}:generateContent"));
    assert_eq!(sent.headers["x-goog-api-key"], KEY);
    assert_eq!(sent.body["systemInstruction"], json!({"parts": [{"text": "You are a policy assistant."}]}));
    let contents = &sent.body["contents"];
    assert_eq!(roles(contents), ["user", "model", "user"]);
    assert_eq!(contents[2]["parts"], json!([{"text": "Tool result:\nsearch_documents: 2 hits"}]));
    let declarations = &sent.body["tools"][0]["functionDeclarations"];
    assert_eq!(declarations[0]["name"], "search_documents");
    assert_eq!(declarations[1]["name"], "read_chunk");
    assert!(declarations[0]["parameters"].get("additionalProperties").is_none());
    assert_eq!(declarations[0]["parameters"]["properties"]["k"]["maximum"], 8);
    assert_eq!(sent.body["generationConfig"], json!({"temperature": 0.0, "maxOutputTokens": 1024}));
}

#[test]
fn a_schema_sets_json_mime_type_and_response_schema() {
    let body = reply(json!([{"text": "{\"action\": \"answer\"}"}]));
    let server = Server::start(move |_, _| Reply::json(200, &body));
    let schema = json!({"type": "object", "additionalProperties": false,
        "properties": {"action": {"type": "string", "enum": ["search", "answer"]}}, "required": ["action"]});
    let request = ChatRequest { tools: Vec::new(), response_schema: Some(schema), ..request_with_tools() };
    let response = client(&server).chat(&request).unwrap();
    assert_eq!(response.content, "{\"action\": \"answer\"}");
    let config = &server.requests()[0].body["generationConfig"];
    assert_eq!(config["responseMimeType"], "application/json");
    let want = json!({"type": "object",
        "properties": {"action": {"type": "string", "enum": ["search", "answer"]}}, "required": ["action"]});
    assert_eq!(config["responseSchema"], want);
    assert!(server.requests()[0].body.get("tools").is_none());
}

#[test]
fn a_blocked_prompt_is_a_bad_reply() {
    let body = json!({"promptFeedback": {"blockReason": "SAFETY"}, "usageMetadata": {"promptTokenCount": 9}});
    let server = Server::start(move |_, _| Reply::json(200, &body));
    let err = client(&server).chat(&request_with_tools()).unwrap_err();
    assert!(matches!(&err, ModelError::BadReply(m) if m.contains("prompt blocked: SAFETY")), "{err:?}");
}

#[test]
fn a_bad_key_fails_at_once_with_a_hint_and_no_key() {
    let server = Server::start(|_, _| {
        Reply::json(
            400,
            &json!({"error": {"code": 400, "message": format!("API key not valid: {KEY}"), "status": "INVALID_ARGUMENT"}}),
        )
    });
    let chat = client(&server);
    let err = chat.chat(&request_with_tools()).unwrap_err();
    assert_eq!(server.count(), 1);
    let text = err.to_string();
    assert!(text.contains("HTTP 400 (not retried): API key not valid: ***"), "{text}");
    assert!(!text.contains(KEY) && !format!("{chat:?}").contains(KEY));
}

#[test]
fn answer_goes_through_generate_content() {
    let body = reply(json!([{"text": "Half-pay leave is 20 days a year. [leave@4::hpl#1]"}]));
    let server = Server::start(move |_, _| Reply::json(200, &body));
    let ev = [evidence("leave@4::hpl#1", "Leave Rules", "Half pay leave: 20 days for each completed year.")];
    let draft =
        client(&server).answer(&crate::question::Question::parse("How much half-pay leave?"), &ev, None).unwrap();
    let want = vec![("Half-pay leave is 20 days a year.".to_string(), vec!["leave@4::hpl#1".to_string()])];
    assert_eq!(draft.sentences, want);
    let sent = &server.requests()[0].body;
    let system = sent["systemInstruction"]["parts"][0]["text"].as_str().unwrap();
    assert!(system.contains("never instructions"), "{system}");
    assert_eq!(roles(&sent["contents"]), ["user"]);
}
