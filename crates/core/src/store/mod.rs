//! One LMDB environment per library, every database declared here
//! (ARCHITECTURE §3; milli's `Index` struct). Reads take a [`heed::RoTxn`],
//! writes go through [`crate::update`], which owns the only write transaction.
//!
//! The write capability is the compiler's to guard: `Store::write` (the one
//! way to the writer thread) and the environment are private to this crate,
//! and so is every function of the crate that writes through them. Code
//! outside the core (answer, server, CLI, desktop app) that holds a
//! [`Store`] can open read transactions and nothing else; it changes a
//! library only through the [`crate::Engine`]'s operations.

mod codec;
pub mod dump;
mod fs_check;
pub mod gate_inputs;
pub mod gate_records;
pub mod health;
mod records;
mod upgrade;
mod writer;

use std::path::{Path, PathBuf};

use arroy::distances::Cosine;
use heed::byteorder::BigEndian;
use heed::types::{Bytes, SerdeBincode, SerdeJson, Str, U32};
use heed::{CommitOrAbort, Env, EnvOpenOptions, RoTxn, WithoutTls};

pub use codec::{MAX_TERM_BYTES, RoaringCodec, cache_key, term_chunk_key, vector_from_bytes, vector_to_bytes};
pub use fs_check::{FsClass, classify_filesystem, classify_path, filesystem_class};
pub use records::{ChunkRecord, ChunkTerms, DocumentRecord, FileRecord, FileStatus};

use crate::error::{Error, Result};
use crate::ids::{ChunkId, ChunkSet, DocId, IdCodec, IdSetCodec};

/// On-disk format version. Bump it with an upgrade step for every layout change.
pub const FORMAT_VERSION: u32 = 10;
/// Version of the BM25 tokenizer; a change forces a keyword-index rebuild.
pub const TOKENIZER_VERSION: u32 = 1;

/// Address space reserved for the map on Unix, in bytes (sparse: the file only
/// grows as data is written, so other processes never see `MDB_MAP_RESIZED`).
pub const DEFAULT_MAP_SIZE: usize = 1 << 40;

/// Keys of the `meta` database.
pub mod meta_keys {
    /// Format version (u32 JSON).
    pub const FORMAT_VERSION: &str = "format-version";
    /// Tokenizer version (u32 JSON).
    pub const TOKENIZER_VERSION: &str = "tokenizer-version";
    /// Embedder identity ([`almirah_embed::EmbedderId`] JSON).
    pub const EMBEDDER: &str = "embedder";
    /// arroy index in use (u16 JSON).
    pub const VECTOR_INDEX: &str = "vector-index";
    /// Next internal document id (u32 JSON).
    pub const NEXT_DOC_ID: &str = "next-doc-id";
    /// Next chunk id (u32 JSON).
    pub const NEXT_CHUNK_ID: &str = "next-chunk-id";
    /// Total BM25 token count over all chunks (u64 JSON).
    pub const BM25_TOTAL_LEN: &str = "bm25-total-len";
    /// Folders indexed so far (list of paths, JSON).
    pub const ROOTS: &str = "roots";
}

/// Facet holding every chunk id.
pub const FACET_ALL: &str = "all";

