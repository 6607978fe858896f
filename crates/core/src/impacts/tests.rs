//! The list codec (round trips, edge values, corrupt bytes, seeded random
//! lists) and [`ImpactDelta`] in a real LMDB environment.
#![allow(clippy::unwrap_used)]

use heed::WithoutTls;

use super::list::{read_varint, write_varint};
use super::*;

fn imp(chunk: u32, tf: u32, len: u32) -> Impact {
    Impact { chunk: ChunkId::new(chunk), tf, len }
}

/// splitmix64: a seeded generator, so the random lists are the same every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A u32 of a random bit width, so small and large values both occur.
    fn value(&mut self) -> u32 {
        let bits = self.next() % 33;
        if bits == 0 { 0 } else { (self.next() as u32) >> (32 - bits) }
    }
}

#[test]
fn varints_round_trip_at_every_width() {
    for v in [0, 1, 127, 128, 255, 16_383, 16_384, 2_097_151, 2_097_152, 268_435_455, 268_435_456, u32::MAX] {
        let mut bytes = Vec::new();
        write_varint(&mut bytes, v);
        let expected_len = match v {
            0..=127 => 1,
            128..=16_383 => 2,
            16_384..=2_097_151 => 3,
            2_097_152..=268_435_455 => 4,
            _ => 5,
        };
        assert_eq!(bytes.len(), expected_len, "{v}");
        let mut pos = 0;
        assert_eq!(read_varint(&bytes, &mut pos), Ok(v));
        assert_eq!(pos, bytes.len());
    }
}

#[test]
fn the_empty_list_is_no_bytes() {
    assert_eq!(encode(&[]).unwrap(), Vec::<u8>::new());
    assert_eq!(decode(&[]).unwrap(), vec![]);
    assert_eq!(iter(&[]).count(), 0);
}

#[test]
fn lists_round_trip_with_large_ids_and_counts() {
    let lists = [
        vec![imp(0, 1, 1)],
        vec![imp(u32::MAX, u32::MAX, u32::MAX)],
        vec![imp(0, 3, 0), imp(1, 1, 7), imp(u32::MAX, 2, 300)],
        vec![imp(5, 1, 120), imp(6, 2, 121), imp(1 << 20, 9, 40_000), imp(u32::MAX - 1, 1, 1)],
    ];
    for list in lists {
        let bytes = encode(&list).unwrap();
        assert_eq!(decode(&bytes).unwrap(), list);
    }
    // Deltas, not ids: consecutive chunks cost one byte each for the id.
    let dense: Vec<Impact> = (1_000_000..1_000_100).map(|c| imp(c, 1, 100)).collect();
    assert_eq!(encode(&dense).unwrap().len(), 3 + 1 + 1 + 99 * 3);
}

#[test]
fn random_lists_round_trip() {
    let mut rng = Rng(42);
    for _ in 0..500 {
        let n = (rng.next() % 300) as usize;
        let mut ids: Vec<u32> = (0..n).map(|_| rng.value()).collect();
        ids.sort_unstable();
        ids.dedup();
        let list: Vec<Impact> = ids.into_iter().map(|c| imp(c, rng.value(), rng.value())).collect();
        let bytes = encode(&list).unwrap();
        assert_eq!(decode(&bytes).unwrap(), list);
        let mut built = ListBuilder::new();
        list.iter().for_each(|&i| built.push(i).unwrap());
        assert_eq!(built.as_bytes(), bytes.as_slice());
    }
}

#[test]
fn out_of_order_entries_are_refused() {
    assert!(encode(&[imp(3, 1, 1), imp(3, 1, 1)]).is_err());
    assert!(encode(&[imp(4, 1, 1), imp(3, 1, 1)]).is_err());
    let mut list = ListBuilder::new();
    list.push(imp(9, 1, 1)).unwrap();
    let before = list.as_bytes().to_vec();
    assert_eq!(list.push(imp(2, 1, 1)).unwrap_err().reason, "chunk ids out of order");
    assert_eq!(list.as_bytes(), before.as_slice(), "nothing appended");
}

