//! Indexing speed per format (issue 20), printed as a table:
//!
//! - **extract**: `almirah_extract::extract` and `chunk` alone, in this
//!   process, on bytes already read (the mean of `ROUNDS` passes);
//! - **index**: a whole `Engine::index` of the same files into a fresh
//!   library, as the CLI runs it: each file extracted in a child process
//!   (this example re-invoked as `__extract`), chunked, BM25 postings and
//!   the write. The hash embedder keeps embedding (the same cost per chunk
//!   for every format; see `embed_speed` in `crates/embed`) out of it.
//!
//! The files: the twelve 18F handbook pages of
//! `crates/extract/tests/fixtures/office/handbook` in Markdown and their
//! pandoc conversions to `.docx`, `.odt` and `.html`; the HTTP RFCs as HTML
//! pages and as text (`../shared/corpora/versions_rfc_http`, or
//! `ALMIRAH_CORPORA`); the fee table as CSV, `.xlsx` and `.ods`; the sample
//! circulars as PDF. Small sets are copied until there are at least
//! `MIN_FILES` files, so per-file costs dominate.
//!
//! Usage: `cargo run --release -p almirah-core --example format_speed`
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use almirah_core::embed::EmbedderConfig;
use almirah_core::extract::{ChunkOptions, chunk, extract};
use almirah_core::{Engine, EngineConfig, ExtractorMode, NoProgress};

const ROUNDS: usize = 5;
const MIN_FILES: usize = 24;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn corpora() -> PathBuf {
    std::env::var_os("ALMIRAH_CORPORA").map_or_else(|| root().join("../shared/corpora"), PathBuf::from)
}

/// The files of `dir` whose extension is `ext`, sorted.
fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|e| e == ext)).collect())
        .unwrap_or_default();
    out.sort();
    out
}

fn sets() -> Vec<(&'static str, Vec<PathBuf>)> {
    let office = root().join("crates/extract/tests/fixtures/office");
    let handbook = office.join("handbook");
    let rfc = corpora().join("versions_rfc_http");
    let fees = root().join("sample-docs/university/fees-2026-27.csv");
    vec![
        ("markdown (18F)", files(&handbook, "md")),
        ("docx (18F)", files(&handbook, "docx")),
        ("odt (18F)", files(&handbook, "odt")),
        ("html (18F)", files(&handbook, "html")),
        ("html (RFC pages)", files(&rfc.join("raw_html"), "html")),
        ("text (RFCs)", files(&rfc.join("text"), "txt")),
        ("csv (fees)", vec![fees]),
        ("xlsx (fees)", vec![office.join("sheets/fees-2026-27.xlsx")]),
        ("ods (fees)", vec![office.join("sheets/fees-2026-27.ods")]),
        ("pdf (circulars)", files(&root().join("sample-docs/university"), "pdf")),
    ]
}

/// Mean ms per file of extraction and chunking alone, and the chunks made.
fn extraction_ms(set: &[PathBuf]) -> (f64, usize) {
    let loaded: Vec<(PathBuf, Vec<u8>)> = set.iter().map(|p| (p.clone(), std::fs::read(p).unwrap())).collect();
    let mut chunks = 0;
    let started = Instant::now();
    for _ in 0..ROUNDS {
        chunks = 0;
        for (path, bytes) in &loaded {
            let doc = extract(path, bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            chunks += chunk(&doc, &ChunkOptions::default()).len();
        }
    }
    (started.elapsed().as_secs_f64() * 1000.0 / (ROUNDS * set.len()) as f64, chunks)
}

/// Files indexed per second by a whole index of `set` (copied until there
/// are [`MIN_FILES`]), and how many files that was.
fn index_rate(set: &[PathBuf]) -> (f64, usize) {
    let docs = tempfile::tempdir().unwrap();
    let copies = MIN_FILES.div_ceil(set.len());
    for copy in 0..copies {
        let dir = docs.path().join(format!("copy-{copy}"));
        std::fs::create_dir_all(&dir).unwrap();
        for file in set {
            std::fs::copy(file, dir.join(file.file_name().unwrap())).unwrap();
        }
    }
    let data = tempfile::tempdir().unwrap();
    let mut cfg = EngineConfig::new(data.path());
    cfg.embedder = EmbedderConfig::Hash { dimensions: 64 };
    cfg.map_size = 1 << 30;
    cfg.index.extractor = ExtractorMode::Subprocess {
        program: std::env::current_exe().unwrap(),
        args: vec!["__extract".into()],
        timeout_ms: 120_000,
        memory_limit_bytes: 2 << 30,
    };
    let engine = Engine::open(cfg).unwrap();
    let started = Instant::now();
    let report = engine.index(&[docs.path().to_path_buf()], &NoProgress, &AtomicBool::new(false)).unwrap();
    let secs = started.elapsed().as_secs_f64();
    let n = report.outcomes.len();
    let failed: Vec<_> = report.outcomes.iter().filter(|o| o.status.is_some_and(|s| s.is_failure())).collect();
    assert!(failed.is_empty(), "{failed:?}");
    (n as f64 / secs, n)
}

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    if args.next().is_some_and(|a| a == "__extract") {
        let path = PathBuf::from(args.next().unwrap_or_default());
        return ExitCode::from(almirah_core::update::extract_child_main(&path) as u8);
    }
    println!(
        "{:<18} {:>5} {:>9} {:>8} {:>13} {:>15} {:>13}",
        "format", "files", "MiB", "chunks", "extract ms", "extract files/s", "index files/s"
    );
    for (name, set) in sets() {
        if set.is_empty() {
            println!("{name:<18} (no files found)");
            continue;
        }
        let mib = set.iter().map(|p| std::fs::metadata(p).map_or(0, |m| m.len())).sum::<u64>() as f64 / 1048576.0;
        let (ms, chunks) = extraction_ms(&set);
        let (rate, indexed) = index_rate(&set);
        println!(
            "{name:<18} {:>5} {mib:>9.2} {chunks:>8} {ms:>13.2} {:>15.1} {rate:>13.1}  ({indexed} files indexed)",
            set.len(),
            1000.0 / ms,
        );
    }
    ExitCode::SUCCESS
}
