//! Amendments: a current document that amends another ("… is hereby
//! amended as under", "in partial modification of …") leaves the amended
//! one current, since only part of it changed, and marks it: its chunks are
//! still searched and cited, but every citation says which document amends
//! it and that where they differ the amendment applies. A superseding
//! document, by contrast, withholds the whole older one (see `status`).

use std::collections::BTreeMap;

use super::meta::DocMeta;
use crate::ids::DocId;

/// The amendment mark of each current document amended by another current
/// one (`amended`, from [`super::records::StatusRecords::amended`] over the visible
/// documents only, so a mark never names a document the user may not see);
/// `label` names an amending document (its stored [`describe`] text).
pub fn marks<'a>(
    amended: BTreeMap<DocId, Vec<DocId>>,
    label: impl Fn(DocId) -> Option<&'a str>,
) -> BTreeMap<DocId, String> {
    amended
        .into_iter()
        .map(|(id, by)| {
            let by: Vec<&str> = by.iter().filter_map(|b| label(*b)).collect();
            (id, format!("amended by {}: where they differ, the amendment applies", by.join(" and ")))
        })
        .collect()
}

/// "circular 2.2.14 (issued 2025-02-28)", else the title.
pub fn describe(meta: &DocMeta) -> String {
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
