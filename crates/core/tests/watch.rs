//! Live folder watching on the real filesystem (issue 6, acceptance 1-4):
//! atomic saves, bursts, dropped events caught by reconcile, deletes.
//! Every wait polls for its condition and gives up after 30 s.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::time::{Duration, Instant};

use common::watching::{CONTENT_DBS, Watched, clean_counts, wait_until};

fn page(token: &str, n: usize) -> String {
    format!("# Leave policy\n\nRevision {n}. Staff may carry over earned leave; reference {token}.\n")
}

#[test]
fn twenty_atomic_saves_end_as_one_current_version_with_the_newest_content() {
    let mut w = Watched::new();
    w.write("leave.md", &page("zqrevzero", 0));
    w.start();
    assert!(w.found_in("zqrevzero", "leave.md"));
    let id = w.doc_id("leave.md").unwrap();
    for n in 1..=20 {
        let tmp = w.path(".leave.md.swp.tmp");
        std::fs::write(&tmp, page(&format!("zqrev{n:02}"), n)).unwrap();
        std::fs::rename(&tmp, w.path("leave.md")).unwrap();
    }
    let took = wait_until("the 20th save is searchable", || w.found_in("zqrev20", "leave.md"));
    eprintln!("last atomic save searchable after {took:?}");
    for old in ["zqrevzero", "zqrev01", "zqrev10", "zqrev19"] {
        assert!(w.hits(old).is_empty(), "old content {old} is still found");
    }
    assert_eq!(w.recorded(), vec!["leave.md".to_string()], "no temp file was indexed");
    assert_eq!(w.doc_id("leave.md"), Some(id), "the save updated the document in place");
    assert_eq!(w.engine.status().unwrap().documents, 1);
}

#[test]
fn a_burst_of_200_markdown_files_all_become_searchable() {
    let mut w = Watched::new();
    w.start();
    std::fs::create_dir(w.path("burst")).unwrap();
    let started = Instant::now();
    for i in 0..200 {
        std::fs::write(
            w.path(&format!("burst/note-{i:03}.md")),
            format!("# Note {i}\n\nUnique token qxburst{i:03}.\n"),
        )
        .unwrap();
    }
    let written = started.elapsed();
    assert!(written < Duration::from_millis(200), "the burst took {written:?} to write");
    let took = wait_until("200 documents", || w.engine.status().unwrap().documents == 200);
    for i in 0..200 {
        let rel = format!("burst/note-{i:03}.md");
        assert!(w.found_in(&format!("qxburst{i:03}"), &rel), "{rel} is not searchable");
    }
    let latencies: Vec<u64> = w.changes().iter().map(|c| c.latency_ms).collect();
    eprintln!(
        "burst of 200 written in {written:?}, all indexed after {took:?}; change latency max {} ms",
        latencies.iter().max().unwrap()
    );
}

#[test]
fn with_events_suppressed_the_next_reconcile_catches_creates_changes_and_deletes() {
    let mut w = Watched::new();
    w.write("kept.md", "# Kept\n\nOriginal wording qxoriginal.\n");
    w.write("doomed.md", "# Doomed\n\nSoon gone qxdoomed.\n");
    w.start_with(|o| {
        o.event_filter = std::sync::Arc::new(|_| false);
        o.reconcile_every = Duration::from_secs(2);
    });
    w.wait_reconciled(1);
    assert!(w.found_in("qxdoomed", "doomed.md"));
    let before = w.reconciles();
    w.write("new.md", "# New\n\nFresh circular qxcreated.\n");
    w.write("kept.md", "# Kept\n\nChanged wording qxchanged, longer than before.\n");
    std::fs::remove_file(w.path("doomed.md")).unwrap();
    wait_until("a reconcile after the changes", || w.reconciles() > before);
    wait_until("created, changed and deleted are all seen", || {
        w.found_in("qxcreated", "new.md") && w.found_in("qxchanged", "kept.md") && w.hits("qxdoomed").is_empty()
    });
    assert!(w.hits("qxoriginal").is_empty());
    let changes = w.changes();
    let after_start: Vec<_> = changes.iter().filter(|c| c.path.ends_with("new.md") || c.action == "deleted").collect();
    assert!(after_start.iter().all(|c| c.source == almirah_core::watch::ChangeSource::Reconcile), "{changes:?}");
}

#[test]
fn a_deleted_file_is_gone_from_every_database_whether_watch_runs_or_not() {
    let mut w = Watched::new();
    for (name, token) in [("a.md", "qxalpha"), ("b.md", "qxbravo"), ("c.md", "qxcharlie")] {
        w.write(name, &format!("# {name}\n\nPolicy text {token}. Second sentence about leave.\n"));
    }
    w.start();
    assert!(w.found_in("qxalpha", "a.md"));

    // Deleted while running.
    std::fs::remove_file(w.path("a.md")).unwrap();
    wait_until("a.md is no longer found", || w.hits("qxalpha").is_empty() && w.doc_id("a.md").is_none());
    assert_nothing_left(&w, "qxalpha");

    // Deleted while stopped: gone after the restart's reconcile.
    w.stop();
    std::fs::remove_file(w.path("b.md")).unwrap();
    assert!(w.found_in("qxbravo", "b.md"), "nothing changes while stopped");
    w.start_with(|_| {});
    wait_until("b.md is gone after the restart", || w.hits("qxbravo").is_empty() && w.doc_id("b.md").is_none());
    assert_nothing_left(&w, "qxbravo");
    assert!(w.found_in("qxcharlie", "c.md"));
}

