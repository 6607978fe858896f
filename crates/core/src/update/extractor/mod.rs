//! Running extraction safely. Third-party parsers can panic, loop or blow the
//! stack, so by default each file is extracted in a child process (the host
//! binary re-invoked in a hidden mode) with a wall-clock timeout and an
//! address-space limit (ARCHITECTURE §4). A failure costs one file, never the
//! indexer. OCR runs in the same child ([`almirah_extract::ocr`]); its page
//! cache and progress stay with the parent through an [`OcrHost`].

mod child;
mod parent;
mod protocol;

use std::path::{Path, PathBuf};

use almirah_extract::ocr::{OcrHost, OcrOptions};
use almirah_extract::{ChunkDraft, ChunkOptions, ExtractError, Extracted};
use serde::{Deserialize, Serialize};

pub use child::extract_child_main;

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
        /// Wall-clock limit per file, in ms; OCR adds
        /// [`OcrOptions::file_timeout_ms`] for the pages it must recognise.
        timeout_ms: u64,
        /// Address-space limit of the child's own parsing, in bytes (the
        /// OCR programs it starts are not held to it).
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

/// How a file is read.
#[derive(Debug, Clone, Copy)]
pub enum Reading<'a> {
    /// Its text layer (every format).
    TextLayer,
    /// As a scan, by OCR: a PDF whose text layer gave `was`.
    Scan {
        /// OCR settings.
        ocr: &'a OcrOptions,
        /// Why the text layer was not used (returned, with a reason, when
        /// OCR cannot do better).
        was: &'a ExtractError,
    },
}

/// Extract `path` as `mode` says, read as `reading` says. `bytes` is the
/// content the caller hashed (used in-process; the child reads the file
/// itself). `host` serves cached OCR pages and takes page progress.
pub fn extract_file(
    mode: &ExtractorMode,
    path: &Path,
    bytes: &[u8],
    opts: &ChunkOptions,
    reading: Reading<'_>,
    host: &dyn OcrHost,
) -> ChildOutput {
    match mode {
        ExtractorMode::InProcess => extract_in_process(path, bytes, opts, reading, host),
        ExtractorMode::Subprocess { program, args, timeout_ms, memory_limit_bytes } => {
            let limits = parent::ChildLimits { timeout_ms: *timeout_ms, memory: *memory_limit_bytes };
            let scan = match reading {
                Reading::TextLayer => None,
                Reading::Scan { ocr, was } => Some((ocr.clone(), was.clone())),
            };
            let job = protocol::Job { chunking: *opts, scan };
            parent::run_child(program, args, path, &job, limits, host)
        }
    }
}

/// Extract and chunk one file in this process, read as `reading` says,
/// turning a panic into an error.
pub(crate) fn extract_in_process(
    path: &Path,
    bytes: &[u8],
    opts: &ChunkOptions,
    reading: Reading<'_>,
    host: &dyn OcrHost,
) -> ChildOutput {
    let run = || {
        let doc = match reading {
            Reading::TextLayer => almirah_extract::extract(path, bytes)?,
            Reading::Scan { ocr, was } => almirah_extract::ocr::read_scan(bytes, ocr, host, was.clone())?,
        };
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

#[cfg(test)]
mod tests {
    use almirah_extract::ocr::NoCache;

    use super::*;

    #[test]
    fn a_missing_child_program_is_a_per_file_failure() {
        let mode = ExtractorMode::Subprocess {
            program: PathBuf::from("/nonexistent/almirah"),
            args: vec![],
            timeout_ms: 1000,
            memory_limit_bytes: 1 << 30,
        };
        let err =
            extract_file(&mode, Path::new("x.md"), b"# x", &ChunkOptions::default(), Reading::TextLayer, &NoCache);
        assert!(matches!(err, Err(ExtractError::Failed(m)) if m.contains("could not start")));
    }
}
