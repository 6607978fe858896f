//! Vector search over the candidate bitmap, planned per query (ARCHITECTURE
//! §4, issue 42): an exact f32 scan when the candidates are few; above that
//! a binary pass over the candidates' codes ([`crate::vectors`]) whose
//! shortlist is rescored with the exact f32 vectors; arroy's trees only when
//! they exist and the candidates pass `arroy_min` (a library no longer
//! builds them: the benchmark measured them slower at every size). The
//! thresholds are measured by `scripts/bench.sh --parts vectors` on this
//! kind of machine (see [`VectorParams::default`]).

use std::num::NonZeroUsize;

use arroy::distances::Cosine;
use heed::RoTxn;

use crate::error::Result;
use crate::ids::{ChunkId, ChunkSet};
use crate::vectors::{self, CodeLayout, QueryCodes};

pub use crate::vectors::VectorDbs;

/// How the vector search ran.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum VectorStrategy {
    /// Exact scan of every candidate's f32 vector.
    Exact,
    /// Binary codes of every candidate, the nearest `rescored` by Hamming
    /// distance rescored in f32.
    Binary {
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
    /// The binary pass keeps `max(limit × shortlist_factor, shortlist_min)`
    /// for the f32 rescoring.
    pub shortlist_factor: usize,
    /// See `shortlist_factor`.
    pub shortlist_min: usize,
    /// arroy at or above this many candidates, when its trees exist
    /// (`u64::MAX`: never).
    pub arroy_min: u64,
    /// arroy's `search_k` = `limit × n_trees × search_k_factor`.
    pub search_k_factor: usize,
}

impl Default for VectorParams {
    /// Measured with `scripts/bench.sh --parts vectors` (384-d vectors, one
    /// core of the 2-core CI machine): below about a thousand candidates the
    /// exact scan costs what the binary pass and its rescoring cost; a
    /// shortlist of 1,000 keeps recall@10 at 0.99 or more up to 1M vectors.
    fn default() -> Self {
        Self { exact_max: 1_000, shortlist_factor: 100, shortlist_min: 1_000, arroy_min: u64::MAX, search_k_factor: 20 }
    }
}

/// Nearest candidates to `query` (unit length, `query.len()` dimensions):
/// `(chunk id, cosine similarity)` best first, at most `limit`; the
/// similarities are exact f32 cosines whatever the plan.
///
/// # Errors
/// LMDB and arroy errors; [`crate::Error::DataCorruption`] for a corrupt
/// vector block.
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
    let keep = (limit * params.shortlist_factor).max(params.shortlist_min);
    let layout = CodeLayout { dims: query.len() };
    let codes = QueryCodes::new(query);
    let short = vectors::shortlist(rtxn, dbs.codes, index, layout, &codes, candidates.bitmap(), keep)?;
    let ids: ChunkSet = short.into_iter().map(ChunkId::new).collect();
    let hits = exact(dbs, rtxn, index, query, &ids, limit)?;
    Ok((hits, VectorStrategy::Binary { rescored: ids.len() as usize }))
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
