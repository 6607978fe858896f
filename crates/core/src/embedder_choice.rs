//! The embedder identity a library is bound to, and which builtin model
//! embeds it. A library keeps the model it was
//! created with (its stored [`EmbedderId`]); a configured `auto` is decided
//! once, when the library is created: multilingual-e5-small when the first
//! files hold Devanagari text, all-MiniLM-L6-v2 otherwise.

use std::path::{Path, PathBuf};

use almirah_embed::{BuiltinModel, EmbedderConfig, EmbedderId};
use almirah_extract::FileKind;

use crate::error::{Error, Result};
use crate::store::{self, Store, get_meta, meta_keys};

/// Share of a text's letters that are Devanagari (U+0900-U+097F) above
/// which a text counts as Hindi (or Marathi, Nepali): a bilingual circular
/// with a Hindi letterhead and an English body is well above it.
const DEVANAGARI_SHARE: f64 = 0.05;
/// Files looked at, the first in path order under each root.
const SAMPLED_FILES: usize = 64;
/// Bytes read of each plain-text file.
const SAMPLE_BYTES: usize = 2 << 20;

/// Error unless the stored and configured embedder identities match.
///
/// # Errors
/// [`Error::EmbedderMismatch`].
pub fn check_identity(stored: &EmbedderId, configured: &EmbedderId) -> Result<()> {
    if stored == configured {
        return Ok(());
    }
    let describe = |id: &EmbedderId| format!("{}:{} ({} dims)", id.provider, id.model, id.dimensions);
    Err(Error::EmbedderMismatch { stored: describe(stored), configured: describe(configured) })
}

/// `config` with an `auto` builtin model replaced by the model the library
/// was built with, when it was built with a builtin one. Anything else is
/// returned as it is.
pub(crate) fn resolve(config: &EmbedderConfig, stored: Option<&EmbedderId>) -> EmbedderConfig {
    match (config, stored.and_then(BuiltinModel::of_id)) {
        (EmbedderConfig::Builtin { model_dir, model: BuiltinModel::Auto }, Some(model)) => {
            EmbedderConfig::Builtin { model_dir: model_dir.clone(), model }
        }
        _ => config.clone(),
    }
}

/// The builtin model for a new library over `roots`: multilingual-e5-small
/// when a sampled file (its name or its text) is at least 5% Devanagari,
/// all-MiniLM-L6-v2 otherwise, and `None` when the roots hold no file to
/// judge by (the choice waits for the next index). Samples the first 64
/// files in path order and reads plain-text formats (Markdown, text, CSV,
/// HTML) only: PDFs and office files are judged by their names, since
/// parsing them here would bypass the extractor's time and memory limits.
pub(crate) fn for_new_library(roots: &[PathBuf]) -> Option<BuiltinModel> {
    let mut sampled = 0usize;
    for text in sample(roots) {
        sampled += 1;
        if devanagari_share(&text) >= DEVANAGARI_SHARE {
            return Some(BuiltinModel::MultilingualE5Small);
        }
    }
    (sampled > 0).then_some(BuiltinModel::MiniLm)
}

/// The share of `text`'s alphabetic characters that are Devanagari; 0 for
/// a text with no letters.
pub fn devanagari_share(text: &str) -> f64 {
    let (mut letters, mut devanagari) = (0usize, 0usize);
    for c in text.chars().filter(|c| c.is_alphabetic() || ('\u{0900}'..='\u{097F}').contains(c)) {
        letters += 1;
        devanagari += usize::from(('\u{0900}'..='\u{097F}').contains(&c));
    }
    if letters == 0 { 0.0 } else { devanagari as f64 / letters as f64 }
}

/// File names and texts of the sampled files, lazily (the caller stops at the first Devanagari one).
fn sample(roots: &[PathBuf]) -> impl Iterator<Item = String> + '_ {
    roots.iter().flat_map(|root| first_files(root)).flat_map(|path| {
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        [name, read_text(&path)]
    })
}

/// The first [`SAMPLED_FILES`] files under `root`, in path order, hidden ones skipped.
fn first_files(root: &Path) -> Vec<PathBuf> {
    ignore::WalkBuilder::new(root)
        .standard_filters(false)
        .hidden(true)
        .follow_links(false)
        .sort_by_file_path(Path::cmp)
        .build()
        .filter_map(std::result::Result::ok)
        .filter(|e| e.file_type().is_some_and(|t| t.is_file()))
        .map(ignore::DirEntry::into_path)
        .take(SAMPLED_FILES)
        .collect()
}

