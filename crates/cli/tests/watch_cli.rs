//! `almirah watch` as a process (issue 6, acceptance 8 and 9, and the
//! folders commands): SIGKILL in the middle of a burst then a restart ends
//! with the dump of a clean index; `almirah index` on another folder and
//! 100 searches from a third process run while it watches.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use almirah_core::{Engine, EngineConfig, SearchOptions};

const TIMEOUT: Duration = Duration::from_secs(30);

fn wait_until(what: &str, mut cond: impl FnMut() -> bool) {
    let start = Instant::now();
    while !cond() {
        assert!(start.elapsed() < TIMEOUT, "timed out after {TIMEOUT:?} waiting for: {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// `almirah watch FOLDER` in the background, its stderr in `watch-N.log`.
fn spawn_watch(lib: &common::Library, folder: &Path, n: usize) -> Child {
    let log = std::fs::File::create(lib.dir.path().join(format!("watch-{n}.log"))).unwrap();
    lib.cmd(&["watch", folder.to_str().unwrap()]).stdout(Stdio::null()).stderr(log).spawn().unwrap()
}

fn watch_log(lib: &common::Library, n: usize) -> String {
    std::fs::read_to_string(lib.dir.path().join(format!("watch-{n}.log"))).unwrap_or_default()
}

fn status(lib: &common::Library) -> serde_json::Value {
    lib.json(&["status"])
}

fn reconciled(lib: &common::Library) -> bool {
    !status(lib)["watch"]["last_reconcile_at"].is_null()
}

/// Ctrl-C: the watcher stops cleanly and exits 0.
fn interrupt(mut child: Child) {
    // SIGINT, as Ctrl-C sends it.
    std::process::Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            assert!(status.success(), "watch did not stop cleanly: {status:?}");
            return;
        }
        assert!(start.elapsed() < TIMEOUT, "watch did not stop on SIGINT");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn write_burst(docs: &Path, n: usize) {
    let src = common::corpora().join("handbook_18f/pages");
    let pages = common::markdown_files(&src);
    for i in 0..n {
        let body = std::fs::read_to_string(src.join(&pages[i % pages.len()])).unwrap();
        std::fs::write(docs.join(format!("burst-{i:03}.md")), format!("{body}\n\nBurst marker qxburst{i:03}.\n"))
            .unwrap();
    }
}

#[test]
fn sigkill_mid_burst_then_restart_ends_with_the_dump_of_a_clean_index() {
    let lib = common::Library::hash(25);
    let docs = tempfile::tempdir().unwrap();
    let total = 240;
    let mut watch = spawn_watch(&lib, docs.path(), 1);
    wait_until("the first reconcile", || reconciled(&lib));
    write_burst(docs.path(), total);
    wait_until("a quarter of the burst committed", || {
        status(&lib)["documents"].as_u64().unwrap() >= (total / 4) as u64
    });
    watch.kill().unwrap(); // SIGKILL
    assert_eq!(watch.wait().unwrap().signal(), Some(9));
    let at_kill = status(&lib)["documents"].as_u64().unwrap();
    eprintln!("killed with {at_kill} of {total} documents committed");
    assert!(at_kill < total as u64, "the kill came after the burst was done; log:\n{}", watch_log(&lib, 1));

    let watch = spawn_watch(&lib, docs.path(), 2);
    wait_until("the restart completes the burst and its vectors", || {
        let s = status(&lib);
        s["documents"].as_u64() == Some(total as u64)
            && s["watch"]["queue_len"].as_u64() == Some(0)
            && s["vectors_pending"].as_u64() == Some(0)
    });
    interrupt(watch);
    assert_eq!(status(&lib)["watch"]["running"], false);

    let clean = common::Library::hash(25);
    let out = clean.run(&["index", "--quiet", docs.path().to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(lib.dump_hash(), clean.dump_hash(), "dump differs from a clean index; log:\n{}", watch_log(&lib, 2));
}

#[test]
fn index_of_another_folder_and_100_searches_from_other_processes_while_watching() {
    let lib = common::Library::hash(500);
    let watched = tempfile::tempdir().unwrap();
    let other = tempfile::tempdir().unwrap();
    std::fs::write(watched.path().join("seed.md"), "# Seed\n\nFirst policy qxseed.\n").unwrap();
    for i in 0..60 {
        std::fs::write(
            other.path().join(format!("o{i:02}.md")),
            format!("# Other {i}\n\nOther folder qxother{i:02}.\n"),
        )
        .unwrap();
    }
    let watch = spawn_watch(&lib, watched.path(), 1);
    wait_until("the first reconcile", || reconciled(&lib));
    let mut index =
        lib.cmd(&["index", "--quiet", other.path().to_str().unwrap()]).stdout(Stdio::null()).spawn().unwrap();
    let mut cfg = EngineConfig::new(lib.data());
    cfg.embedder = almirah_core::embed::EmbedderConfig::Hash { dimensions: 64 };
    let reader = Engine::open(cfg).unwrap();
    std::thread::scope(|s| {
        let reader = &reader;
        let searchers: Vec<_> = (0..4)
            .map(|t| {
                s.spawn(move || {
                    for q in 0..25 {
                        let query = format!("policy qxother{:02} qxlive{:02}", (t * 25 + q) % 60, q);
                        reader.search(&query, &SearchOptions::default(), reader.as_of(None, None), 0).unwrap();
                    }
                })
            })
            .collect();
        for i in 0..40 {
            std::fs::write(
                watched.path().join(format!("l{i:02}.md")),
                format!("# Live {i}\n\nWatched qxlive{i:02}.\n"),
            )
            .unwrap();
        }
        for h in searchers {
            h.join().expect("a search failed");
        }
    });
    assert!(index.wait().unwrap().success(), "almirah index failed while watch ran");
    let bm25 = SearchOptions { mode: almirah_core::SearchMode::Bm25, ..SearchOptions::default() };
    let top = |token: &str| {
        let hits = reader.search(token, &bm25, reader.as_of(None, None), 0).unwrap().results.hits;
        hits.first().map(|h| h.path.clone())
    };
    wait_until("every watched write lands", || (0..40).all(|i| top(&format!("qxlive{i:02}")).is_some()));
    for i in 0..60 {
        assert!(top(&format!("qxother{i:02}")).is_some_and(|p| p.ends_with(&format!("o{i:02}.md"))));
    }
    assert_eq!(status(&lib)["documents"], 101);
    interrupt(watch);
}

#[test]
fn folders_add_list_and_remove_edit_the_config_and_drop_documents() {
    let lib = common::Library::hash(500);
    let docs = tempfile::tempdir().unwrap();
    std::fs::write(docs.path().join("a.md"), "# A\n\nAlpha policy qxalpha.\n").unwrap();
    std::fs::create_dir(docs.path().join("drafts")).unwrap();
    std::fs::write(docs.path().join("drafts/b.md"), "# B\n\nDraft qxdraft.\n").unwrap();
    let folder = docs.path().to_str().unwrap();
    let out = lib.run(&["folders", "add", folder, "--exclude", "drafts/**", "--force-poll"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let config = std::fs::read_to_string(lib.dir.path().join("config.toml")).unwrap();
    assert!(config.contains("[[folders]]") && config.contains("provider = \"hash\""), "{config}");
    let out = lib.run(&["index", "--quiet", folder]);
    assert!(out.status.success());
    let listed = lib.json(&["folders", "list"]);
    assert_eq!(listed[0]["index"]["documents"], 1, "drafts are excluded: {listed}");
    assert_eq!(listed[0]["settings"]["force_poll"], true);
    let out = lib.run(&["folders", "remove", folder]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(status(&lib)["documents"], 0);
    let config = std::fs::read_to_string(lib.dir.path().join("config.toml")).unwrap();
    assert!(!config.contains("folders"), "{config}");
}

/// The paths `almirah search TOKEN --mode bm25` finds, as another process sees them.
fn found(lib: &common::Library, token: &str) -> Vec<String> {
    let out = lib.json(&["search", token, "--mode", "bm25", "-k", "3"]);
    let hits = out["results"]["hits"].as_array().cloned().unwrap_or_default();
    hits.iter()
        .filter(|h| h["text"].as_str().is_some_and(|t| t.contains(token)))
        .map(|h| h["path"].to_string())
        .collect()
}

#[test]
fn a_running_watch_follows_folders_add_and_remove_without_a_restart() {
    let lib = common::Library::hash(500);
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    std::fs::write(a.path().join("a.md"), "# A\n\nAlpha policy qxalpha.\n").unwrap();
    std::fs::write(b.path().join("b.md"), "# B\n\nBravo policy qxbravo.\n").unwrap();
    let (a_dir, b_dir) = (a.path().to_str().unwrap(), b.path().to_str().unwrap());
    assert!(lib.run(&["folders", "add", a_dir]).status.success());
    let log = std::fs::File::create(lib.dir.path().join("watch-follow.log")).unwrap();
    let child = lib.cmd(&["watch"]).stdout(Stdio::null()).stderr(log).spawn().unwrap();
    wait_until("folder A indexed", || !found(&lib, "qxalpha").is_empty());

    assert!(lib.run(&["folders", "add", b_dir]).status.success());
    wait_until("folder B, added while watching, indexed", || !found(&lib, "qxbravo").is_empty());
    std::fs::write(b.path().join("c.md"), "# C\n\nCharlie policy qxcharlie.\n").unwrap();
    wait_until("a new file in B picked up by its live watch", || !found(&lib, "qxcharlie").is_empty());

    assert!(lib.run(&["folders", "remove", a_dir]).status.success());
    assert!(found(&lib, "qxalpha").is_empty(), "A's documents were dropped");
    std::thread::sleep(Duration::from_secs(3));
    std::fs::write(a.path().join("d.md"), "# D\n\nDelta policy qxdelta.\n").unwrap();
    std::fs::write(b.path().join("e.md"), "# E\n\nEcho policy qxecho.\n").unwrap();
    wait_until("B still watched", || !found(&lib, "qxecho").is_empty());
    assert!(found(&lib, "qxdelta").is_empty() && found(&lib, "qxalpha").is_empty(), "A is no longer watched");
    let text = std::fs::read_to_string(lib.dir.path().join("watch-follow.log")).unwrap_or_default();
    assert!(text.contains("config changed"), "{text}");
    interrupt(child);
}

/// Issue 21: one missing watched folder does not stop `almirah watch`.
#[test]
fn a_missing_watched_folder_is_skipped_kept_and_watched_again_when_it_returns() {
    let (a, parent) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let b = parent.path().join("usb-drive");
    std::fs::create_dir_all(&b).unwrap();
    std::fs::write(b.join("kept.md"), "# Kept\n\nKept policy qxkept.\n").unwrap();
    let config = format!(
        "[embedder]\nprovider = \"hash\"\ndimensions = 64\n[watch]\nreconcile_secs = 1\n\n\
         [[folders]]\npath = {:?}\n\n[[folders]]\npath = {:?}\n",
        a.path().to_string_lossy(),
        b.to_string_lossy()
    );
    let lib = common::Library::with_config(&config);
    assert!(lib.run(&["index", b.to_str().unwrap()]).status.success());
    assert!(!found(&lib, "qxkept").is_empty());
    std::fs::remove_dir_all(&b).unwrap();

    let log = std::fs::File::create(lib.dir.path().join("watch-missing.log")).unwrap();
    let child = lib.cmd(&["watch"]).stdout(Stdio::null()).stderr(log).spawn().unwrap();
    std::fs::write(a.path().join("a.md"), "# A\n\nAlpha policy qxalpha.\n").unwrap();
    wait_until("a new file in A searchable", || !found(&lib, "qxalpha").is_empty());
    let s = status(&lib);
    let folders = s["watch"]["folders"].as_array().unwrap();
    let missing = folders.iter().find(|f| f["path"].as_str().unwrap().ends_with("usb-drive")).unwrap();
    assert_eq!(missing["mode"], "missing", "{s}");
    assert!(missing["missing_since"].is_string() && missing["reason"].as_str().unwrap().contains("missing since"));
    assert!(!found(&lib, "qxkept").is_empty(), "the missing folder's documents are kept");
    let listed = lib.json(&["folders", "list"]);
    assert!(listed.to_string().contains("folder missing since"), "{listed}");

    std::fs::create_dir_all(&b).unwrap();
    std::fs::write(b.join("back.md"), "# Back\n\nReturned policy qxreturned.\n").unwrap();
    wait_until("a file in the returned folder searchable", || !found(&lib, "qxreturned").is_empty());
    let text = std::fs::read_to_string(lib.dir.path().join("watch-missing.log")).unwrap_or_default();
    assert!(text.contains("is missing; its documents are kept"), "{text}");
    interrupt(child);

    let out = lib.run(&["index", "/does/not/exist"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/does/not/exist"));
    let out = lib.run(&["watch", "/does/not/exist"]);
    assert_eq!(out.status.code(), Some(2), "an explicit missing folder is an error");
}

#[test]
fn a_second_watcher_on_the_same_library_is_refused_and_names_the_first() {
    let lib = common::Library::hash(25);
    let docs = tempfile::tempdir().unwrap();
    std::fs::write(docs.path().join("a.md"), "# A\n\nThe canteen opens at 8.\n").unwrap();
    let mut first = spawn_watch(&lib, docs.path(), 1);
    wait_until("the first reconcile", || reconciled(&lib));
    let second = lib.run(&["watch", docs.path().to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&second.stderr);
    assert_eq!(second.status.code(), Some(1), "{stderr}");
    let pid = format!("pid {}", first.id());
    assert!(stderr.contains("already watched by") && stderr.contains(&pid), "{stderr}");
    assert!(stderr.contains("(almirah watch)"), "the holder is named by its command: {stderr}");
    first.kill().unwrap(); // SIGKILL: the kernel releases the lock
    first.wait().unwrap();
    let mut third = spawn_watch(&lib, docs.path(), 3);
    std::thread::sleep(std::time::Duration::from_millis(500));
    assert!(third.try_wait().unwrap().is_none(), "after a crash the next watcher starts: {}", watch_log(&lib, 3));
    interrupt(third);
}
