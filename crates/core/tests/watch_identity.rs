//! Live watching keeps identities and versions right (issue 6, acceptance
//! 5, 6, 7 and the in-process half of 9): moves are not re-embedded, a
//! same-second replace is re-read, a new version supersedes the old one, and
//! writers and readers run side by side.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::sync::atomic::Ordering;

use almirah_core::{NoProgress, SearchOptions};
use common::watching::{Watched, wait_until};

#[test]
fn moves_and_renames_inside_the_library_keep_the_document_and_embed_nothing() {
    let mut w = Watched::new();
    w.write("hr/leave.md", "# Leave\n\nEarned leave carries over qxmoving.\n\n## Sick leave\n\nTen days.\n");
    w.write("hr/travel.md", "# Travel\n\nBook economy class qxtravel.\n");
    w.start();
    let (leave, travel) = (w.doc_id("hr/leave.md").unwrap(), w.doc_id("hr/travel.md").unwrap());
    let calls = w.calls.load(Ordering::SeqCst);

    std::fs::rename(w.path("hr/leave.md"), w.path("hr/leave-policy.md")).unwrap();
    wait_until("the renamed file is cited at its new path", || w.found_in("qxmoving", "hr/leave-policy.md"));

    std::fs::create_dir_all(w.path("archive/2026")).unwrap();
    std::fs::rename(w.path("hr/leave-policy.md"), w.path("archive/2026/leave.md")).unwrap();
    wait_until("the moved file is cited at its new path", || w.found_in("qxmoving", "archive/2026/leave.md"));

    std::fs::rename(w.path("hr"), w.path("people")).unwrap();
    wait_until("a moved folder's file is cited at its new path", || w.found_in("qxtravel", "people/travel.md"));

    assert_eq!(w.calls.load(Ordering::SeqCst), calls, "the embedder was called for a move");
    assert_eq!(w.doc_id("archive/2026/leave.md"), Some(leave));
    assert_eq!(w.doc_id("people/travel.md"), Some(travel));
    let mut recorded = w.recorded();
    recorded.sort();
    assert_eq!(recorded, vec!["archive/2026/leave.md".to_string(), "people/travel.md".to_string()]);
    assert!(w.changes().iter().any(|c| c.action.starts_with("moved from")), "{:?}", w.changes());
}

#[test]
fn a_same_name_same_size_same_mtime_replace_is_reindexed() {
    let mut w = Watched::new();
    w.write("fees.md", "# Fees\n\nHostel fee token qxfirst applies.\n");
    w.start();
    assert!(w.found_in("qxfirst", "fees.md"));
    let path = w.path("fees.md");
    let before = std::fs::metadata(&path).unwrap();
    std::fs::write(&path, "# Fees\n\nHostel fee token qxsecnd applies.\n").unwrap();
    std::fs::File::options().write(true).open(&path).unwrap().set_modified(before.modified().unwrap()).unwrap();
    let after = std::fs::metadata(&path).unwrap();
    assert_eq!((after.len(), after.modified().unwrap()), (before.len(), before.modified().unwrap()));
    wait_until("the new content is found", || w.found_in("qxsecnd", "fees.md"));
    assert!(w.hits("qxfirst").is_empty(), "the old content is still served");
}

#[test]
fn a_new_version_dropped_in_becomes_current_and_supersedes_the_old_one() {
    let mut w = Watched::new();
    let v1 = "---\nissued: 2025-01-10\n---\n# Leave policy\n\nStaff may carry over 10 days qxcarry.\n";
    w.write("circulars/leave-policy-v1.md", v1);
    w.start();
    assert!(w.found_in("qxcarry", "circulars/leave-policy-v1.md"));
    let v2 = "---\nissued: 2026-03-01\n---\n# Leave policy\n\nStaff may carry over 15 days qxcarry.\n";
    let tmp = w.path("circulars/leave-policy-v2.md.part");
    std::fs::write(&tmp, v2).unwrap();
    std::fs::rename(&tmp, w.path("circulars/leave-policy-v2.md")).unwrap();
    let as_of = w.engine.as_of(chrono::NaiveDate::from_ymd_opt(2026, 11, 29), None);
    wait_until("v2 is current and v1 superseded", || {
        let docs = w.engine.documents(as_of).unwrap();
        let status = |name: &str| docs.iter().find(|d| d.path.ends_with(name)).map(|d| d.statuses.clone());
        status("leave-policy-v2.md") == Some(vec![almirah_core::freshness::StatusLabel::Current])
            && status("leave-policy-v1.md")
                .is_some_and(|s| s.contains(&almirah_core::freshness::StatusLabel::Superseded))
    });
    let v2_path = w.path("circulars/leave-policy-v2.md").to_string_lossy().into_owned();
    assert_eq!(w.hits("qxcarry"), vec![v2_path], "only the new version is admitted");
}

#[test]
fn index_of_another_folder_and_100_searches_run_while_watching() {
    let mut w = Watched::new();
    w.write("seed.md", "# Seed\n\nA first policy qxseed.\n");
    w.start();
    let other = tempfile::tempdir().unwrap();
    for i in 0..40 {
        std::fs::write(
            other.path().join(format!("o{i:02}.md")),
            format!("# Other {i}\n\nOther folder qxother{i:02}.\n"),
        )
        .unwrap();
    }
    std::thread::scope(|s| {
        let engine = &w.engine;
        let indexer = s.spawn(|| {
            let roots = vec![other.path().to_path_buf()];
            engine.index(&roots, &NoProgress, &std::sync::atomic::AtomicBool::new(false)).unwrap()
        });
        let searchers: Vec<_> = (0..4)
            .map(|t| {
                s.spawn(move || {
                    let as_of = engine.as_of(None, None);
                    for q in 0..25 {
                        let query = format!("policy qxother{:02} qxlive{:02}", (t * 25 + q) % 40, q);
                        engine.search(&query, &SearchOptions::default(), as_of, 0).unwrap();
                    }
                })
            })
            .collect();
        for i in 0..30 {
            w.write(&format!("live/l{i:02}.md"), &format!("# Live {i}\n\nWatched folder qxlive{i:02}.\n"));
        }
        for h in searchers {
            h.join().expect("a search failed");
        }
        let report = indexer.join().unwrap();
        assert_eq!(report.failures(), 0);
    });
    wait_until("every watched write lands", || {
        (0..30).all(|i| w.found_in(&format!("qxlive{i:02}"), &format!("live/l{i:02}.md")))
    });
    let other_root = other.path().canonicalize().unwrap();
    for i in 0..40 {
        let want = other_root.join(format!("o{i:02}.md")).to_string_lossy().into_owned();
        assert_eq!(w.hits(&format!("qxother{i:02}")).first(), Some(&want));
    }
    assert_eq!(w.engine.status().unwrap().documents, 71);
}

#[test]
fn editing_a_sidecar_rereads_the_document_it_describes() {
    let mut w = Watched::new();
    w.write("circular.md", "# Circular\n\nHostel timings qxsidecar.\n");
    w.start();
    assert!(w.found_in("qxsidecar", "circular.md"));
    w.write("circular.md.meta.toml", "session = \"2024-25\"\n");
    wait_until("the sidecar's session withholds it", || w.hits("qxsidecar").is_empty());
    assert_eq!(w.recorded(), vec!["circular.md".to_string()], "the sidecar is not a document");
}
