//! Constrained output by default for local servers (issue 18): with
//! `[agent] action_mode` unset, a model on a loopback server gets the JSON
//! action step and the drafting schema whose citation field is an enum of
//! the passages shown; a server that refuses `response_format` is
//! remembered, and that request and every later one go without it, read by
//! the tolerant parser. By default such a model drafts by picking numbered
//! sentences (issue #40, `[model] drafting`); `drafting = "write"` gets the
//! writing schema. A scripted model behind a loopback OpenAI-compatible
//! server plays the local model.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::sync::Arc;

use almirah_answer::agent::{AgentConfig, ask_agent};
use almirah_answer::classic::Answer;
use almirah_answer::fallback::fell_back;
use almirah_answer::model::ChatModel;
use almirah_answer::providers::{Drafting, ProviderOptions, from_spec};
use almirah_embed::test_server::{Reply, Request, Server};
use serde_json::{Value, json};

const QUESTION: &str = "How many days of earned leave do I get per year?";
const SENTENCE: &str = "Every permanent employee earns 18 days of earned leave a year.";

/// The key of the shown passage holding "18 days" (`<document key="…">`),
/// or its number (`<passage n="…">`).
fn citation_for(prompt: &str) -> String {
    let block = |marker: &str| {
        prompt
            .split(marker)
            .skip(1)
            .find(|b| b.contains("18 days"))
            .and_then(|b| b.split('\\').next())
            .map(String::from)
    };
    block("<document key=\\\"").or_else(|| block("<passage n=\\\"").map(|n| format!("[{n}]"))).unwrap_or_default()
}

/// One scripted turn: the reply to `request`, as the local model would.
fn turn(request: &Request) -> Value {
    let prompt = request.body["messages"].to_string();
    let last = request.body["messages"].as_array().and_then(|m| m.last()).map(|m| m["content"].to_string());
    let last = last.unwrap_or_default();
    let picking = request.body["response_format"]["json_schema"]["schema"]["properties"]["answer"].is_object();
    let content = if picking {
        // The number of the sentence block that says "18 days".
        let n = citation_for(&prompt).trim_matches(['[', ']']).parse::<u64>().unwrap_or(0);
        json!({"answer": [n]}).to_string()
    } else if last.contains("{\\\"sentences\\\"") {
        json!({"sentences": [{"text": SENTENCE, "key": citation_for(&prompt)}]}).to_string()
    } else if last.contains("\\\"enough\\\"") {
        json!({"enough": true, "missing": ""}).to_string()
    } else if last.contains("\\\"action\\\"") && !prompt.contains("Tool result") {
        json!({"action": "search", "query": "earned leave days per year"}).to_string()
    } else if last.contains("\\\"action\\\"") {
        json!({"action": "answer", "query": ""}).to_string()
    } else {
        // A free-text draft (no schema): cite the passage's number or key.
        format!("{SENTENCE} {}", citation_for(&prompt))
    };
    json!({"choices": [{"message": {"content": content}}], "usage": {"prompt_tokens": 10, "completion_tokens": 5}})
}

/// The agent's answer from the scripted local model; `refuse` makes the
/// server answer 400 to every request that carries `response_format`.
fn run(refuse: bool, cfg: &AgentConfig, drafting: Drafting) -> (Answer, Vec<Request>) {
    let server = Server::start(move |_, request| {
        if refuse && request.body.get("response_format").is_some() {
            let error = json!({"error": {"message": "Unrecognized request argument supplied: response_format"}});
            return Reply::json(400, &error);
        }
        Reply::json(200, &turn(request))
    });
    let spec = format!("openai:{}/v1:scripted-local", server.url);
    let model: Arc<dyn ChatModel> =
        Arc::from(from_spec(&spec, &ProviderOptions { max_attempts: 1, drafting, ..Default::default() }).unwrap());
    assert!(model.prefers_structured_output() || refuse, "a loopback server is local");
    let answer = ask_agent(
        &common::engine().reader(),
        model,
        &almirah_answer::question::Question::parse(QUESTION),
        common::today(),
        &|_: &str| {},
        cfg,
    )
    .unwrap();
    (answer, server.requests())
}

