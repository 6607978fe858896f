//! The qualifier check (issue #40) against a scripted model behind a
//! loopback OpenAI-compatible server: a model that states the full hostel
//! fee for the fee north-east scholarship holders pay cites a sentence
//! about everyone. The check rejects the claim, and the retry note the
//! model gets names the qualifier it left out. The same for polarity: a
//! model that states the paid parental leave for a question about unpaid
//! leave answers the opposite question.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use almirah_answer::classic::{Answer, ask};
use almirah_answer::providers::{Drafting, ProviderOptions, from_spec};
use almirah_answer::question::Question;
use almirah_answer::trace::Step;
use almirah_embed::test_server::{Reply, Server};
use serde_json::json;

const FULL_FEE: &str = "The hostel fee is Rs 14,000 a semester.";

const PAID_LEAVE: &str = "Other parents get 4 weeks of paid parental leave.";

/// The number of the first shown passage that holds one of `marks`.
fn passage_with(prompt: &str, marks: &[&str]) -> Option<String> {
    prompt
        .split("<passage n=\\\"")
        .skip(1)
        .find(|block| marks.iter().any(|m| block.contains(m)))
        .and_then(|block| block.split('\\').next())
        .map(str::to_string)
}

/// The number of the first shown passage that states the full fee.
fn full_fee_passage(prompt: &str) -> Option<String> {
    passage_with(prompt, &["14,000", "14000"])
}

/// Ask `question` of a model that always states the full fee, citing the
/// passage that holds it; the server keeps every prompt.
fn ask_full_fee(question: &str) -> (Answer, Server) {
    ask_claiming(question, FULL_FEE, &["14,000", "14000"])
}

/// Ask `question` of a model that always says `claim`, citing the first
/// passage that holds one of `marks`; the server keeps every prompt.
fn ask_claiming(question: &str, claim: &'static str, marks: &'static [&'static str]) -> (Answer, Server) {
    let server = Server::start(move |_, request| {
        let prompt = request.body["messages"].to_string();
        let n = passage_with(&prompt, marks).unwrap_or_else(|| "1".into());
        Reply::json(
            200,
            &json!({"choices": [{"message": {"content": format!("{claim} [{n}]")}}],
                    "usage": {"prompt_tokens": 10, "completion_tokens": 5}}),
        )
    });
    let spec = format!("openai:{}/v1:scripted", server.url);
    let model = from_spec(&spec, &ProviderOptions { max_attempts: 1, drafting: Drafting::Write, ..Default::default() })
        .unwrap();
    let q = Question::parse(question);
    let answer = ask(&common::engine().reader(), model.as_ref(), &q, common::today(), &|_: &str| {}).unwrap();
    (answer, server)
}

fn checks(a: &Answer) -> Vec<(String, String)> {
    a.trace
        .steps
        .iter()
        .filter_map(|s| match s {
            Step::Check { sentence, verdict } => Some((sentence.clone(), verdict.clone())),
            _ => None,
        })
        .collect()
}

#[test]
fn the_full_fee_for_the_north_east_fee_is_rejected_and_the_retry_names_the_qualifier() {
    let (a, server) = ask_full_fee("How much hostel fee do north-east scholarship holders pay?");
    let first = server.requests()[0].body["messages"].to_string();
    assert!(full_fee_passage(&first).is_some(), "the prompt shows a passage with the full fee: {first}");
    let checks = checks(&a);
    assert!(!checks.is_empty(), "{:?}", a.trace.steps);
    for (sentence, verdict) in &checks {
        assert!(sentence.contains("14,000"), "{sentence}");
        assert!(verdict.contains("without \"north-east\""), "the check names the qualifier: {verdict}");
    }
    let requests = server.requests();
    assert_eq!(requests.len(), 2, "the draft and its one regeneration");
    let retry = requests[1].body["messages"].to_string();
    assert!(retry.contains("north-east"), "the retry note names the qualifier: {retry}");
    assert!(!a.text.contains(FULL_FEE), "the unqualified claim is never shown: {}", a.text);
}

#[test]
fn the_same_claim_for_the_unqualified_question_passes() {
    let (a, server) = ask_full_fee("What is the hostel fee per semester?");
    assert_eq!(server.requests().len(), 1, "no regeneration: {:?}", checks(&a));
    assert!(checks(&a).iter().all(|(_, verdict)| verdict == "ok"), "{:?}", checks(&a));
    assert!(a.text.contains("14,000"), "{}", a.text);
}

#[test]
fn paid_leave_for_an_unpaid_leave_question_is_rejected_and_the_retry_names_the_word_asked() {
    let (a, server) =
        ask_claiming("How many weeks of unpaid parental leave can other parents take?", PAID_LEAVE, &["paid parental"]);
    let first = server.requests()[0].body["messages"].to_string();
    assert!(passage_with(&first, &["paid parental"]).is_some(), "the prompt shows the paid-leave passage: {first}");
    let checks = checks(&a);
    assert!(!checks.is_empty(), "{:?}", a.trace.steps);
    for (_, verdict) in &checks {
        assert!(
            verdict.contains("asks about unpaid parental") && verdict.contains("speaks of paid parental"),
            "{verdict}"
        );
    }
    let requests = server.requests();
    assert_eq!(requests.len(), 2, "the draft and its one regeneration");
    assert!(requests[1].body["messages"].to_string().contains("unpaid"), "the retry note names the word asked");
    assert!(!a.text.contains("4 weeks of paid parental leave"), "the opposite is never shown: {}", a.text);
}

#[test]
fn the_same_claim_for_the_paid_leave_question_passes() {
    let (a, server) =
        ask_claiming("How many weeks of paid parental leave do other parents get?", PAID_LEAVE, &["paid parental"]);
    assert_eq!(server.requests().len(), 1, "no regeneration: {:?}", checks(&a));
    assert!(a.text.contains("4 weeks of paid parental leave"), "{}", a.text);
}
