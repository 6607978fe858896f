//! The freshness gate on the real corpora: dated 18F versions, the HTTP RFC
//! `Obsoletes:` chain, no false versioning in QA paragraphs and handbooks,
//! disagreeing sources, overrides and audiences. Every test passes an
//! explicit as-of date.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use almirah_core::freshness::{AsOf, Session};
use almirah_core::read::DocView;
use almirah_core::{Engine, SearchOptions};
use chrono::NaiveDate;

fn as_of(engine: &Engine, date: &str) -> AsOf {
    engine.as_of(Some(NaiveDate::parse_from_str(date, "%Y-%m-%d").unwrap()), None)
}

fn docs_by_key(engine: &Engine, date: &str) -> BTreeMap<String, DocView> {
    engine.documents(as_of(engine, date)).unwrap().into_iter().map(|d| (d.key.clone(), d)).collect()
}

/// Every admissible chunk's text at `date`.
fn admissible_texts(engine: &Engine, date: &str) -> Vec<String> {
    let rtxn = engine.store().read_txn().unwrap();
    let dbs = engine.store().dbs();
    let gate = almirah_core::store::gate_inputs::build(dbs, &rtxn, as_of(engine, date), &[], &[]).unwrap();
    gate.admissible().iter().map(|id| dbs.chunks.get(&rtxn, &id).unwrap().unwrap().text).collect()
}

#[test]
fn each_18f_page_has_exactly_one_current_version_the_newest() {
    let corpus = common::corpora().join("versions_18f_travel_leave");
    let data = tempfile::tempdir().unwrap();
    let engine = common::hash_engine(data.path());
    common::index(&engine, &[corpus.as_path()]);
    // Newest version per page, from the MANIFEST (not from the gate).
    let manifest = std::fs::read_to_string(corpus.join("MANIFEST.tsv")).unwrap();
    let mut newest: BTreeMap<String, String> = BTreeMap::new();
    for line in manifest.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        let (page, file) = (cols[0].to_string(), cols[1].to_string());
        let e = newest.entry(page).or_default();
        if file > *e {
            *e = file;
        }
    }
    assert_eq!(newest.len(), 26);
    let docs = engine.documents(as_of(&engine, "2026-11-29")).unwrap();
    let current: BTreeSet<String> = docs
        .iter()
        .filter(|d| d.statuses == ["current"] && d.path.ends_with(".md") && !d.path.ends_with("LICENSE.md"))
        .map(|d| d.path.strip_prefix(&format!("{}/", corpus.canonicalize().unwrap().display())).unwrap().to_string())
        .collect();
    let expected: BTreeSet<String> = newest.values().cloned().collect();
    assert_eq!(current, expected);
}

/// The 18F page versions without the corpus's own SOURCE.txt (which quotes
/// every historical amount) and MANIFEST.
fn versions_copy() -> tempfile::TempDir {
    let corpus = common::corpora().join("versions_18f_travel_leave");
    let dir = tempfile::tempdir().unwrap();
    for sub in ["travel-and-leave", "general-information-and-resources", "getting-started"] {
        copy_tree(&corpus.join(sub), &dir.path().join(sub));
    }
    dir
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        let dest = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_tree(&entry.path(), &dest);
        } else {
            std::fs::copy(entry.path(), dest).unwrap();
        }
    }
}

#[test]
fn overtime_pay_cap_is_the_one_in_force() {
    let corpus = versions_copy();
    let data = tempfile::tempdir().unwrap();
    let engine = common::hash_engine(data.path());
    common::index(&engine, &[corpus.path()]);
    let now = engine.search("overtime pay cap", &SearchOptions::default(), as_of(&engine, "2026-11-29"), 3).unwrap();
    assert!(now.results.hits[0].text.contains("$191,900"), "first hit: {}", now.results.hits[0].text);
    let texts = admissible_texts(&engine, "2026-11-29");
    assert!(texts.iter().any(|t| t.contains("$191,900")));
    assert!(texts.iter().all(|t| !t.contains("$176,300") && !t.contains("$183,500")));
    assert!(!now.withheld.is_empty() && now.withheld[0].reason.to_string().starts_with("superseded by overtime@"));
    // Serialized (CLI --json, HTTP, MCP), a withheld hit names its document and reason, never its text.
    assert!(now.withheld.iter().all(|w| w.hit.text.len() > 20), "the text stays readable in process");
    let json = serde_json::to_value(&now).unwrap();
    let withheld = json["withheld"].as_array().unwrap();
    assert_eq!(withheld.len(), now.withheld.len());
    for (w, shown) in now.withheld.iter().zip(withheld) {
        assert_eq!(shown["hit"]["key"], w.hit.key.as_str());
        assert_eq!(shown["hit"]["text"], "", "withheld text serialized: {shown}");
    }
    assert!(json["results"]["hits"][0]["text"].as_str().unwrap().contains("$191,900"));

    let then = admissible_texts(&engine, "2023-06-01");
    assert!(then.iter().any(|t| t.contains("$183,500")));
    assert!(then.iter().all(|t| !t.contains("$191,900") && !t.contains("$176,300")));
    let hits =
        engine.search("overtime pay cap salary", &SearchOptions::default(), as_of(&engine, "2023-06-01"), 0).unwrap();
    assert!(hits.results.hits.iter().all(|h| !h.text.contains("$191,900")));
}

