//! `almirah eval` on a generated real set: HotpotQA's pooled paragraphs
//! (scripts/eval/prepare.py), rankers scored alone and an answering mode.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::path::Path;
use std::process::Command;

fn repo() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// Run prepare.py into `out` (documents in `out/data`, questions in `out/eval`).
fn prepare(out: &Path) {
    std::fs::create_dir_all(out.join("eval")).unwrap();
    let status = Command::new("python3")
        .arg(repo().join("scripts/eval/prepare.py"))
        .arg("--corpora")
        .arg(common::corpora())
        .arg("--data")
        .arg(out.join("data"))
        .arg("--questions")
        .arg(out.join("eval"))
        .status()
        .expect("python3 runs");
    assert!(status.success());
}

#[test]
fn generated_sets_match_the_committed_ones() {
    let tmp = tempfile::tempdir().unwrap();
    prepare(tmp.path());
    for set in ["hotpotqa", "musique", "musique-unanswerable", "scifact"] {
        let made = std::fs::read_to_string(tmp.path().join(format!("eval/{set}.jsonl"))).unwrap();
        let committed = std::fs::read_to_string(repo().join(format!("eval/{set}.jsonl"))).unwrap();
        assert!(made == committed, "eval/{set}.jsonl differs from what scripts/eval/prepare.py writes");
    }
    let paragraphs = std::fs::read_dir(tmp.path().join("data/hotpotqa")).unwrap().count();
    assert_eq!(paragraphs, 994, "HotpotQA's pooled corpus");
    let unanswerable = std::fs::read_dir(tmp.path().join("data/musique-unanswerable")).unwrap().count();
    let pool = std::fs::read_dir(tmp.path().join("data/musique")).unwrap().count();
    assert!(unanswerable < pool, "the last-hop paragraphs are removed ({unanswerable} of {pool})");
}

#[test]
fn hotpotqa_rankers_and_classic_answers_are_scored_against_the_gold_paragraphs() {
    let tmp = tempfile::tempdir().unwrap();
    prepare(tmp.path());
    let set = tmp.path().join("first-20.jsonl");
    let all = std::fs::read_to_string(tmp.path().join("eval/hotpotqa.jsonl")).unwrap();
    std::fs::write(&set, all.lines().take(20).map(|l| format!("{l}\n")).collect::<String>()).unwrap();

    let lib = common::Library::hash(64);
    let docs = tmp.path().join("data/hotpotqa");
    let out = lib.run(&["index", "--quiet", docs.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let report = tmp.path().join("report");
    let v = lib.json(&["eval", set.to_str().unwrap(), "--mode", "bm25,classic", "--report", report.to_str().unwrap()]);

    let bm25 = &v["retrieval"]["summaries"][0];
    assert_eq!(bm25["mode"], "bm25");
    assert_eq!(bm25["questions"], 20);
    let (r5, r10, ndcg) = (
        bm25["recall_at_5"].as_f64().unwrap(),
        bm25["recall_at_10"].as_f64().unwrap(),
        bm25["ndcg_at_10"].as_f64().unwrap(),
    );
    // BM25 alone scores about R@10 0.88 on this pool (HippoRAG's figure).
    assert!(r10 > 0.6 && r10 <= 1.0, "bm25 recall@10 {r10}");
    assert!(r5 <= r10 && ndcg > 0.3 && ndcg <= 1.0, "r5 {r5} ndcg {ndcg}");
    let first = &v["retrieval"]["results"][0];
    assert!(first["ranked"].as_array().unwrap().len() == 10, "ten distinct paragraphs ranked");

    let classic = &v["summaries"][0];
    assert_eq!(classic["mode"], "classic");
    let recall = classic["recall_at_10"].as_f64().unwrap();
    assert!(recall > 0.3 && recall <= 1.0, "classic recall@10 {recall}");
    let em = classic["exact_match"].as_f64().unwrap();
    assert!((0.0..=classic["accuracy"].as_f64().unwrap() + 1e-9).contains(&em), "EM {em} cannot exceed accuracy");
    for f in ["report.md", "results.json", "retrieval.svg", "accuracy-vs-cost.svg"] {
        assert!(report.join(f).metadata().unwrap().len() > 100, "{f}");
    }
}

#[test]
fn an_empty_library_is_an_error_not_a_score_of_zero() {
    let lib = common::Library::hash(64);
    let set = repo().join("eval/hindi.jsonl");
    // No library at all (a mistyped --data-dir) is refused…
    let out = lib.run(&["eval", set.to_str().unwrap(), "--mode", "bm25"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no library in"));
    // …and so is a library that holds no documents.
    let empty = tempfile::tempdir().unwrap();
    assert!(lib.run(&["index", "--quiet", empty.path().to_str().unwrap()]).status.success());
    let out = lib.run(&["eval", set.to_str().unwrap(), "--mode", "bm25"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("the library is empty"), "{err}");
    let out = lib.run(&["eval", set.to_str().unwrap(), "--mode", "fast"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("rankers scored alone: bm25, vector, hybrid"));
}
