//! The indexer's side of an extraction child: start it in its own process
//! group, answer its OCR cache questions, pass on its page progress, and
//! kill the whole group (the child and any `tesseract` or `pdftoppm` it
//! started) when its time runs out. The time limit grows by the OCR limit
//! of the pages the child must recognise once it has said how many.

use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use almirah_extract::ExtractError;
use almirah_extract::ocr::OcrHost;
use wait_timeout::ChildExt;

use super::ChildOutput;
use super::protocol::{CacheReply, ChildMessage, Job};

/// How often the parent looks at the clock while the child runs.
const TICK: Duration = Duration::from_millis(100);

/// Limits of one child.
pub(super) struct ChildLimits {
    /// Base wall-clock limit, in ms.
    pub timeout_ms: u64,
    /// Address-space limit of the child's parsing, in bytes.
    pub memory: u64,
}

/// Run one extraction child to completion or its deadline.
///
/// # Errors
/// [`ExtractError::Failed`] when the child cannot start, times out
/// ("extraction timed out after N s"), crashes or writes no result; the
/// child's own extraction error otherwise.
pub(super) fn run_child(
    program: &Path,
    args: &[String],
    path: &Path,
    job: &Job,
    limits: ChildLimits,
    host: &dyn OcrHost,
) -> ChildOutput {
    let mut child = Command::new(program)
        .args(args)
        .arg(path)
        .env("ALMIRAH_CHILD_MEMORY_LIMIT", limits.memory.to_string())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .map_err(|e| ExtractError::Failed(format!("could not start the extractor: {e}")))?;
    let mut stdin = child.stdin.take();
    if let Some(pipe) = stdin.as_mut() {
        let line = serde_json::to_string(job).map_err(|e| ExtractError::Failed(e.to_string()))?;
        let _ = writeln!(pipe, "{line}").and_then(|()| pipe.flush());
    }
    let stdout = child.stdout.take();
    let stderr = child.stderr.take();
    let (extend_tx, extend_rx) = mpsc::channel::<u64>();
    std::thread::scope(|scope| {
        let ocr = job.scan.as_ref().map(|(ocr, _)| ocr.clone());
        let messages = scope.spawn(move || {
            read_messages(stdout, stdin, host, |missing| {
                let _ = extend_tx.send(ocr.as_ref().map_or(0, |o| o.file_timeout_ms(missing)));
            })
        });
        let errors = scope.spawn(move || read_all(stderr));
        let waited = wait(&mut child, Duration::from_millis(limits.timeout_ms), &extend_rx);
        // Whatever happened, no program the child started outlives it.
        kill_group(&mut child);
        let result = messages.join().ok().flatten();
        let err = errors.join().unwrap_or_default();
        finish(waited, result, &err)
    })
}

/// Wait for the child, killing its process group at the deadline.
fn wait(child: &mut Child, base: Duration, extend: &mpsc::Receiver<u64>) -> Result<ExitStatus, ExtractError> {
    let started = Instant::now();
    let mut deadline = started + base;
    loop {
        match child.wait_timeout(TICK) {
            Ok(Some(status)) => return Ok(status),
            Ok(None) => {}
            Err(e) => {
                kill_group(child);
                return Err(ExtractError::Failed(format!("waiting for the extractor: {e}")));
            }
        }
        while let Ok(ms) = extend.try_recv() {
            deadline = deadline.max(Instant::now() + base + Duration::from_millis(ms));
        }
        if Instant::now() >= deadline {
            kill_group(child);
            let secs = started.elapsed().as_secs();
            return Err(ExtractError::Failed(format!("extraction timed out after {secs} s")));
        }
    }
}

/// SIGKILL the child's process group (it is its leader), then reap it.
/// Harmless when the group is empty (ESRCH); Linux does not reuse a
/// process group id while the group has members.
fn kill_group(child: &mut Child) {
    if let Some(pid) = rustix::process::Pid::from_raw(child.id() as i32) {
        let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// The child's result, or why there is none.
fn finish(waited: Result<ExitStatus, ExtractError>, result: Option<ChildOutput>, stderr: &[u8]) -> ChildOutput {
    if let Some(result) = result {
        return result;
    }
    let status = waited?;
    let tail = String::from_utf8_lossy(stderr);
    let last = tail.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("no message");
    if status.success() {
        return Err(ExtractError::Failed(format!("extractor output unreadable: {last}")));
    }
    Err(ExtractError::Failed(format!("extractor crashed ({status}): {last}")))
}

/// Read the child's lines until its result: answer cache questions (and
/// report through `extend` how many pages it must recognise), forward
/// progress. Keeps `stdin` open until then.
fn read_messages(
    stdout: Option<impl Read>,
    mut stdin: Option<ChildStdin>,
    host: &dyn OcrHost,
    extend: impl Fn(usize),
) -> Option<ChildOutput> {
    let reader = BufReader::new(stdout?);
    for line in reader.lines() {
        let Ok(line) = line else { break };
        match serde_json::from_str::<ChildMessage>(&line) {
            Ok(ChildMessage::Plan { keys }) => {
                let cached = host.cached(&keys);
                extend(keys.len().saturating_sub(cached.len()));
                let reply = CacheReply { pages: cached.into_iter().collect() };
                if let (Some(pipe), Ok(text)) = (stdin.as_mut(), serde_json::to_string(&reply)) {
                    let _ = writeln!(pipe, "{text}").and_then(|()| pipe.flush());
                }
            }
            Ok(ChildMessage::Page { done, total }) => host.page_done(done, total),
            Ok(ChildMessage::Result(result)) => return Some(result),
            Err(e) => return Some(Err(ExtractError::Failed(format!("extractor output unreadable: {e}")))),
        }
    }
    None
}

fn read_all(pipe: Option<impl Read>) -> Vec<u8> {
    let mut buf = Vec::new();
    if let Some(mut p) = pipe {
        let _ = p.read_to_end(&mut buf);
    }
    buf
}