/// The first [`SAMPLE_BYTES`] of a plain-text file, or "" for other kinds.
fn read_text(path: &Path) -> String {
    let kind = almirah_extract::kind_of(path);
    if !matches!(kind, FileKind::Markdown | FileKind::Text | FileKind::Csv | FileKind::Html) {
        return String::new();
    }
    read_prefix(path).map(|b| String::from_utf8_lossy(&b).into_owned()).unwrap_or_default()
}

fn read_prefix(path: &Path) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let mut out = Vec::new();
    std::fs::File::open(path)?.take(SAMPLE_BYTES as u64).read_to_end(&mut out)?;
    Ok(out)
}

/// Record the embedder identity on first write and return the vector index;
/// refuse a different identity, unless the library holds no chunk (nothing
/// to re-embed: it takes the new identity and a fresh vector index).
///
/// # Errors
/// [`Error::EmbedderMismatch`]; storage errors.
pub(crate) fn ensure_embedder(store: &Store, id: &EmbedderId) -> Result<u16> {
    let id = id.clone();
    store.write(move |mut wtxn, dbs| {
        let stored = get_meta::<EmbedderId>(dbs, &wtxn, meta_keys::EMBEDDER)?;
        let index: u16 = get_meta(dbs, &wtxn, meta_keys::VECTOR_INDEX)?.unwrap_or(0);
        let index = match stored {
            Some(stored) if stored == id => return Ok(index),
            Some(stored) if !store::all_chunks(dbs, &wtxn)?.is_empty() => {
                check_identity(&stored, &id)?;
                return Ok(index);
            }
            Some(_) => index.wrapping_add(1),
            None => 0,
        };
        let value = serde_json::to_value(&id).map_err(|e| Error::DataCorruption(e.to_string()))?;
        dbs.meta.put(&mut wtxn, meta_keys::EMBEDDER, &value)?;
        dbs.meta.put(&mut wtxn, meta_keys::VECTOR_INDEX, &index.into())?;
        wtxn.commit()?;
        Ok(index)
    })
}

/// The identity the library's vectors were made with: `None` for a new
/// library, and for one that holds no chunk (its identity binds nothing).
///
/// # Errors
/// Storage errors.
pub(crate) fn library_embedder(store: &Store) -> Result<Option<EmbedderId>> {
    let rtxn = store.read_txn()?;
    if store::all_chunks(store.dbs(), &rtxn)?.is_empty() {
        return Ok(None);
    }
    get_meta(store.dbs(), &rtxn, meta_keys::EMBEDDER)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn devanagari_share_counts_letters_only() {
        assert!(devanagari_share("अर्जित अवकाश 21 दिन") > 0.9);
        assert_eq!(devanagari_share("Earned leave: 21 days."), 0.0);
        assert_eq!(devanagari_share("2024 - 25"), 0.0);
        let mixed = "राष्ट्रीय राजमार्ग प्राधिकरण National Highways Authority of India, circular on toll plazas and fees";
        assert!(devanagari_share(mixed) > DEVANAGARI_SHARE);
    }

    #[test]
    fn a_hindi_file_among_english_ones_picks_the_multilingual_model() {
        let tmp = tempfile::tempdir().unwrap();
        assert_eq!(for_new_library(&[tmp.path().to_path_buf()]), None, "an empty folder decides nothing");
        std::fs::write(tmp.path().join("a-travel.md"), "# Travel\nHotels up to INR 6,000 a night.").unwrap();
        assert_eq!(for_new_library(&[tmp.path().to_path_buf()]), Some(BuiltinModel::MiniLm));
        std::fs::write(tmp.path().join("b-chhutti.md"), "# अवकाश नीति\nप्रत्येक कर्मचारी को 21 दिन का अर्जित अवकाश।")
            .unwrap();
        assert_eq!(for_new_library(&[tmp.path().to_path_buf()]), Some(BuiltinModel::MultilingualE5Small));
    }

    #[test]
    fn auto_follows_the_stored_model_and_explicit_choices_stay() {
        let auto = EmbedderConfig::default();
        let e5 = EmbedderId {
            provider: "builtin".into(),
            model: "multilingual-e5-small".into(),
            dimensions: 384,
            document_prefix: "passage: ".into(),
            query_prefix: "query: ".into(),
        };
        let resolved = resolve(&auto, Some(&e5));
        assert!(matches!(resolved, EmbedderConfig::Builtin { model: BuiltinModel::MultilingualE5Small, .. }));
        assert_eq!(resolve(&auto, None), auto);
        let minilm = EmbedderConfig::Builtin { model_dir: None, model: BuiltinModel::MiniLm };
        assert_eq!(
            resolve(&minilm, Some(&e5)),
            minilm,
            "an explicit model is never replaced (the mismatch is reported)"
        );
    }
}
