//! One block of vector codes: up to [`BLOCK_SLOTS`] consecutive chunk ids,
//! laid out for scanning (each section contiguous, read zero-copy from
//! LMDB):
//!
//! ```text
//! [0, 32)              presence: 4 × u64 LE, bit s = slot s holds a vector
//! [32, 32 + n·B)       binary codes, B = dims.div_ceil(64) × 8 bytes each
//! [.., + n·dims·4)     f32 vectors, LE
//! ```
//!
//! `n` is the number of present slots; a slot's codes sit at its rank among
//! the present slots.

use super::codes::{CodeLayout, Codes};
use crate::error::{Error, Result};

/// Chunk ids a block covers (`id >> 8` is the block number).
pub const BLOCK_SLOTS: u32 = 256;
const PRESENCE_BYTES: usize = 32;

/// A block read in place.
#[derive(Debug, Clone, Copy)]
pub struct BlockView<'a> {
    presence: [u64; 4],
    layout: CodeLayout,
    bytes: &'a [u8],
    count: usize,
}

impl<'a> BlockView<'a> {
    /// Read a stored block.
    ///
    /// # Errors
    /// [`Error::DataCorruption`] when the length does not match the presence
    /// bitmap.
    pub fn parse(bytes: &'a [u8], layout: CodeLayout) -> Result<Self> {
        if bytes.len() < PRESENCE_BYTES {
            return Err(Error::DataCorruption(format!("vector block of {} bytes", bytes.len())));
        }
        let mut presence = [0u64; 4];
        for (w, word) in presence.iter_mut().enumerate() {
            let mut b = [0u8; 8];
            b.copy_from_slice(&bytes[w * 8..w * 8 + 8]);
            *word = u64::from_le_bytes(b);
        }
        let count = presence.iter().map(|w| w.count_ones() as usize).sum();
        if bytes.len() != PRESENCE_BYTES + count * layout.per_vector() {
            return Err(Error::DataCorruption(format!(
                "vector block of {} bytes for {count} vectors of {} dimensions",
                bytes.len(),
                layout.dims
            )));
        }
        Ok(Self { presence, layout, bytes, count })
    }

    /// Vectors in the block.
    pub fn len(&self) -> usize {
        self.count
    }

    /// Whether the block is empty.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The presence bitmap.
    pub fn presence(&self) -> [u64; 4] {
        self.presence
    }

    /// Rank of `slot` among the present slots, if present.
    #[inline(always)]
    pub fn rank(&self, slot: u32) -> Option<usize> {
        let (w, bit) = ((slot / 64) as usize, slot % 64);
        if w >= 4 || self.presence[w] & (1u64 << bit) == 0 {
            return None;
        }
        let below: u32 = self.presence[..w].iter().map(|x| x.count_ones()).sum();
        Some((below + (self.presence[w] & ((1u64 << bit) - 1)).count_ones()) as usize)
    }

    /// Binary code at `rank`.
    #[inline(always)]
    pub fn binary(&self, rank: usize) -> &'a [u8] {
        let b = self.layout.binary_bytes();
        &self.bytes[PRESENCE_BYTES + rank * b..PRESENCE_BYTES + (rank + 1) * b]
    }

    /// The f32 vector at `rank`: read in place when the stored bytes are
    /// aligned for f32 (a block larger than a page sits in LMDB overflow
    /// pages, 16-byte aligned, and the section offsets are multiples of 16),
    /// else decoded into `buf`.
    #[inline]
    pub fn vector<'b>(&self, rank: usize, buf: &'b mut Vec<f32>) -> &'b [f32]
    where
        'a: 'b,
    {
        let dims = self.layout.dims;
        let start = PRESENCE_BYTES + self.count * self.layout.binary_bytes() + rank * dims * 4;
        let raw = &self.bytes[start..start + dims * 4];
        #[cfg(target_endian = "little")]
        if let Ok(v) = bytemuck::try_cast_slice::<u8, f32>(raw) {
            return v;
        }
        buf.clear();
        buf.extend(raw.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])));
        buf
    }

    /// The f32 vector at `rank`, copied into `out` (cleared first).
    pub fn vector_into(&self, rank: usize, out: &mut Vec<f32>) {
        let mut buf = Vec::new();
        out.clear();
        out.extend_from_slice(self.vector(rank, &mut buf));
    }
}

