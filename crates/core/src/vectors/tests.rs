//! Blocks written through [`CodeDelta`] in a real LMDB environment: edits
//! across blocks, removal, clearing one index, and both scans against the
//! exact f32 ranking.
#![allow(clippy::unwrap_used)]

use heed::WithoutTls;
use roaring::RoaringBitmap;

use super::*;

const DIMS: usize = 32;

fn vector(seed: u32) -> Vec<f32> {
    let v: Vec<f32> = (0..DIMS as u32)
        .map(|i| ((seed.wrapping_mul(7919) ^ i.wrapping_mul(104_729)) % 2001) as f32 - 1000.0)
        .collect();
    let n = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    v.into_iter().map(|x| x / n).collect()
}

fn env(dir: &std::path::Path) -> (heed::Env<WithoutTls>, CodeDb) {
    crate::test_env::one_database(dir, "codes")
}

#[test]
fn edits_land_in_their_blocks_and_clearing_one_index_keeps_the_other() {
    let dir = tempfile::tempdir().unwrap();
    let (env, db) = env(dir.path());
    let layout = CodeLayout { dims: DIMS };
    let mut wtxn = env.write_txn().unwrap();
    let mut delta = CodeDelta::default();
    for id in 0..600 {
        delta.put(ChunkId::new(id), &vector(id));
    }
    delta.apply(&mut wtxn, db, 1, layout).unwrap();
    let mut other = CodeDelta::default();
    other.put(ChunkId::new(5), &vector(5));
    other.apply(&mut wtxn, db, 2, layout).unwrap();
    wtxn.commit().unwrap();

    let mut wtxn = env.write_txn().unwrap();
    let mut delta = CodeDelta::default();
    (0..256).for_each(|id| delta.remove(ChunkId::new(id))); // empties block 0
    delta.remove(ChunkId::new(300));
    delta.put(ChunkId::new(301), &vector(9999));
    delta.apply(&mut wtxn, db, 1, layout).unwrap();
    wtxn.commit().unwrap();

    let rtxn = env.read_txn().unwrap();
    assert_eq!(count(&rtxn, db, 1, layout).unwrap(), 600 - 256 - 1);
    assert!(db.get(&rtxn, &block_key(1, 0)).unwrap().is_none(), "an emptied block is deleted");
    let view = BlockView::parse(db.get(&rtxn, &block_key(1, 1)).unwrap().unwrap(), layout).unwrap();
    let mut v = Vec::new();
    view.vector_into(view.rank(301 % BLOCK_SLOTS).unwrap(), &mut v);
    assert_eq!(v, vector(9999), "a replaced vector");
    assert_eq!(view.rank(300 % BLOCK_SLOTS), None);
    drop(rtxn);

    let mut wtxn = env.write_txn().unwrap();
    clear(&mut wtxn, db, 1).unwrap();
    wtxn.commit().unwrap();
    let rtxn = env.read_txn().unwrap();
    assert_eq!(count(&rtxn, db, 1, layout).unwrap(), 0);
    assert_eq!(count(&rtxn, db, 2, layout).unwrap(), 1);
}

#[test]
fn the_exact_scan_and_the_rescored_binary_shortlist_find_the_exact_top_ten() {
    let dir = tempfile::tempdir().unwrap();
    let (env, db) = env(dir.path());
    let layout = CodeLayout { dims: DIMS };
    let mut wtxn = env.write_txn().unwrap();
    let mut delta = CodeDelta::default();
    (0..2000).for_each(|id| delta.put(ChunkId::new(id), &vector(id)));
    delta.apply(&mut wtxn, db, 0, layout).unwrap();
    wtxn.commit().unwrap();
    let rtxn = env.read_txn().unwrap();
    let candidates: RoaringBitmap = (0..2000).filter(|id| id % 3 != 0).chain([5000]).collect();
    for q in [17u32, 404, 1999, 77_777] {
        let query = vector(q);
        let mut truth: Vec<(u32, f32)> =
            candidates.iter().filter(|&id| id < 2000).map(|id| (id, dot_f32(&query, &vector(id)))).collect();
        truth.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        truth.truncate(10);
        let exact = scan::exact(&rtxn, db, 0, &query, &candidates, 10).unwrap();
        assert_eq!(exact, truth, "exact scan, query {q}");
        let short = shortlist(&rtxn, db, 0, layout, &QueryCodes::new(&query), &candidates, 400).unwrap();
        assert_eq!(short.len(), 400);
        let ids: RoaringBitmap = short.iter().copied().collect();
        assert!(ids.iter().all(|id| candidates.contains(id) && id < 2000), "only candidates with a vector");
        let rescored = scan::exact(&rtxn, db, 0, &query, &ids, 10).unwrap();
        assert_eq!(rescored, truth, "binary shortlist rescored, query {q}");
    }
}
