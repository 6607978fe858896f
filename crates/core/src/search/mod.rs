//! The read path (milli's `search/`): BM25 and vector search over the same
//! candidate bitmap, fused with RRF. Takes a read transaction and cannot write.

pub mod bm25;
pub mod romanized;
pub mod rrf;
pub mod vector;

use std::time::Instant;

use almirah_embed::{Embedder, InputKind};
use heed::RoTxn;
use serde::Serialize;

pub use vector::{VectorParams, VectorStrategy};

use crate::error::{Error, Result};
use crate::freshness::Verdict;
use crate::ids::{ChunkId, ChunkSet, DocId};
use crate::store::Databases;
use crate::text::Tokenizer;

/// Which rankers run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SearchMode {
    /// BM25 and vectors, fused with RRF.
    #[default]
    Hybrid,
    /// BM25 only (no query embedding).
    Bm25,
    /// Vectors only.
    Vector,
}

/// Options of one search.
#[derive(Debug, Clone, Copy)]
pub struct SearchOptions {
    /// Which rankers run.
    pub mode: SearchMode,
    /// Hits returned.
    pub k: usize,
    /// Candidates taken from each ranker before fusion (default 50).
    pub depth: usize,
    /// Vector-only hits below this cosine similarity are dropped (default
    /// 0.25, on all-MiniLM-L6-v2's scale; mapped for other builtin embedders).
    pub min_similarity: f32,
    /// The vector search plan: exact, binary shortlist rescored, or arroy.
    pub vector: VectorParams,
}

impl Default for SearchOptions {
    fn default() -> Self {
        Self { mode: SearchMode::Hybrid, k: 10, depth: 50, min_similarity: 0.25, vector: VectorParams::default() }
    }
}

/// Where a hit stood in one ranker.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct RankScore {
    /// 1-based rank.
    pub rank: usize,
    /// BM25 score, or cosine similarity for vectors (on all-MiniLM-L6-v2's
    /// scale: another builtin embedder's cosine is mapped by its
    /// `almirah_embed::Calibration`).
    pub score: f32,
}

/// One search result, explaining itself.
#[derive(Debug, Clone, Serialize)]
pub struct Hit {
    /// Chunk id.
    pub chunk_id: ChunkId,
    /// Readable chunk key.
    pub key: String,
    /// Document id.
    pub doc_id: DocId,
    /// Document title.
    pub title: String,
    /// Source path.
    pub path: String,
    /// What the document was read as (`csv` rows come from a table).
    pub kind: almirah_extract::FileKind,
    /// Headings above the chunk.
    pub heading_path: Vec<String>,
    /// Pages, for PDFs.
    pub pages: Option<(u32, u32)>,
    /// The text.
    pub text: String,
    /// Fused RRF score.
    pub score: f32,
    /// BM25 rank and score, if BM25 found it.
    pub bm25: Option<RankScore>,
    /// Vector rank and cosine similarity, if the vector search found it.
    pub vector: Option<RankScore>,
    /// The gate's verdict (admissible for every hit a search returns;
    /// withheld only in the notes' bounded second search).
    pub verdict: Verdict,
    /// How the text was read, when a reader should know: "read by OCR
    /// (eng+hin), page 1, confidence 93%", with a warning below the floor.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_note: Option<String>,
}

/// Hits and how they were found.
#[derive(Debug, Clone, Serialize)]
pub struct SearchResults {
    /// Best first.
    pub hits: Vec<Hit>,
    /// Chunks the search ran over.
    pub candidates: u64,
    /// How the vector search ran.
    pub vector_strategy: VectorStrategy,
    /// Time spent, in ms.
    pub elapsed_ms: f64,
}

/// What one search runs over: the chunks it may rank, and the chunks BM25's
/// corpus statistics count (the user's visible set; see [`bm25`]).
#[derive(Debug, Clone, Copy)]
pub struct Scope<'a> {
    /// Chunks that may be ranked and returned.
    pub candidates: &'a ChunkSet,
    /// Chunks whose terms count in `N` and `df` (a superset of `candidates`).
    pub visible: &'a ChunkSet,
}

/// Search the scope's candidates for `query`. Hits carry an admissible
/// verdict without a mark; the caller (the read snapshot) sets the real one.
///
/// # Errors
/// Embedder errors for the query, LMDB and arroy errors.
pub fn search(
    dbs: &Databases,
    rtxn: &RoTxn<'_>,
    embedder: &dyn Embedder,
    vector_index: u16,
    query: &str,
    scope: Scope<'_>,
    opts: &SearchOptions,
) -> Result<SearchResults> {
    search_embedded(dbs, rtxn, embedder, vector_index, query, None, scope, opts)
}

