//! One watcher per library, across processes (the CLI's `watch`, the
//! desktop app, a server): the watcher holds an exclusive `flock(2)` on
//! `<library>/watch.lock` for its lifetime and writes its pid and program
//! into it. The kernel releases the lock when the process dies, so a
//! crashed watcher never blocks the next one.

use std::fs::File;
use std::io::{Read, Seek, Write};
use std::path::Path;

use crate::error::{Error, Result};

/// The held lock; dropping it releases the library.
#[derive(Debug)]
pub struct WatchLock {
    _file: File,
}

impl WatchLock {
    /// Take the library at `dir` for this process's watcher; `owner` names
    /// it to a second one (default: the program's file name).
    ///
    /// # Errors
    /// [`Error::AlreadyWatched`] naming the holder's pid and program when
    /// another process holds it; [`Error::Io`] when the lock file cannot be
    /// opened.
    pub fn acquire(dir: &Path, owner: Option<&str>) -> Result<Self> {
        let path = dir.join("watch.lock");
        let mut file = File::options()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(|e| Error::io(&path, e))?;
        if rustix::fs::flock(&file, rustix::fs::FlockOperation::NonBlockingLockExclusive).is_err() {
            let mut holder = String::new();
            let _ = file.read_to_string(&mut holder);
            let holder =
                if holder.trim().is_empty() { "another process".to_string() } else { holder.trim().to_string() };
            return Err(Error::AlreadyWatched { holder });
        }
        let program = owner.map(str::to_string).unwrap_or_else(|| {
            std::env::current_exe()
                .ok()
                .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
                .unwrap_or_else(|| "almirah".into())
        });
        let me = format!("pid {} ({program})", std::process::id());
        let written = file.set_len(0).and_then(|()| file.rewind()).and_then(|()| file.write_all(me.as_bytes()));
        written.map_err(|e| Error::io(&path, e))?;
        Ok(Self { _file: file })
    }
}
