//! The OCR programs: finding them, and running them with a deadline.

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use wait_timeout::ChildExt;

use super::OcrOptions;

/// The Debian packages that provide the OCR programs and the default languages.
pub const PACKAGES: &str = "poppler-utils tesseract-ocr tesseract-ocr-eng tesseract-ocr-hin";

/// Why a program run did not give a result.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Failure {
    /// The deadline passed; the process was killed.
    TimedOut,
    /// The program failed, with its message.
    Failed(String),
}

/// The programs found, with the identity of the recogniser.
pub(crate) struct Tools {
    /// `tesseract --version`'s first line, e.g. `tesseract 5.3.0`.
    pub version: String,
}

/// Check that the programs run and the languages are installed.
///
/// # Errors
/// A message naming what is missing and the packages to install.
pub(crate) fn check(opts: &OcrOptions) -> Result<Tools, String> {
    let missing = |what: &str| format!("OCR needs {what}; install the packages {PACKAGES}");
    let deadline = || Instant::now() + CHECK_TIMEOUT;
    for program in [&opts.pdftoppm, &opts.pdfimages] {
        if let Err(Failure::Failed(e)) = run(Command::new(program).arg("-v"), deadline())
            && !e.contains(" failed (")
        {
            return Err(missing(&format!("{} (not found)", program.display())));
        }
    }
    let version = output(Command::new(&opts.tesseract).arg("--version"), deadline())
        .map_err(|_| missing(&format!("{} (not found)", opts.tesseract.display())))?;
    let version = version.lines().next().unwrap_or("tesseract").trim().to_string();
    let langs = output(Command::new(&opts.tesseract).arg("--list-langs"), deadline()).unwrap_or_default();
    let installed: Vec<&str> = langs.lines().skip(1).map(str::trim).collect();
    let absent: Vec<&str> = opts.languages.split('+').filter(|l| !installed.contains(l)).collect();
    if !absent.is_empty() {
        let pkgs: Vec<String> = absent.iter().map(|l| format!("tesseract-ocr-{l}")).collect();
        return Err(format!("OCR language data missing: {}; install {}", absent.join(", "), pkgs.join(" ")));
    }
    Ok(Tools { version })
}

/// How long the version and language checks may take.
const CHECK_TIMEOUT: Duration = Duration::from_secs(20);

/// Output of a short command, stdout then stderr (tesseract prints its
/// version on either), whatever its exit status.
fn output(cmd: &mut Command, deadline: Instant) -> Result<String, Failure> {
    let out = run_status(cmd, deadline)?;
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&out.stderr));
    Ok(text)
}

/// What a finished program wrote, and how it ended.
pub(crate) struct Finished {
    status: std::process::ExitStatus,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
}

/// Run `cmd` to completion or until `deadline`, returning its stdout.
///
/// # Errors
/// [`Failure::TimedOut`] (the process is killed and reaped) or
/// [`Failure::Failed`] with the last line of stderr.
pub(crate) fn run(cmd: &mut Command, deadline: Instant) -> Result<Vec<u8>, Failure> {
    let name = Path::new(cmd.get_program()).file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let done = run_status(cmd, deadline)?;
    if !done.status.success() {
        let text = String::from_utf8_lossy(&done.stderr);
        let last = text.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("no message");
        return Err(Failure::Failed(format!("{name} failed ({}): {last}", done.status)));
    }
    Ok(done.stdout)
}

/// Run `cmd` (stdin closed) until it exits or `deadline` passes; on a
/// timeout or a wait error the process is killed and reaped.
fn run_status(cmd: &mut Command, deadline: Instant) -> Result<Finished, Failure> {
    let name = Path::new(cmd.get_program()).file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| Failure::Failed(format!("{name}: {e}")))?;
    let stdout = child.stdout.take();
    let stderr = child.stderr.take();
    let out = std::thread::spawn(move || read_all(stdout));
    let err = std::thread::spawn(move || read_all(stderr));
    let left = deadline.saturating_duration_since(Instant::now());
    let status = match child.wait_timeout(left) {
        Ok(Some(status)) => status,
        Ok(None) => {
            let _ = child.kill();
            let _ = child.wait();
            return Err(Failure::TimedOut);
        }
        Err(e) => {
            let _ = child.kill();
            let _ = child.wait();
            return Err(Failure::Failed(format!("{name}: {e}")));
        }
    };
    Ok(Finished { status, stdout: out.join().unwrap_or_default(), stderr: err.join().unwrap_or_default() })
}

fn read_all(pipe: Option<impl Read>) -> Vec<u8> {
    let mut buf = Vec::new();
    if let Some(mut p) = pipe {
        let _ = p.read_to_end(&mut buf);
    }
    buf
}
