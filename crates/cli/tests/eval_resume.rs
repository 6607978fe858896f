//! `almirah eval --journal` (issue #40): a run killed in the middle of a
//! question resumes on the next run and never asks the model a finished
//! question again. A scripted model behind a loopback OpenAI-compatible
//! server plays the configured model and records every question it is
//! asked.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::path::Path;
use std::time::{Duration, Instant};

use almirah_embed::test_server::{Reply, Server};
use serde_json::json;

fn repo() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// A reply that cites nothing, so the builtin answers for the model.
fn reply() -> Reply {
    Reply::json(
        200,
        &json!({"choices": [{"message": {"content": "The documents do not say."}}],
                "usage": {"prompt_tokens": 10, "completion_tokens": 5}}),
    )
}

/// The questions of `server`'s requests, out of `questions`.
fn asked<'a>(server: &Server, questions: &[&'a str]) -> Vec<&'a str> {
    let prompts: Vec<String> = server.requests().iter().map(|r| r.body["messages"].to_string()).collect();
    questions.iter().copied().filter(|q| prompts.iter().any(|p| p.contains(q))).collect()
}

fn journal_lines(path: &Path) -> usize {
    std::fs::read_to_string(path).map(|t| t.lines().count()).unwrap_or(0)
}

#[test]
fn a_killed_run_resumes_without_asking_a_finished_question_again() {
    let lines: Vec<String> = std::fs::read_to_string(repo().join("eval/llm-30/sample-docs.jsonl"))
        .unwrap()
        .lines()
        .take(4)
        .map(str::to_string)
        .collect();
    let questions: Vec<String> = lines
        .iter()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["question"].as_str().unwrap().to_string())
        .collect();
    let questions: Vec<&str> = questions.iter().map(String::as_str).collect();
    let tmp = tempfile::tempdir().unwrap();
    let set = tmp.path().join("set.jsonl");
    std::fs::write(&set, lines.iter().map(|l| format!("{l}\n")).collect::<String>()).unwrap();
    let journal = tmp.path().join("journal.jsonl");

    // The writing path, so every question reaches the model (a local model
    // that picks is not called when the builtin abstains).
    let lib = common::Library::with_config(
        "[embedder]\nprovider = \"hash\"\ndimensions = 64\n[index]\nbatch_max_chunks = 64\n[model]\ndrafting = \"write\"\n",
    );
    let out = lib.run(&["index", "--quiet", repo().join("sample-docs").to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));

    // First run: the model hangs on the third question, and the run is killed there.
    let third = questions[2].to_string();
    let hanging = Server::start(move |_, request| {
        if request.body["messages"].to_string().contains(&third) {
            std::thread::sleep(Duration::from_secs(600));
        }
        reply()
    });
    let spec = |server: &Server| format!("openai:{}/v1:scripted", server.url);
    let args = |spec: &str| {
        let mut a: Vec<String> =
            ["eval", set.to_str().unwrap(), "--mode", "classic", "--model", spec].map(String::from).to_vec();
        a.extend(["--journal", journal.to_str().unwrap(), "--run-key", "scripted@test"].map(String::from));
        a
    };
    let first_args = args(&spec(&hanging));
    let mut child = lib.cmd(&first_args.iter().map(String::as_str).collect::<Vec<_>>()).spawn().unwrap();
    let started = Instant::now();
    while !(journal_lines(&journal) == 2 && asked(&hanging, &questions).contains(&questions[2])) {
        assert!(started.elapsed() < Duration::from_secs(120), "the first run never reached the third question");
        assert!(child.try_wait().unwrap().is_none(), "the first run ended before it was killed");
        std::thread::sleep(Duration::from_millis(50));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(asked(&hanging, &questions), questions[..3].to_vec());

    // Second run: only the third and fourth questions reach the model.
    let answering = Server::start(|_, _| reply());
    let second_args = args(&spec(&answering));
    let v = lib.json(&second_args.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(asked(&answering, &questions), questions[2..].to_vec(), "finished questions are not asked again");
    assert_eq!(v["summaries"][0]["questions"], 4, "the table covers every question");
    let ids: Vec<&str> = v["results"].as_array().unwrap().iter().map(|r| r["id"].as_str().unwrap()).collect();
    let expected: Vec<String> = lines
        .iter()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(ids, expected.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(journal_lines(&journal), 4, "each question is journalled once");

    // Out of time from the start: nothing is asked, and the run says so.
    let idle = Server::start(|_, _| reply());
    let mut late: Vec<String> = args(&spec(&idle));
    *late.last_mut().unwrap() = "scripted@late".into();
    late.extend(["--time-limit", "0"].map(String::from));
    let out = lib.run(&late.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(idle.count(), 0);
    assert!(String::from_utf8_lossy(&out.stderr).contains("4 question(s) not run (time limit)"));

    // A third run under another key answers everything again.
    let fresh = Server::start(|_, _| reply());
    let mut other: Vec<String> = args(&spec(&fresh));
    *other.last_mut().unwrap() = "scripted@other-commit".into();
    let out = lib.run(&other.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(asked(&fresh, &questions), questions);
}
