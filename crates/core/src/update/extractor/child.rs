//! The extraction child's side: read the [`Job`], extract under a memory
//! limit, ask the parent for cached OCR pages, report page progress, write
//! the result. A thread watches stdin: its end of file before the result
//! means the parent died, and the child kills its process group (itself and
//! any OCR program) rather than run on.

use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};

use almirah_extract::ExtractError;
use almirah_extract::ocr::{NoCache, OcrHost, OcrPage, PageKey};

use super::protocol::{CacheReply, ChildMessage, Job};
use super::{Reading, extract_in_process};

/// Entry point of the child process: limit memory, extract `path` as the
/// job on stdin says, write JSON lines to stdout. Returns the process
/// exit code (0 when a result, even an extraction error, was written).
pub fn extract_child_main(path: &Path) -> i32 {
    apply_memory_limit();
    std::panic::set_hook(Box::new(|info| eprintln!("panic: {info}")));
    let done = Arc::new(AtomicBool::new(false));
    let (job, replies) = match read_job(Arc::clone(&done)) {
        Ok(pair) => pair,
        Err(reason) => return write(&ChildMessage::Result(Err(ExtractError::Failed(reason)))),
    };
    let host = StdioHost { replies: Mutex::new(replies) };
    let output = match std::fs::read(path) {
        Ok(bytes) => match job.scan.as_ref() {
            Some((ocr, was)) => extract_in_process(path, &bytes, &job.chunking, Reading::Scan { ocr, was }, &host),
            None => extract_in_process(path, &bytes, &job.chunking, Reading::TextLayer, &NoCache),
        },
        Err(e) => Err(ExtractError::Failed(format!("cannot read: {e}"))),
    };
    done.store(true, Ordering::SeqCst);
    write(&ChildMessage::Result(output))
}

/// Read the job line, then leave a thread passing later lines (cache
/// replies) on and watching for the parent's death.
fn read_job(done: Arc<AtomicBool>) -> Result<(Job, mpsc::Receiver<String>), String> {
    let mut first = String::new();
    std::io::stdin().lock().read_line(&mut first).map_err(|e| format!("reading the job: {e}"))?;
    let job: Job = serde_json::from_str(&first).map_err(|e| format!("the extraction job is unreadable: {e}"))?;
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
        if !done.load(Ordering::SeqCst) {
            kill_own_group();
        }
    });
    Ok((job, rx))
}

/// The parent is gone: take the OCR programs down with this process.
fn kill_own_group() {
    let _ = rustix::process::kill_process_group(rustix::process::getpgrp(), rustix::process::Signal::KILL);
    std::process::exit(9);
}

/// Write one message line; the exit code (3 when stdout is gone).
fn write(message: &ChildMessage) -> i32 {
    let mut out = std::io::stdout().lock();
    let written = serde_json::to_writer(&mut out, message).is_ok() && writeln!(out).and_then(|()| out.flush()).is_ok();
    if written { 0 } else { 3 }
}

/// OCR host that asks the parent over stdin and stdout.
struct StdioHost {
    replies: Mutex<mpsc::Receiver<String>>,
}

impl OcrHost for StdioHost {
    fn starting(&self) {
        lift_memory_limit();
    }

    fn cached(&self, keys: &[PageKey]) -> HashMap<PageKey, OcrPage> {
        if write(&ChildMessage::Plan { keys: keys.to_vec() }) != 0 {
            return HashMap::new();
        }
        let replies = self.replies.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let reply: CacheReply = replies.recv().ok().and_then(|l| serde_json::from_str(&l).ok()).unwrap_or_default();
        reply.pages.into_iter().collect()
    }

    fn page_done(&self, done: u32, total: u32) {
        let _ = write(&ChildMessage::Page { done, total });
    }
}

/// Set the soft address-space limit from `ALMIRAH_CHILD_MEMORY_LIMIT`
/// (bytes), keeping the hard limit, so OCR can lift it again.
fn apply_memory_limit() {
    let limit = std::env::var("ALMIRAH_CHILD_MEMORY_LIMIT").ok().and_then(|v| v.parse::<u64>().ok());
    if let Some(bytes) = limit {
        let hard = rustix::process::getrlimit(rustix::process::Resource::As).maximum;
        let current = hard.map_or(bytes, |h| bytes.min(h));
        let rlimit = rustix::process::Rlimit { current: Some(current), maximum: hard };
        let _ = rustix::process::setrlimit(rustix::process::Resource::As, rlimit);
    }
}

/// Raise the soft address-space limit back to the hard one: the parsers are
/// done, and tesseract and pdftoppm inherit the limit.
fn lift_memory_limit() {
    let hard = rustix::process::getrlimit(rustix::process::Resource::As).maximum;
    let rlimit = rustix::process::Rlimit { current: hard, maximum: hard };
    let _ = rustix::process::setrlimit(rustix::process::Resource::As, rlimit);
}
