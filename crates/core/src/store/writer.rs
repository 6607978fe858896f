//! The one writer (ARCHITECTURE §3): a thread that owns every write
//! transaction of the library, as tantivy's `IndexWriter` owns its segment
//! writes. Index batches, the embedding backfill, overrides, folder
//! changes, re-embedding and the watcher's health records reach it as
//! operations on a queue and run one at a time, in order; the caller waits
//! for its operation's result. The operation gets the open transaction and
//! commits it itself (or drops it to abort), so a crash point after the
//! commit stays expressible. Reads never go through here. Other processes'
//! writers are serialised by LMDB's own lock.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, mpsc};
use std::thread::JoinHandle;

use heed::{Env, RwTxn, WithoutTls};

use super::Databases;
use crate::error::{Error, Result};

/// One queued operation: it runs on the writer thread with the env.
type Job = Box<dyn FnOnce(&Env<WithoutTls>, &Databases) + Send>;

/// The writer thread and its queue.
pub(crate) struct Writer {
    queue: Mutex<Option<mpsc::Sender<Job>>>,
    thread: Mutex<Option<JoinHandle<()>>>,
    transactions: std::sync::Arc<AtomicU64>,
}

impl Writer {
    /// Start the writer thread for `env`.
    ///
    /// # Errors
    /// [`Error::Io`]-like failure when the thread cannot start.
    pub(crate) fn start(env: Env<WithoutTls>, dbs: Databases) -> Result<Self> {
        let (tx, rx) = mpsc::channel::<Job>();
        let thread = std::thread::Builder::new()
            .name("almirah-writer".into())
            .spawn(move || {
                for job in rx {
                    job(&env, &dbs);
                }
            })
            .map_err(|e| Error::DataCorruption(format!("cannot start the writer thread: {e}")))?;
        Ok(Self {
            queue: Mutex::new(Some(tx)),
            thread: Mutex::new(Some(thread)),
            transactions: std::sync::Arc::new(AtomicU64::new(0)),
        })
    }

    /// Run `op` with a new write transaction on the writer thread and wait
    /// for its result. `op` commits the transaction (or drops it to abort).
    /// A panic in `op` aborts its transaction and comes back as an error.
    ///
    /// # Errors
    /// LMDB errors opening the transaction, `op`'s own errors, and
    /// [`Error::DataCorruption`] when the writer has stopped or `op` panicked.
    pub(crate) fn write<T, F>(&self, op: F) -> Result<T>
    where
        T: Send + 'static,
        F: for<'e> FnOnce(RwTxn<'e>, &Databases) -> Result<T> + Send + 'static,
    {
        let (reply, answer) = mpsc::sync_channel::<Result<T>>(1);
        let count = std::sync::Arc::clone(&self.transactions);
        let job: Job = Box::new(move |env, dbs| {
            let run = catch_unwind(AssertUnwindSafe(|| {
                let wtxn = env.write_txn()?;
                count.fetch_add(1, Ordering::Relaxed);
                op(wtxn, dbs)
            }));
            let result = run.unwrap_or_else(|_| Err(Error::DataCorruption("a write operation panicked".into())));
            let _ = reply.send(result);
        });
        let sent = {
            let queue = self.queue.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            queue.as_ref().is_some_and(|q| q.send(job).is_ok())
        };
        if !sent {
            return Err(Error::DataCorruption("the library's writer has stopped".into()));
        }
        answer.recv().map_err(|_| Error::DataCorruption("the library's writer has stopped".into()))?
    }

    /// Write transactions the writer has opened.
    pub(crate) fn transactions(&self) -> u64 {
        self.transactions.load(Ordering::Relaxed)
    }
}

impl Drop for Writer {
    fn drop(&mut self) {
        drop(self.queue.lock().unwrap_or_else(std::sync::PoisonError::into_inner).take());
        if let Some(thread) = self.thread.lock().unwrap_or_else(std::sync::PoisonError::into_inner).take() {
            let _ = thread.join();
        }
    }
}