/// Every database of the library.
#[derive(Clone, Copy)]
pub struct Databases {
    /// Settings and identity, see [`meta_keys`].
    pub meta: heed::Database<'static, Str, SerdeJson<serde_json::Value>>,
    /// Absolute path → [`FileRecord`].
    pub files: heed::Database<'static, Str, SerdeJson<FileRecord>>,
    /// Document id → [`DocumentRecord`].
    pub documents: heed::Database<'static, IdCodec<DocId>, SerdeJson<DocumentRecord>>,
    /// Chunk id → [`ChunkRecord`].
    pub chunks: heed::Database<'static, IdCodec<ChunkId>, SerdeBincode<ChunkRecord>>,
    /// Readable chunk key → chunk id (chunk keys only, never document keys).
    pub chunk_keys: heed::Database<'static, Str, IdCodec<ChunkId>>,
    /// Readable document key → document id (since format v2).
    pub doc_keys: heed::Database<'static, Str, IdCodec<DocId>>,
    /// BM25 postings: term → chunk ids (the document frequency counts
    /// these against the visible chunks; the impact lists hold the same ids).
    pub postings: heed::Database<'static, Str, IdSetCodec<ChunkId>>,
    /// Empty since format v10 (the impact lists, [`Databases::term_impacts`],
    /// hold the term frequencies); up to v9, `(term, chunk)` key (see
    /// [`term_chunk_key`]) → count. Read only by the v9 → v10 upgrade step.
    pub term_freqs: heed::Database<'static, Bytes, U32<BigEndian>>,
    /// Chunk id → its length and distinct terms (what removing a chunk
    /// takes out of the postings and impact lists).
    pub chunk_terms: heed::Database<'static, IdCodec<ChunkId>, SerdeBincode<ChunkTerms>>,
    /// Facet (`all`, `doc:<id>`, `kind:<kind>`) → chunk ids.
    pub facets: heed::Database<'static, Str, IdSetCodec<ChunkId>>,
    /// Embedding cache: [`cache_key`] → little-endian f32 vector.
    pub embed_cache: heed::Database<'static, Bytes, Bytes>,
    /// Tables of CSV files and spreadsheets: document id → its tables (one
    /// per sheet; a single table object before format v6).
    pub tables: heed::Database<'static, IdCodec<DocId>, SerdeJson<Vec<almirah_extract::Table>>>,
    /// arroy vectors (cosine), item id = chunk id.
    pub vectors: arroy::Database<'static, Cosine>,
    /// Document id → metadata with provenance (read per query by the gate).
    pub doc_meta: heed::Database<'static, IdCodec<DocId>, SerdeJson<crate::freshness::DocMeta>>,
    /// Empty since format v10 (each impact-list entry carries its chunk's
    /// length); up to v9, chunk id → its length in BM25 tokens. Read only by
    /// the v9 → v10 upgrade step.
    pub chunk_lens: heed::Database<'static, IdCodec<ChunkId>, U32<BigEndian>>,
    /// Document id → user overrides (field → value), applied at query time.
    pub overrides: heed::Database<'static, IdCodec<DocId>, SerdeJson<std::collections::BTreeMap<String, String>>>,
    /// Runtime health (`watch` → the watcher's queue, last reconcile, folder
    /// modes). Not library content: the logical dump leaves it out.
    pub health: heed::Database<'static, Str, SerdeJson<serde_json::Value>>,
    /// OCR cache (since format v4): page content key
    /// ([`almirah_extract::ocr::PageKey`], 64 hex chars) → recognised text
    /// and confidence. Like the embedding cache, never pruned by deletes.
    pub ocr_cache: heed::Database<'static, Str, SerdeJson<almirah_extract::ocr::OcrPage>>,
    /// The embedding queue (since format v5): under [`VECTOR_QUEUE_PENDING`],
    /// the chunks whose text and BM25 postings are committed but whose vector
    /// is not yet in arroy. The writer adds a chunk here in the same
    /// transaction as its text; the backfill removes it with its vector.
    pub vector_queue: heed::Database<'static, Str, IdSetCodec<ChunkId>>,
    /// The gate's per-document records (since format v7): document id →
    /// [`crate::freshness::record`] layout, kept by the writer in the same
    /// transaction as the metadata, overrides and chunks they derive from
    /// ([`gate_records`]). Building a gate reads only these.
    pub gate_docs: heed::Database<'static, IdCodec<DocId>, Bytes>,
    /// The failed-files set (since format v7): path → why a file that serves
    /// no document could not be read ([`gate_records::FailedFile`]).
    pub gate_failed: heed::Database<'static, Str, SerdeBincode<gate_records::FailedFile>>,
    /// The gate state (since format v8): under [`GATE_STATE`], every document's status
    /// record with references resolved and series ranked
    /// ([`crate::freshness::records::StatusRecords::encode`]), rebuilt by the
    /// writer in every transaction that changes a gate record, so the first
    /// gate after a commit decodes it instead of resolving references.
    pub gate_state: heed::Database<'static, Str, Bytes>,
    /// The vector blocks (since format v9): every vector of the library
    /// (f32, the one copy) with its binary code, in blocks laid out for
    /// scanning ([`crate::vectors`]), written in the same transaction as the
    /// chunks. [`Databases::vectors`] (arroy) is empty from v9 on.
    pub vector_codes: crate::vectors::CodeDb,
    /// The BM25 impact lists (since format v10): term → every chunk that
    /// holds it, ascending, with the term's frequency and the chunk's length
    /// in tokens, varint-coded ([`crate::impacts`]). A query reads one value
    /// per term. Kept by the writer next to the postings, in the same
    /// transaction as the chunks.
    pub term_impacts: crate::impacts::ImpactDb,
}

