//! The gate's inputs are read once per committed library state: snapshots
//! on an unchanged library, for any as-of date or audience, reuse them; any
//! commit makes the next snapshot read them again; an audience never sees
//! what the cached inputs hold for another.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use almirah_core::read::Audience;

#[test]
fn gate_inputs_are_read_once_per_commit_and_audiences_stay_apart() {
    let docs = tempfile::tempdir().unwrap();
    std::fs::write(docs.path().join("canteen.md"), "# Canteen\n\nThe canteen opens at 8.\n").unwrap();
    std::fs::write(
        docs.path().join("salary.md"),
        "---\naudience: [hr-only]\n---\n# Salary bands\n\nBand A is Rs 50,000.\n",
    )
    .unwrap();
    let data = tempfile::tempdir().unwrap();
    let engine = common::hash_engine(data.path());
    common::index(&engine, &[docs.path()]);
    let hr = Audience::new(["hr-only"]);
    let staff = Audience::new(["all-staff"]);
    let day = |d: u32| engine.as_of(chrono::NaiveDate::from_ymd_opt(2026, 11, d), None);
    let loads = || engine.read_stats().gate_input_loads();

    let before = loads();
    let hr_docs = engine.reader_as(&hr).snapshot(day(1)).unwrap().documents().unwrap();
    assert_eq!(hr_docs.len(), 2);
    let staff_docs = engine.reader_as(&staff).snapshot(day(1)).unwrap().documents().unwrap();
    assert_eq!(staff_docs.len(), 1, "the hr-only page stays hidden from cached inputs");
    assert!(staff_docs.iter().all(|d| !d.path.ends_with("salary.md")));
    for d in 3..10 {
        engine.reader_as(&staff).snapshot(day(d)).unwrap();
    }
    assert_eq!(loads() - before, 1, "nine snapshots, one read of the inputs");

    std::fs::write(docs.path().join("canteen.md"), "# Canteen\n\nThe canteen opens at 9.\n").unwrap();
    common::index(&engine, &[docs.path()]);
    let snapshot = engine.reader_as(&staff).snapshot(day(10)).unwrap();
    assert_eq!(loads() - before, 2, "a commit invalidates the inputs");
    let hits = snapshot.search("canteen opens", &Default::default(), 0, &Default::default()).unwrap();
    assert!(hits.results.hits[0].text.contains("at 9"), "the new state is served");
}
