//! Numbered evidence (issue 18): a drafting model sees passages `[1]`…`[n]`
//! without their chunk keys and cites numbers; code maps the numbers back.
//! A scripted model behind a loopback OpenAI-compatible server cites a
//! passage it was shown, a number past the last passage, passage 0, and the
//! real key of an admissible chunk it was not shown in that call: only the
//! shown passage may reach the answer.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::sync::{Arc, Mutex};

use almirah_answer::providers::{Drafting, ProviderOptions, from_spec};
use almirah_core::SearchOptions;
use almirah_embed::test_server::{Reply, Server};
use serde_json::json;

/// `(number, text)` of every `<passage n="…">` block of a prompt.
fn passages(prompt: &str) -> Vec<(usize, String)> {
    prompt
        .split("<passage n=\"")
        .skip(1)
        .filter_map(|block| {
            let (n, rest) = block.split_once('"')?;
            let body = rest.split_once(">\n")?.1.split("</passage>").next()?;
            Some((n.parse().ok()?, body.trim().to_string()))
        })
        .collect()
}

/// The first sentence of `text`, up to its full stop.
fn first_sentence(text: &str) -> String {
    let line = text.lines().find(|l| l.contains("18 days")).or_else(|| text.lines().find(|l| l.trim().len() > 20));
    let line = line.unwrap_or(text).trim();
    line.split_inclusive(". ").next().unwrap_or(line).trim().trim_end_matches('.').to_string()
}

#[test]
fn only_passages_shown_in_the_drafting_call_are_cited() {
    let engine = common::engine();
    let question = "How many days of earned leave do I get per year?";
    // An admissible chunk of another document, which this question's search does not return.
    let other = engine
        .search(
            "airport taxi reimbursement for official travel",
            &SearchOptions::default(),
            engine.as_of(Some(common::today()), None),
            0,
        )
        .unwrap();
    let foreign =
        other.results.hits.iter().find(|h| !h.path.ends_with("leave-policy.md")).expect("a travel chunk").key.clone();
    let prompts = Arc::new(Mutex::new(Vec::<String>::new()));
    let seen = prompts.clone();
    let foreign_key = foreign.clone();
    let server = Server::start(move |_, request| {
        let prompt: String = request.body["messages"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["content"].as_str().unwrap_or_default().to_string())
            .collect::<Vec<_>>()
            .join("\n");
        let shown = passages(&prompt);
        seen.lock().unwrap().push(prompt);
        let pick = shown.iter().find(|(_, t)| t.contains("18 days")).or(shown.first());
        let (n, text) = pick.cloned().unwrap_or((1, String::new()));
        let reply = format!(
            "{}. [{n}] The leave doubles every year. [{}] Unused leave is paid twice. [0] Travel is free. [{foreign_key}]",
            first_sentence(&text),
            shown.len() + 1
        );
        Reply::json(
            200,
            &json!({"choices": [{"message": {"content": reply}}], "usage": {"prompt_tokens": 10, "completion_tokens": 5}}),
        )
    });
    let model = from_spec(&format!("openai:{}/v1:scripted", server.url), &ProviderOptions::default()).unwrap();
    let answer = almirah_answer::classic::ask(
        &engine.reader(),
        model.as_ref(),
        &almirah_answer::question::Question::parse(question),
        common::today(),
        &|_: &str| {},
    )
    .unwrap();

    let prompts = prompts.lock().unwrap();
    assert!(!prompts.is_empty(), "the model was called");
    for p in prompts.iter() {
        assert!(!p.contains("::"), "no chunk key is shown to the drafting model:\n{p}");
        assert!(!passages(p).is_empty(), "the evidence is numbered:\n{p}");
    }
    assert!(!answer.abstained, "{}", answer.text);
    assert!(answer.text.contains("18"), "the shown passage's sentence stays: {}", answer.text);
    for dropped in ["doubles every year", "paid twice", "Travel is free"] {
        assert!(!answer.text.contains(dropped), "{dropped:?} cites nothing shown and must go: {}", answer.text);
    }
    let retrieved: Vec<String> = answer
        .trace
        .steps
        .iter()
        .filter_map(|s| match s {
            almirah_answer::trace::Step::Search { hits, .. } => Some(hits.iter().map(|h| h.key.clone())),
            _ => None,
        })
        .flatten()
        .collect();
    assert!(!retrieved.contains(&foreign), "the foreign chunk was not among this question's evidence");
    assert_eq!(answer.citations.len(), 1, "one shown passage cited: {:?}", answer.citations);
    assert!(retrieved.contains(&answer.citations[0].key), "{:?}", answer.citations);
    assert_ne!(answer.citations[0].key, foreign);
}

#[test]
fn a_local_model_reads_the_focused_passages_best_first() {
    let engine = common::engine();
    let question = "How many days of earned leave do I get per year?";
    let hits = engine
        .search(question, &SearchOptions::default(), engine.as_of(Some(common::today()), None), 0)
        .unwrap()
        .results
        .hits;
    assert!(hits.len() > almirah_answer::focus::Focus::SMALL.passages, "more chunks retrieved than shown");
    // Every retrieved key, written out: only the shown ones may cite.
    let written: String = hits.iter().map(|h| format!(" [{}]", h.key)).collect();
    let prompts = Arc::new(Mutex::new(Vec::<String>::new()));
    let seen = prompts.clone();
    let server = Server::start(move |_, request| {
        let prompt = request.body["messages"].to_string().replace("\\n", "\n").replace("\\\"", "\"");
        let first = passages(&prompt).first().map(|(_, t)| first_sentence(t)).unwrap_or_default();
        seen.lock().unwrap().push(prompt);
        let reply = format!("{first}. [1] Leave is also granted for other reasons.{written}");
        Reply::json(
            200,
            &json!({"choices": [{"message": {"content": reply}}], "usage": {"prompt_tokens": 10, "completion_tokens": 5}}),
        )
    });
    let options = ProviderOptions { drafting: Drafting::Write, ..Default::default() };
    let model = from_spec(&format!("openai:{}/v1:scripted-local", server.url), &options).unwrap();
    assert!(model.reads_focused_evidence(), "a loopback server is a local model");
    let answer = almirah_answer::classic::ask(
        &engine.reader(),
        model.as_ref(),
        &almirah_answer::question::Question::parse(question),
        common::today(),
        &|_: &str| {},
    )
    .unwrap();

    let prompts = prompts.lock().unwrap();
    let shown = passages(&prompts[0]);
    assert!(shown.len() <= almirah_answer::focus::Focus::SMALL.passages, "{} passages shown", shown.len());
    assert!(shown[0].1.contains("18 days"), "the answering passage is [1]: {:?}", shown[0]);
    for (n, text) in &shown {
        assert!(text.split_whitespace().count() <= almirah_answer::focus::Focus::SMALL.words + 2, "[{n}] {text}");
    }
    assert!(prompts[0].contains("The question asks for a length of time"), "the answer type is named");
    assert!(answer.text.contains("18 days"), "{}", answer.text);
    let cited: Vec<&str> = answer.citations.iter().map(|c| c.key.as_str()).collect();
    assert_eq!(cited.len(), 1, "only [1] was shown and cited: {cited:?}");
    assert!(cited[0].starts_with("leave-policy@4::earned-leave"), "{cited:?}");
}
