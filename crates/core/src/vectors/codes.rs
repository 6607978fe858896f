//! The two quantised codes of one unit-length embedding (ARCHITECTURE §3,
//! "vector codes"):
//!
//! - **binary**: one sign bit a dimension, `dims.div_ceil(8)` bytes (48 bytes
//!   for 384 dimensions); Hamming distance between two codes ranks like the
//!   angle (Charikar, "Similarity estimation techniques from rounding
//!   algorithms", STOC 2002).
//! - **int8**: symmetric scalar quantisation with one f32 scale a vector,
//!   `q[i] = round(v[i] / s)`, `s = max|v| / 127`, `dims` bytes + 4; the dot
//!   product of two codes times both scales approximates the cosine to about
//!   1e-3 (Jacob et al., "Quantization and training of neural networks for
//!   efficient integer-arithmetic-only inference", CVPR 2018, §2).
//!
//! The f32 vector is kept beside its codes for the exact rescoring.
//!
//! The kernels are simsimd's (AVX2/AVX-512/NEON chosen at run time).

use simsimd::{BinarySimilarity, SpatialSimilarity};

/// Byte sizes of one vector's codes for `dims` dimensions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CodeLayout {
    /// Dimensions of the embedding.
    pub dims: usize,
}

impl CodeLayout {
    /// Bytes of the binary code: `dims.div_ceil(8)`.
    pub const fn binary_bytes(self) -> usize {
        self.dims.div_ceil(8)
    }

    /// Bytes of the int8 code (the scale is stored apart): `dims`.
    pub const fn int8_bytes(self) -> usize {
        self.dims
    }

    /// Bytes of the f32 vector: `4 × dims`.
    pub const fn f32_bytes(self) -> usize {
        self.dims * 4
    }

    /// Bytes a vector takes in a block: binary + scale (4) + int8 + f32.
    pub const fn per_vector(self) -> usize {
        self.binary_bytes() + 4 + self.int8_bytes() + self.f32_bytes()
    }
}

/// One vector and its codes, owned.
#[derive(Debug, Clone, PartialEq)]
pub struct Codes {
    /// The f32 vector itself (the library's one copy).
    pub vector: Vec<f32>,
    /// Sign bits, bit `i % 8` of byte `i / 8` set when `v[i] > 0`.
    pub binary: Vec<u8>,
    /// The int8 scale `s` (the vector ≈ `s × int8`).
    pub scale: f32,
    /// The int8 components.
    pub int8: Vec<i8>,
}

impl Codes {
    /// Quantise `v` (any length; unit length expected, not required).
    pub fn encode(v: &[f32]) -> Self {
        let mut binary = vec![0u8; v.len().div_ceil(8)];
        for (i, &x) in v.iter().enumerate() {
            if x > 0.0 {
                binary[i / 8] |= 1 << (i % 8);
            }
        }
        let max = v.iter().fold(0.0f32, |m, x| m.max(x.abs()));
        let scale = if max > 0.0 && max.is_finite() { max / 127.0 } else { 1.0 };
        let int8 = v.iter().map(|&x| (x / scale).round().clamp(-127.0, 127.0) as i8).collect();
        Self { vector: v.to_vec(), binary, scale, int8 }
    }
}

/// A query prepared for the quantised scan.
#[derive(Debug, Clone)]
pub struct QueryCodes {
    /// The query's codes.
    pub codes: Codes,
}

impl QueryCodes {
    /// Quantise `query`.
    pub fn new(query: &[f32]) -> Self {
        Self { codes: Codes::encode(query) }
    }

    /// Hamming distance to a stored binary code (bits that differ; lower is
    /// nearer). Slices of unequal length count as far.
    pub fn hamming(&self, binary: &[u8]) -> u32 {
        u8::hamming(&self.codes.binary, binary).map_or(u32::MAX, |d| d as u32)
    }

    /// Approximate cosine against a stored int8 code with its scale.
    pub fn int8_dot(&self, scale: f32, int8: &[i8]) -> f32 {
        let dot = i8::dot(&self.codes.int8, int8).unwrap_or(f64::NEG_INFINITY);
        (dot as f32) * self.codes.scale * scale
    }
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
    fn int8_dot_approximates_the_cosine() {
        let (a, b) = (unit(1, 384), unit(99, 384));
        let exact: f32 = a.iter().zip(&b).map(|(x, y)| x * y).sum();
        let q = QueryCodes::new(&a);
        let c = Codes::encode(&b);
        assert!((q.int8_dot(c.scale, &c.int8) - exact).abs() < 0.01, "{} vs {exact}", q.int8_dot(c.scale, &c.int8));
        assert!((dot_f32(&a, &b) - exact).abs() < 1e-5);
    }

    #[test]
    fn hamming_counts_sign_flips() {
        let a = unit(5, 384);
        let flipped: Vec<f32> = a.iter().enumerate().map(|(i, x)| if i < 10 { -x } else { *x }).collect();
        let q = QueryCodes::new(&a);
        assert_eq!(q.hamming(&Codes::encode(&a).binary), 0);
        assert_eq!(q.hamming(&Codes::encode(&flipped).binary), 10);
        assert_eq!(q.hamming(&[0u8; 3]), u32::MAX);
        assert_eq!(CodeLayout { dims: 384 }.per_vector(), 48 + 4 + 384 + 1536);
    }

    #[test]
    fn a_zero_vector_encodes_without_dividing_by_zero() {
        let c = Codes::encode(&[0.0; 16]);
        assert_eq!(c.scale, 1.0);
        assert!(c.int8.iter().all(|&q| q == 0));
    }
}
