//! Typed ids (ARCHITECTURE §2, "Identity"): a [`DocId`] names a document, a
//! [`ChunkId`] names a chunk, and an [`IdSet`] says in its type which kind
//! of id it holds. Both are `u32` on disk (big-endian keys, so LMDB orders
//! them numerically), but mixing them does not compile: a bitmap of chunk
//! ids can never be tested with a document id.
//!
//! Their heed codecs live here too, with the bitmap codec they build on, so
//! the store's database declarations sit on top of the ids and never the
//! other way round.

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

use heed::{BoxedError, BytesDecode, BytesEncode};
use roaring::RoaringBitmap;
use serde::{Deserialize, Serialize};

/// An id kind: a `u32` newtype with a name for messages.
pub trait Id: Copy + Ord + fmt::Debug + 'static {
    /// Wrap a raw value read from disk.
    fn from_raw(raw: u32) -> Self;
    /// The raw value written to disk.
    fn raw(self) -> u32;
}

macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident, $prefix:literal) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $name(u32);

        impl $name {
            /// Wrap a raw value (from a counter, a user's `almirah docs set 12`).
            pub const fn new(raw: u32) -> Self {
                Self(raw)
            }

            /// The raw value.
            pub const fn get(self) -> u32 {
                self.0
            }
        }

        impl Id for $name {
            fn from_raw(raw: u32) -> Self {
                Self(raw)
            }

            fn raw(self) -> u32 {
                self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, concat!($prefix, "{}"), self.0)
            }
        }
    };
}

id_type!(
    /// A document's internal id: stable across moves, never reused.
    DocId,
    "doc#"
);
id_type!(
    /// A chunk's internal id (also its arroy item id), never reused.
    ChunkId,
    "chunk#"
);

/// heed codec for an [`Id`]: 4 bytes, big-endian.
pub struct IdCodec<T>(PhantomData<T>);

impl<'a, T: Id> BytesEncode<'a> for IdCodec<T> {
    type EItem = T;

    fn bytes_encode(item: &'a T) -> Result<Cow<'a, [u8]>, BoxedError> {
        Ok(Cow::Owned(item.raw().to_be_bytes().to_vec()))
    }
}

impl<T: Id> BytesDecode<'_> for IdCodec<T> {
    type DItem = T;

    fn bytes_decode(bytes: &[u8]) -> Result<T, BoxedError> {
        let raw: [u8; 4] = bytes.try_into().map_err(|_| format!("id of {} bytes, expected 4", bytes.len()))?;
        Ok(T::from_raw(u32::from_be_bytes(raw)))
    }
}

/// A set of ids of one kind (a [`RoaringBitmap`] underneath).
#[derive(Clone, PartialEq, Eq)]
pub struct IdSet<T> {
    bits: RoaringBitmap,
    kind: PhantomData<T>,
}

/// A set of chunk ids (candidates, postings, facets).
pub type ChunkSet = IdSet<ChunkId>;
/// A set of document ids.
pub type DocSet = IdSet<DocId>;

impl<T> Default for IdSet<T> {
    fn default() -> Self {
        Self { bits: RoaringBitmap::new(), kind: PhantomData }
    }
}

impl<T: Id> fmt::Debug for IdSet<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl<T: Id> IdSet<T> {
    /// The empty set.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adopt a bitmap read from a database that holds ids of this kind.
    pub(crate) fn from_bitmap(bits: RoaringBitmap) -> Self {
        Self { bits, kind: PhantomData }
    }

    /// The bitmap underneath, for the rankers and arroy's candidate filter.
    pub(crate) fn bitmap(&self) -> &RoaringBitmap {
        &self.bits
    }

    /// Add an id; true if it was new.
    pub fn insert(&mut self, id: T) -> bool {
        self.bits.insert(id.raw())
    }

    /// Add the `count` consecutive ids from `first` (fewer if they would
    /// pass `u32::MAX`).
    pub fn insert_range(&mut self, first: T, count: u32) {
        if count == 0 {
            return;
        }
        let start = first.raw();
        self.bits.insert_range(start..=start.saturating_add(count - 1));
    }

    /// The set of `ids`: built by appending when they ascend (any order is
    /// still correct, only slower).
    pub fn from_sorted_ids(ids: impl IntoIterator<Item = T>) -> Self {
        let mut bits = RoaringBitmap::new();
        for id in ids {
            // `try_push` appends in O(1) and refuses an id not above the last.
            if bits.try_push(id.raw()).is_err() && !bits.contains(id.raw()) {
                bits.insert(id.raw());
            }
        }
        Self::from_bitmap(bits)
    }

