//! How common an index term is among the chunks the user may see: the
//! share of visible chunks holding it (document frequency over `N`, the
//! statistic BM25's IDF is made of; Robertson & Zaragoza 2009). A term held
//! by a large share of a library ("Sourcegraph" across Sourcegraph's
//! handbook) tells its passages apart no better than a stop word does
//! (Luhn's upper cut-off, 1958; Elasticsearch's `cutoff_frequency`).

use super::Snapshot;
use crate::error::Result;

impl Snapshot<'_> {
    /// The number of visible chunks `N`, and for each of `terms` (index
    /// terms: lower-cased, stemmed, as [`crate::text::Tokenizer::terms`]
    /// gives them) its document frequency: how many visible chunks hold it
    /// (0 for a term no chunk holds). Only visible chunks count, so a
    /// hidden document's words never move an answer that is shown.
    ///
    /// # Errors
    /// [`crate::Error::SnapshotExpired`]; storage errors.
    pub fn term_frequencies(&self, terms: &[String]) -> Result<(u64, Vec<u64>)> {
        let rtxn = self.txn()?;
        let visible = self.gate.visible_chunks();
        let mut out = Vec::with_capacity(terms.len());
        for term in terms {
            let df = match self.dbs.postings.get(&rtxn, term)? {
                Some(postings) => postings.bitmap().intersection_len(visible.bitmap()),
                None => 0,
            };
            out.push(df);
        }
        Ok((visible.len(), out))
    }

    /// For each of `terms`, the share of the visible chunks that hold it,
    /// in 0..=1 ([`Snapshot::term_frequencies`] over `N`; 0 in an empty
    /// library).
    ///
    /// # Errors
    /// As [`Snapshot::term_frequencies`].
    pub fn term_shares(&self, terms: &[String]) -> Result<Vec<f32>> {
        let (n, dfs) = self.term_frequencies(terms)?;
        Ok(dfs.into_iter().map(|df| if n == 0 { 0.0 } else { df as f32 / n as f32 }).collect())
    }

    /// `question` as the library's embedder reads it best: for the builtin
    /// multilingual embedder, a romanized Hindi question with the words no
    /// admissible chunk (in force, the user's to see) holds written in Devanagari
    /// ([`crate::search::vector_query`]); otherwise `question` as typed.
    ///
    /// # Errors
    /// [`crate::Error::SnapshotExpired`]; embedder and storage errors.
    pub fn as_the_library_reads(&self, question: &str) -> Result<String> {
        let embedder = self.embedder.get()?;
        let rtxn = self.txn()?;
        Ok(crate::search::vector_query(&self.dbs, &rtxn, embedder, question, self.gate.admissible())?.into_owned())
    }
}
