//! One question, one gate (issue 14): an agent answer opens one read
//! transaction and builds the gate once, however many tool calls it makes,
//! and a new version committed between two of its tool calls (at the
//! `agent-between-tool-calls` failpoint, not after a sleep) does not change
//! what that answer sees. Alone in its test binary: the failpoint hook is
//! process-wide.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod attack;

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use almirah_answer::agent::{AgentConfig, ask_agent};
use almirah_answer::evidence::Evidence;
use almirah_answer::model::{ChatModel, ChatRequest, ChatResponse, Draft, ModelError, Purpose, ToolCall};
use almirah_core::read::ChunkRead;
use almirah_core::{NoProgress, failpoint};
use attack::{Expect, Library};
use serde_json::json;

const COUPONS: &str = "c-canteen::coupons#1";
const OLD: &str = "Meal coupons are issued by the administration office every month.";
const NEW: &str = "Meal coupons are issued by the canteen committee every fortnight CANARYNEWCOUPONS.";

struct Script(Mutex<VecDeque<Vec<ToolCall>>>);

impl ChatModel for Script {
    fn id(&self) -> String {
        "script".into()
    }

    fn chat(&self, request: &ChatRequest) -> Result<ChatResponse, ModelError> {
        let mut rounds = self.0.lock().unwrap();
        if request.purpose == Purpose::Verdict {
            let content = json!({"enough": rounds.is_empty(), "missing": ""}).to_string();
            return Ok(ChatResponse { content, ..Default::default() });
        }
        Ok(ChatResponse { tool_calls: rounds.pop_front().unwrap_or_default(), ..Default::default() })
    }

    fn answer(
        &self,
        _q: &almirah_answer::question::Question,
        evidence: &[Evidence],
        _note: Option<&str>,
    ) -> Result<Draft, ModelError> {
        let sentences = evidence.iter().map(|e| (e.text.trim().to_string(), vec![e.key.clone()])).collect();
        Ok(Draft { sentences, ..Default::default() })
    }
}

fn fixture(dir: &std::path::Path) {
    std::fs::write(dir.join("a-holidays.md"), "# Office holidays\n\nThe office closes on 26 January.\n").unwrap();
    let canteen = format!("# Canteen\n\nThe canteen serves lunch from 12:30 to 14:30.\n\n## Coupons\n\n{OLD}\n");
    std::fs::write(dir.join("c-canteen.md"), canteen).unwrap();
}

#[test]
fn an_agent_answer_reads_one_snapshot_while_a_new_version_is_committed_between_its_tool_calls() {
    let lib: &'static Library = Box::leak(Box::new(Library::build("canteen", fixture, |_| Expect::Admitted, false)));
    let source: PathBuf = lib.source().to_path_buf();
    let committed = Arc::new(AtomicBool::new(false));
    let flag = committed.clone();
    failpoint::set_hook("agent-between-tool-calls", move || {
        if flag.swap(true, Ordering::SeqCst) {
            return;
        }
        let canteen = format!("# Canteen\n\nThe canteen serves lunch from 12:30 to 14:30.\n\n## Coupons\n\n{NEW}\n");
        std::fs::write(source.join("c-canteen.md"), canteen).unwrap();
        lib.engine.index(std::slice::from_ref(&source), &NoProgress, &AtomicBool::new(false)).unwrap();
    });
    let rounds = vec![
        vec![ToolCall { name: "search_documents".into(), arguments: json!({"query": "canteen lunch hours"}) }],
        vec![ToolCall { name: "read_chunk".into(), arguments: json!({"key": COUPONS}) }],
        vec![ToolCall { name: "search_documents".into(), arguments: json!({"query": "meal coupons"}) }],
    ];
    let model = Arc::new(Script(Mutex::new(rounds.into())));
    let today = chrono::NaiveDate::from_ymd_opt(2026, 11, 29).unwrap();
    let (txns, gates) = lib.engine.read_stats().counts();
    let a = ask_agent(
        &lib.engine.reader(),
        model,
        &almirah_answer::question::Question::parse("When are meal coupons issued?"),
        today,
        &|_: &str| {},
        &AgentConfig::default(),
    )
    .unwrap();
    failpoint::clear_hook("agent-between-tool-calls");
    assert!(committed.load(Ordering::SeqCst), "the failpoint never fired: {}", a.trace.render());
    assert_eq!(lib.engine.read_stats().counts(), (txns + 1, gates + 1), "one read transaction and one gate per answer");
    assert!(a.trace.tool_calls >= 3, "{}", a.trace.render());
    assert!(a.text.contains(OLD), "the answer reads the version it started with: {}", a.text);
    assert!(!serde_json::to_string(&a).unwrap().contains("CANARYNEWCOUPONS"), "{}", a.text);
    assert!(a.citations.iter().any(|c| c.key == COUPONS), "{:?}", a.citations);
    // The next question sees the new version.
    let now = lib.engine.snapshot(lib.engine.as_of(Some(today), None)).unwrap();
    match now.read_chunk(COUPONS).unwrap() {
        ChunkRead::Admitted { hit } => assert!(hit.text.contains("CANARYNEWCOUPONS"), "{}", hit.text),
        other => panic!("{other:?}"),
    }
}
