//! The single writer: applies one batch of prepared files in one `RwTxn`
//! (ARCHITECTURE §3). Old chunks of changed or deleted documents leave every
//! database, new ones enter with their vectors' blocks
//! ([`crate::vectors`]), then the batch commits. A kill
//! at any point leaves the previous commit intact.

use std::collections::BTreeSet;

use almirah_extract::ChunkDraft;
use heed::RwTxn;

use super::delta::BitmapDelta;
use super::prepare::Prepared;
use super::scan::ScannedFile;
use crate::error::{Error, Result};
use crate::failpoint;
use crate::ids::{ChunkId, DocId};
use crate::store::{
    ChunkRecord, ChunkTerms, Databases, DocumentRecord, FACET_ALL, FileRecord, FileStatus, Store, VECTOR_QUEUE_PENDING,
    gate_records, get_meta, meta_keys,
};
use crate::text::Tokenizer;

/// What the writer needs to know besides the items.
#[derive(Debug, Clone)]
pub struct WriteContext {
    /// Vector dimensions.
    pub dimensions: usize,
    /// Vector index in use (the key prefix of its blocks).
    pub vector_index: u16,
    /// Settings of the folders being indexed.
    pub folders: Vec<crate::freshness::FolderSettings>,
}

/// Counts of one committed batch.
#[derive(Debug, Default, Clone, Copy)]
pub struct BatchOutcome {
    /// Chunks inserted.
    pub chunks_added: usize,
    /// Chunks removed.
    pub chunks_removed: usize,
}

struct Batch<'t> {
    wtxn: RwTxn<'t>,
    dbs: Databases,
    postings: BitmapDelta,
    /// The BM25 impact-list entries added and removed ([`crate::impacts`]).
    impacts: crate::impacts::ImpactDelta,
    facets: BitmapDelta,
    total_len: i64,
    tokenizer: Tokenizer,
    folders: Vec<crate::freshness::FolderSettings>,
    /// Context title of the document being inserted.
    title: String,
    /// The codes of the vectors written or removed ([`crate::vectors`]).
    codes: crate::vectors::CodeDelta,
    /// Chunks entering or leaving the embedding queue.
    queue: BitmapDelta,
    /// Documents and file paths whose gate records this batch may change;
    /// refreshed from what the batch wrote just before it commits.
    gate_docs: BTreeSet<DocId>,
    gate_files: BTreeSet<String>,
    outcome: BatchOutcome,
}

/// Write `items` and the `deletions` (path, record) in one transaction, on
/// the library's writer thread.
///
/// # Errors
/// LMDB errors, corrupt vector blocks and impact lists; the transaction is then aborted
/// and nothing changes.
pub fn write_batch(
    store: &Store,
    ctx: &WriteContext,
    items: Vec<Prepared>,
    deletions: Vec<(String, FileRecord)>,
) -> Result<BatchOutcome> {
    let ctx = ctx.clone();
    store.write(move |wtxn, dbs| {
        let mut batch = Batch {
            wtxn,
            dbs: *dbs,
            postings: BitmapDelta::default(),
            impacts: crate::impacts::ImpactDelta::default(),
            facets: BitmapDelta::default(),
            total_len: 0,
            tokenizer: Tokenizer::default(),
            folders: ctx.folders.clone(),
            title: String::new(),
            codes: crate::vectors::CodeDelta::default(),
            queue: BitmapDelta::default(),
            gate_docs: BTreeSet::new(),
            gate_files: BTreeSet::new(),
            outcome: BatchOutcome::default(),
        };
        for (i, item) in items.into_iter().enumerate() {
            batch.apply(item)?;
            if i == 0 {
                failpoint::hit("mid-batch");
            }
        }
        for (path, record) in deletions {
            batch.delete_file(&path, &record)?;
        }
        batch.finish(&ctx)
    })
}

