//! The attacker on the wire: the passages it reads out of a prompt, and its
//! replies behind an OpenAI-compatible `/v1/chat/completions`.

use almirah_embed::test_server::Reply;
use serde_json::json;

use super::{Attacker, Turn, without_echoes};

/// The passages of a drafting prompt: `<document key="K" …>TEXT</document>`.
/// The blocks of a prompt as (what to cite, text): a tool result's
/// `<document key="…">` gives its key, a drafting prompt's `<passage n="…">`
/// its number.
pub(super) fn passages(prompt: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (open, attr, close) in [("<document ", "key=\"", "</document>"), ("<passage ", "n=\"", "</passage>")] {
        for block in prompt.split(open).skip(1) {
            let Some(key) = block.split(attr).nth(1).and_then(|r| r.split('"').next()) else { continue };
            let body = block.split_once(">\n").map_or("", |(_, b)| b);
            let text = body.split(close).next().unwrap_or_default();
            out.push((key.replace("&quot;", "\"").replace("&amp;", "&"), text.to_string()));
        }
    }
    out
}

/// The attacker behind an OpenAI-compatible `/v1/chat/completions`: the
/// reply to one request body.
pub(super) fn http_reply(attacker: &Attacker, body: &serde_json::Value) -> Reply {
    let messages = body["messages"].as_array().cloned().unwrap_or_default();
    let mut prompt = String::new();
    for m in messages.iter().filter(|m| m["role"] != "assistant") {
        let content = m["content"].as_str().unwrap_or_default();
        attacker.record(&without_echoes(content));
        prompt.push_str(content);
        prompt.push('\n');
    }
    let content = |text: String| json!({"choices": [{"message": {"content": text}}], "usage": {"prompt_tokens": 10, "completion_tokens": 5}});
    if body.get("tools").is_none() && body.get("response_format").is_none() {
        let draft = attacker.draft(&passages(&prompt));
        let text: Vec<String> =
            draft.iter().map(|(s, keys)| format!("{} [{}]", s.trim_end_matches('.'), keys.join("] ["))).collect();
        return Reply::json(200, &content(text.join(". ")));
    }
    match attacker.turn(body.get("tools").is_none()) {
        Turn::Verdict(done) => Reply::json(200, &content(json!({"enough": done, "missing": ""}).to_string())),
        Turn::Calls(calls) => {
            let wire: Vec<serde_json::Value> = calls
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    json!({"id": format!("call_{i}"), "type": "function",
                    "function": {"name": c.name, "arguments": c.arguments.to_string()}})
                })
                .collect();
            Reply::json(200, &json!({"choices": [{"message": {"content": null, "tool_calls": wire}}]}))
        }
        Turn::Answer => Reply::json(200, &content("Here is the answer.".into())),
    }
}
