//! `almirah status`: counts, sizes, problems and the embedder, from one read
//! transaction.

use std::collections::BTreeMap;
use std::path::Path;

use almirah_embed::EmbedderId;
use heed::RoTxn;
use serde::Serialize;

use crate::error::Result;
use crate::freshness::FolderSettings;
use crate::freshness::status::audience_allowed;
use crate::freshness::unreadable::failed_file_visible;
use crate::ids::DocId;
use crate::read::Audience;
use crate::store::health::{self, WatchHealth};
use crate::store::{Databases, FORMAT_VERSION, FileStatus, Store, get_meta, meta_keys};
use crate::update::scan::records_under;

/// What `almirah status` shows.
#[derive(Debug, Clone, Serialize)]
pub struct LibraryStatus {
    /// Library folder.
    pub data_dir: String,
    /// On-disk format version.
    pub format_version: u32,
    /// Documents.
    pub documents: u64,
    /// Chunks.
    pub chunks: u64,
    /// Chunks searchable by keywords that wait for their vector (phase 2
    /// of ingest); 0 when every chunk is also searched by meaning.
    pub vectors_pending: u64,
    /// Files per status.
    pub files_by_status: BTreeMap<String, u64>,
    /// Files that are not indexed, with their reasons.
    pub problems: Vec<FileProblem>,
    /// Embedder the index was built with.
    pub embedder: Option<EmbedderId>,
    /// Data file size in bytes.
    pub disk_bytes: u64,
    /// Folders indexed.
    pub roots: Vec<String>,
    /// Counts per indexed folder.
    pub folders: Vec<FolderCounts>,
    /// The running (or last) `watch`: queue length, last reconcile, folder modes.
    pub watch: Option<WatchHealth>,
}

/// What one indexed folder holds.
#[derive(Debug, Clone, Default, Serialize)]
pub struct FolderCounts {
    /// The folder.
    pub path: String,
    /// Files recorded (indexed or not).
    pub files: u64,
    /// Documents searchable.
    pub documents: u64,
    /// Chunks of those documents.
    pub chunks: u64,
    /// Files whose last read failed (they are listed in `problems`).
    pub failing: u64,
}

/// A file that is not (fully) indexed.
#[derive(Debug, Clone, Serialize)]
pub struct FileProblem {
    /// Path.
    pub path: String,
    /// Status.
    pub status: String,
    /// Reason.
    pub reason: Option<String>,
    /// An older version is still searchable.
    pub kept_previous: bool,
}

/// Build the status report. Problem files are listed only when the user's
/// `audience` may see them: a kept document by its own audience, a file
/// that never indexed by its sidecar's or else its watched folder's
/// audience (`folders`; [`failed_file_visible`]).
///
/// # Errors
/// Storage errors.
pub fn status(store: &Store, audience: &Audience, folders: &[FolderSettings]) -> Result<LibraryStatus> {
    let dbs = store.dbs();
    let rtxn = store.read_txn()?;
    let seen = Seen { dbs, rtxn: &rtxn, audience, folders };
    let mut files_by_status = BTreeMap::new();
    let mut problems = Vec::new();
    let (mut documents, mut chunks, mut vectors_pending) = (0u64, 0u64, 0u64);
    let queue = crate::store::pending_vectors(dbs, &rtxn)?;
    for entry in dbs.files.iter(&rtxn)? {
        let (path, record) = entry?;
        if !seen.visible(path, record.doc_id)? {
            continue;
        }
        *files_by_status.entry(record.status.as_str().to_string()).or_insert(0u64) += 1;
        if let Some(doc) = record.doc_id.map(|d| dbs.documents.get(&rtxn, &d)).transpose()?.flatten() {
            documents += 1;
            chunks += doc.chunks.len() as u64;
            vectors_pending += doc.chunks.iter().filter(|c| queue.contains(**c)).count() as u64;
        }
        if record.status != FileStatus::Indexed {
            problems.push(FileProblem {
                path: path.to_string(),
                status: record.status.as_str().to_string(),
                reason: record.reason.clone(),
                kept_previous: record.doc_id.is_some(),
            });
        }
    }
    let roots: Vec<String> = get_meta(dbs, &rtxn, meta_keys::ROOTS)?.unwrap_or_default();
    let folders = roots.iter().map(|r| seen.folder_counts(r)).collect::<Result<Vec<_>>>()?;
    Ok(LibraryStatus {
        data_dir: store.path().to_string_lossy().into_owned(),
        format_version: get_meta(dbs, &rtxn, meta_keys::FORMAT_VERSION)?.unwrap_or(FORMAT_VERSION),
        documents,
        chunks,
        vectors_pending,
        files_by_status,
        problems,
        embedder: get_meta(dbs, &rtxn, meta_keys::EMBEDDER)?,
        disk_bytes: store.disk_size()?,
        roots,
        folders,
        watch: health::read(store)?,
    })
}

/// What one user may know of: documents of their audience, and files of
/// folders whose audience they share (hidden means hidden, also in counts).
struct Seen<'a> {
    dbs: &'a Databases,
    rtxn: &'a RoTxn<'a>,
    audience: &'a Audience,
    folders: &'a [FolderSettings],
}

impl Seen<'_> {
    /// Whether the user may know of the file at `path` (serving `doc`): a
    /// document by its own audience, a file that never indexed by its
    /// sidecar's or folder's audience.
    fn visible(&self, path: &str, doc: Option<DocId>) -> Result<bool> {
        if let Some(meta) = doc.map(|d| self.dbs.doc_meta.get(self.rtxn, &d)).transpose()?.flatten() {
            return Ok(audience_allowed(&meta, self.audience.names()));
        }
        Ok(failed_file_visible(Path::new(path), self.folders, self.audience.names()))
    }

    /// Files, documents, chunks and failing files the user may know of under one folder.
    fn folder_counts(&self, root: &str) -> Result<FolderCounts> {
        let mut counts = FolderCounts { path: root.to_string(), ..FolderCounts::default() };
        for (path, record) in records_under(self.dbs, self.rtxn, Path::new(root))? {
            if !self.visible(&path, record.doc_id)? {
                continue;
            }
            counts.files += 1;
            if record.status.is_failure() {
                counts.failing += 1;
            }
            let Some(doc) = record.doc_id else { continue };
            counts.documents += 1;
            counts.chunks += self.dbs.documents.get(self.rtxn, &doc)?.map_or(0, |d| d.chunks.len() as u64);
        }
        Ok(counts)
    }
}
