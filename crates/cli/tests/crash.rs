//! Crash safety: the indexer is killed with SIGKILL at named points (inside a
//! batch, during the vector update, just before and just after the commit,
//! inside the embedding backfill)
//! and at seeded random moments. After every kill the library opens, a re-run
//! completes, and the final logical dump equals a clean one-pass index.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::time::{Duration, Instant};

/// 60 real handbook pages and 3 PDFs, in batches of 25 chunks: many commits.
fn corpus() -> tempfile::TempDir {
    let docs = tempfile::tempdir().unwrap();
    let src = common::corpora().join("handbook_18f/pages");
    for rel in common::markdown_files(&src).iter().take(60) {
        common::copy_rel(&src, docs.path(), rel);
    }
    let pdfs = common::corpora().join("pdfs_mixed/pypdf_sample_files");
    for name in ["minimal-document.pdf", "multicolumn.pdf", "crazyones-pdfa.pdf"] {
        std::fs::copy(pdfs.join(name), docs.path().join(name)).unwrap();
    }
    docs
}

fn index_ok(lib: &common::Library, docs: &Path) {
    let out = lib.run(&["index", "--quiet", docs.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let problems: Vec<&str> = stdout.lines().filter(|l| !l.starts_with("indexed")).collect();
    assert!(
        out.status.code() == Some(0),
        "index run failed: {:?} {}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr),
        problems.join("\n")
    );
}

fn assert_opens(lib: &common::Library) {
    let out = lib.run(&["status", "--json"]);
    assert!(out.status.success(), "library did not open after a kill: {}", String::from_utf8_lossy(&out.stderr));
}

/// A tiny seeded generator (SplitMix64) for the random kill moments.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

#[test]
fn sigkill_at_named_points_and_random_moments_never_corrupts_the_index() {
    let docs = corpus();
    let clean = common::Library::hash(25);
    let started = Instant::now();
    index_ok(&clean, docs.path());
    let clean_ms = started.elapsed().as_millis() as u64;
    eprintln!("clean index: {clean_ms} ms");
    let want = clean.dump_hash();
    let mut kills = 0;

    for point in ["mid-batch", "vector-update", "before-commit", "after-commit", "backfill-before-commit"] {
        for nth in [1, 2, 4] {
            let lib = common::Library::hash(25);
            let out = lib
                .cmd(&["index", "--quiet", docs.path().to_str().unwrap()])
                .env("ALMIRAH_FAILPOINT", format!("{point}@{nth}"))
                .output()
                .unwrap();
            assert_eq!(out.status.signal(), Some(9), "{point}@{nth} did not kill: {:?}", out.status);
            kills += 1;
            assert_opens(&lib);
            index_ok(&lib, docs.path());
            assert_eq!(lib.dump_hash(), want, "dump differs after a kill at {point}@{nth}");
        }
    }

    // Seeded random moments: several kills in a row on one library, then a
    // completing run, until 10 random kills have landed (at most 40 tries).
    let mut rng = SplitMix(20_261_129);
    let mut random_kills = 0;
    let mut tries = 0;
    while random_kills < 10 && tries < 40 {
        let lib = common::Library::hash(25);
        for _ in 0..3 {
            tries += 1;
            let delay = 5 + rng.next() % (clean_ms / 2).max(30);
            let mut child = lib.cmd(&["index", "--quiet", docs.path().to_str().unwrap()]).spawn().unwrap();
            std::thread::sleep(Duration::from_millis(delay));
            let _ = child.kill(); // SIGKILL
            if child.wait().unwrap().signal() == Some(9) {
                random_kills += 1;
            }
            assert_opens(&lib);
        }
        index_ok(&lib, docs.path());
        assert_eq!(lib.dump_hash(), want, "dump differs after random kills (try {tries})");
    }
    kills += random_kills;
    eprintln!("{kills} SIGKILLs landed ({random_kills} at random moments in {tries} tries)");
    assert!(kills >= 20, "only {kills} kills landed");
}

/// A kill during a format upgrade (v1, v6, v7, v8 and v9 → current, all
/// steps in one transaction) leaves the old format; the next open upgrades
/// it fully, and the gate records (v6 → v7) and gate state (v7 → v8) the
/// steps write agree with the documents. v8 → v9 moves the vectors into
/// blocks and v9 → v10 builds the BM25 impact lists.
#[test]
fn sigkill_during_a_format_upgrade_leaves_the_old_format_and_the_next_open_upgrades() {
    for version in [1, 6, 7, 8, 9] {
        let fixture = format!("{}/../core/tests/fixtures/format-v{version}/data.mdb", env!("CARGO_MANIFEST_DIR"));
        let lib = common::Library::hash(25);
        std::fs::create_dir_all(lib.data()).unwrap();
        std::fs::copy(&fixture, lib.data().join("data.mdb")).unwrap();
        let killed =
            lib.cmd(&["status", "--json"]).env("ALMIRAH_FAILPOINT", "upgrade-before-commit@1").output().unwrap();
        assert_eq!(killed.status.signal(), Some(9), "v{version}: the upgrade was not killed: {:?}", killed.status);
        // The old format is still there: the next open upgrades again (and is killed again).
        let again_killed =
            lib.cmd(&["status", "--json"]).env("ALMIRAH_FAILPOINT", "upgrade-before-commit@1").output().unwrap();
        assert_eq!(
            again_killed.status.signal(),
            Some(9),
            "v{version}: the killed upgrade had committed: {:?}",
            again_killed.status
        );
        let first = lib.json(&["status"]);
        assert_eq!(first["format_version"], almirah_core::store::FORMAT_VERSION, "{first}");
        assert!(first["documents"].as_u64().unwrap() >= 3, "the upgraded library keeps its documents: {first}");
        let again = lib.json(&["status"]);
        assert_eq!(again["documents"], first["documents"]);
        assert_gate_records_agree(&lib.data(), version);
    }
}

/// After the upgrade the stored gate records and state equal what the metadata gives.
fn assert_gate_records_agree(data: &std::path::Path, version: u32) {
    let mut cfg = almirah_core::EngineConfig::new(data);
    cfg.embedder = almirah_core::embed::EmbedderConfig::Hash { dimensions: 64 };
    let engine = almirah_core::Engine::open(cfg).unwrap();
    let rtxn = engine.store().read_txn().unwrap();
    let dbs = engine.store().dbs();
    let off = almirah_core::store::gate_records::disagreements(dbs, &rtxn).unwrap();
    assert!(off.is_empty(), "v{version}: gate records after the upgrade: {off:?}");
    assert_eq!(dbs.gate_docs.len(&rtxn).unwrap(), dbs.doc_meta.len(&rtxn).unwrap(), "v{version}: one record each");
}