fn schema_names(requests: &[Request]) -> Vec<Vec<String>> {
    requests
        .iter()
        .map(|r| {
            let props = &r.body["response_format"]["json_schema"]["schema"]["properties"];
            props.as_object().map(|o| o.keys().cloned().collect()).unwrap_or_default()
        })
        .collect()
}

#[test]
fn a_local_model_gets_json_actions_and_picks_numbered_sentences_by_default() {
    let (a, requests) = run(false, &AgentConfig::default(), Drafting::default());
    assert!(!a.abstained, "{}", a.text);
    assert!(a.text.contains("18 days") && !fell_back(&a.trace), "the model's own answer: {}", a.text);
    assert!(a.citations.iter().all(|c| c.key.starts_with("leave-policy")), "{:?}", a.citations);
    let schemas = schema_names(&requests);
    assert!(schemas.first().is_some_and(|s| s.contains(&"action".to_string())), "{schemas:?}");
    let pick = requests
        .iter()
        .find(|r| r.body["response_format"]["json_schema"]["schema"]["properties"]["answer"].is_object())
        .expect("a pick request with a schema");
    let numbers = &pick.body["response_format"]["json_schema"]["schema"]["properties"]["answer"]["items"]["enum"];
    let numbers: Vec<u64> = numbers.as_array().unwrap().iter().filter_map(Value::as_u64).collect();
    assert_eq!(numbers, (1..=numbers.len() as u64).collect::<Vec<_>>(), "the numbers shown, from 1");
    // The answer is the picked sentence verbatim, as the document writes it.
    let sentence = a.text.split(" [").next().unwrap_or_default();
    let shown = pick.body["messages"].to_string();
    assert!(shown.contains(sentence), "{sentence:?} was one of the sentences shown");
    assert!(
        !requests
            .iter()
            .any(|r| r.body["response_format"]["json_schema"]["schema"]["properties"]["sentences"].is_object())
    );
}

#[test]
fn a_local_model_set_to_write_gets_a_draft_schema_of_the_shown_keys() {
    let (a, requests) = run(false, &AgentConfig::default(), Drafting::Write);
    assert!(!a.abstained, "{}", a.text);
    assert!(a.text.contains("18 days") && !fell_back(&a.trace), "the model's own answer: {}", a.text);
    assert!(a.citations.iter().all(|c| c.key.starts_with("leave-policy")), "{:?}", a.citations);
    assert!(requests.iter().all(|r| r.body.get("tools").is_none()), "no native tools in action mode");
    let schemas = schema_names(&requests);
    assert!(schemas.first().is_some_and(|s| s.contains(&"action".to_string())), "{schemas:?}");
    let draft = requests
        .iter()
        .find(|r| r.body["response_format"]["json_schema"]["schema"]["properties"]["sentences"].is_object());
    let keys = &draft.expect("a drafting request with a schema").body["response_format"]["json_schema"]["schema"]["properties"]
        ["sentences"]["items"]["properties"]["key"]["enum"];
    let keys: Vec<&str> = keys.as_array().unwrap().iter().filter_map(Value::as_str).collect();
    assert!(!keys.is_empty() && keys.iter().any(|k| k.starts_with("leave-policy")), "{keys:?}");
}

#[test]
fn an_explicit_action_mode_false_keeps_native_tools() {
    let cfg = AgentConfig { action_mode: Some(false), ..AgentConfig::default() };
    let (_, requests) = run(false, &cfg, Drafting::Write);
    assert!(requests.first().is_some_and(|r| r.body.get("tools").is_some()), "native tool calls offered");
    assert!(requests.first().is_some_and(|r| r.body.get("response_format").is_none()));
}

#[test]
fn a_server_that_refuses_response_format_is_asked_once_and_then_without_it() {
    let (a, requests) = run(true, &AgentConfig { action_mode: Some(true), ..AgentConfig::default() }, Drafting::Write);
    let with_schema = requests.iter().filter(|r| r.body.get("response_format").is_some()).count();
    assert_eq!(with_schema, 1, "one refusal, then remembered: {} requests", requests.len());
    assert!(requests.len() >= 3, "the loop went on without the schema");
    assert!(
        a.text.contains("18 days") && !fell_back(&a.trace),
        "the tolerant parser read the unconstrained replies: {}",
        a.text
    );
}
