//! Seeded synthetic data: a Zipf-distributed vocabulary of made-up words for
//! text libraries, and the embedding-like low-rank vectors of
//! DEPENDENCIES.md ("The baseline to beat").

use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::Path;

use anyhow::{Context, Result};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// Dimensions of the synthetic embeddings (all-MiniLM-L6-v2's).
pub const DIMS: usize = 384;
/// Rank of the latent factors Z.
pub const RANK: usize = 48;
/// Seed of W and the data rows.
pub const DATA_SEED: u64 = 42;
/// Seed of the query rows.
pub const QUERY_SEED: u64 = 7;
/// Noise amplitude added to Z·W.
const NOISE: f32 = 0.1;

const ONSETS: [&str; 20] =
    ["b", "c", "d", "f", "g", "h", "j", "k", "l", "m", "n", "p", "r", "s", "t", "v", "w", "z", "br", "st"];
const VOWELS: [&str; 7] = ["a", "e", "i", "o", "u", "ai", "ou"];

/// Made-up words with Zipf weights (rank r has weight 1 / (r + 1)^1.07).
pub struct Vocabulary {
    words: Vec<String>,
    cdf: Vec<f64>,
}

impl Vocabulary {
    /// `size` distinct words from `seed`.
    pub fn new(size: usize, seed: u64) -> Self {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut seen = HashSet::with_capacity(size);
        let mut words = Vec::with_capacity(size);
        while words.len() < size {
            let syllables = rng.random_range(1..=4);
            let mut w = String::new();
            for _ in 0..syllables {
                w.push_str(ONSETS[rng.random_range(0..ONSETS.len())]);
                w.push_str(VOWELS[rng.random_range(0..VOWELS.len())]);
            }
            if rng.random_bool(0.3) {
                w.push_str(ONSETS[rng.random_range(0..ONSETS.len())]);
            }
            if seen.insert(w.clone()) {
                words.push(w);
            }
        }
        let mut cdf = Vec::with_capacity(size);
        let mut total = 0.0;
        for r in 0..size {
            total += 1.0 / ((r + 1) as f64).powf(1.07);
            cdf.push(total);
        }
        Self { words, cdf }
    }

    /// One word drawn from the Zipf distribution.
    pub fn sample(&self, rng: &mut StdRng) -> &str {
        let total = self.cdf.last().copied().unwrap_or(1.0);
        let x = rng.random::<f64>() * total;
        let i = self.cdf.partition_point(|c| *c < x).min(self.words.len().saturating_sub(1));
        &self.words[i]
    }

    /// A query of 3 to 5 words.
    pub fn query(&self, rng: &mut StdRng) -> String {
        let n = rng.random_range(3..=5);
        let words: Vec<&str> = (0..n).map(|_| self.sample(rng)).collect();
        words.join(" ")
    }

    /// A paragraph of `chars` characters or a little more, in sentences.
    pub fn paragraph(&self, rng: &mut StdRng, chars: usize) -> String {
        let mut p = String::with_capacity(chars + 64);
        while p.len() < chars {
            let n = rng.random_range(8..=16);
            for i in 0..n {
                let w = self.sample(rng);
                if i == 0 {
                    let mut cs = w.chars();
                    if let Some(first) = cs.next() {
                        p.extend(first.to_uppercase());
                        p.push_str(cs.as_str());
                    }
                } else {
                    p.push(' ');
                    p.push_str(w);
                }
            }
            p.push_str(". ");
        }
        p.truncate(p.trim_end().len());
        p
    }
}

/// Write `files` text files of `paragraphs` paragraphs each (650-1100
/// characters, so each becomes one chunk of the default 400-1200 chunker)
/// into `dir`. Returns the bytes written.
///
/// # Errors
/// I/O errors.
pub fn write_text_corpus(dir: &Path, vocab: &Vocabulary, files: usize, paragraphs: usize, seed: u64) -> Result<u64> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let mut rng = StdRng::seed_from_u64(seed);
    let mut bytes = 0u64;
    for f in 0..files {
        let mut text = String::new();
        let _ = writeln!(text, "Synthetic document {f}\n");
        for _ in 0..paragraphs {
            let len = rng.random_range(650..1100);
            text.push_str(&vocab.paragraph(&mut rng, len));
            text.push_str("\n\n");
        }
        let path = dir.join(format!("doc-{f:05}.txt"));
        std::fs::write(&path, &text).with_context(|| format!("writing {}", path.display()))?;
        bytes += text.len() as u64;
    }
    Ok(bytes)
}

