//! Gates reused across snapshots. A gate is a function of the committed
//! library state, the folder settings, the as-of date and the audience.
//! The state is named by the read transaction's LMDB id (every commit, by
//! any process, makes a new one), so a cache keyed by it can never serve a
//! gate of an older state: the inputs of the last state are kept, with the
//! last few gates built from them (one per as-of date and audience; most
//! snapshots ask for today and the profile's audience).

use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};

use heed::{RoTxn, WithoutTls};

use super::ReadStats;
use crate::error::Result;
use crate::freshness::gate::{Gate, GateInputs};
use crate::freshness::{AsOf, FolderSettings};
use crate::store::Store;

/// Gates kept per library state.
const GATES_KEPT: usize = 8;

/// The last library state's gate inputs and gates.
#[derive(Debug, Default)]
pub struct GateCache {
    last: Mutex<Option<CachedState>>,
}

/// What was read at one transaction id with one set of folder settings.
#[derive(Debug)]
struct CachedState {
    txn_id: usize,
    folders: Vec<FolderSettings>,
    inputs: Arc<GateInputs>,
    gates: Vec<(AsOf, Vec<String>, Arc<Gate>)>,
}

impl GateCache {
    /// The gate for `as_of` and `audiences` in the state `rtxn` sees:
    /// cached, or built from cached inputs, or from inputs read now.
    ///
    /// # Errors
    /// LMDB errors reading the inputs.
    pub(super) fn gate(
        &self,
        store: &Store,
        rtxn: &RoTxn<'_, WithoutTls>,
        folders: &[FolderSettings],
        as_of: AsOf,
        audiences: &[String],
        stats: &ReadStats,
    ) -> Result<Arc<Gate>> {
        let id = rtxn.id();
        let mut last = self.last.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let mut state = match last.take() {
            Some(c) if c.txn_id == id && c.folders == folders => c,
            _ => {
                let inputs = Arc::new(GateInputs::load(store.dbs(), rtxn, folders)?);
                stats.gate_input_loads.fetch_add(1, Ordering::Relaxed);
                CachedState { txn_id: id, folders: folders.to_vec(), inputs, gates: Vec::new() }
            }
        };
        let cached = state.gates.iter().find(|(a, au, _)| *a == as_of && au.as_slice() == audiences);
        let gate = match cached {
            Some((_, _, gate)) => Arc::clone(gate),
            None => {
                let gate = Arc::new(Gate::from_inputs(Arc::clone(&state.inputs), as_of, audiences));
                if state.gates.len() >= GATES_KEPT {
                    state.gates.remove(0);
                }
                state.gates.push((as_of, audiences.to_vec(), Arc::clone(&gate)));
                gate
            }
        };
        *last = Some(state);
        Ok(gate)
    }
}
