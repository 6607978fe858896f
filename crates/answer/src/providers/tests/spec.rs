//! Spec strings and the factory.

use serde_json::json;

use super::super::{ModelSpec, ProviderOptions, from_spec, parse_spec};
use super::{fast, request_with_tools};
use almirah_embed::test_server::{Reply, Server};

fn openai(url: &str, model: &str) -> ModelSpec {
    ModelSpec::OpenAi { url: url.into(), model: model.into() }
}

#[test]
fn accepted_forms() {
    assert_eq!(parse_spec(" builtin ").unwrap(), ModelSpec::Builtin);
    assert_eq!(
        parse_spec("ollama:qwen2.5-coder:1.5b").unwrap(),
        ModelSpec::Ollama { model: "qwen2.5-coder:1.5b".into() }
    );
    assert_eq!(parse_spec("gemini:gemini-2.5-flash").unwrap(), ModelSpec::Gemini { model: "gemini-2.5-flash".into() });
    let cases = [
        ("openai:http://127.0.0.1:8089/v1:qwen", openai("http://127.0.0.1:8089/v1", "qwen")),
        ("openai:http://127.0.0.1:11434/v1:qwen2.5:1.5b", openai("http://127.0.0.1:11434/v1", "qwen2.5:1.5b")),
        ("openai:https://api.openai.com/v1:gpt-4o-mini", openai("https://api.openai.com/v1", "gpt-4o-mini")),
        ("openai:http://localhost:8000:Qwen", openai("http://localhost:8000", "Qwen")),
        ("openai:http://h:8000/v1:Qwen/Qwen2.5-7B", openai("http://h:8000/v1", "Qwen/Qwen2.5-7B")),
    ];
    for (spec, want) in cases {
        assert_eq!(parse_spec(spec).unwrap(), want, "{spec}");
    }
}

#[test]
fn malformed_specs_list_the_accepted_forms() {
    for spec in [
        "",
        "llama",
        "claude:x",
        "ollama:",
        "gemini: ",
        "openai:http://127.0.0.1:8089/v1",
        "openai:http://127.0.0.1:8089",
        "openai:ftp://h/v1:m",
        "openai:qwen",
    ] {
        let text = parse_spec(spec).unwrap_err().to_string();
        assert!(text.contains(&format!("malformed model spec {:?}", spec.trim())), "{text}");
        assert!(text.contains("builtin, ollama:NAME, openai:URL:NAME"), "{text}");
    }
}

#[test]
fn the_factory_builds_each_kind() {
    assert_eq!(from_spec("builtin", &fast()).unwrap().id(), "builtin");
    assert_eq!(from_spec("ollama:qwen", &fast()).unwrap().id(), "ollama:qwen");
    let spec = "openai:http://127.0.0.1:1/v1:qwen";
    assert_eq!(from_spec(spec, &fast()).unwrap().id(), spec);
}

#[test]
fn ollama_url_override_and_no_key_for_local_servers() {
    let body = json!({"choices": [{"message": {"content": "hi"}}]});
    let server = Server::start(move |_, _| Reply::json(200, &body));
    let options = ProviderOptions { ollama_url: Some(format!("{}/v1/", server.url)), ..fast() };
    let model = from_spec("ollama:qwen2.5-coder:1.5b", &options).unwrap();
    assert_eq!(model.chat(&request_with_tools()).unwrap().content, "hi");
    let sent = &server.requests()[0];
    assert_eq!(sent.path, "/v1/chat/completions");
    assert_eq!(sent.body["model"], "qwen2.5-coder:1.5b");
    let local =
        from_spec(&format!("openai:{}/v1:m", server.url), &ProviderOptions { keyring: true, ..fast() }).unwrap();
    local.chat(&request_with_tools()).unwrap();
    assert!(!server.requests()[1].headers.contains_key("authorization"), "OPENAI_API_KEY never goes to a local server");
}

#[test]
fn a_missing_key_names_where_it_was_looked_for() {
    let options = ProviderOptions { api_key_env: Some("ALMIRAH_TEST_SURELY_UNSET_KEY".into()), ..fast() };
    for spec in ["gemini:gemini-2.5-flash", "openai:https://api.openai.com/v1:gpt-4o-mini"] {
        let err = from_spec(spec, &options).err().unwrap().to_string();
        assert!(err.contains("set $ALMIRAH_TEST_SURELY_UNSET_KEY (api_key_env names another)"), "{err}");
    }
}

#[test]
fn gemini_key_from_the_configured_variable_goes_in_the_header() {
    let body = json!({"candidates": [{"content": {"parts": [{"text": "ok"}]}}]});
    let server = Server::start(move |_, _| Reply::json(200, &body));
    let options = ProviderOptions { api_key_env: Some("PATH".into()), gemini_url: Some(server.url.clone()), ..fast() };
    let model = from_spec("gemini:models/gemini-2.5-flash", &options).unwrap();
    assert_eq!(model.chat(&request_with_tools()).unwrap().content, "ok");
    let sent = &server.requests()[0];
    assert_eq!(sent.path, "/v1beta/models/gemini-2.5-flash:generateContent");
    assert_eq!(sent.headers["x-goog-api-key"], std::env::var("PATH").unwrap().trim());
}

#[test]
fn options_deserialise_from_a_partial_table() {
    let options: ProviderOptions =
        serde_json::from_value(json!({"request_timeout_ms": 60000, "temperature": 0.2})).unwrap();
    assert_eq!(options.request_timeout_ms, 60_000);
    assert_eq!(options.temperature, 0.2);
    assert_eq!(options.max_attempts, ProviderOptions::default().max_attempts);
    assert!(options.keyring);
}