impl Databases {
    /// The vector stores a vector search reads.
    pub fn vector_dbs(&self) -> crate::vectors::VectorDbs {
        crate::vectors::VectorDbs { items: self.vectors, codes: self.vector_codes }
    }
}

/// Key of the one entry of [`Databases::gate_state`].
pub const GATE_STATE: &str = "state";

/// Key of [`Databases::vector_queue`] holding the chunks waiting for a vector.
pub const VECTOR_QUEUE_PENDING: &str = "pending";

/// The chunks waiting for a vector, in `txn`.
///
/// # Errors
/// LMDB errors.
pub fn pending_vectors(dbs: &Databases, txn: &RoTxn<'_>) -> Result<ChunkSet> {
    Ok(dbs.vector_queue.get(txn, VECTOR_QUEUE_PENDING)?.unwrap_or_default())
}

/// Store `queue` as the chunks waiting for a vector (an empty queue is deleted).
///
/// # Errors
/// LMDB errors.
pub fn put_pending_vectors(dbs: &Databases, wtxn: &mut heed::RwTxn<'_>, queue: &ChunkSet) -> Result<()> {
    if queue.is_empty() {
        dbs.vector_queue.delete(wtxn, VECTOR_QUEUE_PENDING)?;
    } else {
        dbs.vector_queue.put(wtxn, VECTOR_QUEUE_PENDING, queue)?;
    }
    Ok(())
}

/// An open library. Reads open their own transactions ([`Store::read_txn`]);
/// every write is an operation for the one writer thread (`Store::write`,
/// which only the core can call).
pub struct Store {
    // Dropped first: the writer thread finishes its queue before the env closes.
    writer: writer::Writer,
    env: Env<WithoutTls>,
    dbs: Databases,
    path: PathBuf,
}

const DB_NAMES: [&str; 24] = [
    "meta",
    "files",
    "documents",
    "chunks",
    "chunk-keys",
    "postings",
    "term-freqs",
    "chunk-terms",
    "facets",
    "embed-cache",
    "tables",
    "vectors",
    "doc-meta",
    "overrides",
    "chunk-lens",
    "health",
    "doc-keys",
    "ocr-cache",
    "vector-queue",
    "gate-docs",
    "gate-failed",
    "gate-state",
    "vector-codes",
    "term-impacts",
];

impl Store {
    /// Open (or create) the library in `dir`, creating the folder.
    ///
    /// # Errors
    /// [`Error::NetworkFilesystem`] when `dir` is on NFS, SMB or a synced
    /// folder; [`Error::IncompatibleIndex`] for a newer format; I/O and LMDB errors.
    pub fn open(dir: &Path, map_size: usize) -> Result<Self> {
        std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
        if let Some(fs) = classify_path(dir).network_name() {
            return Err(Error::NetworkFilesystem { path: dir.to_path_buf(), fs: fs.to_string() });
        }
        let mut options = EnvOpenOptions::new().read_txn_without_tls();
        options.map_size(map_size).max_dbs(DB_NAMES.len() as u32 + 2).max_readers(254);
        // SAFETY: one Env per path per process is kept by the caller
        // (`Engine` owns the only Store); the folder is local (checked above).
        #[allow(unsafe_code)]
        let env = unsafe { options.open(dir) }?;
        let dbs = Self::create_databases(&env)?;
        let writer = writer::Writer::start(env.clone(), dbs)?;
        let store = Store { writer, env, dbs, path: dir.to_path_buf() };
        store.check_format()?;
        Ok(store)
    }

    fn create_databases(env: &Env<WithoutTls>) -> Result<Databases> {
        let wtxn = env.write_txn()?;
        let raw = env
            .create_databases_and_commit(wtxn, |opener, wtxn| -> Result<_> {
                let mut dbs = Vec::with_capacity(DB_NAMES.len());
                for name in DB_NAMES {
                    dbs.push(opener.create_database::<Bytes, Bytes>(wtxn, Some(name))?);
                }
                let array: [_; 24] = dbs.try_into().map_err(|_| Error::DataCorruption("database count".into()))?;
                Ok(CommitOrAbort::<_, ()>::Commit(array))
            })?
            .unwrap_commit();
        Ok(Databases {
            meta: raw[0].remap_types(),
            files: raw[1].remap_types(),
            documents: raw[2].remap_types(),
            chunks: raw[3].remap_types(),
            chunk_keys: raw[4].remap_types(),
            postings: raw[5].remap_types(),
            term_freqs: raw[6].remap_types(),
            chunk_terms: raw[7].remap_types(),
            facets: raw[8].remap_types(),
            embed_cache: raw[9].remap_types(),
            tables: raw[10].remap_types(),
            vectors: raw[11].remap_types(),
            doc_meta: raw[12].remap_types(),
            overrides: raw[13].remap_types(),
            chunk_lens: raw[14].remap_types(),
            health: raw[15].remap_types(),
            doc_keys: raw[16].remap_types(),
            ocr_cache: raw[17].remap_types(),
            vector_queue: raw[18].remap_types(),
            gate_docs: raw[19].remap_types(),
            gate_failed: raw[20].remap_types(),
            gate_state: raw[21].remap_types(),
            vector_codes: raw[22].remap_types(),
            term_impacts: raw[23].remap_types(),
        })
    }