/// [`search`] with the query's embedding already computed
/// (`query_vector`, the embedder's dimensions; [`embed_query`]), so two
/// searches of one query (the admissible chunks, then the withheld ones
/// for the notes) embed it once; `None` embeds it here when the mode
/// needs it.
///
/// # Errors
/// As [`search`].
#[allow(clippy::too_many_arguments)]
pub fn search_embedded(
    dbs: &Databases,
    rtxn: &RoTxn<'_>,
    embedder: &dyn Embedder,
    vector_index: u16,
    query: &str,
    query_vector: Option<&[f32]>,
    scope: Scope<'_>,
    opts: &SearchOptions,
) -> Result<SearchResults> {
    let candidates = scope.candidates;
    let started = Instant::now();
    let tokenizer = Tokenizer::default();
    let keyword = match opts.mode {
        SearchMode::Vector => Vec::new(),
        _ => bm25::search(dbs, rtxn, &tokenizer, query, candidates, scope.visible, opts.depth)?,
    };
    let (semantic, strategy) = match opts.mode {
        SearchMode::Bm25 => (Vec::new(), VectorStrategy::Exact),
        _ => {
            let qv = match query_vector {
                Some(v) => std::borrow::Cow::Borrowed(v),
                None => std::borrow::Cow::Owned(embed_query(
                    embedder,
                    &vector_query(dbs, rtxn, embedder, query, scope.visible)?,
                )?),
            };
            vector::search(dbs.vector_dbs(), rtxn, vector_index, &qv, candidates, opts.depth, opts.vector)?
        }
    };
    let keyword_ids: Vec<ChunkId> = keyword.iter().map(|h| h.0).collect();
    // Cosines are reported on all-MiniLM-L6-v2's scale, which the floor and
    // every threshold downstream are written on: another builtin embedder's
    // cosines run higher and are mapped by its `Calibration` (increasing, so
    // the order is kept).
    let scale = almirah_embed::Calibration::of(embedder.id());
    let semantic: Vec<(ChunkId, f32)> = semantic
        .into_iter()
        .map(|(id, sim)| (id, scale.to_reference(sim)))
        .filter(|(id, sim)| *sim >= opts.min_similarity || keyword_ids.contains(id))
        .collect();
    let semantic_ids: Vec<ChunkId> = semantic.iter().map(|h| h.0).collect();
    // Chunks still waiting for a vector (two-phase ingest) are not buried
    // by the chunks that have one.
    let waiting = match opts.mode {
        SearchMode::Hybrid => crate::store::pending_vectors(dbs, rtxn)?,
        _ => ChunkSet::default(),
    };
    // A keyword hit holding a number the query gives ("status code 413",
    // "circular 2.1.82") that the vector list did not rank keeps its keyword
    // rank for both lists: embeddings do not tell one number from another
    // (Sciavolino et al., "Simple Entity-Centric Questions Challenge Dense
    // Retrievers", EMNLP 2021), so the vector list's silence says nothing.
    let numbered = match opts.mode {
        SearchMode::Hybrid => holding_query_numbers(dbs, rtxn, &tokenizer, query)?,
        _ => ChunkSet::default(),
    };
    let fused = rrf::fuse_imputed(&[&keyword_ids, &semantic_ids], |id| {
        waiting.contains(id) || (numbered.contains(id) && !semantic_ids.contains(&id))
    });
    let mut hits = Vec::with_capacity(opts.k);
    for (id, score) in fused.into_iter().take(opts.k) {
        let bm25 = rank_of(&keyword, id);
        let vector = rank_of(&semantic, id);
        if let Some(hit) = load_hit(dbs, rtxn, id, score, bm25, vector)? {
            hits.push(hit);
        }
    }
    let elapsed_ms = started.elapsed().as_secs_f64() * 1000.0;
    Ok(SearchResults { hits, candidates: candidates.len(), vector_strategy: strategy, elapsed_ms })
}

/// The text the vector search embeds for `query`: for the builtin
/// multilingual embedder, a romanized Hindi query with the words no
/// chunk of `admissible` holds (by their BM25 terms) in Devanagari
/// ([`romanized::transliterated`]); otherwise `query` as typed. Only the
/// chunks in force that the user may see count, so neither a hidden nor an
/// out-of-date document's words change a query.
///
/// # Errors
/// LMDB errors reading the postings.
pub fn vector_query<'q>(
    dbs: &Databases,
    rtxn: &RoTxn<'_>,
    embedder: &dyn Embedder,
    query: &'q str,
    admissible: &ChunkSet,
) -> Result<std::borrow::Cow<'q, str>> {
    let id = embedder.id();
    if id.provider != "builtin"
        || id.model != almirah_embed::MULTILINGUAL_MODEL
        || !romanized::is_romanized_hindi(query)
    {
        return Ok(std::borrow::Cow::Borrowed(query));
    }
    let tokenizer = Tokenizer::default();
    let mut known = std::collections::HashSet::new();
    for word in romanized::words(query) {
        let word = word.to_lowercase();
        let mut held = false;
        for term in tokenizer.terms(&word) {
            held |=
                dbs.postings.get(rtxn, &term)?.is_some_and(|p| p.bitmap().intersection_len(admissible.bitmap()) > 0);
        }
        if held {
            known.insert(word);
        }
    }
    let text = romanized::transliterated(query, |w| known.contains(w));
    Ok(text.map_or(std::borrow::Cow::Borrowed(query), std::borrow::Cow::Owned))
}

