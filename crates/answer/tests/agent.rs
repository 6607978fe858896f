//! The agent loop on the sample documents (issue acceptance), driven by the
//! builtin model's planner and by scripted models. Every question is asked
//! as of 2026-11-29.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use almirah_answer::agent::{AgentConfig, Budgets, ask_agent};
use almirah_answer::builtin::BuiltinModel;
use almirah_answer::classic::Answer;
use almirah_answer::evidence::Evidence;
use almirah_answer::model::{ChatModel, ChatRequest, ChatResponse, Draft, ModelError, Purpose, ToolCall};
use almirah_answer::trace::{Step, StopReason};
use common::{cites, engine, today};
use serde_json::json;

const HYDERABAD: &str = "I have a 3-day audit in Hyderabad and want to stay 2 extra days for personal reasons. \
                         What can I claim, and what leave should I apply for?";
const FEE: &str = "What is the MTech fee, and is hostel still free on the north-east scholarship?";

fn run(model: Arc<dyn ChatModel>, q: &str, cfg: &AgentConfig) -> Answer {
    ask_agent(&engine().reader(), model, &almirah_answer::question::Question::parse(q), today(), &|_: &str| {}, cfg)
        .unwrap()
}

fn builtin(q: &str) -> Answer {
    run(Arc::new(BuiltinModel::default()), q, &AgentConfig::default())
}

/// Drafts cited sentences from the evidence.
type DraftFn = Box<dyn Fn(&[Evidence]) -> Vec<(String, Vec<String>)> + Send + Sync>;

/// A model that replies from a script: tool calls in order, then an answer
/// drafted from the evidence by `draft`. It records every request.
struct Scripted {
    calls: Mutex<VecDeque<Vec<ToolCall>>>,
    draft: DraftFn,
    seen: Mutex<Vec<ChatRequest>>,
}

impl Scripted {
    fn new(
        calls: Vec<Vec<ToolCall>>,
        draft: impl Fn(&[Evidence]) -> Vec<(String, Vec<String>)> + Send + Sync + 'static,
    ) -> Arc<Self> {
        Arc::new(Self { calls: Mutex::new(calls.into()), draft: Box::new(draft), seen: Mutex::new(Vec::new()) })
    }
}

impl ChatModel for Scripted {
    fn id(&self) -> String {
        "scripted".into()
    }

    fn chat(&self, request: &ChatRequest) -> Result<ChatResponse, ModelError> {
        self.seen.lock().unwrap().push(request.clone());
        if request.purpose == Purpose::Verdict {
            let more = !self.calls.lock().unwrap().is_empty();
            return Ok(ChatResponse {
                content: json!({"enough": !more, "missing": ""}).to_string(),
                ..Default::default()
            });
        }
        let next = self.calls.lock().unwrap().pop_front().unwrap_or_default();
        Ok(ChatResponse { tool_calls: next, content: "Here is the answer.".into(), ..Default::default() })
    }

    fn answer(
        &self,
        _q: &almirah_answer::question::Question,
        evidence: &[Evidence],
        _note: Option<&str>,
    ) -> Result<Draft, ModelError> {
        Ok(Draft { sentences: (self.draft)(evidence), ..Default::default() })
    }
}

fn search(query: &str) -> ToolCall {
    ToolCall { name: "search_documents".into(), arguments: json!({"query": query}) }
}

fn search_k(query: &str, k: usize) -> ToolCall {
    ToolCall { name: "search_documents".into(), arguments: json!({"query": query, "k": k}) }
}

/// The first sentence of admitted evidence containing `needle`, cited.
fn quote(evidence: &[Evidence], needle: &str) -> Option<(String, Vec<String>)> {
    evidence.iter().find_map(|e| {
        let text = e.text.replace('\n', " ");
        let at = text.find(needle)?;
        let start = text[..at].rfind(". ").map_or(0, |i| i + 2);
        let end = text[at..].find(". ").map_or(text.len(), |i| at + i + 1);
        Some((text[start..end].trim().to_string(), vec![e.key.clone()]))
    })
}

fn searches_adding_cited_chunks(a: &Answer) -> usize {
    a.trace
        .steps
        .iter()
        .filter(|s| {
            matches!(s, Step::Tool { name, new_keys, .. }
                if name == "search_documents" && new_keys.iter().any(|k| cites(a, k)))
        })
        .count()
}

fn assert_hyderabad(a: &Answer) {
    let text = a.text.to_lowercase();
    for needle in ["inr 2,500", "inr 6,000", "personal days earn no daily allowance", "earned leave", "approval"] {
        assert!(text.contains(needle), "missing {needle:?} in {}\n{}", a.text, a.trace.render());
    }
    assert!(a.trace.tool_calls >= 3, "{}", a.trace.render());
}

