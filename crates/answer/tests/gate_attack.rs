//! The gate holds on every read path (issue 14): a scripted model reads the
//! real key of every withheld and hidden chunk, filters searches by every
//! series and session in the library, looks up every table, passes `as_of`,
//! `audience` and unknown arguments, re-reads every key it saw, and then
//! cites everything it received.
//!
//! The oracle is independent of the gate: which documents may be admitted
//! comes from hand-written tables (below), and each chunk that must not get
//! through carries canaries: explicit `CANARY…` tokens in the audience
//! fixture, and, for the real corpora, every 8-word phrase of the chunk
//! that no admissible chunk contains. No canary, and no key of a hidden
//! document, may appear in any model input, admitted tool result, trace,
//! answer, citation, note or error.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod attack;

use std::path::Path;

use attack::audience::{AUDIENCE, audience_expect, audience_fixture};
use attack::{Expect, Library, attack_classic_over_http, attack_in_process, attack_over_http};

const DAY: (i32, u32, u32) = (2026, 11, 29);

/// sample-docs at 2026-11-29: only Circular No. 09 (2024-25) is out of
/// date (superseded by Circular No. 14, and of another session).
fn sample_docs_expect(path: &Path) -> Expect {
    let name = path.file_name().unwrap().to_string_lossy();
    if name == "Circular-09-2024-25.pdf" { Expect::Withheld } else { Expect::Admitted }
}

/// The 18F page folders hold `<YYYY-MM-DD>_<sha>.md` versions of one page;
/// at 2026-11-29 only the newest of each folder is in force.
fn versions_expect(path: &Path) -> Expect {
    let name = path.file_name().unwrap().to_string_lossy();
    if !name.as_bytes().first().is_some_and(u8::is_ascii_digit) {
        return Expect::Admitted;
    }
    let dir = path.parent().unwrap();
    let mut dated: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".md") && n.as_bytes().first().is_some_and(u8::is_ascii_digit))
        .collect();
    dated.sort();
    let newest = dated.last().cloned().unwrap_or_default();
    if name == newest { Expect::Admitted } else { Expect::Withheld }
}

#[test]
fn the_audience_fixture_leaks_nothing_to_a_scripted_attacker() {
    let lib = Library::build("audience", audience_fixture, audience_expect, true);
    lib.assert_hidden_id_collides_with_an_admitted_chunk();
    // `status` counts only what the profile may see: three visible documents of one chunk or two.
    let status = lib.engine.status().unwrap();
    let visible = AUDIENCE.iter().filter(|(_, _, e)| *e != Expect::Hidden).count() as u64;
    assert_eq!((status.documents, status.folders[0].documents), (visible, visible), "{status:?}");
    assert_eq!(status.files_by_status.values().sum::<u64>(), visible);
    assert!(lib.leaks(&serde_json::to_string(&status).unwrap()).is_empty());
    let report = attack_in_process(&lib, &["What is the festival bonus?", "Which salary band pays what?"], DAY);
    report.assert_clean();
    let http = attack_over_http(&lib, &["What is the festival bonus?"], DAY);
    http.assert_clean();
    assert!(http.answers.iter().all(|a| a.trace.model_calls > 0 && !a.trace.steps.is_empty()));
    attack_classic_over_http(&lib, &["What is the festival bonus?", "What are the salary bands?"], DAY).assert_clean();
    // The visible 2025 rules are withheld by a hidden document: the note says so without naming it.
    assert!(
        report.notes.iter().any(|n| n.contains("superseded by a newer document")),
        "no note for the withheld bonus rules: {:?}",
        report.notes
    );
}

#[test]
fn sample_docs_leak_nothing_to_a_scripted_attacker() {
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../sample-docs");
    let lib = Library::build("sample-docs", |d| attack::copy_dir(&docs, d), sample_docs_expect, false);
    let questions = ["What hostel fee does a North-East scholarship holder pay?", "What is the MTech tuition fee?"];
    attack_in_process(&lib, &questions, DAY).assert_clean();
    attack_over_http(&lib, &questions[..1], DAY).assert_clean();
    // The classic path: the attacker drafts from admitted evidence and cites every blocked key.
    attack_classic_over_http(&lib, &questions, DAY).assert_clean();
}

#[test]
fn the_18f_versions_leak_nothing_to_a_scripted_attacker() {
    let corpus = attack::corpora().join("versions_18f_travel_leave");
    let lib = Library::build("18f", |d| attack::copy_dir(&corpus, d), versions_expect, false);
    attack_in_process(&lib, &["What is the overtime pay cap?"], DAY).assert_clean();
}
