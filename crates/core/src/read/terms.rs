//! How common an index term is among the chunks the user may see: the
//! share of visible chunks holding it (document frequency over `N`, the
//! statistic BM25's IDF is made of; Robertson & Zaragoza 2009). A term held
//! by a large share of a library ("Sourcegraph" across Sourcegraph's
//! handbook) tells its passages apart no better than a stop word does
//! (Luhn's upper cut-off, 1958; Elasticsearch's `cutoff_frequency`).

use super::Snapshot;
use crate::error::Result;

impl Snapshot<'_> {
    /// For each of `terms` (index terms: lower-cased, stemmed, as
    /// [`crate::text::Tokenizer::terms`] gives them), the share of the
    /// visible chunks that hold it, in 0..=1; 0 for a term no chunk holds
    /// and for an empty library. Only visible chunks count, so a hidden
    /// document's words never move an answer that is shown.
    ///
    /// # Errors
    /// [`crate::Error::SnapshotExpired`]; storage errors.
    pub fn term_shares(&self, terms: &[String]) -> Result<Vec<f32>> {
        let rtxn = self.txn()?;
        let visible = self.gate.visible_chunks();
        let n = visible.len();
        let mut out = Vec::with_capacity(terms.len());
        for term in terms {
            let df = match self.dbs.postings.get(&rtxn, term)? {
                Some(postings) if n > 0 => postings.bitmap().intersection_len(visible.bitmap()),
                _ => 0,
            };
            out.push(if n == 0 { 0.0 } else { df as f32 / n as f32 });
        }
        Ok(out)
    }
}