#[test]
fn corrupt_lists_give_errors_never_panics() {
    let good = encode(&[imp(1, 2, 3), imp(200, 1, 70_000)]).unwrap();
    // Every truncation inside an entry is an error.
    for cut in 1..good.len() {
        let decoded = decode(&good[..cut]);
        if cut != 3 {
            assert!(decoded.is_err(), "cut at {cut}: {decoded:?}");
        }
    }
    // A varint of six bytes, or a fifth byte past 32 bits.
    assert_eq!(decode(&[0x80, 0x80, 0x80, 0x80, 0x80, 0x01]).unwrap_err().reason, "varint longer than 32 bits");
    assert_eq!(decode(&[0xff, 0xff, 0xff, 0xff, 0x1f, 1, 1]).unwrap_err().reason, "varint longer than 32 bits");
    // A zero delta after the first entry repeats a chunk.
    let err = decode(&[5, 1, 1, 0, 1, 1]).unwrap_err();
    assert_eq!((err.offset, err.reason), (3, "repeated chunk id"));
    // A delta past u32::MAX.
    let mut bytes = encode(&[imp(u32::MAX, 1, 1)]).unwrap();
    bytes.extend([1, 1, 1]);
    assert_eq!(decode(&bytes).unwrap_err().reason, "chunk id past u32");
    // The iterator ends after its error.
    let mut it = iter(&[5, 1]);
    assert!(it.next().unwrap().is_err());
    assert!(it.next().is_none());
    // Random bytes never panic.
    let mut rng = Rng(7);
    for _ in 0..2_000 {
        let bytes: Vec<u8> = (0..rng.next() % 40).map(|_| rng.next() as u8).collect();
        let _ = decode(&bytes);
    }
}

fn env(dir: &std::path::Path) -> (heed::Env<WithoutTls>, ImpactDb) {
    crate::test_env::one_database(dir, "impacts")
}

fn stored(env: &heed::Env<WithoutTls>, db: ImpactDb, term: &str) -> Option<Vec<Impact>> {
    let rtxn = env.read_txn().unwrap();
    db.get(&rtxn, term).unwrap().map(|bytes| decode(bytes).unwrap())
}

#[test]
fn a_delta_merges_into_the_stored_lists_and_deletes_emptied_ones() {
    let dir = tempfile::tempdir().unwrap();
    let (env, db) = env(dir.path());
    let mut wtxn = env.write_txn().unwrap();
    let mut delta = ImpactDelta::default();
    for c in [10, 2, 7] {
        delta.add("leave", ChunkId::new(c), c, c * 10);
    }
    delta.add("gone", ChunkId::new(3), 1, 5);
    delta.remove("never", ChunkId::new(1));
    delta.apply(&mut wtxn, db).unwrap();
    wtxn.commit().unwrap();
    assert_eq!(stored(&env, db, "leave").unwrap(), vec![imp(2, 2, 20), imp(7, 7, 70), imp(10, 10, 100)]);
    assert_eq!(stored(&env, db, "never"), None, "removing from no list writes nothing");

    let mut wtxn = env.write_txn().unwrap();
    let mut delta = ImpactDelta::default();
    delta.remove("leave", ChunkId::new(7));
    delta.add("leave", ChunkId::new(1), 1, 1);
    delta.add("leave", ChunkId::new(8), 8, 8);
    delta.add("leave", ChunkId::new(10), 3, 99); // replaces the stored entry
    delta.add("leave", ChunkId::new(50), 5, 5);
    delta.remove("leave", ChunkId::new(50)); // the later call wins
    delta.remove("gone", ChunkId::new(3));
    assert!(!delta.is_empty());
    delta.apply(&mut wtxn, db).unwrap();
    wtxn.commit().unwrap();
    assert_eq!(stored(&env, db, "leave").unwrap(), vec![imp(1, 1, 1), imp(2, 2, 20), imp(8, 8, 8), imp(10, 3, 99)]);
    assert_eq!(stored(&env, db, "gone"), None, "an emptied list is deleted");
}

#[test]
fn a_delta_on_a_corrupt_stored_list_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let (env, db) = env(dir.path());
    let mut wtxn = env.write_txn().unwrap();
    db.put(&mut wtxn, "leave", &[0x80]).unwrap();
    let mut delta = ImpactDelta::default();
    delta.add("leave", ChunkId::new(1), 1, 1);
    let err = delta.apply(&mut wtxn, db).unwrap_err();
    assert!(matches!(&err, Error::DataCorruption(m) if m.contains("\"leave\"") && m.contains("truncated")), "{err}");
}