impl Batch<'_> {
    fn apply(&mut self, item: Prepared) -> Result<()> {
        match item {
            Prepared::Indexed { file, hash, mut extracted, vectors, sidecar } => {
                self.cache_ocr_pages(&mut extracted.doc)?;
                let meta = super::describe_file::describe_file(
                    &self.folders,
                    &file.path,
                    file.mtime_ns,
                    &extracted.doc,
                    &sidecar,
                );
                self.index_file(&file, hash, extracted, &vectors, meta)
            }
            Prepared::Moved { file, hash, from } => self.move_file(&file, hash, &from),
            Prepared::Touched { file, hash } => self.touch_file(&file, hash),
            Prepared::Failed { file, hash, status, reason } => self.fail_file(&file, hash, status, reason),
        }
    }

    /// Keep the pages OCR recognised in this run in the OCR cache, keyed by
    /// page content (blank and unsure pages too, so they are never
    /// recognised again), and take them out of the report that is stored.
    fn cache_ocr_pages(&mut self, doc: &mut almirah_extract::Extracted) -> Result<()> {
        let Some(report) = doc.ocr.as_mut() else { return Ok(()) };
        for (key, page) in std::mem::take(&mut report.fresh) {
            // Keys cross a process boundary: only well-formed ones are kept.
            if almirah_extract::ocr::PageKey::parse(key.as_str()).is_some() {
                self.dbs.ocr_cache.put(&mut self.wtxn, key.as_str(), &page)?;
            }
        }
        Ok(())
    }

    fn index_file(
        &mut self,
        file: &ScannedFile,
        hash: String,
        extracted: super::extractor::ExtractedFile,
        vectors: &[Option<Vec<f32>>],
        meta: crate::freshness::DocMeta,
    ) -> Result<()> {
        let path = file.path.to_string_lossy().into_owned();
        let previous = self.dbs.files.get(&self.wtxn, &path)?.and_then(|r| r.doc_id);
        let old = previous.map(|id| self.dbs.documents.get(&self.wtxn, &id)).transpose()?.flatten();
        let id = match &old {
            Some(old) => {
                self.remove_chunks(old)?;
                self.dbs.doc_keys.delete(&mut self.wtxn, &old.key)?;
                old.id
            }
            None => DocId::new(self.next_counter(meta_keys::NEXT_DOC_ID)?),
        };
        let key = self.unique_doc_key(&super::describe_file::key_base(&file.path, &meta), id)?;
        self.dbs.doc_meta.put(&mut self.wtxn, &id, &meta)?;
        self.dbs.doc_keys.put(&mut self.wtxn, &key, &id)?;
        let kind = extracted.doc.kind;
        self.title = super::context_title(&extracted.doc, &file.path);
        let mut chunk_ids = Vec::with_capacity(extracted.chunks.len());
        let mut anchors = std::collections::HashMap::<String, u32>::new();
        for (draft, vector) in extracted.chunks.iter().zip(vectors) {
            let n = anchors.entry(draft.anchor.clone()).or_insert(0);
            *n += 1;
            let chunk_key = format!("{key}::{}#{n}", draft.anchor);
            chunk_ids.push(self.insert_chunk(id, &chunk_key, draft, vector.as_deref(), kind)?);
        }
        if extracted.doc.tables.is_empty() {
            self.dbs.tables.delete(&mut self.wtxn, &id)?;
        } else {
            self.dbs.tables.put(&mut self.wtxn, &id, &extracted.doc.tables)?;
        }
        let doc = DocumentRecord {
            id,
            key,
            path: path.clone(),
            title: extracted.doc.best_title().unwrap_or_else(|| file_stem(&file.path)),
            kind,
            content_hash: hash.clone(),
            chunks: chunk_ids,
            pages: extracted.doc.pages,
            front_matter: extracted.doc.front_matter,
            notes: extracted.doc.notes,
            stale_reason: None,
            ocr: extracted.doc.ocr,
        };
        self.dbs.documents.put(&mut self.wtxn, &id, &doc)?;
        self.gate_docs.insert(id);
        let record = file_record(file, hash, Some(id), FileStatus::Indexed, None);
        self.put_file(path, &record)
    }

    fn insert_chunk(
        &mut self,
        doc_id: DocId,
        key: &str,
        draft: &ChunkDraft,
        vector: Option<&[f32]>,
        kind: almirah_extract::FileKind,
    ) -> Result<ChunkId> {
        let id = ChunkId::new(self.next_counter(meta_keys::NEXT_CHUNK_ID)?);
        let record = ChunkRecord {
            doc_id,
            ordinal: draft.ordinal,
            key: key.to_string(),
            heading_path: draft.heading_path.clone(),
            text: draft.text.clone(),
            byte_span: draft.byte_span,
            pages: draft.pages,
        };
        self.dbs.chunks.put(&mut self.wtxn, &id, &record)?;
        self.dbs.chunk_keys.put(&mut self.wtxn, key, &id)?;
        let (freqs, len) = self.tokenizer.term_frequencies(&super::indexable_text(&self.title, draft));
        for (term, &tf) in &freqs {
            self.postings.add(term, id);
            self.impacts.add(term, id, tf, len);
        }
        let terms = ChunkTerms { len, terms: freqs.into_keys().collect() };
        self.dbs.chunk_terms.put(&mut self.wtxn, &id, &terms)?;
        self.total_len += i64::from(len);
        for facet in [FACET_ALL.to_string(), crate::store::doc_facet(doc_id), format!("kind:{}", kind.name())] {
            self.facets.add(&facet, id);
        }
        match vector {
            Some(v) => self.codes.put(id, v),
            None => self.queue.add(VECTOR_QUEUE_PENDING, id),
        }
        self.outcome.chunks_added += 1;
        Ok(id)
    }

    fn remove_chunks(&mut self, doc: &DocumentRecord) -> Result<()> {
        for &id in &doc.chunks {
            if let Some(terms) = self.dbs.chunk_terms.get(&self.wtxn, &id)? {
                for term in &terms.terms {
                    self.postings.remove(term, id);
                    self.impacts.remove(term, id);
                }
                self.total_len -= i64::from(terms.len);
                self.dbs.chunk_terms.delete(&mut self.wtxn, &id)?;
            }
            if let Some(chunk) = self.dbs.chunks.get(&self.wtxn, &id)? {
                self.dbs.chunk_keys.delete(&mut self.wtxn, &chunk.key)?;
                self.dbs.chunks.delete(&mut self.wtxn, &id)?;
            }
            for facet in [FACET_ALL.to_string(), crate::store::doc_facet(doc.id), format!("kind:{}", doc.kind.name())] {
                self.facets.remove(&facet, id);
            }
            self.codes.remove(id);
            self.queue.remove(VECTOR_QUEUE_PENDING, id);
            self.outcome.chunks_removed += 1;
        }
        Ok(())
    }

    fn remove_document(&mut self, doc_id: DocId) -> Result<()> {
        if let Some(doc) = self.dbs.documents.get(&self.wtxn, &doc_id)? {
            self.remove_chunks(&doc)?;
            self.dbs.doc_keys.delete(&mut self.wtxn, &doc.key)?;
            self.dbs.documents.delete(&mut self.wtxn, &doc_id)?;
            self.dbs.tables.delete(&mut self.wtxn, &doc_id)?;
            self.dbs.doc_meta.delete(&mut self.wtxn, &doc_id)?;
            self.dbs.overrides.delete(&mut self.wtxn, &doc_id)?;
        }
        self.gate_docs.insert(doc_id);
        Ok(())
    }

    fn move_file(&mut self, file: &ScannedFile, hash: String, from: &str) -> Result<()> {
        let path = file.path.to_string_lossy().into_owned();
        let Some(old) = self.dbs.files.get(&self.wtxn, from)? else {
            return Ok(());
        };
        if let Some(replaced) = self.dbs.files.get(&self.wtxn, &path)?.and_then(|r| r.doc_id)
            && Some(replaced) != old.doc_id
        {
            self.remove_document(replaced)?;
        }
        self.dbs.files.delete(&mut self.wtxn, from)?;
        self.gate_files.insert(from.to_string());
        if let Some(mut doc) = old.doc_id.map(|id| self.dbs.documents.get(&self.wtxn, &id)).transpose()?.flatten() {
            doc.path = path.clone();
            self.dbs.documents.put(&mut self.wtxn, &doc.id, &doc)?;
            self.gate_docs.insert(doc.id);
        }
        let record = FileRecord { size: file.size, mtime_ns: file.mtime_ns, hash, ..old };
        self.put_file(path, &record)
    }

    fn touch_file(&mut self, file: &ScannedFile, hash: String) -> Result<()> {
        let path = file.path.to_string_lossy().into_owned();
        let Some(old) = self.dbs.files.get(&self.wtxn, &path)? else {
            return Ok(());
        };
        let record = FileRecord { size: file.size, mtime_ns: file.mtime_ns, hash, ..old };
        self.put_file(path, &record)
    }

    fn fail_file(&mut self, file: &ScannedFile, hash: String, status: FileStatus, reason: String) -> Result<()> {
        let path = file.path.to_string_lossy().into_owned();
        let kept = self.dbs.files.get(&self.wtxn, &path)?.and_then(|r| r.doc_id);
        if let Some(mut doc) = kept.map(|id| self.dbs.documents.get(&self.wtxn, &id)).transpose()?.flatten() {
            doc.stale_reason = Some(format!("a newer version exists but could not be read: {reason}"));
            self.dbs.documents.put(&mut self.wtxn, &doc.id, &doc)?;
        }
        let record = file_record(file, hash, kept, status, Some(reason));
        self.put_file(path, &record)
    }

    /// Record `path`'s file record; its failed-files entry follows at commit.
    fn put_file(&mut self, path: String, record: &FileRecord) -> Result<()> {
        self.dbs.files.put(&mut self.wtxn, &path, record)?;
        self.gate_files.insert(path);
        Ok(())
    }

    fn delete_file(&mut self, path: &str, record: &FileRecord) -> Result<()> {
        // A move already re-pointed the document; only delete what still belongs here.
        // If another writer (a watcher, an `index` in another process) changed the
        // record since this run planned the deletion, the file came back: leave it
        // for the next scan rather than orphan the other writer's document.
        match self.dbs.files.get(&self.wtxn, path)? {
            None => return Ok(()),
            Some(current) if current != *record => return Ok(()),
            Some(_) => {}
        }
        if let Some(id) = record.doc_id {
            self.remove_document(id)?;
        }
        self.dbs.files.delete(&mut self.wtxn, path)?;
        self.gate_files.insert(path.to_string());
        Ok(())
    }

    /// Refresh the gate records of everything the batch touched, from what
    /// it wrote (after the chunk facets are applied).
    /// The gate state follows when any document's record may have changed.
    fn refresh_gate_records(&mut self) -> Result<()> {
        let docs = std::mem::take(&mut self.gate_docs);
        for doc in &docs {
            gate_records::refresh_doc(&self.dbs, &mut self.wtxn, *doc)?;
        }
        if !docs.is_empty() {
            gate_records::refresh_state(&self.dbs, &mut self.wtxn)?;
        }
        for path in std::mem::take(&mut self.gate_files) {
            gate_records::refresh_file(&self.dbs, &mut self.wtxn, &path)?;
        }
        Ok(())
    }

    fn finish(mut self, ctx: &WriteContext) -> Result<BatchOutcome> {
        let postings = std::mem::take(&mut self.postings);
        postings.apply(&mut self.wtxn, self.dbs.postings)?;
        let impacts = std::mem::take(&mut self.impacts);
        impacts.apply(&mut self.wtxn, self.dbs.term_impacts)?;
        let facets = std::mem::take(&mut self.facets);
        facets.apply(&mut self.wtxn, self.dbs.facets)?;
        self.refresh_gate_records()?;
        let queue = std::mem::take(&mut self.queue);
        queue.apply(&mut self.wtxn, self.dbs.vector_queue)?;
        let total: i64 = get_meta::<i64>(&self.dbs, &self.wtxn, meta_keys::BM25_TOTAL_LEN)?.unwrap_or(0);
        self.dbs.meta.put(&mut self.wtxn, meta_keys::BM25_TOTAL_LEN, &(total + self.total_len).max(0).into())?;
        failpoint::hit("vector-update");
        let codes = std::mem::take(&mut self.codes);
        let layout = crate::vectors::CodeLayout { dims: ctx.dimensions };
        codes.apply(&mut self.wtxn, self.dbs.vector_codes, ctx.vector_index, layout)?;
        failpoint::hit("before-commit");
        self.wtxn.commit()?;
        failpoint::hit("after-commit");
        Ok(self.outcome)
    }

    fn next_counter(&mut self, key: &str) -> Result<u32> {
        let next: u32 = get_meta(&self.dbs, &self.wtxn, key)?.unwrap_or(0);
        let bumped = next.checked_add(1).ok_or_else(|| Error::DataCorruption(format!("{key} overflow")))?;
        self.dbs.meta.put(&mut self.wtxn, key, &bumped.into())?;
        Ok(next)
    }

    fn unique_doc_key(&self, base: &str, id: DocId) -> Result<String> {
        let base = base.to_string();
        let taken = self.dbs.doc_keys.get(&self.wtxn, &base)?.is_some_and(|owner| owner != id);
        Ok(if taken { format!("{base}-{}", id.get()) } else { base })
    }
}

fn file_record(
    file: &ScannedFile,
    hash: String,
    doc_id: Option<DocId>,
    status: FileStatus,
    reason: Option<String>,
) -> FileRecord {
    FileRecord { hash, size: file.size, mtime_ns: file.mtime_ns, doc_id, status, reason }
}

fn file_stem(path: &std::path::Path) -> String {
    path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default()
}