    /// Remove an id; true if it was there.
    pub fn remove(&mut self, id: T) -> bool {
        self.bits.remove(id.raw())
    }

    /// Whether the set holds `id`.
    pub fn contains(&self, id: T) -> bool {
        self.bits.contains(id.raw())
    }

    /// Number of ids.
    pub fn len(&self) -> u64 {
        self.bits.len()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.bits.is_empty()
    }

    /// The ids in ascending order.
    pub fn iter(&self) -> impl Iterator<Item = T> + '_ {
        self.bits.iter().map(T::from_raw)
    }

    /// Add every id of `other`.
    pub fn union_with(&mut self, other: &Self) {
        self.bits |= &other.bits;
    }

    /// The union of many sets at once (roaring's multi-way union: linear
    /// in their sizes, where folding `union_with` over thousands of small
    /// sets re-sorts the growing result each time).
    pub fn union_of<'a>(sets: impl IntoIterator<Item = &'a Self>) -> Self
    where
        T: 'a,
    {
        use roaring::MultiOps;
        Self::from_bitmap(sets.into_iter().map(|s| &s.bits).union())
    }

    /// The ids in both sets.
    pub fn intersection(&self, other: &Self) -> Self {
        Self::from_bitmap(&self.bits & &other.bits)
    }
}

impl<T: Id> FromIterator<T> for IdSet<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        Self::from_bitmap(iter.into_iter().map(Id::raw).collect())
    }
}

/// Stores a [`RoaringBitmap`] in the portable Roaring serialisation
/// (<https://github.com/RoaringBitmap/RoaringFormatSpec>).
pub struct RoaringCodec;

impl BytesEncode<'_> for RoaringCodec {
    type EItem = RoaringBitmap;

    fn bytes_encode(item: &Self::EItem) -> Result<Cow<'_, [u8]>, BoxedError> {
        let mut bytes = Vec::with_capacity(item.serialized_size());
        item.serialize_into(&mut bytes)?;
        Ok(Cow::Owned(bytes))
    }
}

impl BytesDecode<'_> for RoaringCodec {
    type DItem = RoaringBitmap;

    fn bytes_decode(bytes: &[u8]) -> Result<Self::DItem, BoxedError> {
        Ok(RoaringBitmap::deserialize_from(bytes)?)
    }
}

/// heed codec for an [`IdSet`]: its bitmap through [`RoaringCodec`].
pub struct IdSetCodec<T>(PhantomData<T>);

impl<'a, T: Id> BytesEncode<'a> for IdSetCodec<T> {
    type EItem = IdSet<T>;

    fn bytes_encode(item: &'a IdSet<T>) -> Result<Cow<'a, [u8]>, BoxedError> {
        RoaringCodec::bytes_encode(&item.bits)
    }
}

impl<T: Id> BytesDecode<'_> for IdSetCodec<T> {
    type DItem = IdSet<T>;

    fn bytes_decode(bytes: &[u8]) -> Result<IdSet<T>, BoxedError> {
        Ok(IdSet::from_bitmap(RoaringCodec::bytes_decode(bytes)?))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn ids_round_trip_through_their_codec_in_key_order() {
        let a = IdCodec::<DocId>::bytes_encode(&DocId::new(2)).unwrap().into_owned();
        let b = IdCodec::<DocId>::bytes_encode(&DocId::new(256)).unwrap().into_owned();
        assert!(a < b, "big-endian keys sort numerically");
        assert_eq!(IdCodec::<DocId>::bytes_decode(&b).unwrap(), DocId::new(256));
        assert!(IdCodec::<ChunkId>::bytes_decode(&[1, 2]).is_err());
    }

    #[test]
    fn sets_hold_one_kind_of_id() {
        let mut chunks: ChunkSet = [ChunkId::new(3), ChunkId::new(7)].into_iter().collect();
        assert!(chunks.contains(ChunkId::new(7)));
        assert!(!chunks.contains(ChunkId::new(4)));
        chunks.remove(ChunkId::new(3));
        assert_eq!(chunks.iter().collect::<Vec<_>>(), vec![ChunkId::new(7)]);
        assert_eq!(format!("{}", ChunkId::new(7)), "chunk#7");
    }
}
