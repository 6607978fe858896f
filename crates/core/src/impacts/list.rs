//! The bytes of one term's impact list.
//!
//! A list is a run of entries in strictly ascending chunk-id order, each
//! three unsigned LEB128 varints (7 bits a byte, low bits first, the high
//! bit set on every byte but the last; at most 5 bytes for a `u32`):
//!
//! 1. the chunk id minus the previous entry's (the first entry: the id
//!    itself), so at least 1 after the first entry;
//! 2. the term's frequency in the chunk (`tf`);
//! 3. the chunk's length in BM25 tokens, exact, so a score computed from
//!    the list equals one computed from separate tables.
//!
//! The empty list is zero bytes (the store deletes such a key). Decoding
//! never allocates and never panics: a truncated varint, one longer than a
//! `u32`, a zero or overflowing id delta each give a [`CorruptList`].

use crate::ids::ChunkId;

/// One entry of a term's impact list: a chunk holding the term, how often,
/// and how long the chunk is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Impact {
    /// The chunk.
    pub chunk: ChunkId,
    /// Occurrences of the term in the chunk.
    pub tf: u32,
    /// The chunk's length in BM25 tokens.
    pub len: u32,
}

/// Why a stored list does not decode: what is wrong and the byte offset in
/// the list where it was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("{reason} at byte {offset}")]
pub struct CorruptList {
    /// Offset of the entry or varint at fault, in bytes from the list's start.
    pub offset: usize,
    /// What is wrong.
    pub reason: &'static str,
}

/// Append `value` as an unsigned LEB128 varint (1 to 5 bytes).
pub fn write_varint(out: &mut Vec<u8>, mut value: u32) {
    while value >= 0x80 {
        out.push((value as u8 & 0x7f) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// Read an unsigned LEB128 varint at `*pos`, moving `*pos` past it.
///
/// # Errors
/// [`CorruptList`] when the bytes end inside the varint or it does not fit
/// a `u32` (a fifth byte above `0x0f`, or a sixth byte).
pub fn read_varint(bytes: &[u8], pos: &mut usize) -> Result<u32, CorruptList> {
    let start = *pos;
    let mut value = 0u32;
    for shift in (0..35).step_by(7) {
        let Some(&byte) = bytes.get(*pos) else {
            return Err(CorruptList { offset: start, reason: "truncated varint" });
        };
        *pos += 1;
        if shift == 28 && byte > 0x0f {
            return Err(CorruptList { offset: start, reason: "varint longer than 32 bits" });
        }
        value |= u32::from(byte & 0x7f) << shift;
        if byte & 0x80 == 0 {
            return Ok(value);
        }
    }
    // Unreachable in practice: the fifth byte either ends the varint or is refused above.
    Err(CorruptList { offset: start, reason: "varint longer than 32 bits" })
}

/// Builds one list by appending entries in ascending chunk order.
#[derive(Debug, Default)]
pub struct ListBuilder {
    bytes: Vec<u8>,
    last: Option<u32>,
}

impl ListBuilder {
    /// An empty list.
    pub fn new() -> Self {
        Self::default()
    }

    /// Empty the list, keeping its buffer.
    pub fn clear(&mut self) {
        self.bytes.clear();
        self.last = None;
    }

    /// Append `impact`.
    ///
    /// # Errors
    /// [`CorruptList`] (offset: the list's length so far) when its chunk is
    /// not above the last one appended; nothing is appended then.
    pub fn push(&mut self, impact: Impact) -> Result<(), CorruptList> {
        let id = impact.chunk.get();
        let delta = match self.last {
            None => id,
            Some(last) if id > last => id - last,
            Some(_) => return Err(CorruptList { offset: self.bytes.len(), reason: "chunk ids out of order" }),
        };
        write_varint(&mut self.bytes, delta);
        write_varint(&mut self.bytes, impact.tf);
        write_varint(&mut self.bytes, impact.len);
        self.last = Some(id);
        Ok(())
    }

    /// Whether no entry was appended.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// The encoded list.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }
}

/// Encode `impacts` (strictly ascending chunk ids) as one list.
///
/// # Errors
/// [`CorruptList`] when the chunk ids do not strictly ascend.
pub fn encode(impacts: &[Impact]) -> Result<Vec<u8>, CorruptList> {
    let mut list = ListBuilder::new();
    for &impact in impacts {
        list.push(impact)?;
    }
    Ok(list.bytes)
}

/// The entries of the list `bytes`, in ascending chunk order, decoded as
/// they are walked (no allocation).
pub fn iter(bytes: &[u8]) -> ImpactIter<'_> {
    ImpactIter { bytes, pos: 0, last: None }
}

/// Decode a whole list.
///
/// # Errors
/// [`CorruptList`] for bytes that are not a list.
pub fn decode(bytes: &[u8]) -> Result<Vec<Impact>, CorruptList> {
    iter(bytes).collect()
}

/// Iterator over a list's entries; see [`iter`]. After an error it ends.
#[derive(Debug, Clone)]
pub struct ImpactIter<'a> {
    bytes: &'a [u8],
    pos: usize,
    last: Option<u32>,
}

impl ImpactIter<'_> {
    fn entry(&mut self) -> Result<Impact, CorruptList> {
        let start = self.pos;
        let delta = read_varint(self.bytes, &mut self.pos)?;
        let id = match self.last {
            None => delta,
            Some(_) if delta == 0 => return Err(CorruptList { offset: start, reason: "repeated chunk id" }),
            Some(last) => last.checked_add(delta).ok_or(CorruptList { offset: start, reason: "chunk id past u32" })?,
        };
        let tf = read_varint(self.bytes, &mut self.pos)?;
        let len = read_varint(self.bytes, &mut self.pos)?;
        self.last = Some(id);
        Ok(Impact { chunk: ChunkId::new(id), tf, len })
    }
}

impl Iterator for ImpactIter<'_> {
    type Item = Result<Impact, CorruptList>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        if self.pos >= self.bytes.len() {
            return None;
        }
        let entry = self.entry();
        if entry.is_err() {
            self.pos = self.bytes.len();
        }
        Some(entry)
    }
}
