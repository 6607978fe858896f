//! The watcher's health, kept in the `health` database so `almirah status`
//! in another process can show it: queue length, last reconcile, how each
//! folder is watched, and whether the watcher is still alive. The watcher
//! ([`crate::watch`]) writes it; `status` ([`crate::status`]) reads it.

use std::path::PathBuf;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::Store;
use crate::error::{Error, Result};

/// Key of the watcher's record in the `health` database.
const WATCH_KEY: &str = "watch";

/// How a folder is watched.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WatchMode {
    /// Operating-system events (inotify, FSEvents, ReadDirectoryChangesW).
    Events,
    /// Polling: the folder is re-read every poll interval.
    Poll,
    /// The folder is missing (unplugged drive, renamed share): its documents
    /// are kept, and it is looked for again at every reconcile.
    Missing,
}

/// One watched folder.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WatchedFolder {
    /// The folder (canonical).
    pub path: PathBuf,
    /// How it is watched.
    pub mode: WatchMode,
    /// Why it is polled (network filesystem, watch limit, `force_poll`),
    /// or since when it is missing.
    pub reason: Option<String>,
    /// When the watcher found it missing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub missing_since: Option<DateTime<Utc>>,
}

impl WatchedFolder {
    /// A folder that is not there.
    pub fn missing(path: PathBuf) -> Self {
        let since = Utc::now();
        let reason =
            Some(format!("folder missing since {}; its documents are kept", since.format("%Y-%m-%d %H:%M UTC")));
        Self { path, mode: WatchMode::Missing, reason, missing_since: Some(since) }
    }
}

/// What `almirah status` shows about a running (or the last) `watch`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct WatchHealth {
    /// Process id of the watcher.
    pub pid: u32,
    /// Whether that process is still alive (computed when read; false after a clean stop).
    pub running: bool,
    /// Whether the watcher stopped cleanly.
    pub stopped: bool,
    /// When it started.
    pub started_at: Option<DateTime<Utc>>,
    /// When this record was written.
    pub updated_at: Option<DateTime<Utc>>,
    /// Paths waiting to be indexed (debounced hints not yet committed).
    pub queue_len: usize,
    /// When the last reconcile finished.
    pub last_reconcile_at: Option<DateTime<Utc>>,
    /// How long the last reconcile took, in ms.
    pub last_reconcile_ms: Option<u64>,
    /// Changes committed since the start.
    pub changes: u64,
    /// Latency of the last change, event seen to committed, in ms.
    pub last_change_latency_ms: Option<u64>,
    /// The folders and how each is watched.
    pub folders: Vec<WatchedFolder>,
}

/// Store `health` as the watcher's record (one small write transaction).
///
/// # Errors
/// LMDB errors; [`Error::DataCorruption`] if it cannot be encoded.
pub(crate) fn write(store: &Store, health: &WatchHealth) -> Result<()> {
    let value = serde_json::to_value(health).map_err(|e| Error::DataCorruption(e.to_string()))?;
    store.write(move |mut wtxn, dbs| {
        dbs.health.put(&mut wtxn, WATCH_KEY, &value)?;
        Ok(wtxn.commit()?)
    })
}

/// The watcher's last record, with `running` set from a liveness check of its pid.
///
/// # Errors
/// LMDB errors. A record that does not decode reads as `None`.
pub fn read(store: &Store) -> Result<Option<WatchHealth>> {
    let rtxn = store.read_txn()?;
    let Some(value) = store.dbs().health.get(&rtxn, WATCH_KEY)? else {
        return Ok(None);
    };
    let Ok(mut health) = serde_json::from_value::<WatchHealth>(value) else {
        return Ok(None);
    };
    health.running = !health.stopped && process_alive(health.pid);
    Ok(Some(health))
}

fn process_alive(pid: u32) -> bool {
    let Some(pid) = i32::try_from(pid).ok().and_then(rustix::process::Pid::from_raw) else {
        return false;
    };
    match rustix::process::test_kill_process(pid) {
        Ok(()) => true,
        Err(e) => e == rustix::io::Errno::PERM,
    }
}