#[test]
fn rfc_obsoletes_chains_and_updates() {
    let corpus = common::corpora().join("versions_rfc_http/text");
    let data = tempfile::tempdir().unwrap();
    let engine = common::hash_engine(data.path());
    common::index(&engine, &[corpus.as_path()]);
    let docs = docs_by_key(&engine, "2026-11-29");
    let by: BTreeSet<&str> = docs["rfc2616"].superseded_by.iter().map(String::as_str).collect();
    for n in 7230..=7235 {
        assert!(by.contains(format!("rfc{n}").as_str()), "2616 not superseded by {n}: {by:?}");
    }
    assert!(docs["rfc7230"].statuses.contains(&almirah_core::freshness::StatusLabel::Superseded));
    assert_eq!(docs["rfc9110"].statuses, ["current"]);
    // No two RFC numbers share a series.
    let series: BTreeSet<String> =
        docs.values().filter_map(|d| d.meta.series.as_ref().map(|s| s.value.clone())).collect();
    assert_eq!(series.len(), docs.len());
    // RFC 2818 is only Updates:-ed by 7230 (2014); it stays current until 9110 (2022) obsoletes it.
    let before = docs_by_key(&engine, "2020-01-01");
    assert_eq!(before["rfc2818"].statuses, ["current"]);
    assert_eq!(before["rfc7230"].statuses, ["current"]);
    assert_eq!(before["rfc9110"].statuses, ["pending"]);
    assert_eq!(before["rfc2616"].statuses, ["superseded"]);
    assert_eq!(docs["rfc2818"].superseded_by, ["rfc9110"]);
}

fn write_paragraphs(dir: &Path) -> usize {
    let raw =
        std::fs::read_to_string(common::corpora().join("qa_multihop/hotpotqa/hotpotqa_train_100_corpus.json")).unwrap();
    let corpus: BTreeMap<String, Vec<String>> = serde_json::from_str(&raw).unwrap();
    for (i, (title, sentences)) in corpus.iter().enumerate() {
        std::fs::write(dir.join(format!("{i:05}.txt")), format!("{title}\n\n{}\n", sentences.concat())).unwrap();
    }
    let raw =
        std::fs::read_to_string(common::corpora().join("qa_multihop/musique/musique_train_100_corpus.json")).unwrap();
    let paras: Vec<serde_json::Value> = serde_json::from_str(&raw).unwrap();
    for (i, p) in paras.iter().enumerate() {
        let text = format!("{}\n\n{}\n", p["title"].as_str().unwrap(), p["text"].as_str().unwrap());
        std::fs::write(dir.join(format!("m{i:05}.txt")), text).unwrap();
    }
    corpus.len() + paras.len()
}

#[test]
fn no_false_versioning_in_qa_paragraphs_or_handbooks() {
    let qa = tempfile::tempdir().unwrap();
    let n = write_paragraphs(qa.path());
    let data = tempfile::tempdir().unwrap();
    let engine = common::hash_engine(data.path());
    common::index(&engine, &[qa.path()]);
    let docs = engine.documents(as_of(&engine, "2026-11-29")).unwrap();
    assert_eq!(docs.len(), n);
    let withheld: Vec<_> = docs.iter().filter(|d| d.statuses != ["current"]).map(|d| (&d.title, &d.reason)).collect();
    assert!(
        withheld.is_empty(),
        "{} paragraphs withheld, e.g. {:?}",
        withheld.len(),
        &withheld[..withheld.len().min(5)]
    );

    let data = tempfile::tempdir().unwrap();
    let engine = common::hash_engine(data.path());
    let a = common::corpora().join("handbook_18f");
    let b = common::corpora().join("handbook_sourcegraph");
    common::index(&engine, &[a.as_path(), b.as_path()]);
    let docs = engine.documents(as_of(&engine, "2026-11-29")).unwrap();
    assert!(docs.len() > 400);
    let withheld: Vec<_> = docs.iter().filter(|d| d.statuses != ["current"]).map(|d| (&d.path, &d.reason)).collect();
    assert!(withheld.is_empty(), "handbook pages withheld: {withheld:?}");
}

