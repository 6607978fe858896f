//! Vector search over the candidate bitmap, planned per query (ARCHITECTURE
//! §4, issue 42): an exact f32 scan when the candidates are few; above that
//! a quantised scan of the vector codes ([`crate::vectors`]: int8, or binary
//! then int8 for many candidates) whose shortlist is rescored with the exact
//! f32 vectors; arroy's trees only when they exist and the candidates pass
//! `arroy_min`. The thresholds are measured by `scripts/bench.sh --parts
//! vectors` on this kind of machine (see [`VectorParams::default`]).

use std::num::NonZeroUsize;

use arroy::distances::Cosine;
use heed::RoTxn;

use crate::error::Result;
use crate::ids::{ChunkId, ChunkSet};
use crate::vectors::{self, CodeDb, CodeLayout, QueryCodes, Shortlist};

/// The two stores of a library's vectors: arroy's f32 items (and trees) and
/// the codes laid out for scanning.
#[derive(Debug, Clone, Copy)]
pub struct VectorDbs {
    /// arroy (cosine), item id = chunk id.
    pub items: arroy::Database<'static, Cosine>,
    /// Binary and int8 codes in blocks ([`crate::vectors`]).
    pub codes: CodeDb,
}

/// How the vector search ran.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum VectorStrategy {
    /// Exact scan of every candidate's f32 vector.
    Exact,
    /// int8 codes of every candidate, the best `rescored` rescored in f32.
    Int8 {
        /// Candidates rescored with f32.
        rescored: usize,
    },
    /// Binary codes of every candidate, the best `binary_kept` by int8, the
    /// best `rescored` of those in f32.
    Binary {
        /// Kept after the binary pass.
        binary_kept: usize,
        /// Candidates rescored with f32.
        rescored: usize,
    },
    /// arroy trees with the given `search_k`.
    Arroy {
        /// Nodes visited.
        search_k: usize,
    },
}

/// Parameters of one vector search. Counts are candidates (chunks).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VectorParams {
    /// Exact f32 scan at or below this many candidates.
    pub exact_max: u64,
    /// Binary first pass at or above this many candidates (int8 below).
    pub binary_min: u64,
    /// Rescore the best `limit × rescore_factor` (at least 64) by f32.
    pub rescore_factor: usize,
    /// The binary pass keeps `limit × binary_factor` (at least 1,000).
    pub binary_factor: usize,
    /// arroy at or above this many candidates, when its trees exist
    /// (`u64::MAX`: never).
    pub arroy_min: u64,
    /// arroy's `search_k` = `limit × n_trees × search_k_factor`.
    pub search_k_factor: usize,
}

impl Default for VectorParams {
    /// Measured with `scripts/bench.sh --parts vectors` (384-d vectors, one
    /// core of the 2-core CI machine): the int8 scan with f32 rescoring
    /// matches the exact top 10 (recall@10 ≥ 0.99) and beats the exact scan
    /// from a few hundred candidates; the binary pass wins from about 50k.
    fn default() -> Self {
        Self {
            exact_max: 256,
            binary_min: 50_000,
            rescore_factor: 8,
            binary_factor: 100,
            arroy_min: u64::MAX,
            search_k_factor: 20,
        }
    }
}

/// Nearest candidates to `query` (unit length, `query.len()` dimensions):
/// `(chunk id, cosine similarity)` best first, at most `limit`; the
/// similarities are exact f32 cosines whatever the plan.
///
/// # Errors
/// LMDB and arroy errors; [`crate::Error::DataCorruption`] for a corrupt
/// code block.
pub fn search(
    dbs: VectorDbs,
    rtxn: &RoTxn<'_>,
    index: u16,
    query: &[f32],
    candidates: &ChunkSet,
    limit: usize,
    params: VectorParams,
) -> Result<(Vec<(ChunkId, f32)>, VectorStrategy)> {
    let n = candidates.len();
    if n >= params.arroy_min
        && let Ok(reader) = arroy::Reader::<Cosine>::open(rtxn, index, dbs.items)
    {
        return by_arroy(&reader, rtxn, query, candidates, limit, params);
    }
    if n <= params.exact_max {
        return Ok((exact(dbs, rtxn, index, query, candidates, limit)?, VectorStrategy::Exact));
    }
    let rescored = (limit * params.rescore_factor).max(64);
    let plan = if n >= params.binary_min {
        Shortlist::Binary { keep_binary: (limit * params.binary_factor).max(1_000), keep: rescored }
    } else {
        Shortlist::Int8 { keep: rescored }
    };
    let layout = CodeLayout { dims: query.len() };
    let shortlist =
        vectors::shortlist(rtxn, dbs.codes, index, layout, &QueryCodes::new(query), candidates.bitmap(), plan)?;
    let ids: ChunkSet = shortlist.iter().map(|&(id, _)| ChunkId::new(id)).collect();
    let hits = exact(dbs, rtxn, index, query, &ids, limit)?;
    let strategy = match plan {
        Shortlist::Int8 { .. } => VectorStrategy::Int8 { rescored: ids.len() as usize },
        Shortlist::Binary { keep_binary, .. } => {
            VectorStrategy::Binary { binary_kept: keep_binary, rescored: ids.len() as usize }
        }
    };
    Ok((hits, strategy))
}

fn by_arroy(
    reader: &arroy::Reader<'_, Cosine>,
    rtxn: &RoTxn<'_>,
    query: &[f32],
    candidates: &ChunkSet,
    limit: usize,
    params: VectorParams,
) -> Result<(Vec<(ChunkId, f32)>, VectorStrategy)> {
    let search_k = limit * reader.n_trees().max(1) * params.search_k_factor.max(1);
    let mut q = reader.nns(limit);
    q.candidates(candidates.bitmap());
    if let Some(k) = NonZeroUsize::new(search_k) {
        q.search_k(k);
    }
    let hits = q.by_vector(rtxn, query)?;
    let sims = hits.into_iter().map(|(id, d)| (ChunkId::new(id), 1.0 - 2.0 * d)).collect();
    Ok((sims, VectorStrategy::Arroy { search_k }))
}

/// Exact cosine scan over `candidates`' f32 vectors (unit length, so the
/// dot product is the cosine); best first, ties by id, at most `limit`.
///
/// # Errors
/// LMDB errors; [`crate::Error::DataCorruption`] for a corrupt block.
pub fn exact(
    dbs: VectorDbs,
    rtxn: &RoTxn<'_>,
    index: u16,
    query: &[f32],
    candidates: &ChunkSet,
    limit: usize,
) -> Result<Vec<(ChunkId, f32)>> {
    let hits = vectors::scan::exact(rtxn, dbs.codes, index, query, candidates.bitmap(), limit)?;
    Ok(hits.into_iter().map(|(id, s)| (ChunkId::new(id), s)).collect())
}