/// The query's embedding (the embedder's dimensions, unit length).
///
/// # Errors
/// Embedder errors; an embedder that returns no vector.
pub fn embed_query(embedder: &dyn Embedder, query: &str) -> Result<Vec<f32>> {
    embedder
        .embed(&[query], InputKind::Query)?
        .pop()
        .ok_or_else(|| Error::Embed(almirah_embed::EmbedError::Protocol("no query vector".into())))
}

fn rank_of(list: &[(ChunkId, f32)], id: ChunkId) -> Option<RankScore> {
    list.iter().position(|h| h.0 == id).map(|i| RankScore { rank: i + 1, score: list[i].1 })
}

/// The title a document is shown with: its metadata's (front matter, a
/// sidecar or an override, else the extracted one), when it has one.
///
/// # Errors
/// LMDB errors.
pub(crate) fn shown_title(dbs: &Databases, rtxn: &RoTxn<'_>, doc: DocId) -> Result<Option<String>> {
    let Some(mut meta) = dbs.doc_meta.get(rtxn, &doc)? else { return Ok(None) };
    if let Some(o) = dbs.overrides.get(rtxn, &doc)? {
        crate::freshness::overrides::apply(&mut meta, &o);
    }
    Ok(meta.title.map(|t| t.value))
}

pub(crate) fn load_hit(
    dbs: &Databases,
    rtxn: &RoTxn<'_>,
    id: ChunkId,
    score: f32,
    bm25: Option<RankScore>,
    vector: Option<RankScore>,
) -> Result<Option<Hit>> {
    let Some(chunk) = dbs.chunks.get(rtxn, &id)? else {
        return Ok(None);
    };
    let doc = dbs.documents.get(rtxn, &chunk.doc_id)?;
    let kind = doc.as_ref().map_or(almirah_extract::FileKind::Text, |d| d.kind);
    let source_note = doc.as_ref().and_then(|d| d.ocr.as_ref()).map(|r| ocr_note(r, chunk.pages));
    let (title, path) = doc.map(|d| (d.title, d.path)).unwrap_or_default();
    let title = shown_title(dbs, rtxn, chunk.doc_id)?.unwrap_or(title);
    Ok(Some(Hit {
        chunk_id: id,
        key: chunk.key,
        doc_id: chunk.doc_id,
        title,
        path,
        kind,
        heading_path: chunk.heading_path,
        pages: chunk.pages,
        text: chunk.text,
        score,
        bm25,
        vector,
        verdict: Verdict::Admissible { mark: None },
        source_note,
    }))
}

/// The note on a chunk of a document read by OCR: its pages' confidence,
/// and a warning when one is below the report's floor.
pub fn ocr_note(report: &almirah_extract::ocr::OcrReport, pages: Option<(u32, u32)>) -> String {
    let (first, last) = pages.unwrap_or((1, 1));
    let confidences: Vec<f32> = (first..=last).filter_map(|p| report.page_confidence(p)).collect();
    let lowest = confidences.iter().copied().fold(f32::INFINITY, f32::min);
    let at = if first == last { format!("page {first}") } else { format!("pages {first}-{last}") };
    if !lowest.is_finite() {
        return format!("read by OCR ({})", report.languages);
    }
    if lowest < report.min_confidence {
        return format!(
            "read by OCR ({}) with low confidence ({lowest:.0}%) on {at}: check the scan",
            report.languages
        );
    }
    format!("read by OCR ({}), {at}, confidence {lowest:.0}%", report.languages)
}

/// The chunks holding a number of the query: a term of three or more
/// digits (with `.` or `,` inside: "413", "2.1.82", "48,500") that is not a
/// year (1900-2099, which the router reads as the as-of time).
///
/// # Errors
/// LMDB errors.
fn holding_query_numbers(dbs: &Databases, rtxn: &RoTxn<'_>, tokenizer: &Tokenizer, query: &str) -> Result<ChunkSet> {
    let mut out = ChunkSet::default();
    for term in tokenizer.terms(query) {
        let digits = term.chars().filter(char::is_ascii_digit).count();
        let numeric = term.chars().all(|c| c.is_ascii_digit() || c == '.' || c == ',');
        let year = term.len() == 4 && (term.starts_with("19") || term.starts_with("20"));
        if digits < 3 || !numeric || year {
            continue;
        }
        if let Some(postings) = dbs.postings.get(rtxn, &term)? {
            out.union_with(&postings);
        }
    }
    Ok(out)
}
