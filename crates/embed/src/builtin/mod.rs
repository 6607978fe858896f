//! The builtin embedder: all-MiniLM-L6-v2 run in-process with candle.
//!
//! all-MiniLM-L6-v2 is a 6-layer, 384-wide BERT (MiniLM) fine-tuned as a
//! Sentence-BERT bi-encoder (Reimers and Gurevych, "Sentence-BERT", EMNLP 2019;
//! model card <https://huggingface.co/sentence-transformers/all-MiniLM-L6-v2>).
//! Its sentence-transformers pipeline is: WordPiece tokenisation truncated at
//! 256 tokens, BERT, mean pooling over the attention mask, L2 normalisation.
//! We reproduce exactly that with `candle_transformers::models::bert::BertModel`
//! on the CPU. Nothing is fetched at run time: `scripts/fetch-models.sh`
//! installs the weights.

pub(crate) mod locate;

use std::path::{Path, PathBuf};

use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;
use candle_transformers::models::bert::{BertModel, Config};
use tokenizers::{PaddingParams, PaddingStrategy, Tokenizer, TruncationParams};

use crate::{EmbedError, Embedder, EmbedderId, InputKind};

/// Model name recorded in the [`EmbedderId`].
pub const BUILTIN_MODEL: &str = "all-MiniLM-L6-v2";
/// Output dimensions of all-MiniLM-L6-v2.
pub const BUILTIN_DIMENSIONS: usize = 384;
/// Longest input in word pieces, special tokens included; longer texts are
/// truncated (the model card's `max_seq_length`).
pub const BUILTIN_MAX_TOKENS: usize = 256;
/// Texts per forward pass by default; each batch is padded to its own
/// longest text. With one pass per core, 16 beat 8 and 32 (200 handbook
/// texts, 2 cores: 10.7, 12.8 and 11.7 chunks/s).
const MAX_BATCH: usize = 16;
/// Most forward passes run at once by default (one per core, at most this).
const MAX_WORKERS: usize = 4;

/// all-MiniLM-L6-v2 on the CPU: 384-dimensional unit vectors, inputs truncated
/// at 256 word pieces, English only. Provider id `builtin`, no prefixes.
pub struct BuiltinEmbedder {
    model: BertModel,
    max_batch: usize,
    /// One single-threaded rayon pool per worker: a call with several
    /// batches runs one forward pass per worker at once (data parallel),
    /// instead of splitting each matrix product over all cores.
    workers: Vec<rayon::ThreadPool>,
    tokenizer: Tokenizer,
    id: EmbedderId,
    dir: PathBuf,
}

impl std::fmt::Debug for BuiltinEmbedder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BuiltinEmbedder").field("id", &self.id).field("dir", &self.dir).finish_non_exhaustive()
    }
}

impl BuiltinEmbedder {
    /// Loads the model from `model_dir`, or else from the first of
    /// `$ALMIRAH_MODEL_DIR`, `<exe dir>/../../models/all-MiniLM-L6-v2`,
    /// `<exe dir>/../../../models/all-MiniLM-L6-v2` and the source tree's
    /// `models/all-MiniLM-L6-v2`. An explicit `model_dir` or a set
    /// `$ALMIRAH_MODEL_DIR` is authoritative (no fallback).
    /// Reads about 91 MB of weights.
    ///
    /// # Errors
    /// [`EmbedError::ModelMissing`] (naming `scripts/fetch-models.sh`) when no
    /// folder has `model.safetensors`, `tokenizer.json` and `config.json`;
    /// [`EmbedError::Model`] when they cannot be parsed.
    pub fn load(model_dir: Option<&Path>) -> Result<Self, EmbedError> {
        let dir = locate::model_dir(model_dir, &locate::MINILM)?;
        let config = read_config(&dir)?;
        let tokenizer = load_tokenizer(&dir)?;
        let weights = std::fs::read(dir.join("model.safetensors")).map_err(model_err)?;
        let vb = VarBuilder::from_buffered_safetensors(weights, DType::F32, &Device::Cpu).map_err(model_err)?;
        let model = BertModel::load(vb, &config).map_err(model_err)?;
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        let workers = worker_pools(cores.min(MAX_WORKERS))?;
        Ok(Self { model, max_batch: MAX_BATCH, workers, tokenizer, id: builtin_id(), dir })
    }

