//! Unit tests of the status records: series, supersession, amendments.
#![allow(clippy::unwrap_used)]
use super::*;
use crate::freshness::meta::{Field, Provenance};

fn date(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).unwrap()
}

fn doc(series: &str, version: u64, from: NaiveDate, refs: &[&str]) -> DocMeta {
    DocMeta {
        series: Some(Field::new(series.into(), Provenance::Filename)),
        version: Some(Field::new(version.to_string(), Provenance::Filename)),
        version_number: Some(vec![version]),
        effective_from: Some(Field::new(from, Provenance::Text)),
        references: refs.iter().map(|r| r.to_string()).collect(),
        versioned: true,
        ..DocMeta::default()
    }
}

fn ids(n: u32) -> Vec<DocId> {
    (0..n).map(DocId::new).collect()
}

fn as_of(d: NaiveDate) -> AsOf {
    AsOf::at(d, None, 7)
}

#[test]
fn newest_version_in_force_supersedes_the_older_ones_only() {
    let id = ids(3);
    let metas = BTreeMap::from([
        (id[0], doc("fees", 1, date(2024, 7, 1), &[])),
        (id[1], doc("fees", 2, date(2025, 7, 1), &[])),
        (id[2], doc("fees", 3, date(2027, 7, 1), &[])),
    ]);
    let records = StatusRecords::new(&metas);
    let table = records.statuses(&as_of(date(2026, 1, 1)), &[]);
    assert_eq!(table.get(id[0]).unwrap().superseded_by, vec![id[1]]);
    assert!(table.get(id[1]).unwrap().is_current());
    let pending = table.get(id[2]).unwrap();
    assert!(pending.pending && pending.superseded_by.is_empty());
    let later = records.statuses(&as_of(date(2027, 8, 1)), &[]);
    assert_eq!(later.get(id[1]).unwrap().superseded_by, vec![id[2]]);
    assert_eq!(later.get(id[0]).unwrap().superseded_by, vec![id[2]]);
}

#[test]
fn equal_version_keys_do_not_supersede_each_other() {
    let id = ids(2);
    let metas = BTreeMap::from([
        (id[0], doc("fees", 2, date(2025, 7, 1), &[])),
        (id[1], doc("fees", 2, date(2025, 7, 1), &[])),
    ]);
    let table = StatusRecords::new(&metas).statuses(&as_of(date(2026, 1, 1)), &[]);
    assert!(table.get(id[0]).unwrap().is_current());
    assert!(table.get(id[1]).unwrap().is_current());
}

#[test]
fn a_statement_supersedes_by_reference_and_never_itself() {
    let id = ids(2);
    let mut newer = doc("b", 1, date(2025, 1, 1), &["circular:7"]);
    newer.supersedes = Some(Field::new(vec!["circular:6".into(), "circular:7".into()], Provenance::Text));
    let metas = BTreeMap::from([(id[0], doc("a", 1, date(2024, 1, 1), &["circular:6"])), (id[1], newer)]);
    let records = StatusRecords::new(&metas);
    let table = records.statuses(&as_of(date(2026, 1, 1)), &[]);
    assert_eq!(table.get(id[0]).unwrap().superseded_by, vec![id[1]]);
    assert!(table.get(id[1]).unwrap().is_current());
    // Before the superseding circular is in force, the old one is current.
    let before = records.statuses(&as_of(date(2024, 6, 1)), &[]);
    assert!(before.get(id[0]).unwrap().is_current());
}

#[test]
fn hidden_documents_get_no_status_and_audiences_ignore_case() {
    let id = ids(3);
    let mut hr = doc("a", 1, date(2024, 1, 1), &[]);
    hr.audience = Some(Field::new(vec!["HR-Only".into()], Provenance::FrontMatter));
    let mut open = doc("b", 1, date(2024, 1, 1), &[]);
    open.audience = Some(Field::new(vec!["Everyone".into()], Provenance::FrontMatter));
    let metas = BTreeMap::from([(id[0], hr), (id[1], open), (id[2], doc("c", 1, date(2024, 1, 1), &[]))]);
    let records = StatusRecords::new(&metas);
    let staff = records.statuses(&as_of(date(2026, 1, 1)), &["staff".into()]);
    assert!(!staff.contains(id[0]));
    assert_eq!(staff.iter().map(|(d, _)| d).collect::<Vec<_>>(), vec![id[1], id[2]]);
    let hr_user = records.statuses(&as_of(date(2026, 1, 1)), &["hr-only".into()]);
    assert!(hr_user.get(id[0]).unwrap().audience_allowed);
    assert_eq!(hr_user.find(id[2]).map(|(pos, _)| pos), Some(2));
}

#[test]
fn amendments_link_current_documents_visible_to_the_user() {
    let id = ids(3);
    let mut amender = doc("b", 1, date(2025, 1, 1), &["circular:9"]);
    amender.amends = Some(Field::new(vec!["circular:5".into()], Provenance::Text));
    let mut hidden = amender.clone();
    hidden.series = Some(Field::new("c".into(), Provenance::Filename));
    hidden.audience = Some(Field::new(vec!["hr-only".into()], Provenance::FrontMatter));
    let metas =
        BTreeMap::from([(id[0], doc("a", 1, date(2024, 1, 1), &["circular:5"])), (id[1], amender), (id[2], hidden)]);
    let records = StatusRecords::new(&metas);
    let staff = records.statuses(&as_of(date(2026, 1, 1)), &[]);
    assert_eq!(records.amended(&staff), BTreeMap::from([(id[0], vec![id[1]])]));
    let hr = records.statuses(&as_of(date(2026, 1, 1)), &["hr-only".into()]);
    assert_eq!(records.amended(&hr), BTreeMap::from([(id[0], vec![id[1], id[2]])]));
    // Before the amendment is in force, nothing is amended.
    let before = records.statuses(&as_of(date(2024, 6, 1)), &[]);
    assert!(records.amended(&before).is_empty());
}
