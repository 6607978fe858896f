//! Keys and values of the store's byte databases: v9's `(term, chunk id)` keys,
//! embedding-cache keys and vectors. The id and bitmap codecs live with the
//! ids ([`crate::ids`]); the term limit with the tokenizer ([`crate::text`]).

pub use crate::ids::RoaringCodec;
pub use crate::text::MAX_TERM_BYTES;

use crate::ids::ChunkId;

/// Key of the term-frequency database up to format v9 (empty since v10,
/// read by the v9 → v10 step): `term bytes, 0x00, chunk id (u32
/// big-endian)`. Big-endian ids keep all chunks of one term contiguous and
/// ordered.
pub fn term_chunk_key(term: &str, chunk: ChunkId) -> Vec<u8> {
    let mut key = Vec::with_capacity(term.len() + 5);
    key.extend_from_slice(term.as_bytes());
    key.push(0);
    key.extend_from_slice(&chunk.get().to_be_bytes());
    key
}

/// Key of the embedding cache: embedder fingerprint (16 hex chars) then the
/// 32-byte blake3 hash of the chunk text.
pub fn cache_key(fingerprint: &str, text: &str) -> Vec<u8> {
    let mut key = Vec::with_capacity(fingerprint.len() + 32);
    key.extend_from_slice(fingerprint.as_bytes());
    key.extend_from_slice(blake3::hash(text.as_bytes()).as_bytes());
    key
}

/// Encode a vector as little-endian `f32` bytes (4 bytes per dimension).
pub fn vector_to_bytes(vector: &[f32]) -> Vec<u8> {
    vector.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// Decode little-endian `f32` bytes; `None` when the length is not a multiple of 4.
pub fn vector_from_bytes(bytes: &[u8]) -> Option<Vec<f32>> {
    if !bytes.len().is_multiple_of(4) {
        return None;
    }
    let floats = bytes.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]));
    Some(floats.collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn term_chunk_keys_sort_by_term_then_chunk() {
        let a = term_chunk_key("leave", ChunkId::new(2));
        let b = term_chunk_key("leave", ChunkId::new(256));
        assert!(a < b);
        assert!(b < term_chunk_key("leaves", ChunkId::new(1)));
        assert_eq!(&b[b.len() - 4..], &256u32.to_be_bytes());
    }

    #[test]
    fn vectors_round_trip() {
        let v = vec![0.5f32, -1.25, 3.0];
        assert_eq!(vector_from_bytes(&vector_to_bytes(&v)), Some(v));
        assert_eq!(vector_from_bytes(&[1, 2, 3]), None);
    }
}