/// No posting of the deleted file's token, and every content database holds
/// exactly what a clean index of the remaining files holds.
fn assert_nothing_left(w: &Watched, token: &str) {
    let rtxn = w.engine.store().read_txn().unwrap();
    assert!(w.engine.store().dbs().postings.get(&rtxn, token).unwrap().is_none(), "posting {token} remains");
    drop(rtxn);
    let now = w.engine.dump().unwrap().counts;
    let clean = clean_counts(&w.docs);
    for db in CONTENT_DBS {
        assert_eq!(now[db], clean[db], "database {db} differs from a clean index");
    }
}

#[test]
fn a_vanished_folder_keeps_its_documents_and_is_watched_again_when_it_returns() {
    use almirah_core::Notice;
    let mut w = Watched::new();
    w.write("share/a.md", "# A\n\nOn the share qxshare.\n");
    let share = w.path("share");
    w.start_with(|o| o.roots = vec![share.clone()]);
    w.wait_reconciled(1);
    assert!(w.found_in("qxshare", "share/a.md"));
    let count = |w: &Watched, f: &dyn Fn(&Notice) -> bool| w.notices.lock().unwrap().iter().filter(|n| f(n)).count();
    let parked = w.path("parked");
    std::fs::rename(&share, &parked).unwrap(); // like an unmount
    w.watcher.as_ref().unwrap().request_reconcile();
    let missing = |n: &Notice| matches!(n, Notice::Problem { message } if message.contains("missing"));
    wait_until("the vanished folder is reported", || count(&w, &missing) == 1);
    assert!(w.found_in("qxshare", "share/a.md"), "documents of a vanished folder are kept");
    std::fs::rename(&parked, &share).unwrap();
    w.watcher.as_ref().unwrap().request_reconcile();
    wait_until("the folder is watched again", || count(&w, &|n| matches!(n, Notice::Watching(_))) == 2);
    w.write("share/b.md", "# B\n\nBack again qxreturn.\n");
    wait_until("a new file in the returned folder is found", || w.found_in("qxreturn", "share/b.md"));
    let b = w.changes().into_iter().find(|c| c.path.ends_with("share/b.md")).unwrap();
    assert_eq!(b.source, almirah_core::watch::ChangeSource::Event, "found by its event, not a reconcile");
}

#[test]
fn a_folder_the_probe_flags_is_polled_and_the_user_is_told() {
    use almirah_core::watch::WatchMode;
    let mut w = Watched::new();
    w.start_with(|o| {
        o.probe = std::sync::Arc::new(|_| Some("simulated: NFS".to_string()));
        o.poll_interval = Duration::from_millis(200);
    });
    w.wait_reconciled(1);
    let told = w.notices.lock().unwrap().iter().any(|n| {
        matches!(n, almirah_core::Notice::Watching(f) if f.mode == WatchMode::Poll && f.reason.as_deref() == Some("simulated: NFS"))
    });
    assert!(told, "the user is told the folder is polled");
    assert_eq!(w.watcher.as_ref().unwrap().health().folders[0].mode, WatchMode::Poll);
    wait_until("status shows the polled folder", || {
        w.engine.status().unwrap().watch.is_some_and(|h| h.running && h.folders[0].mode == WatchMode::Poll)
    });
    w.write("polled.md", "# Polled\n\nFound by polling qxpolled.\n");
    wait_until("a file in a polled folder is found", || w.found_in("qxpolled", "polled.md"));
    assert_eq!(w.changes().last().unwrap().source, almirah_core::watch::ChangeSource::Event);
}

#[test]
fn excluded_temp_lock_and_hidden_files_are_never_indexed() {
    let mut w = Watched::new_with(|cfg, docs| {
        cfg.index.folders = vec![almirah_core::freshness::FolderSettings {
            path: docs.to_path_buf(),
            exclude: vec!["drafts/**".into()],
            ..Default::default()
        }];
    });
    w.start();
    for rel in ["drafts/x.md", "~$policy.md", ".~lock.policy.md#", ".hidden.md", "notes.tmp", "a.md.part", ".git/c.md"]
    {
        w.write(rel, "# Noise\n\nNever indexed qxnoise.\n");
    }
    w.write("a.md", "# A\n\nThe real policy qxreal.\n");
    wait_until("the real file is found", || w.found_in("qxreal", "a.md"));
    let before = w.reconciles();
    w.watcher.as_ref().unwrap().request_reconcile();
    wait_until("a reconcile", || w.reconciles() > before);
    assert_eq!(w.recorded(), vec!["a.md".to_string()]);
    assert!(w.hits("qxnoise").is_empty());
}

/// Two-phase ingest under the watcher: while a slow embedder works through
/// the queue in slices, a new file is searchable by keywords at once.
#[test]
fn a_new_file_is_searchable_by_keywords_while_the_backfill_runs() {
    let mut w = Watched::new();
    for i in 0..60 {
        w.write(&format!("old/page-{i:02}.md"), &page(&format!("qxold{i:02}"), i));
    }
    w.embed_delay_ms.store(500, std::sync::atomic::Ordering::SeqCst);
    w.start_with(|_| {});
    w.wait_reconciled(1);
    assert!(w.engine.status().unwrap().vectors_pending > 0, "the queue is not embedded yet");
    w.write("new.md", &page("qxfreshpage", 0));
    let took = wait_until("the new file is searchable", || w.found_in("qxfreshpage", "new.md"));
    let pending = w.engine.status().unwrap().vectors_pending;
    assert!(pending > 0, "found only after the backfill finished ({took:?})");
    eprintln!("new file searchable after {took:?} with {pending} chunks still waiting for vectors");
    w.embed_delay_ms.store(0, std::sync::atomic::Ordering::SeqCst);
    w.wait_vectors();
}
