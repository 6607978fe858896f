//! Bitmap changes gathered over a batch and applied once per key, so a batch
//! of 500 chunks touches each posting list or facet once (milli-style).

use std::collections::BTreeMap;

use heed::RwTxn;
use heed::types::Str;
use roaring::RoaringBitmap;

use crate::store::RoaringCodec;

/// Additions and removals per key.
#[derive(Debug, Default)]
pub struct BitmapDelta {
    changes: BTreeMap<String, (RoaringBitmap, RoaringBitmap)>,
}

impl BitmapDelta {
    /// Record that `id` joins `key`.
    pub fn add(&mut self, key: &str, id: u32) {
        let entry = self.changes.entry(key.to_string()).or_default();
        entry.0.insert(id);
        entry.1.remove(id);
    }

    /// Record that `id` leaves `key`.
    pub fn remove(&mut self, key: &str, id: u32) {
        let entry = self.changes.entry(key.to_string()).or_default();
        entry.1.insert(id);
        entry.0.remove(id);
    }

    /// Apply to `db`; empty bitmaps are deleted.
    ///
    /// # Errors
    /// LMDB errors.
    pub fn apply(self, wtxn: &mut RwTxn<'_>, db: heed::Database<'static, Str, RoaringCodec>) -> heed::Result<()> {
        for (key, (added, removed)) in self.changes {
            let mut bitmap = db.get(wtxn, &key)?.unwrap_or_default();
            bitmap -= removed;
            bitmap |= added;
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
        d.add("t", 1);
        d.remove("t", 1);
        d.add("t", 2);
        let (added, removed) = &d.changes["t"];
        assert_eq!(added.iter().collect::<Vec<_>>(), vec![2]);
        assert_eq!(removed.iter().collect::<Vec<_>>(), vec![1]);
    }
}