/// A block being edited: its vectors' codes by slot.
#[derive(Debug, Clone, Default)]
pub struct BlockEdit {
    slots: std::collections::BTreeMap<u32, Codes>,
}

impl BlockEdit {
    /// Decode a stored block for editing.
    pub fn from_view(view: &BlockView<'_>) -> Self {
        let mut slots = std::collections::BTreeMap::new();
        for slot in present_slots(view.presence()) {
            let rank = view.rank(slot).unwrap_or(0);
            let mut vector = Vec::with_capacity(view.layout.dims);
            view.vector_into(rank, &mut vector);
            slots.insert(slot, Codes { vector, binary: view.binary(rank).to_vec() });
        }
        Self { slots }
    }

    /// Set a slot's codes.
    pub fn put(&mut self, slot: u32, codes: Codes) {
        self.slots.insert(slot, codes);
    }

    /// Clear a slot.
    pub fn remove(&mut self, slot: u32) {
        self.slots.remove(&slot);
    }

    /// Whether no slot is left.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// The stored form (see the module docs).
    pub fn encode(&self, layout: CodeLayout) -> Vec<u8> {
        let mut presence = [0u64; 4];
        for &slot in self.slots.keys() {
            presence[(slot / 64) as usize] |= 1u64 << (slot % 64);
        }
        let mut out = Vec::with_capacity(PRESENCE_BYTES + self.slots.len() * layout.per_vector());
        presence.iter().for_each(|w| out.extend_from_slice(&w.to_le_bytes()));
        self.slots.values().for_each(|c| out.extend_from_slice(&c.binary));
        self.slots.values().for_each(|c| c.vector.iter().for_each(|x| out.extend_from_slice(&x.to_le_bytes())));
        out
    }
}

/// Slots set in a presence bitmap, ascending.
pub fn present_slots(presence: [u64; 4]) -> impl Iterator<Item = u32> {
    presence.into_iter().enumerate().flat_map(|(w, mut word)| {
        std::iter::from_fn(move || {
            (word != 0).then(|| {
                let bit = word.trailing_zeros();
                word &= word - 1;
                w as u32 * 64 + bit
            })
        })
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn a_block_round_trips_and_ranks_its_slots() {
        let layout = CodeLayout { dims: 16 };
        let mut edit = BlockEdit::default();
        for slot in [3u32, 64, 200, 255] {
            let v: Vec<f32> = (0..16).map(|i| if i as u32 == slot % 16 { 1.0 } else { -0.1 }).collect();
            edit.put(slot, Codes::encode(&v));
        }
        edit.remove(64);
        let bytes = edit.encode(layout);
        let view = BlockView::parse(&bytes, layout).unwrap();
        assert_eq!(view.len(), 3);
        assert_eq!(present_slots(view.presence()).collect::<Vec<_>>(), vec![3, 200, 255]);
        assert_eq!((view.rank(3), view.rank(64), view.rank(200), view.rank(255)), (Some(0), None, Some(1), Some(2)));
        assert_eq!(
            view.binary(2),
            &Codes::encode(&{
                let mut v = vec![-0.1f32; 16];
                v[15] = 1.0;
                v
            })
            .binary[..]
        );
        let mut v = Vec::new();
        view.vector_into(0, &mut v);
        assert_eq!(v.len(), 16);
        assert_eq!(v[3], 1.0);
        assert_eq!(v[0], -0.1);
        let again = BlockEdit::from_view(&view).encode(layout);
        assert_eq!(again, bytes);
        assert!(BlockView::parse(&bytes[..bytes.len() - 1], layout).is_err());
    }
}
