//! The binary code of one unit-length embedding (ARCHITECTURE §3, "vector
//! blocks"): one sign bit a dimension, padded to whole 64-bit words
//! (`dims.div_ceil(64) × 8` bytes: 48 for 384 dimensions). The Hamming
//! distance between two codes ranks like the angle between the vectors
//! (Charikar, "Similarity estimation techniques from rounding algorithms",
//! STOC 2002), so it shortlists candidates for the exact f32 rescoring
//! (binary quantisation with rescoring: Shakir, Aarsen and Lee, "Binary and
//! scalar embedding quantization", Hugging Face 2024).

use simsimd::SpatialSimilarity;

/// Byte sizes of one vector in a block, for `dims` dimensions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CodeLayout {
    /// Dimensions of the embedding.
    pub dims: usize,
}

impl CodeLayout {
    /// Bytes of the binary code: `dims.div_ceil(64) × 8`.
    pub const fn binary_bytes(self) -> usize {
        self.dims.div_ceil(64) * 8
    }

    /// Bytes of the f32 vector: `4 × dims`.
    pub const fn f32_bytes(self) -> usize {
        self.dims * 4
    }

    /// Bytes a vector takes in a block: binary + f32.
    pub const fn per_vector(self) -> usize {
        self.binary_bytes() + self.f32_bytes()
    }
}

/// One vector and its binary code, owned.
#[derive(Debug, Clone, PartialEq)]
pub struct Codes {
    /// The f32 vector itself (the library's one copy).
    pub vector: Vec<f32>,
    /// Sign bits: bit `i % 8` of byte `i / 8` set when `v[i] > 0`, zero
    /// padding to whole words.
    pub binary: Vec<u8>,
}

impl Codes {
    /// Code `v` (any length; unit length expected, not required).
    pub fn encode(v: &[f32]) -> Self {
        let mut binary = vec![0u8; CodeLayout { dims: v.len() }.binary_bytes()];
        for (i, &x) in v.iter().enumerate() {
            if x > 0.0 {
                binary[i / 8] |= 1 << (i % 8);
            }
        }
        Self { vector: v.to_vec(), binary }
    }
}

/// A query's binary code as 64-bit words, for the scan.
#[derive(Debug, Clone)]
pub struct QueryCodes {
    words: Vec<u64>,
}

impl QueryCodes {
    /// Code `query`.
    pub fn new(query: &[f32]) -> Self {
        let binary = Codes::encode(query).binary;
        let words = binary.chunks_exact(8).map(le_word).collect();
        Self { words }
    }

    /// Hamming distance to a stored binary code (bits that differ; lower is
    /// nearer). A code of another length counts as farthest.
    #[inline(always)]
    pub fn hamming(&self, binary: &[u8]) -> u32 {
        if binary.len() != self.words.len() * 8 {
            return u32::MAX;
        }
        // 384 dimensions (both builtin embedders): six words, unrolled.
        if let (Ok(code), Ok(q)) = (<&[u8; 48]>::try_from(binary), <&[u64; 6]>::try_from(&self.words[..])) {
            let word = |i: usize| le_word(&code[i * 8..i * 8 + 8]) ^ q[i];
            return word(0).count_ones()
                + word(1).count_ones()
                + word(2).count_ones()
                + word(3).count_ones()
                + word(4).count_ones()
                + word(5).count_ones();
        }
        binary.chunks_exact(8).zip(&self.words).map(|(c, q)| (le_word(c) ^ q).count_ones()).sum()
    }
}

#[inline(always)]
fn le_word(c: &[u8]) -> u64 {
    u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]])
}

/// Exact dot product of two f32 slices (simsimd; the cosine for unit
/// vectors). Unequal lengths give `-inf`.
pub fn dot_f32(a: &[f32], b: &[f32]) -> f32 {
    f32::dot(a, b).map_or(f32::NEG_INFINITY, |d| d as f32)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(seed: u32, dims: usize) -> Vec<f32> {
        let v: Vec<f32> =
            (0..dims).map(|i| (((i as u32).wrapping_mul(2_654_435_761) ^ seed) % 1000) as f32 / 500.0 - 1.0).collect();
        let n = v.iter().map(|x| x * x).sum::<f32>().sqrt();
        v.into_iter().map(|x| x / n).collect()
    }

    #[test]
    fn hamming_counts_sign_flips() {
        let a = unit(5, 384);
        let flipped: Vec<f32> = a.iter().enumerate().map(|(i, x)| if i < 10 { -x } else { *x }).collect();
        let q = QueryCodes::new(&a);
        assert_eq!(q.hamming(&Codes::encode(&a).binary), 0);
        assert_eq!(q.hamming(&Codes::encode(&flipped).binary), 10);
        assert_eq!(q.hamming(&[0u8; 3]), u32::MAX);
        assert_eq!(CodeLayout { dims: 384 }.per_vector(), 48 + 1536);
        assert_eq!(CodeLayout { dims: 100 }.binary_bytes(), 16, "padded to whole words");
        let (b, c) = (unit(1, 100), unit(2, 100));
        let by_bits = (0..100).filter(|&i| (b[i] > 0.0) != (c[i] > 0.0)).count() as u32;
        assert_eq!(QueryCodes::new(&b).hamming(&Codes::encode(&c).binary), by_bits);
    }

    #[test]
    fn the_exact_dot_is_the_cosine() {
        let (a, b) = (unit(1, 384), unit(99, 384));
        let exact: f32 = a.iter().zip(&b).map(|(x, y)| x * y).sum();
        assert!((dot_f32(&a, &b) - exact).abs() < 1e-5);
        assert_eq!(dot_f32(&a, &b[..3]), f32::NEG_INFINITY);
    }
}
