//! Amendments: a current document that amends another ("… is hereby
//! amended as under", "in partial modification of …") leaves the amended
//! one current, since only part of it changed, and marks it: its chunks are
//! still searched and cited, but every citation says which document amends
//! it and that where they differ the amendment applies. A superseding
//! document, by contrast, withholds the whole older one (see `status`).

use std::collections::BTreeMap;

use super::meta::DocMeta;
use super::status::DocStatus;
use crate::ids::DocId;

/// The amendment mark of each current document amended by another current
/// one, over the visible documents only (so a mark never names a document
/// the user may not see).
pub fn marks(metas: &BTreeMap<DocId, DocMeta>, statuses: &BTreeMap<DocId, DocStatus>) -> BTreeMap<DocId, String> {
    let current = |id: &DocId| statuses.get(id).is_some_and(DocStatus::is_current);
    let mut out: BTreeMap<DocId, Vec<String>> = BTreeMap::new();
    for (amender, meta) in metas.iter().filter(|(id, _)| current(id)) {
        let Some(amends) = meta.amends.as_ref() else { continue };
        for (amended, target) in metas.iter().filter(|(id, _)| *id != amender && current(id)) {
            if amends.value.iter().any(|r| target.references.contains(r)) {
                out.entry(*amended).or_default().push(describe(meta));
            }
        }
    }
    out.into_iter()
        .map(|(id, by)| (id, format!("amended by {}: where they differ, the amendment applies", by.join(" and "))))
        .collect()
}

/// "circular 2.2.14 (issued 2025-02-28)", else the title.
fn describe(meta: &DocMeta) -> String {
    let name = meta
        .references
        .iter()
        .find(|r| !r.starts_with("name:") && !r.contains('@'))
        .map(|r| r.replacen(':', " ", 1))
        .or_else(|| meta.title.as_ref().map(|t| format!("\"{}\"", t.value)))
        .unwrap_or_else(|| "a later document".into());
    match meta.issued.as_ref() {
        Some(d) => format!("{name} (issued {})", d.value),
        None => name,
    }
}