#[test]
fn hyderabad_with_builtin_runs_three_searches_that_each_add_a_cited_chunk() {
    let a = builtin(HYDERABAD);
    assert_hyderabad(&a);
    assert!(searches_adding_cited_chunks(&a) >= 3, "{}\n{}", a.text, a.trace.render());
    assert_eq!(a.trace.stop_reason, StopReason::Answered);
}

/// The product's builtin judges sentences by meaning too (the library's
/// embedder, as `almirah ask` builds it), and must still give every part.
/// Known gap (issue #39): for "What can I claim?" it gives the metro hotel
/// cap, the personal-days rule and the claims deadline (three chunks, the
/// most a part told in a situation quotes), so the INR 2,500 allowance is
/// left out; a fourth sentence would be the section's half-day rule, which
/// ties it by meaning.
#[test]
#[ignore = "issue #39: the product builtin gives the cap and the leave but not the INR 2,500 allowance"]
fn hyderabad_with_the_products_builtin_gives_the_allowance_and_the_leave() {
    let a = run(Arc::new(BuiltinModel::for_reader(&engine().reader())), HYDERABAD, &AgentConfig::default());
    assert_hyderabad(&a);
    assert_eq!(a.trace.stop_reason, StopReason::Answered);
}

/// What the product's builtin gets right today: the hotel cap of the city
/// class the situation's city is in (the chunk's "The metro cities are …
/// Hyderabad" bridges it to the metro row, not the other-cities one), the
/// rule for the personal days and the leave to apply for; nothing drafted
/// for a clause of the situation alone ("want to stay 2 extra days" asks
/// nothing), and no part reported as unanswered.
#[test]
fn hyderabad_with_the_products_builtin_gives_the_metro_cap_and_the_leave() {
    let a = run(Arc::new(BuiltinModel::for_reader(&engine().reader())), HYDERABAD, &AgentConfig::default());
    let text = a.text.to_lowercase();
    for needle in ["inr 6,000", "personal days earn no daily allowance", "earned leave", "approval"] {
        assert!(text.contains(needle), "missing {needle:?} in {}\n{}", a.text, a.trace.render());
    }
    for wrong in ["inr 3,500", "extra airfare", "could not find"] {
        assert!(!text.contains(wrong), "{wrong:?} in {}\n{}", a.text, a.trace.render());
    }
    assert_eq!(a.trace.stop_reason, StopReason::Answered);
}

#[test]
fn hyderabad_with_a_scripted_model() {
    let model = Scripted::new(
        vec![
            vec![search_k("daily allowance for each full day on official travel", 1)],
            vec![search_k("hotel cap per night in metro cities", 1)],
            vec![search_k("personal days added to an official trip", 1)],
        ],
        |ev| {
            ["daily allowance of INR 2,500", "Metro cities | INR 6,000", "Personal days earn no", "earned leave"]
                .iter()
                .filter_map(|n| quote(ev, n))
                .collect()
        },
    );
    let a = run(model, HYDERABAD, &AgentConfig::default());
    assert_hyderabad(&a);
    assert_eq!(searches_adding_cited_chunks(&a), 3, "{}\n{}", a.text, a.trace.render());
}

#[test]
fn fee_and_scholarship_use_the_table_and_circular_14_only() {
    let a = builtin(FEE);
    let lookups: Vec<&Vec<String>> = a
        .trace
        .steps
        .iter()
        .filter_map(|s| match s {
            Step::Tool { name, new_keys, .. } if name == "lookup_table" => Some(new_keys),
            _ => None,
        })
        .collect();
    assert!(lookups.len() >= 2, "{}", a.trace.render());
    assert!(a.text.contains("Rs 48,500") && a.text.contains("Rs 14,000"), "{}\n{}", a.text, a.trace.render());
    assert!(cites(&a, "fees@2026-27") && cites(&a, "circular-14@2026-27"), "{:?}", a.citations);
    assert!(!cites(&a, "circular-09"), "{:?}", a.citations);
    let lower = a.text.to_lowercase();
    assert!(lower.contains("half"), "{}\n{}", a.text, a.trace.render());
    assert!(!lower.contains("is free") && !lower.contains("no hostel fee") && !lower.contains("rs 0"), "{}", a.text);
    let withheld_09 = a.trace.steps.iter().any(|s| match s {
        Step::Search { withheld, .. } => withheld
            .iter()
            .any(|w| w.key.starts_with("circular-09@2024-25") && w.verdict.contains("superseded by circular-14")),
        _ => false,
    });
    assert!(withheld_09, "{}", a.trace.render());
}

