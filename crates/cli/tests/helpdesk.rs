//! The university helpdesk sample set through the real binary with the
//! builtin embedder: the 2026-27 circular wins, the superseded 2024-25 one
//! is withheld with both reasons, and `--as-of 2024-10-01` turns it around.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use serde_json::Value;

fn docs_status(lib: &common::Library, as_of: &str) -> Vec<(String, Vec<String>)> {
    let v = lib.json(&["docs", "--as-of", as_of]);
    v["documents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            let statuses = d["statuses"].as_array().unwrap().iter().map(|s| s.as_str().unwrap().to_string()).collect();
            (d["key"].as_str().unwrap().to_string(), statuses)
        })
        .collect()
}

fn status_of<'a>(all: &'a [(String, Vec<String>)], key_prefix: &str) -> &'a [String] {
    &all.iter().find(|(k, _)| k.starts_with(key_prefix)).unwrap_or_else(|| panic!("no {key_prefix} in {all:?}")).1
}

#[test]
fn hostel_fee_question_follows_the_circular_in_force() {
    let docs = tempfile::tempdir().unwrap();
    common::copy_tree(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../sample-docs"), docs.path());
    let lib = common::Library::with_config("");
    let out = lib.run(&["index", "--quiet", docs.path().to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));

    let now: Value = lib.json(&["search", "hostel fee scholarship holders", "--as-of", "2026-11-29", "-k", "5"]);
    let hits = now["results"]["hits"].as_array().unwrap();
    assert!(hits[0]["key"].as_str().unwrap().starts_with("circular-14@2026-27::"), "first hit: {}", hits[0]["key"]);
    assert!(hits.iter().all(|h| !h["key"].as_str().unwrap().starts_with("circular-09")));
    let withheld = now["withheld"].as_array().unwrap();
    assert!(withheld.iter().any(|w| w["hit"]["key"].as_str().unwrap().starts_with("circular-09@2024-25")));

    let all: Value = lib.json(&["search", "hostel fee scholarship holders", "--as-of", "2026-11-29", "--all-versions"]);
    let c09 = all["withheld"]
        .as_array()
        .unwrap()
        .iter()
        .find(|w| w["hit"]["key"].as_str().unwrap().starts_with("circular-09"))
        .unwrap();
    assert_eq!(c09["statuses"], serde_json::json!(["superseded", "other-session"]));
    assert!(c09["reason"].as_str().unwrap().contains("superseded by circular-14@2026-27"));

    let now = docs_status(&lib, "2026-11-29");
    assert_eq!(status_of(&now, "circular-09"), ["superseded", "other-session"]);
    for current in ["circular-14", "circular-11", "circular-12"] {
        assert_eq!(status_of(&now, current), ["current"], "{current}");
    }
    let then = docs_status(&lib, "2024-10-01");
    assert_eq!(status_of(&then, "circular-09"), ["current"]);
    assert!(status_of(&then, "circular-14").contains(&"pending".to_string()));
    let old: Value = lib.json(&["search", "hostel fee scholarship holders", "--as-of", "2024-10-01", "-k", "3"]);
    assert!(old["results"]["hits"][0]["key"].as_str().unwrap().starts_with("circular-09@2024-25::"));
}
