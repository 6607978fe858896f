#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;

use super::*;

/// A chunk of `text` with `key`.
fn chunk(key: &str, text: &str, table_row: bool) -> Evidence {
    Evidence { table_row, ..Evidence::of(key, text) }
}

/// The MTech row of `sample-docs/university/fees-2026-27.csv`, as it is indexed.
fn mtech_row() -> Evidence {
    let csv = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../sample-docs/university/fees-2026-27.csv"),
    )
    .unwrap();
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let row = lines.find(|l| l.starts_with("MTech,")).unwrap();
    let text: Vec<String> = header.iter().zip(row.split(',')).map(|(h, v)| format!("{h}: {v}")).collect();
    chunk("fees@2026-27::fees-2026-27#2", &text.join("; "), true)
}

/// The "Earned leave" section of `sample-docs/company/leave-policy.md`.
fn earned_leave() -> Evidence {
    let page = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../sample-docs/company/leave-policy.md"),
    )
    .unwrap();
    let section = page.split("## Earned leave").nth(1).unwrap().split("\n## ").next().unwrap();
    chunk("leave-policy@4::earned-leave#1", section.trim(), false)
}

fn verdict(claim: &str, e: &Evidence, question: &str) -> Option<String> {
    check(claim, std::slice::from_ref(&e.key), std::slice::from_ref(e), &crate::question::Question::parse(question))
}

#[test]
fn a_bare_value_is_judged_with_the_question_it_answers() {
    let row = mtech_row();
    assert_eq!(verdict("48500", &row, "What is the MTech tuition fee?"), None);
    let why = verdict("48500", &row, "What is the MBA tuition fee?").expect("the MTech row says nothing of an MBA");
    assert!(why.contains("MBA"), "{why}");
    let why = verdict("Rs 48,500.", &row, "What is the MBA tuition fee?").expect("with its currency too");
    assert!(why.contains("MBA"), "{why}");
}

#[test]
fn half_the_words_of_a_claim_do_not_support_it() {
    let leave = earned_leave();
    let question = "How many days of earned leave do I get per year?";
    assert_eq!(verdict("Every permanent employee earns 18 days of earned leave a year.", &leave, question), None);
    let why = verdict("Earned leave doubles every year and is paid twice.", &leave, question)
        .expect("doubles, paid and twice are not in the section");
    assert!(why.contains("not supported") && why.contains("doubles"), "{why}");
}

#[test]
fn a_table_row_claim_is_checked_against_the_row_as_a_sentence() {
    let row = mtech_row();
    let sentence = crate::builtin::table_row::row_sentence(&row.text).unwrap();
    assert_eq!(sentence, "MTech tuition: amount Rs 48,500, per semester.");
    assert_eq!(verdict(&sentence, &row, "What is the MTech tuition fee?"), None);
    let raw = chunk(&row.key, &row.text, false);
    assert!(
        verdict(&sentence, &raw, "What is the MTech tuition fee?").is_some(),
        "text that is not a row gets no rendering"
    );
}

#[test]
fn a_bare_reply_quotes_nothing_and_a_pages_title_names_what_its_chunks_leave_out() {
    let guilds = Evidence {
        title: "Tock".into(),
        heading_path: vec!["Billable hour expectations".into()],
        ..chunk("tock::billable#2", "Guilds get 4 hours of non-billable time each week.", false)
    };
    let question = "In Tock, how many non-billable hours a week does a guild get?";
    assert_eq!(verdict("4 hours", &guilds, question), None, "the page is Tock's");
    let untitled = chunk(&guilds.key, &guilds.text, false);
    let why = verdict("4 hours", &untitled, question).expect("nothing cited names Tock");
    assert!(why.contains("tock"), "{why}");
    let parental = chunk("ppl::unpaid#1", "You may use unpaid leave to extend your parental leave.", false);
    let asked = "Can I use unpaid leave to extend my parental leave?";
    assert_eq!(verdict("Yes, you may use unpaid leave to extend your parental leave.", &parental, asked), None);
    for reply in ["Yes", "No.", "yes"] {
        let why = verdict(reply, &parental, asked).expect("a bare reply quotes nothing");
        assert!(why.contains("settles nothing") && !why.contains("names"), "{why}");
    }
    let why = verdict("Yes, you may take a paid sabbatical abroad.", &parental, asked)
        .expect("the sabbatical is not in the passage");
    assert!(why.contains("not supported"), "{why}");
}