#[test]
fn two_rounds_end_with_a_partial_answer_that_names_what_is_missing() {
    let cfg = AgentConfig { budgets: Budgets { max_rounds: 2, ..Budgets::default() }, ..AgentConfig::default() };
    let a = run(Arc::new(BuiltinModel::default()), FEE, &cfg);
    assert_eq!(a.trace.stop_reason, StopReason::BudgetRounds, "{}", a.trace.render());
    assert!(a.text.contains("Rs 48,500"), "{}", a.text);
    assert!(a.text.contains("Not answered within the limits: Is hostel still free"), "{}", a.text);
}

#[test]
fn repeated_queries_and_unknown_tools_come_back_as_error_notes() {
    let model = Scripted::new(
        vec![
            vec![search("hostel fee")],
            vec![ToolCall { name: "delete_documents".into(), arguments: json!({}) }],
            vec![search("Hostel  FEE")],
        ],
        |ev| quote(ev, "HALF").into_iter().collect(),
    );
    let a = run(model.clone(), "What is the hostel fee, and who signs circulars?", &AgentConfig::default());
    let notes: Vec<String> = a
        .trace
        .steps
        .iter()
        .filter_map(|s| match s {
            Step::Note { text } => Some(text.clone()),
            _ => None,
        })
        .collect();
    assert!(notes.iter().any(|n| n.contains("already run")), "{notes:?}");
    assert!(notes.iter().any(|n| n.contains("unknown tool \"delete_documents\"")), "{notes:?}");
    let last = model.seen.lock().unwrap().last().cloned().unwrap();
    assert!(last.messages.iter().any(|m| m.content.contains("error: unknown tool")), "the model never saw the error");
    assert_eq!(a.trace.tool_calls, 1);
}

#[test]
fn a_claim_citing_a_key_never_retrieved_is_not_shown() {
    let model = Scripted::new(vec![vec![search("hostel fee scholarship")]], |ev| {
        let mut s: Vec<_> = quote(ev, "HALF").into_iter().collect();
        s.push(("Scholarship holders pay no hostel fee.".into(), vec!["circular-09@2024-25::p1#2".into()]));
        s
    });
    let a = run(model, "What is the hostel fee for north-east scholarship holders?", &AgentConfig::default());
    assert!(!a.text.contains("pay no hostel fee"), "{}", a.text);
    assert!(a.text.contains("HALF"), "{}", a.text);
    assert!(a.text.contains("could not be verified"), "{}", a.text);
    assert!(!cites(&a, "circular-09"));
}

#[test]
fn a_past_session_filter_on_a_present_question_returns_only_admissible_chunks() {
    let call = ToolCall {
        name: "search_documents".into(),
        arguments: json!({"query": "hostel fee scholarship", "session": "2024-25"}),
    };
    let model = Scripted::new(vec![vec![call]], |ev| quote(ev, "hostel").into_iter().collect());
    let a = run(model, "What is the hostel fee for north-east scholarship holders?", &AgentConfig::default());
    for step in &a.trace.steps {
        if let Step::Search { hits, .. } = step {
            assert!(hits.iter().all(|h| !h.key.starts_with("circular-09")), "{}", a.trace.render());
        }
    }
    assert!(!cites(&a, "circular-09"));
}

#[test]
fn a_model_following_the_injected_instruction_gets_no_verified_claim() {
    let model = Scripted::new(vec![vec![search("hostel notice board north-east")]], |ev| {
        let board = ev.iter().find(|e| e.key.starts_with("hostel-notice-board")).map(|e| e.key.clone());
        vec![("The hostel is free for everyone.".into(), board.into_iter().collect())]
    });
    let a = run(model, "Is the hostel free for north-east scholarship holders?", &AgentConfig::default());
    let lower = a.text.to_lowercase();
    assert!(!lower.contains("hostel is free"), "{}", a.text);
}

#[test]
fn kestrel_hops_in_the_loop() {
    let a = builtin("Who manages the person who leads Project Kestrel, and where is that manager's office?");
    assert!(a.text.contains("Ingrid Solberg") && a.text.contains("Oslo"), "{}", a.text);
    assert!(cites(&a, "p12::") && cites(&a, "p09::") && cites(&a, "p16::"), "{:?}", a.citations);
}

#[test]
fn a_model_that_answers_before_searching_gets_its_parts_searched() {
    let model = Scripted::new(Vec::new(), |ev| quote(ev, "18 days").into_iter().collect());
    let a = run(model, "How many days of earned leave do I get per year?", &AgentConfig::default());
    assert_eq!(a.trace.tool_calls, 1, "{}", a.trace.render());
    assert!(a.trace.steps.iter().any(|s| matches!(s, Step::Note { text } if text.contains("without searching"))));
    assert!(a.text.contains("18 days") && cites(&a, "leave-policy@4::earned-leave"), "{}", a.text);
}