    /// The same model with `workers` forward passes at once (at least 1;
    /// 1 splits each pass over every core, as candle does by default).
    ///
    /// # Errors
    /// [`EmbedError::Model`] when a worker thread cannot be started.
    pub fn with_workers(mut self, workers: usize) -> Result<Self, EmbedError> {
        self.workers = worker_pools(workers)?;
        Ok(self)
    }

    /// The same model with at most `max_batch` texts per forward pass (at least 1).
    pub fn with_max_batch(mut self, max_batch: usize) -> Self {
        self.max_batch = max_batch.max(1);
        self
    }

    /// The folder the model was loaded from.
    pub fn model_dir(&self) -> &Path {
        &self.dir
    }

    /// One forward pass over at most `max_batch` texts.
    fn embed_batch(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
        let encodings = self.tokenizer.encode_batch(texts.to_vec(), true).map_err(model_err)?;
        let len = encodings.first().map_or(0, |e| e.get_ids().len());
        let mut ids = Vec::with_capacity(texts.len() * len);
        let mut mask = Vec::with_capacity(texts.len() * len);
        for enc in &encodings {
            ids.extend_from_slice(enc.get_ids());
            mask.extend_from_slice(enc.get_attention_mask());
        }
        let shape = (encodings.len(), len);
        let ids = Tensor::from_vec(ids, shape, &Device::Cpu).map_err(model_err)?;
        let mask = Tensor::from_vec(mask, shape, &Device::Cpu).map_err(model_err)?;
        self.pool(&ids, &mask).map_err(model_err)
    }

    /// The word pieces of `text` (without `[CLS]` and `[SEP]`, truncated at
    /// [`BUILTIN_MAX_TOKENS`]) with BERT's last hidden state for each, L2-normalised
    /// (384 dimensions): contextual token vectors, for comparing texts piece
    /// by piece (late interaction; Khattab and Zaharia, "ColBERT", SIGIR 2020).
    ///
    /// # Errors
    /// [`EmbedError::Model`] when tokenising or the forward pass fails.
    pub fn token_vectors(&self, text: &str) -> Result<Vec<(String, Vec<f32>)>, EmbedError> {
        let enc = self.tokenizer.encode(text, true).map_err(model_err)?;
        let ids =
            Tensor::from_vec(enc.get_ids().to_vec(), (1, enc.get_ids().len()), &Device::Cpu).map_err(model_err)?;
        let mask = ids.ones_like().map_err(model_err)?;
        let hidden = self.model.forward(&ids, &ids.zeros_like().map_err(model_err)?, Some(&mask)).map_err(model_err)?;
        let hidden = hidden.squeeze(0).map_err(model_err)?;
        let norms = hidden
            .sqr()
            .and_then(|h| h.sum_keepdim(1))
            .and_then(|h| h.sqrt())
            .and_then(|h| h.clamp(1e-12, f32::MAX))
            .map_err(model_err)?;
        let rows = hidden.broadcast_div(&norms).and_then(|h| h.to_vec2::<f32>()).map_err(model_err)?;
        let tokens = enc.get_tokens();
        Ok(tokens
            .iter()
            .zip(rows)
            .filter(|(t, _)| !matches!(t.as_str(), "[CLS]" | "[SEP]" | "[PAD]"))
            .map(|(t, v)| (t.clone(), v))
            .collect())
    }