#[test]
fn two_current_documents_that_disagree_are_both_returned_with_their_dates() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("airbase-expenses.md"),
        "---\ntitle: Expenses in Airbase\ndate: 2021-03-01\n---\n# Expenses in Airbase\n\nMeal expenses are reimbursed up to USD 50 a day.\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("deel-expenses.md"),
        "---\ntitle: Expenses in Deel\ndate: 2022-09-15\n---\n# Expenses in Deel\n\nMeal expenses are reimbursed up to USD 75 a day.\n",
    )
    .unwrap();
    let data = tempfile::tempdir().unwrap();
    let engine = common::hash_engine(data.path());
    common::index(&engine, &[dir.path()]);
    let r = engine
        .search("meal expenses reimbursed a day", &SearchOptions::default(), as_of(&engine, "2026-11-29"), 3)
        .unwrap();
    let texts: Vec<&str> = r.results.hits.iter().map(|h| h.text.as_str()).collect();
    assert!(texts.iter().any(|t| t.contains("USD 50")) && texts.iter().any(|t| t.contains("USD 75")), "{texts:?}");
    assert!(r.withheld.is_empty());
    let docs = docs_by_key(&engine, "2026-11-29");
    assert_eq!(docs["airbase-expenses"].meta.issued.as_ref().unwrap().value.to_string(), "2021-03-01");
    assert_eq!(docs["deel-expenses"].meta.issued.as_ref().unwrap().value.to_string(), "2022-09-15");
}

#[test]
fn an_override_changes_status_at_once_and_survives_reindex_and_moves() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("hostel-rules.md"), "# Hostel rules\n\nGuests must leave by 7 pm.\n").unwrap();
    let data = tempfile::tempdir().unwrap();
    let engine = common::hash_engine(data.path());
    common::index(&engine, &[dir.path()]);
    assert_eq!(docs_by_key(&engine, "2026-11-29")["hostel-rules"].statuses, ["current"]);
    let id = engine.find_document("hostel-rules").unwrap();
    engine.set_override(id, "session", Some("2024-25")).unwrap();
    let doc = engine.documents(as_of(&engine, "2026-11-29")).unwrap().into_iter().find(|d| d.id == id).unwrap();
    assert_eq!(doc.statuses, ["other-session"]);
    assert_eq!(doc.meta.session.as_ref().unwrap().source, almirah_core::freshness::Provenance::Override);
    // Edit, re-index, move: the override stays.
    std::fs::write(dir.path().join("hostel-rules.md"), "# Hostel rules\n\nGuests must leave by 8 pm.\n").unwrap();
    common::index(&engine, &[dir.path()]);
    std::fs::create_dir_all(dir.path().join("old")).unwrap();
    std::fs::rename(dir.path().join("hostel-rules.md"), dir.path().join("old/hostel-rules.md")).unwrap();
    common::index(&engine, &[dir.path()]);
    let doc = engine.documents(as_of(&engine, "2026-11-29")).unwrap().into_iter().find(|d| d.id == id).unwrap();
    assert!(doc.path.ends_with("old/hostel-rules.md"));
    assert_eq!(doc.meta.session.as_ref().unwrap().value, Session::parse("2024-25").unwrap());
    assert_eq!(doc.statuses, ["other-session"]);
    // As of a date inside 2024-25 it is current again; unset restores it everywhere.
    assert_eq!(engine.documents(as_of(&engine, "2024-10-01")).unwrap()[0].statuses, ["current"]);
    engine.set_override(id, "session", None).unwrap();
    assert_eq!(docs_by_key(&engine, "2026-11-29")["hostel-rules"].statuses, ["current"]);
    assert!(engine.set_override(id, "session", Some("next year")).is_err());
}

