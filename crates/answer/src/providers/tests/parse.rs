//! Tool calls in content, thinking blocks and structured payloads.

use serde_json::json;

use super::super::parse::{json_payload, strip_thinking, tool_calls_in_content};

const OFFERED: [&str; 2] = ["search_documents", "read_chunk"];

#[test]
fn several_bare_objects_in_a_row_and_an_openai_message() {
    let content = "{\"name\": \"read_chunk\", \"arguments\": {\"key\": \"a::1\"}}\n{\"name\": \"read_chunk\", \"arguments\": {\"key\": \"a::2\"}}";
    let (rest, calls) = tool_calls_in_content(content, &OFFERED);
    assert_eq!(rest, "");
    assert_eq!(calls.iter().map(|c| c.arguments["key"].as_str().unwrap()).collect::<Vec<_>>(), ["a::1", "a::2"]);

    let message = r#"{"tool_calls": [{"type": "function", "function": {"name": "search_documents", "arguments": "{\"query\": \"fee\"}"}}]}"#;
    let (_, calls) = tool_calls_in_content(message, &OFFERED);
    assert_eq!(calls[0].arguments, json!({"query": "fee"}));
}

#[test]
fn missing_or_empty_arguments_are_an_empty_object_and_bad_json_stays_a_string() {
    let (_, calls) = tool_calls_in_content(r#"{"name": "search_documents"}"#, &OFFERED);
    assert_eq!(calls[0].arguments, json!({}));
    let (_, calls) = tool_calls_in_content(r#"{"name": "search_documents", "arguments": ""}"#, &OFFERED);
    assert_eq!(calls[0].arguments, json!({}));
    let (_, calls) = tool_calls_in_content(r#"{"name": "search_documents", "arguments": "{query: fee"}"#, &OFFERED);
    assert_eq!(calls[0].arguments, json!("{query: fee"));
}

#[test]
fn a_block_with_one_unknown_call_stays_content_and_other_blocks_still_count() {
    let mixed = r#"[{"name": "search_documents", "arguments": {}}, {"name": "rm", "arguments": {}}]"#;
    let (rest, calls) = tool_calls_in_content(mixed, &OFFERED);
    assert!(calls.is_empty());
    assert_eq!(rest, mixed);

    let two =
        "```json\n{\"name\": \"rm\"}\n```\n<tool_call>{\"name\": \"read_chunk\", \"arguments\": {\"key\": \"k::1\"}}";
    let (rest, calls) = tool_calls_in_content(two, &OFFERED);
    assert_eq!(calls.len(), 1, "an unclosed <tool_call> still counts");
    assert_eq!(rest, "```json\n{\"name\": \"rm\"}\n```");
}

#[test]
fn prose_is_never_a_call() {
    let prose = "Earned leave is 18 days. [leave@4::el#1]";
    assert_eq!(tool_calls_in_content(prose, &OFFERED), (prose.to_string(), Vec::new()));
    assert!(tool_calls_in_content(r#"{"name": "search_documents"}"#, &[]).1.is_empty());
}

#[test]
fn thinking_is_stripped_and_payloads_found() {
    assert_eq!(strip_thinking("<think>\nplan\n</think>\n\nAnswer."), "Answer.");
    assert_eq!(strip_thinking("<think>cut off"), "");
    let want = json!({"action": "search", "query": "fee"});
    assert_eq!(json_payload(r#"{"action": "search", "query": "fee"}"#), Some(want.clone()));
    assert_eq!(json_payload("```json\n{\"action\": \"search\", \"query\": \"fee\"}\n```"), Some(want.clone()));
    assert_eq!(json_payload("Sure: {\"action\": \"search\", \"query\": \"fee\"} done"), Some(want));
    assert_eq!(json_payload("no json here"), None);
}