    /// BERT, then mean pooling over the attention mask, then L2 normalisation.
    fn pool(&self, ids: &Tensor, mask: &Tensor) -> candle_core::Result<Vec<Vec<f32>>> {
        let types = ids.zeros_like()?;
        let hidden = self.model.forward(ids, &types, Some(mask))?;
        let mask = mask.to_dtype(DType::F32)?.unsqueeze(2)?;
        let summed = hidden.broadcast_mul(&mask)?.sum(1)?;
        let counts = mask.sum(1)?.clamp(1e-9, f32::MAX)?;
        let mean = summed.broadcast_div(&counts)?;
        let norms = mean.sqr()?.sum_keepdim(1)?.sqrt()?.clamp(1e-12, f32::MAX)?;
        mean.broadcast_div(&norms)?.to_vec2::<f32>()
    }
}

impl Embedder for BuiltinEmbedder {
    fn id(&self) -> &EmbedderId {
        &self.id
    }

    /// Texts per call: one forward pass of 16 texts (or the
    /// configured limit) for each worker, so a caller that splits its texts
    /// by this keeps every worker busy (a call of one pass's worth ran a
    /// single pass split over the cores, the slower shape).
    fn max_batch(&self) -> usize {
        self.max_batch * self.workers.len().max(1)
    }

    /// Texts are batched by similar length (sorted; padding at most 1.25x), so a short
    /// chunk is not padded to the longest one in the call; vectors come back
    /// in input order.
    fn embed(&self, texts: &[&str], _kind: InputKind) -> Result<Vec<Vec<f32>>, EmbedError> {
        let batches = length_batches(texts, self.max_batch);
        let embedded = if self.workers.len() > 1 && batches.len() > 1 {
            self.embed_parallel(texts, &batches)
        } else {
            batches.iter().map(|b| self.embed_indices(texts, b)).collect()
        };
        let mut out: Vec<Option<Vec<f32>>> = vec![None; texts.len()];
        for (batch, vectors) in batches.iter().zip(embedded?) {
            for (&i, v) in batch.iter().zip(vectors) {
                out[i] = Some(v);
            }
        }
        out.into_iter().collect::<Option<Vec<_>>>().ok_or_else(|| EmbedError::Protocol("a text got no vector".into()))
    }
}

impl BuiltinEmbedder {
    /// One forward pass over `texts[batch]`, one vector per index.
    fn embed_indices(&self, texts: &[&str], batch: &[usize]) -> Result<Vec<Vec<f32>>, EmbedError> {
        let batch_texts: Vec<&str> = batch.iter().map(|&i| texts[i]).collect();
        let vectors = self.embed_batch(&batch_texts)?;
        if vectors.len() != batch.len() {
            return Err(EmbedError::Protocol(format!("{} vectors for {} texts", vectors.len(), batch.len())));
        }
        Ok(vectors)
    }