    fn check_format(&self) -> Result<()> {
        self.write(|mut wtxn, dbs| {
            let found = dbs.meta.get(&wtxn, meta_keys::FORMAT_VERSION)?.and_then(|v| v.as_u64());
            let found = found.map(|v| u32::try_from(v).unwrap_or(u32::MAX));
            match found {
                None => {
                    dbs.meta.put(&mut wtxn, meta_keys::FORMAT_VERSION, &FORMAT_VERSION.into())?;
                    dbs.meta.put(&mut wtxn, meta_keys::TOKENIZER_VERSION, &TOKENIZER_VERSION.into())?;
                    wtxn.commit()?;
                }
                Some(v) if v > FORMAT_VERSION => {
                    return Err(Error::IncompatibleIndex { found: v, supported: FORMAT_VERSION });
                }
                Some(v) if v < FORMAT_VERSION => {
                    upgrade::upgrade(dbs, &mut wtxn, v)?;
                    crate::failpoint::hit("upgrade-before-commit");
                    wtxn.commit()?;
                }
                Some(_) => wtxn.abort(),
            }
            Ok(())
        })
    }

    /// Run `op` on the library's one writer thread with a new write
    /// transaction, and wait for its result; `op` commits the transaction
    /// (or drops it to abort). Operations from every thread of the process
    /// run one at a time in the order they arrive.
    ///
    /// # Errors
    /// LMDB errors, `op`'s errors, and [`Error::DataCorruption`] when `op`
    /// panicked or the writer has stopped.
    pub(crate) fn write<T, F>(&self, op: F) -> Result<T>
    where
        T: Send + 'static,
        F: for<'e> FnOnce(heed::RwTxn<'e>, &Databases) -> Result<T> + Send + 'static,
    {
        self.writer.write(op)
    }

    /// Write transactions the writer has opened since the library was opened.
    pub fn write_transactions(&self) -> u64 {
        self.writer.transactions()
    }

    /// The databases.
    pub fn dbs(&self) -> &Databases {
        &self.dbs
    }

    /// The library folder.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// A read transaction; it sees the last committed state for its lifetime.
    ///
    /// # Errors
    /// LMDB errors (e.g. too many readers).
    pub fn read_txn(&self) -> Result<RoTxn<'_, WithoutTls>> {
        Ok(self.env.read_txn()?)
    }

    /// Size of the data file on disk, in bytes.
    ///
    /// # Errors
    /// I/O errors.
    pub fn disk_size(&self) -> Result<u64> {
        Ok(self.env.real_disk_size()?)
    }
}

/// Read a typed value from `meta`.
///
/// # Errors
/// LMDB errors; [`Error::DataCorruption`] when the value does not decode.
pub fn get_meta<T: serde::de::DeserializeOwned>(dbs: &Databases, rtxn: &RoTxn<'_>, key: &str) -> Result<Option<T>> {
    match dbs.meta.get(rtxn, key)? {
        None => Ok(None),
        Some(v) => serde_json::from_value(v).map(Some).map_err(|e| Error::DataCorruption(format!("meta {key}: {e}"))),
    }
}

/// The facet holding the chunks of one document (`doc:<id>`).
pub fn doc_facet(doc: DocId) -> String {
    format!("doc:{}", doc.get())
}

/// Every chunk id in the library.
///
/// # Errors
/// LMDB errors.
pub fn all_chunks(dbs: &Databases, rtxn: &RoTxn<'_>) -> Result<ChunkSet> {
    Ok(dbs.facets.get(rtxn, FACET_ALL)?.unwrap_or_default())
}
