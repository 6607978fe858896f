#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeSet;
use std::path::Path;

use super::*;

/// The sections of the real 18F leave page (2024-12-06), one chunk each,
/// in reverse order so the answering section is retrieved late.
fn leave_sections() -> Vec<Evidence> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/corpora/versions_18f_travel_leave/travel-and-leave/leave/2024-12-06_98dba92.md");
    let page = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut chunks: Vec<Evidence> = page
        .split("\n#")
        .skip(1)
        .enumerate()
        .map(|(i, section)| {
            let (heading, body) = section.split_once('\n').unwrap_or((section, ""));
            Evidence {
                title: "Leave".into(),
                heading_path: vec![heading.trim_start_matches('#').trim().to_string()],
                ..Evidence::of(&format!("leave@2024-12-06::s#{i}"), body.trim())
            }
        })
        .filter(|e| !e.text.is_empty())
        .collect();
    chunks.reverse();
    chunks
}

fn words(text: &str) -> BTreeSet<String> {
    text.split_whitespace().filter(|w| *w != "…").map(str::to_lowercase).collect()
}

#[test]
fn the_answering_passage_comes_first_cut_around_its_sentence() {
    let evidence = leave_sections();
    assert!(evidence.len() > Focus::SMALL.passages, "the page has more sections than a focused prompt shows");
    let question = "How much administrative leave can I get to vote in an election?";
    let shown = focused(&BuiltinModel::default(), &crate::question::Question::parse(question), &evidence, Focus::SMALL);

    assert_eq!(shown.len(), Focus::SMALL.passages);
    assert!(shown[0].text.contains("up to 4 hours for each election event"), "first: {}", shown[0].text);
    assert_eq!(shown[0].heading_path, vec!["Voting and poll volunteering".to_string()]);
    let original = evidence.iter().find(|e| e.key == shown[0].key).unwrap();
    assert!(original.text.split_whitespace().count() > Focus::SMALL.words, "the section is long enough to cut");
    assert!(shown[0].text.split_whitespace().count() <= Focus::SMALL.words + 2, "{}", shown[0].text);
    assert!(shown[0].text.contains('…'), "a cut passage says so: {}", shown[0].text);
}

#[test]
fn focused_passages_keep_their_keys_and_only_the_chunks_own_words() {
    let evidence = leave_sections();
    let shown = focused(
        &BuiltinModel::default(),
        &crate::question::Question::parse("How many hours of sick leave do I earn each pay period?"),
        &evidence,
        Focus::SMALL,
    );
    let keys: BTreeSet<&str> = shown.iter().map(|e| e.key.as_str()).collect();
    assert_eq!(keys.len(), shown.len(), "no passage twice");
    for s in &shown {
        let original = evidence.iter().find(|e| e.key == s.key).expect("a shown key is an evidence key");
        assert_eq!((&s.title, &s.heading_path), (&original.title, &original.heading_path));
        let own = words(&join_wrapped_lines(&table_text::rows_as_sentences(&original.text)));
        let extra: Vec<String> = words(&s.text).difference(&own).cloned().collect();
        assert!(extra.is_empty(), "{} shows words its chunk does not hold: {extra:?}", s.key);
    }
    assert!(shown[0].text.to_lowercase().contains("sick leave"), "first: {}", shown[0].text);
}

#[test]
fn short_chunks_are_shown_whole_and_unrelated_ones_keep_retrieval_order() {
    let chunk = |key: &str, text: &str| Evidence { title: "Circular".into(), ..Evidence::of(key, text) };
    let evidence = vec![
        chunk("a::x#1", "The canteen opens at nine in the morning on working days."),
        chunk("b::x#1", "Parking permits are issued by the estate office on request."),
        chunk("c::x#1", "Hostel residents pay half the hostel fee in the 2026-27 session."),
    ];
    let shown = focused(
        &BuiltinModel::default(),
        &crate::question::Question::parse("How much hostel fee do residents pay?"),
        &evidence,
        Focus { passages: 2, words: 120 },
    );
    assert_eq!(shown.iter().map(|e| e.key.as_str()).collect::<Vec<_>>(), ["c::x#1", "a::x#1"]);
    assert_eq!(shown[0].text, evidence[2].text, "a chunk within the budget is shown whole");
}

#[test]
fn a_chunk_with_no_scored_sentence_shows_its_opening() {
    let text = (1..=300).map(|i| format!("w{i}")).collect::<Vec<_>>().join(" ");
    let cut = window(&text, |_| None, 10);
    assert_eq!(cut, "w1 w2 w3 w4 w5 w6 w7 w8 w9 w10 …");
}
