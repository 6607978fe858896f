//! Running extraction safely. Third-party parsers can panic, loop or blow the
//! stack, so by default each file is extracted in a child process (the host
//! binary re-invoked in a hidden mode) with a wall-clock timeout and an
//! address-space limit (ARCHITECTURE §4). A failure costs one file, never the
//! indexer.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use almirah_extract::{ChunkDraft, ChunkOptions, ExtractError, Extracted};
use serde::{Deserialize, Serialize};
use wait_timeout::ChildExt;

/// How extraction is run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "mode", rename_all = "kebab-case")]
pub enum ExtractorMode {
    /// In this process, under `catch_unwind` only (tests, tools that have no
    /// child entry point). A parser that loops forever hangs the indexer.
    InProcess,
    /// In a child process: `program args… <path>` must call
    /// [`extract_child_main`] and exit.
    Subprocess {
        /// The executable (usually the current one).
        program: PathBuf,
        /// Arguments before the path, e.g. `["__extract"]`.
        args: Vec<String>,
        /// Wall-clock limit per file, in ms.
        timeout_ms: u64,
        /// Address-space limit of the child, in bytes.
        memory_limit_bytes: u64,
    },
}

/// A successful extraction: the document and its chunks.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ExtractedFile {
    /// The extracted document.
    pub doc: Extracted,
    /// Its chunks.
    pub chunks: Vec<ChunkDraft>,
}

type ChildOutput = Result<ExtractedFile, ExtractError>;

/// Extract and chunk one file in-process, turning a panic into an error.
pub fn extract_in_process(path: &Path, bytes: &[u8], opts: &ChunkOptions) -> ChildOutput {
    let run = || {
        let doc = almirah_extract::extract(path, bytes)?;
        let chunks = almirah_extract::chunk(&doc, opts);
        Ok(ExtractedFile { doc, chunks })
    };
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(run)) {
        Ok(result) => result,
        Err(payload) => Err(ExtractError::Failed(format!("parser panicked: {}", panic_text(&payload)))),
    }
}

fn panic_text(payload: &Box<dyn std::any::Any + Send>) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_string())
}

/// Extract `path` as `mode` says. `bytes` is the content the caller hashed
/// (used in-process; the child reads the file itself).
pub fn extract_file(mode: &ExtractorMode, path: &Path, bytes: &[u8], opts: &ChunkOptions) -> ChildOutput {
    match mode {
        ExtractorMode::InProcess => extract_in_process(path, bytes, opts),
        ExtractorMode::Subprocess { program, args, timeout_ms, memory_limit_bytes } => {
            let limits = ChildLimits { timeout: Duration::from_millis(*timeout_ms), memory: *memory_limit_bytes };
            run_child(program, args, path, opts, limits)
        }
    }
}

struct ChildLimits {
    timeout: Duration,
    memory: u64,
}

fn run_child(program: &Path, args: &[String], path: &Path, opts: &ChunkOptions, limits: ChildLimits) -> ChildOutput {
    let spawned = Command::new(program)
        .args(args)
        .arg(path)
        .env("ALMIRAH_CHILD_MEMORY_LIMIT", limits.memory.to_string())
        .env("ALMIRAH_CHUNK_RANGE", format!("{}..{}", opts.min_chars, opts.max_chars))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = spawned.map_err(|e| ExtractError::Failed(format!("could not start the extractor: {e}")))?;
    let stdout = child.stdout.take();
    let stderr = child.stderr.take();
    let out_reader = std::thread::spawn(move || read_all(stdout));
    let err_reader = std::thread::spawn(move || read_all(stderr));
    let status = match child.wait_timeout(limits.timeout) {
        Ok(Some(status)) => status,
        Ok(None) => {
            let _ = child.kill();
            let _ = child.wait();
            return Err(ExtractError::Failed(format!("extraction timed out after {} s", limits.timeout.as_secs())));
        }
        Err(e) => {
            return Err(ExtractError::Failed(format!("waiting for the extractor: {e}")));
        }
    };
    let out = out_reader.join().unwrap_or_default();
    let err = err_reader.join().unwrap_or_default();
    if !status.success() {
        let tail = String::from_utf8_lossy(&err);
        let last = tail.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("no message");
        return Err(ExtractError::Failed(format!("extractor crashed ({status}): {last}")));
    }
    serde_json::from_slice::<ChildOutput>(&out)
        .unwrap_or_else(|e| Err(ExtractError::Failed(format!("extractor output unreadable: {e}"))))
}

fn read_all(pipe: Option<impl Read>) -> Vec<u8> {
    let mut buf = Vec::new();
    if let Some(mut p) = pipe {
        let _ = p.read_to_end(&mut buf);
    }
    buf
}

/// Entry point of the child process: limit memory, extract `path`, write the
/// JSON result to stdout. Returns the process exit code (0 when a result,
/// even an extraction error, was written).
pub fn extract_child_main(path: &Path) -> i32 {
    apply_memory_limit();
    std::panic::set_hook(Box::new(|info| eprintln!("panic: {info}")));
    let opts = chunk_options_from_env();
    let output = match std::fs::read(path) {
        Ok(bytes) => extract_in_process(path, &bytes, &opts),
        Err(e) => Err(ExtractError::Failed(format!("cannot read: {e}"))),
    };
    match serde_json::to_writer(std::io::stdout().lock(), &output) {
        Ok(()) => 0,
        Err(_) => 3,
    }
}

fn chunk_options_from_env() -> ChunkOptions {
    parse_chunk_range(&std::env::var("ALMIRAH_CHUNK_RANGE").unwrap_or_default())
}

fn parse_chunk_range(range: &str) -> ChunkOptions {
    let mut parts = range.split("..").map(|p| p.trim().parse::<usize>().ok());
    match (parts.next().flatten(), parts.next().flatten()) {
        (Some(min_chars), Some(max_chars)) if min_chars <= max_chars => ChunkOptions { min_chars, max_chars },
        _ => ChunkOptions::default(),
    }
}

fn apply_memory_limit() {
    let limit = std::env::var("ALMIRAH_CHILD_MEMORY_LIMIT").ok().and_then(|v| v.parse::<u64>().ok());
    if let Some(bytes) = limit {
        let rlimit = rustix::process::Rlimit { current: Some(bytes), maximum: Some(bytes) };
        let _ = rustix::process::setrlimit(rustix::process::Resource::As, rlimit);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunk_range_parses_and_falls_back_to_defaults() {
        assert_eq!(parse_chunk_range("300..900"), ChunkOptions { min_chars: 300, max_chars: 900 });
        assert_eq!(parse_chunk_range("900..300"), ChunkOptions::default());
        assert_eq!(parse_chunk_range(""), ChunkOptions::default());
    }

    #[test]
    fn a_missing_child_program_is_a_per_file_failure() {
        let mode = ExtractorMode::Subprocess {
            program: PathBuf::from("/nonexistent/almirah"),
            args: vec![],
            timeout_ms: 1000,
            memory_limit_bytes: 1 << 30,
        };
        let err = extract_file(&mode, Path::new("x.md"), b"# x", &ChunkOptions::default());
        assert!(matches!(err, Err(ExtractError::Failed(m)) if m.contains("could not start")));
    }
}
