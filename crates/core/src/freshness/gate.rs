//! The freshness gate (ARCHITECTURE §2): admissible = current and visible to
//! the user's audience. It fills the candidate bitmap *before* ranking, so a
//! withheld chunk never influences a search; a separate bounded search over
//! the withheld set feeds only the notes.

use std::collections::BTreeMap;

use heed::RoTxn;
use roaring::RoaringBitmap;

use super::meta::DocMeta;
use super::overrides;
use super::status::{AsOf, DocInfo, DocStatus, compute};
use crate::error::Result;
use crate::store::Databases;

/// The gate's verdicts for one query.
#[derive(Debug, Clone)]
pub struct Gate {
    /// When the question speaks for.
    pub as_of: AsOf,
    /// Chunks that may be searched, read and cited.
    pub admissible: RoaringBitmap,
    /// Chunks of visible documents that are not current (notes only).
    pub withheld: RoaringBitmap,
    /// Status of every document.
    pub statuses: BTreeMap<u32, DocStatus>,
    /// Metadata of every document, overrides applied.
    pub metas: BTreeMap<u32, DocMeta>,
    /// Documents whose newer version could not be read, with the mark to show.
    pub unreadable_newer: BTreeMap<u32, String>,
}

impl Gate {
    /// The status of a document, if it exists.
    pub fn status(&self, doc: u32) -> Option<&DocStatus> {
        self.statuses.get(&doc)
    }
}

/// Read every document's metadata (with overrides applied) in `rtxn`.
///
/// # Errors
/// LMDB errors.
pub fn load_metas(dbs: &Databases, rtxn: &RoTxn<'_>) -> Result<BTreeMap<u32, DocMeta>> {
    let mut metas = BTreeMap::new();
    for entry in dbs.doc_meta.iter(rtxn)? {
        let (id, mut meta) = entry?;
        if let Some(o) = dbs.overrides.get(rtxn, &id)? {
            overrides::apply(&mut meta, &o);
        }
        metas.insert(id, meta);
    }
    Ok(metas)
}

/// Build the gate for `as_of` and the user's `audiences`, in one read transaction.
///
/// # Errors
/// LMDB errors.
pub fn build(dbs: &Databases, rtxn: &RoTxn<'_>, as_of: AsOf, audiences: &[String]) -> Result<Gate> {
    let metas = load_metas(dbs, rtxn)?;
    let docs: Vec<DocInfo<'_>> = metas.iter().map(|(id, meta)| DocInfo { id: *id, meta }).collect();
    let statuses = compute(&docs, &as_of, audiences);
    let mut admissible = RoaringBitmap::new();
    let mut withheld = RoaringBitmap::new();
    for (id, status) in &statuses {
        if !status.audience_allowed {
            continue;
        }
        let chunks = dbs.facets.get(rtxn, &format!("doc:{id}"))?.unwrap_or_default();
        if status.is_current() {
            admissible |= chunks;
        } else {
            withheld |= chunks;
        }
    }
    let unreadable_newer = super::unreadable::marks(dbs, rtxn, &metas)?;
    Ok(Gate { as_of, admissible, withheld, statuses, metas, unreadable_newer })
}