    /// The batches spread over the workers, each taking the next batch
    /// not yet taken (longest last, as sorted); results in batch order.
    fn embed_parallel(&self, texts: &[&str], batches: &[Vec<usize>]) -> Result<Vec<Vec<Vec<f32>>>, EmbedError> {
        let next = std::sync::atomic::AtomicUsize::new(0);
        let results: Vec<Vec<BatchVectors>> = std::thread::scope(|scope| {
            let handles: Vec<_> = self
                .workers
                .iter()
                .map(|pool| {
                    let next = &next;
                    scope.spawn(move || {
                        pool.install(|| {
                            let mut done = Vec::new();
                            loop {
                                let b = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                                let Some(batch) = batches.get(b) else { return done };
                                done.push((b, self.embed_indices(texts, batch)));
                            }
                        })
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap_or_default()).collect()
        });
        let mut ordered: Vec<Option<Vec<Vec<f32>>>> = vec![None; batches.len()];
        for (b, result) in results.into_iter().flatten() {
            ordered[b] = Some(result?);
        }
        ordered
            .into_iter()
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| EmbedError::Model("an embedding worker stopped".into()))
    }
}

/// A batch's index and its vectors (or the error of its forward pass).
type BatchVectors = (usize, Result<Vec<Vec<f32>>, EmbedError>);

/// `n` (at least 1) single-threaded rayon pools.
fn worker_pools(n: usize) -> Result<Vec<rayon::ThreadPool>, EmbedError> {
    (0..n.max(1))
        .map(|w| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(1)
                .thread_name(move |_| format!("almirah-embed-{w}"))
                .build()
                .map_err(model_err)
        })
        .collect()
}

/// Most padding a batch may carry: its padded size (longest × count) stays
/// within this factor of the texts' own total length, plus [`PADDING_ALLOWANCE`].
const PADDING_SLACK: f64 = 1.25;
/// Padding always allowed, in bytes (about 16 word pieces of English), so short texts still share a batch.
const PADDING_ALLOWANCE: f64 = 64.0;

/// Group text indices into batches of similar length: sorted by length
/// (UTF-8 bytes, a proxy for word pieces), a batch closes at `max_batch`
/// texts or when padding every text to the longest would exceed
/// [`PADDING_SLACK`]. BERT's cost grows with the padded length (attention
/// is quadratic in it), so a 60-character leftover chunk batched with
/// 1,200-character chunks cost as much as one of them.
pub(crate) fn length_batches(texts: &[&str], max_batch: usize) -> Vec<Vec<usize>> {
    let mut order: Vec<usize> = (0..texts.len()).collect();
    order.sort_by_key(|&i| texts[i].len());
    let mut batches: Vec<Vec<usize>> = Vec::new();
    let mut current: Vec<usize> = Vec::new();
    let mut total = 0usize;
    for i in order {
        let len = texts[i].len().max(1);
        let padded = len * (current.len() + 1);
        let full = current.len() >= max_batch.max(1);
        if !current.is_empty() && (full || padded as f64 > PADDING_SLACK * (total + len) as f64 + PADDING_ALLOWANCE) {
            batches.push(std::mem::take(&mut current));
            total = 0;
        }
        current.push(i);
        total += len;
    }
    if !current.is_empty() {
        batches.push(current);
    }
    batches
}

fn builtin_id() -> EmbedderId {
    EmbedderId {
        provider: "builtin".into(),
        model: BUILTIN_MODEL.into(),
        dimensions: BUILTIN_DIMENSIONS,
        document_prefix: String::new(),
        query_prefix: String::new(),
    }
}

fn read_config(dir: &Path) -> Result<Config, EmbedError> {
    let text = std::fs::read_to_string(dir.join("config.json")).map_err(model_err)?;
    let config: Config = serde_json::from_str(&text).map_err(model_err)?;
    if config.hidden_size != BUILTIN_DIMENSIONS {
        return Err(EmbedError::Model(format!(
            "{} has hidden size {}, expected {BUILTIN_DIMENSIONS}",
            dir.display(),
            config.hidden_size
        )));
    }
    Ok(config)
}

/// The tokenizer with truncation at 256 word pieces and per-batch padding (the
/// shipped tokenizer.json pads and truncates to a fixed 128).
fn load_tokenizer(dir: &Path) -> Result<Tokenizer, EmbedError> {
    let mut tokenizer = Tokenizer::from_file(dir.join("tokenizer.json")).map_err(model_err)?;
    let truncation = TruncationParams { max_length: BUILTIN_MAX_TOKENS, ..Default::default() };
    tokenizer.with_truncation(Some(truncation)).map_err(model_err)?;
    let padding = PaddingParams { strategy: PaddingStrategy::BatchLongest, ..Default::default() };
    tokenizer.with_padding(Some(padding));
    Ok(tokenizer)
}

fn model_err(e: impl std::fmt::Display) -> EmbedError {
    EmbedError::Model(e.to_string())
}

#[cfg(test)]
mod tests;
