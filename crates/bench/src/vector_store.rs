//! The vector stores of part 3, in an LMDB environment of the benchmark's
//! own: arroy's f32 items and the core's vector codes, written exactly as
//! the library's writer writes them (`almirah_core::vectors`), and
//! optionally arroy's trees. A library's `Store` is not used: its write
//! path is the writer's alone.

use std::path::Path;
use std::time::Instant;

use almirah_core::ChunkId;
use almirah_core::search::vector::VectorDbs;
use almirah_core::vectors::{self, CodeDelta, CodeLayout};
use anyhow::Result;
use arroy::distances::Cosine;
use heed::types::Bytes;
use heed::{CommitOrAbort, Env, EnvOpenOptions, RoTxn, WithoutTls};
use rand::SeedableRng;
use rand::rngs::StdRng;

use crate::synth::{DIMS, Vectors};

const BUILD_SEED: u64 = 42;
/// Items written per transaction.
const BATCH: usize = 50_000;
/// LMDB map size: room for 1M items with trees.
const MAP_SIZE: usize = 1 << 40;

/// An environment holding the two vector stores of index 0.
pub struct BenchStore {
    env: Env<WithoutTls>,
    /// The stores.
    pub dbs: VectorDbs,
}

/// What building cost.
pub struct Built {
    /// Writing the f32 items and their codes, s.
    pub write_s: f64,
    /// Size of the LMDB file after the items and codes, bytes.
    pub disk_bytes: u64,
    /// Pages in use by the f32 items and by the codes, bytes.
    pub items_bytes: u64,
    /// Pages in use by the codes, bytes.
    pub codes_bytes: u64,
    /// Building arroy's trees, s (when built).
    pub trees_s: Option<f64>,
    /// Trees built.
    pub n_trees: usize,
    /// Size of the LMDB file with the trees (when built), bytes.
    pub disk_with_trees: Option<u64>,
}

impl BenchStore {
    /// Write rows `0..n` of `data` as blocks into a fresh environment in
    /// `dir`; with `trees`, also as arroy's items, and build its trees.
    ///
    /// # Errors
    /// LMDB and arroy errors.
    pub fn build(dir: &Path, data: &Vectors, n: usize, trees: bool) -> Result<(Self, Built)> {
        let mut options = EnvOpenOptions::new().read_txn_without_tls();
        options.map_size(MAP_SIZE).max_dbs(4);
        // SAFETY: the benchmark opens this fresh temporary directory once
        // and nothing else maps it.
        #[allow(unsafe_code)]
        let env = unsafe { options.open(dir)? };
        let (items, codes) = env
            .create_databases_and_commit(env.write_txn()?, |opener, wtxn| -> heed::Result<_> {
                let items = opener.create_database::<Bytes, Bytes>(wtxn, Some("vectors"))?;
                let codes = opener.create_database::<Bytes, Bytes>(wtxn, Some("vector-codes"))?;
                Ok(CommitOrAbort::<_, ()>::Commit((items, codes)))
            })?
            .unwrap_commit();
        let items: arroy::Database<Cosine> = items.remap_types();
        let dbs = VectorDbs { items, codes };
        let started = Instant::now();
        let layout = CodeLayout { dims: DIMS };
        for start in (0..n).step_by(BATCH) {
            let mut wtxn = env.write_txn()?;
            let writer = arroy::Writer::<Cosine>::new(items, 0, DIMS);
            let mut delta = CodeDelta::default();
            for i in start..(start + BATCH).min(n) {
                if trees {
                    writer.add_item(&mut wtxn, i as u32, data.row(i))?;
                }
                delta.put(ChunkId::new(i as u32), data.row(i));
            }
            delta.apply(&mut wtxn, codes, 0, layout)?;
            wtxn.commit()?;
        }
        let write_s = started.elapsed().as_secs_f64();
        let store = Self { env, dbs };
        let disk_bytes = store.env.real_disk_size()?;
        let (items_bytes, codes_bytes) = {
            let rtxn = store.read_txn()?;
            let size = |s: heed::DatabaseStat| s.non_free_page_size() as u64;
            (size(items.remap_types::<Bytes, Bytes>().stat(&rtxn)?), size(codes.stat(&rtxn)?))
        };
        let mut built =
            Built { write_s, disk_bytes, items_bytes, codes_bytes, trees_s: None, n_trees: 0, disk_with_trees: None };
        if trees {
            let started = Instant::now();
            let mut wtxn = store.env.write_txn()?;
            let writer = arroy::Writer::<Cosine>::new(items, 0, DIMS);
            writer.builder(&mut StdRng::seed_from_u64(BUILD_SEED)).build(&mut wtxn)?;
            wtxn.commit()?;
            built.trees_s = Some(started.elapsed().as_secs_f64());
            let rtxn = store.read_txn()?;
            built.n_trees = arroy::Reader::<Cosine>::open(&rtxn, 0, items)?.n_trees();
            drop(rtxn);
            built.disk_with_trees = Some(store.env.real_disk_size()?);
        }
        debug_assert_eq!(Some(n as u64), store.read_txn().ok().and_then(|r| vectors::count(&r, codes, 0, layout).ok()));
        Ok((store, built))
    }

    /// A read transaction.
    ///
    /// # Errors
    /// LMDB errors.
    pub fn read_txn(&self) -> Result<RoTxn<'_, WithoutTls>> {
        Ok(self.env.read_txn()?)
    }
}
