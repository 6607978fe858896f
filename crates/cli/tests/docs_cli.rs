//! `almirah docs set|unset` through the real binary: the override shows as
//! `override` provenance and changes the status at once; bad input is refused
//! with a clear message and exit code 1.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

#[test]
fn docs_set_and_unset_change_status_at_once() {
    let docs = tempfile::tempdir().unwrap();
    std::fs::write(docs.path().join("Circular-03.md"), "# Circular No. 3\n\nLabs close at 9 pm.\n").unwrap();
    let lib = common::Library::hash(500);
    assert!(lib.run(&["index", "--quiet", docs.path().to_str().unwrap()]).status.success());
    let status = |lib: &common::Library| {
        let v = lib.json(&["docs", "--as-of", "2026-11-29"]);
        let d = &v["documents"][0];
        (d["statuses"][0].as_str().unwrap().to_string(), d["meta"]["session"].clone())
    };
    assert_eq!(status(&lib).0, "current");
    let out = lib.run(&["docs", "set", "circular-03", "--session", "2024-25"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let (s, session) = status(&lib);
    assert_eq!(s, "other-session");
    assert_eq!(session["source"], "override");
    assert_eq!(session["value"], "2024-25");
    let bad = lib.run(&["docs", "set", "circular-03", "--session", "soon"]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("expected a session such as 2026-27"));
    let missing = lib.run(&["docs", "set", "no-such-doc", "--session", "2024-25"]);
    assert!(String::from_utf8_lossy(&missing.stderr).contains("no such document"));
    assert!(lib.run(&["docs", "unset", "circular-03", "session"]).status.success());
    assert_eq!(status(&lib).0, "current");
}

#[test]
fn asking_an_empty_library_warns_that_it_is_empty() {
    let lib = common::Library::hash(8);
    // No library at all is refused (a mistyped --data-dir)…
    let out = lib.run(&["ask", "How many days of leave do I get?"]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("no library in"), "{out:?}");
    // …and a library that holds no documents answers with a warning.
    let empty = tempfile::tempdir().unwrap();
    assert!(lib.run(&["index", "--quiet", empty.path().to_str().unwrap()]).status.success());
    let out = lib.run(&["ask", "How many days of leave do I get?"]);
    assert!(out.status.success(), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("holds no documents") && stderr.contains("almirah index"), "{stderr}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("I could not find this in the documents."));
}
