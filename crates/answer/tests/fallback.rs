//! The builtin fallback (issue 18): when the configured model gives no
//! verified sentence, the builtin answers from the same admitted evidence
//! and the answer and the trace say so; a model that cannot be reached is
//! reported as a provider error, never papered over. A scripted model
//! behind a loopback OpenAI-compatible server plays the configured model.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use almirah_answer::classic::{Answer, ask};
use almirah_answer::fallback::fell_back;
use almirah_answer::providers::{Drafting, ProviderOptions, from_spec};
use almirah_answer::trace::{Step, StopReason};
use almirah_embed::test_server::{Reply, Server};
use serde_json::json;

const QUESTION: &str = "How many days of earned leave do I get per year?";

/// The answer when the scripted model replies `content` (or `status` 500);
/// `{18}` in `content` becomes the number of the passage that says "18 days".
fn answer_with(status: u16, content: &'static str) -> (Answer, String) {
    let server = Server::start(move |_, request| {
        let prompt = request.body["messages"].to_string();
        let n = prompt
            .split("<passage n=\\\"")
            .skip(1)
            .find(|block| block.contains("18 days"))
            .and_then(|block| block.split('\\').next())
            .unwrap_or("1")
            .to_string();
        let reply = content.replace("{18}", &n);
        Reply::json(
            status,
            &json!({"choices": [{"message": {"content": reply}}], "usage": {"prompt_tokens": 10, "completion_tokens": 5}}),
        )
    });
    let spec = format!("openai:{}/v1:scripted", server.url);
    // The writing path: a local server would pick by default.
    let options = ProviderOptions { max_attempts: 1, drafting: Drafting::Write, ..Default::default() };
    let model = from_spec(&spec, &options).unwrap();
    let answer = ask(
        &common::engine().reader(),
        model.as_ref(),
        &almirah_answer::question::Question::parse(QUESTION),
        common::today(),
        &|_: &str| {},
    )
    .unwrap();
    (answer, model.id())
}

fn fallback_step(a: &Answer) -> Option<(String, String, usize)> {
    a.trace.steps.iter().find_map(|s| match s {
        Step::Fallback { from, reason, sentences } => Some((from.clone(), reason.clone(), *sentences)),
        _ => None,
    })
}

#[test]
fn a_draft_that_fails_every_check_is_replaced_by_the_builtin_and_labelled() {
    // Cites a shown passage, but the leave policy says nothing of the kind.
    let (a, id) = answer_with(200, "Earned leave doubles every year and is paid twice. [1]");
    assert!(!a.abstained, "{}", a.text);
    assert!(a.text.contains("18"), "the builtin's verbatim sentence answers: {}", a.text);
    assert!(!a.text.contains("doubles"), "{}", a.text);
    let (from, reason, sentences) = fallback_step(&a).expect("a fallback step in the trace");
    assert_eq!(from, id);
    assert!(reason.contains("failed the checks"), "{reason}");
    assert!(sentences >= 1);
    assert!(
        a.text.ends_with(&format!("(Answered by the builtin extractive model: {id} {reason}.)")),
        "the answer says who wrote it: {}",
        a.text
    );
    assert!(fell_back(&a.trace));
    let model_calls = a.trace.steps.iter().filter(|s| matches!(s, Step::Model { .. })).count();
    assert_eq!(model_calls, 2, "the draft and its one regeneration, then the builtin");
    assert!(
        !a.citations.is_empty() && a.citations.iter().all(|c| c.key.starts_with("leave-policy")),
        "{:?}",
        a.citations
    );
}

#[test]
fn an_abstaining_model_is_replaced_when_the_builtin_finds_the_answer() {
    let (a, _) = answer_with(200, "I could not find this in the documents.");
    let (_, reason, _) = fallback_step(&a).expect("a fallback step");
    assert_eq!(reason, "abstained");
    assert!(a.text.contains("18") && a.text.contains("abstained.)"), "{}", a.text);
}

#[test]
fn a_verified_draft_is_kept_and_an_unreachable_model_is_not_replaced() {
    let (a, _) = answer_with(200, "Employees earn 18 days of earned leave per year. [{18}]");
    assert!(fallback_step(&a).is_none(), "{:?}", a.trace.steps);
    assert!(!a.text.contains("builtin"), "{}", a.text);
    let (down, _) = answer_with(500, "");
    assert!(fallback_step(&down).is_none(), "{:?}", down.trace.steps);
    assert_eq!(down.trace.stop_reason, StopReason::ProviderUnavailable, "{}", down.text);
    assert!(down.text.starts_with("Could not answer"), "{}", down.text);
}
