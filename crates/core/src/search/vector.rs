//! Vector search over the candidate bitmap: an exact cosine scan when the
//! candidates are few, arroy's approximate search when they are many
//! (ARCHITECTURE §4; DEPENDENCIES.md measured the crossover).

use std::num::NonZeroUsize;

use arroy::distances::Cosine;
use heed::RoTxn;

use crate::error::Result;
use crate::ids::{ChunkId, ChunkSet};
use crate::store::Databases;

/// How the vector search ran.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum VectorStrategy {
    /// Exact scan of every candidate's vector.
    Exact,
    /// arroy trees with the given `search_k`.
    Arroy {
        /// Nodes visited.
        search_k: usize,
    },
}

/// Parameters of one vector search.
#[derive(Debug, Clone, Copy)]
pub struct VectorParams {
    /// Use the exact scan at or below this many candidates.
    pub exact_threshold: u64,
    /// `search_k` = `limit × n_trees × factor` for arroy.
    pub search_k_factor: usize,
}

/// Nearest candidates to `query` (unit-length, `dims` floats): `(chunk id,
/// cosine similarity)` best first, at most `limit`.
///
/// # Errors
/// LMDB and arroy errors.
pub fn search(
    dbs: &Databases,
    rtxn: &RoTxn<'_>,
    index: u16,
    query: &[f32],
    candidates: &ChunkSet,
    limit: usize,
    params: VectorParams,
) -> Result<(Vec<(ChunkId, f32)>, VectorStrategy)> {
    if candidates.len() > params.exact_threshold
        && let Ok(reader) = arroy::Reader::<Cosine>::open(rtxn, index, dbs.vectors)
    {
        let search_k = limit * reader.n_trees().max(1) * params.search_k_factor.max(1);
        let mut q = reader.nns(limit);
        q.candidates(candidates.bitmap());
        if let Some(k) = NonZeroUsize::new(search_k) {
            q.search_k(k);
        }
        let hits = q.by_vector(rtxn, query)?;
        let sims = hits.into_iter().map(|(id, d)| (ChunkId::new(id), 1.0 - 2.0 * d)).collect();
        return Ok((sims, VectorStrategy::Arroy { search_k }));
    }
    Ok((exact(dbs, rtxn, index, query, candidates, limit)?, VectorStrategy::Exact))
}

/// Exact cosine scan over `candidates` (vectors are unit length, so the dot
/// product is the cosine).
///
/// # Errors
/// LMDB and arroy errors.
pub fn exact(
    dbs: &Databases,
    rtxn: &RoTxn<'_>,
    index: u16,
    query: &[f32],
    candidates: &ChunkSet,
    limit: usize,
) -> Result<Vec<(ChunkId, f32)>> {
    let writer = arroy::Writer::<Cosine>::new(dbs.vectors, index, query.len());
    let mut scored = Vec::with_capacity(candidates.len() as usize);
    for id in candidates.iter() {
        if let Some(v) = writer.item_vector(rtxn, id.get())? {
            scored.push((id, dot(query, &v)));
        }
    }
    scored.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    scored.truncate(limit);
    Ok(scored)
}

/// Dot product of two equally long slices.
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}