#[test]
fn a_sidecar_sets_metadata_with_its_provenance_and_its_edits_reindex() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("mess-menu.md"), "# Mess menu\n\nDinner is served from 7:30 pm.\n").unwrap();
    std::fs::write(dir.path().join("mess-menu.md.meta.toml"), "session = \"2025-26\"\naudience = [\"students\"]\n")
        .unwrap();
    let data = tempfile::tempdir().unwrap();
    let engine = common::hash_engine(data.path());
    let first = common::index(&engine, &[dir.path()]);
    assert_eq!(first.outcomes.len(), 1, "the sidecar is not a document of its own");
    let mut cfg_students = docs_by_key(&engine, "2026-11-29");
    assert!(cfg_students.is_empty(), "a students-only document is hidden from a profile without that audience");
    let mut cfg = almirah_core::EngineConfig::new(data.path());
    cfg.embedder = almirah_core::embed::EmbedderConfig::Hash { dimensions: 64 };
    cfg.map_size = 1 << 30;
    cfg.audiences = vec!["students".into()];
    drop(engine);
    let engine = Engine::open(cfg).unwrap();
    cfg_students = docs_by_key(&engine, "2026-11-29");
    let doc = &cfg_students["mess-menu@2025-26"];
    assert_eq!(doc.statuses, ["other-session"]);
    assert_eq!(doc.meta.session.as_ref().unwrap().source, almirah_core::freshness::Provenance::Sidecar);
    std::fs::write(dir.path().join("mess-menu.md.meta.toml"), "session = \"2026-27\"\naudience = [\"students\"]\n")
        .unwrap();
    let again = common::index(&engine, &[dir.path()]);
    assert_eq!(again.extract_calls, 1);
    assert_eq!(docs_by_key(&engine, "2026-11-29")["mess-menu@2026-27"].statuses, ["current"]);
}

#[test]
fn an_unreadable_newer_version_marks_the_old_one_instead_of_hiding() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("canteen-policy-v1.md"), "# Canteen policy\n\nLunch costs Rs 60.\n").unwrap();
    std::fs::write(dir.path().join("canteen-policy-v2.pdf"), b"%PDF-1.7 truncated upload").unwrap();
    let data = tempfile::tempdir().unwrap();
    let engine = common::hash_engine(data.path());
    common::index(&engine, &[dir.path()]);
    let docs = docs_by_key(&engine, "2026-11-29");
    let v1 = &docs["canteen-policy@1"];
    assert_eq!(v1.statuses, ["current"], "the old version stays searchable");
    let mark = v1.stale_reason.as_deref().unwrap();
    assert!(mark.starts_with("a newer version exists but could not be read: canteen-policy-v2.pdf"), "{mark}");
    let r = engine.search("lunch cost", &SearchOptions::default(), as_of(&engine, "2026-11-29"), 0).unwrap();
    assert!(r.results.hits[0].verdict.to_string().contains("a newer version exists but could not be read"));
}

#[test]
fn a_document_is_found_by_its_file_name_only_when_one_visible_file_has_it() {
    let dir = tempfile::tempdir().unwrap();
    for folder in ["a", "b"] {
        std::fs::create_dir_all(dir.path().join(folder)).unwrap();
        std::fs::write(dir.path().join(folder).join("notice.md"), format!("# Notice {folder}\n\nText {folder}.\n"))
            .unwrap();
    }
    std::fs::write(dir.path().join("a/hostel-rules.md"), "# Hostel rules\n\nGuests must leave by 7 pm.\n").unwrap();
    std::fs::write(dir.path().join("a/pay-scale.md"), "---\naudience: [hr-only]\n---\n# Pay scale\n\nSecret.\n")
        .unwrap();
    let data = tempfile::tempdir().unwrap();
    let engine = common::hash_engine(data.path());
    common::index(&engine, &[dir.path()]);
    let by_key = engine.find_document("hostel-rules").unwrap();
    assert_eq!(engine.find_document("hostel-rules.md").unwrap(), by_key, "unique file name, from any folder");
    let err = engine.find_document("notice.md").unwrap_err().to_string();
    assert!(err.contains("only one document"), "two files are named notice.md: {err}");
    assert!(engine.find_document("pay-scale.md").is_err(), "an hr-only document is not found by staff");
}

#[test]
fn a_title_override_is_the_title_hits_and_the_document_list_show() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("hostel-rules.md"), "# Hostel rules\n\nGuests must leave by 7 pm.\n").unwrap();
    let data = tempfile::tempdir().unwrap();
    let engine = common::hash_engine(data.path());
    common::index(&engine, &[dir.path()]);
    let title = |engine: &almirah_core::Engine| {
        let r = engine.search("guests leave", &SearchOptions::default(), as_of(engine, "2026-11-29"), 0).unwrap();
        (r.results.hits[0].title.clone(), docs_by_key(engine, "2026-11-29")["hostel-rules"].title.clone())
    };
    assert_eq!(title(&engine), ("Hostel rules".to_string(), "Hostel rules".to_string()));
    let id = engine.find_document("hostel-rules").unwrap();
    engine.set_override(id, "title", Some("Hostel rules for guests (2026)")).unwrap();
    let shown = "Hostel rules for guests (2026)".to_string();
    assert_eq!(title(&engine), (shown.clone(), shown));
}