/// A standard normal draw (Box-Muller).
pub fn normal(rng: &mut StdRng) -> f32 {
    let u1: f64 = 1.0 - rng.random::<f64>(); // (0, 1]
    let u2: f64 = rng.random::<f64>();
    ((-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()) as f32
}

/// Row-major `n × DIMS` unit vectors.
#[derive(Clone)]
pub struct Vectors {
    /// The floats, row after row.
    pub data: Vec<f32>,
    /// Rows.
    pub n: usize,
}

impl Vectors {
    /// Row `i`.
    pub fn row(&self, i: usize) -> &[f32] {
        &self.data[i * DIMS..(i + 1) * DIMS]
    }

    /// The first `n` rows (all of them when there are fewer).
    pub fn head(&self, n: usize) -> Self {
        let n = n.min(self.n);
        Self { data: self.data[..n * DIMS].to_vec(), n }
    }
}

/// X = Z·W + 0.1·noise, rows L2-normalised: W (RANK × DIMS) and then the
/// data rows from [`DATA_SEED`], one row at a time (so the first 10k rows of
/// the 100k set are the 10k set); queries from [`QUERY_SEED`] with the same W.
pub struct LowRank {
    w: Vec<f32>,
    rng: StdRng,
}

impl LowRank {
    /// The model with W drawn from [`DATA_SEED`].
    pub fn new() -> Self {
        let mut rng = StdRng::seed_from_u64(DATA_SEED);
        let w = (0..RANK * DIMS).map(|_| normal(&mut rng)).collect();
        Self { w, rng }
    }

    /// The next `n` data rows.
    pub fn data(&mut self, n: usize) -> Vectors {
        rows(&self.w, &mut self.rng, n)
    }

    /// `n` query rows from [`QUERY_SEED`].
    pub fn queries(&self, n: usize) -> Vectors {
        let mut rng = StdRng::seed_from_u64(QUERY_SEED);
        rows(&self.w, &mut rng, n)
    }

    /// One row drawn from its own `seed` with the same W (a stand-in
    /// embedder's vector for a text, seeded by the text's hash).
    pub fn row_seeded(&self, seed: u64) -> Vec<f32> {
        let mut rng = StdRng::seed_from_u64(seed);
        rows(&self.w, &mut rng, 1).data
    }
}

fn rows(w: &[f32], rng: &mut StdRng, n: usize) -> Vectors {
    let mut data = Vec::with_capacity(n * DIMS);
    let mut z = [0.0f32; RANK];
    for _ in 0..n {
        z.iter_mut().for_each(|x| *x = normal(rng));
        let start = data.len();
        for d in 0..DIMS {
            let mut x = NOISE * normal(rng);
            for (r, zr) in z.iter().enumerate() {
                x += zr * w[r * DIMS + d];
            }
            data.push(x);
        }
        let row = &mut data[start..];
        let norm = row.iter().map(|x| x * x).sum::<f32>().sqrt().max(f32::MIN_POSITIVE);
        row.iter_mut().for_each(|x| *x /= norm);
    }
    Vectors { data, n }
}

/// Dot product with eight accumulators (vectorises; the exact ground truth).
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut acc = [0.0f32; 8];
    let ca = a.chunks_exact(8);
    let cb = b.chunks_exact(8);
    let tail: f32 = ca.remainder().iter().zip(cb.remainder()).map(|(x, y)| x * y).sum();
    for (x, y) in ca.zip(cb) {
        for i in 0..8 {
            acc[i] += x[i] * y[i];
        }
    }
    acc.iter().sum::<f32>() + tail
}

/// Best ids first, per query.
pub type TopK = Vec<Vec<u32>>;

/// Exact top-`k` ids for every query, over all rows `< n` and over the even
/// rows (the 50% filter), in memory on two threads.
pub fn ground_truth(data: &Vectors, n: usize, queries: &Vectors, k: usize) -> Result<(TopK, TopK)> {
    let half = queries.n.div_ceil(2);
    let work = |range: std::ops::Range<usize>| -> Vec<(Vec<u32>, Vec<u32>)> {
        range
            .map(|qi| {
                let q = queries.row(qi);
                let mut all: Vec<(f32, u32)> = Vec::with_capacity(k + 1);
                let mut even: Vec<(f32, u32)> = Vec::with_capacity(k + 1);
                for i in 0..n {
                    let s = dot(q, data.row(i));
                    push_top(&mut all, k, s, i as u32);
                    if i % 2 == 0 {
                        push_top(&mut even, k, s, i as u32);
                    }
                }
                (all.iter().map(|h| h.1).collect(), even.iter().map(|h| h.1).collect())
            })
            .collect()
    };
    let (a, b) = std::thread::scope(|s| {
        let first = s.spawn(|| work(0..half));
        let second = work(half..queries.n);
        (first.join(), second)
    });
    let a = a.map_err(|_| anyhow::anyhow!("ground-truth thread panicked"))?;
    Ok(a.into_iter().chain(b).unzip())
}

fn push_top(top: &mut Vec<(f32, u32)>, k: usize, score: f32, id: u32) {
    if top.len() == k && top.last().is_some_and(|l| l.0 >= score) {
        return;
    }
    let pos = top.partition_point(|h| h.0 >= score);
    top.insert(pos, (score, id));
    top.truncate(k);
}
