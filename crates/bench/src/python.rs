//! The Python + Chroma side, measured in the same run on the same data:
//! `scripts/bench/chroma_vectors.py` (the vector index, from the same
//! precomputed vectors) and `scripts/bench/reference_pipeline.py` (split on
//! headings, the same MiniLM weights through onnxruntime, Chroma). The
//! python comes from `$ALMIRAH_BENCH_PYTHON` (`scripts/bench.sh` sets it
//! from `scripts/bench/setup.sh`); without it these parts are skipped.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};

use crate::synth::{DIMS, Vectors};

/// The venv python, when set.
pub fn python() -> Option<PathBuf> {
    std::env::var_os("ALMIRAH_BENCH_PYTHON").map(PathBuf::from).filter(|p| p.exists())
}

fn script(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/bench").join(name)
}

/// Write rows `0..n` as an ALMV file: `b"ALMV"`, u32 version 1, u32 rows,
/// u32 dims (little-endian), then the f32 values row after row
/// (`scripts/bench/vecfile.py` reads it).
///
/// # Errors
/// I/O errors.
pub fn write_vectors(path: &Path, v: &Vectors, n: usize) -> Result<()> {
    let mut out = std::io::BufWriter::new(std::fs::File::create(path)?);
    out.write_all(b"ALMV")?;
    for x in [1u32, n as u32, DIMS as u32] {
        out.write_all(&x.to_le_bytes())?;
    }
    for x in &v.data[..n * DIMS] {
        out.write_all(&x.to_le_bytes())?;
    }
    out.flush()?;
    Ok(())
}

/// Chroma on the same vectors (`chroma_vectors.py`'s JSON, the fields used here).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ChromaVectors {
    /// chromadb version.
    pub chroma_version: String,
    /// Items.
    pub items: usize,
    /// All `add` calls (Chroma builds HNSW inside them), s.
    pub insert_s: f64,
    /// Query latency at k = 10, ms.
    pub query_p50_ms: f64,
    /// 95th percentile, ms.
    pub query_p95_ms: f64,
    /// Recall@10 against exact cosine.
    pub recall_at_10: f64,
    /// With the 50% metadata filter, ms.
    pub filtered_p50_ms: Option<f64>,
    /// Recall@10 with the filter.
    pub filtered_recall_at_10: Option<f64>,
    /// Files under the Chroma folder, bytes.
    pub disk_bytes: u64,
}

/// Run `chroma_vectors.py` on rows `0..n` of `data` and on `queries`, with
/// the even items carrying the 50% filter's metadata.
///
/// # Errors
/// I/O errors, a failed script (its stderr is in the error).
pub fn chroma_vectors(py: &Path, work: &Path, data: &Vectors, n: usize, queries: &Vectors) -> Result<ChromaVectors> {
    let (items, qs, out) = (work.join("items.almv"), work.join("queries.almv"), work.join("chroma.json"));
    write_vectors(&items, data, n)?;
    write_vectors(&qs, queries, queries.n)?;
    let mut cmd = Command::new(py);
    cmd.arg(script("chroma_vectors.py")).arg("--vectors").arg(&items).arg("--queries").arg(&qs);
    cmd.args(["--k", "10", "--filter-every", "2", "--force"]).arg("--workdir").arg(work.join("chroma"));
    cmd.arg("--out").arg(&out);
    run(cmd, &out)
}

/// The reference pipeline (`reference_pipeline.py`'s JSON, the fields used here).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ReferencePipeline {
    /// Files read.
    pub files: usize,
    /// Chunks stored.
    pub chunks: usize,
    /// Read, split, embed and upsert, s (model load excluded).
    pub index_s: f64,
    /// Files per second.
    pub files_per_s: f64,
    /// Chunks per second.
    pub chunks_per_s: f64,
    /// Embed the query and search Chroma, ms.
    pub query_p50_ms: f64,
    /// 95th percentile, ms.
    pub query_p95_ms: f64,
}

/// Run `reference_pipeline.py` over `docs` with `queries` (one per line).
///
/// # Errors
/// I/O errors, a failed script.
pub fn reference_pipeline(py: &Path, work: &Path, docs: &[PathBuf], queries: &[String]) -> Result<ReferencePipeline> {
    let (qfile, out) = (work.join("queries.txt"), work.join("pipeline.json"));
    std::fs::write(&qfile, queries.join("\n"))?;
    let mut cmd = Command::new(py);
    cmd.arg(script("reference_pipeline.py"));
    for d in docs {
        cmd.arg("--docs").arg(d);
    }
    cmd.arg("--queries").arg(&qfile).arg("--workdir").arg(work.join("pipeline")).arg("--out").arg(&out);
    run(cmd, &out)
}

fn run<T: for<'de> Deserialize<'de>>(mut cmd: Command, out: &Path) -> Result<T> {
    let program = format!("{cmd:?}");
    let status = cmd.status().with_context(|| format!("running {program}"))?;
    if !status.success() {
        bail!("{program} failed ({status})");
    }
    let text = std::fs::read_to_string(out).with_context(|| format!("reading {}", out.display()))?;
    serde_json::from_str(&text).with_context(|| format!("parsing {}", out.display()))
}
