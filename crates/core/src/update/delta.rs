//! Bitmap changes gathered over a batch and applied once per key, so a batch
//! of 500 chunks touches each posting list or facet once (milli-style).

use std::collections::BTreeMap;

use heed::RwTxn;
use heed::types::Str;

use crate::ids::{ChunkId, ChunkSet, IdSetCodec};

/// Additions and removals per key.
#[derive(Debug, Default)]
pub struct BitmapDelta {
    changes: BTreeMap<String, (ChunkSet, ChunkSet)>,
}

impl BitmapDelta {
    /// Record that `id` joins `key`.
    pub fn add(&mut self, key: &str, id: ChunkId) {
        let entry = self.changes.entry(key.to_string()).or_default();
        entry.0.insert(id);
        entry.1.remove(id);
    }

    /// Record that `id` leaves `key`.
    pub fn remove(&mut self, key: &str, id: ChunkId) {
        let entry = self.changes.entry(key.to_string()).or_default();
        entry.1.insert(id);
        entry.0.remove(id);
    }

    /// Apply to `db`; empty bitmaps are deleted.
    ///
    /// # Errors
    /// LMDB errors.
    pub fn apply(
        self,
        wtxn: &mut RwTxn<'_>,
        db: heed::Database<'static, Str, IdSetCodec<ChunkId>>,
    ) -> heed::Result<()> {
        for (key, (added, removed)) in self.changes {
            let mut bitmap = db.get(wtxn, &key)?.unwrap_or_default();
            for id in removed.iter() {
                bitmap.remove(id);
            }
            bitmap.union_with(&added);
            if bitmap.is_empty() {
                db.delete(wtxn, &key)?;
            } else {
                db.put(wtxn, &key, &bitmap)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn later_change_wins() {
        let mut d = BitmapDelta::default();
        let (one, two) = (ChunkId::new(1), ChunkId::new(2));
        d.add("t", one);
        d.remove("t", one);
        d.add("t", two);
        let (added, removed) = &d.changes["t"];
        assert_eq!(added.iter().collect::<Vec<_>>(), vec![two]);
        assert_eq!(removed.iter().collect::<Vec<_>>(), vec![one]);
    }
}
