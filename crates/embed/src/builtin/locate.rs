//! Where the builtin model lives.

use std::path::{Path, PathBuf};

use crate::EmbedError;

/// Files the model folder must hold.
pub(super) const MODEL_FILES: [&str; 3] = ["model.safetensors", "tokenizer.json", "config.json"];
/// The folder name under `<repo>/models/`.
const MODEL_SUBDIR: &str = "models/all-MiniLM-L6-v2";

/// Resolves the model folder: `explicit`, else `$ALMIRAH_MODEL_DIR` (both
/// authoritative when set), else the first complete candidate of
/// [`default_candidates`].
///
/// # Errors
/// [`EmbedError::ModelMissing`] with the path that was (first) looked at.
pub(super) fn model_dir(explicit: Option<&Path>) -> Result<PathBuf, EmbedError> {
    let env = std::env::var_os("ALMIRAH_MODEL_DIR").filter(|v| !v.is_empty()).map(PathBuf::from);
    if let Some(dir) = explicit.map(Path::to_path_buf).or(env) {
        return if is_complete(&dir) { Ok(dir) } else { Err(EmbedError::ModelMissing { path: dir }) };
    }
    let candidates = default_candidates();
    match candidates.iter().find(|d| is_complete(d)) {
        Some(dir) => Ok(dir.clone()),
        None => {
            let path = candidates.into_iter().last().unwrap_or_else(|| PathBuf::from(MODEL_SUBDIR));
            Err(EmbedError::ModelMissing { path })
        }
    }
}

/// `<exe dir>/../../models/…` (target/debug/almirah), `<exe dir>/../../../models/…`
/// (target/debug/deps/test binaries), then the source tree's `models/…`
/// fixed at compile time.
fn default_candidates() -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Some(exe_dir) = std::env::current_exe().ok().and_then(|p| p.parent().map(Path::to_path_buf)) {
        out.push(exe_dir.join("../..").join(MODEL_SUBDIR));
        out.push(exe_dir.join("../../..").join(MODEL_SUBDIR));
    }
    out.push(Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(MODEL_SUBDIR));
    out
}

fn is_complete(dir: &Path) -> bool {
    MODEL_FILES.iter().all(|f| dir.join(f).is_file())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    #[test]
    fn explicit_missing_dir_is_model_missing_with_fetch_hint() {
        let tmp = tempfile::tempdir().unwrap();
        let err = model_dir(Some(tmp.path())).unwrap_err();
        assert!(matches!(&err, EmbedError::ModelMissing { path } if path == tmp.path()));
        assert!(err.to_string().contains("scripts/fetch-models.sh"));
    }

    #[test]
    fn explicit_complete_dir_is_used() {
        let tmp = tempfile::tempdir().unwrap();
        for f in MODEL_FILES {
            std::fs::write(tmp.path().join(f), b"x").unwrap();
        }
        assert_eq!(model_dir(Some(tmp.path())).unwrap(), tmp.path());
    }

    #[test]
    fn source_tree_is_the_last_candidate() {
        let last = default_candidates().pop().unwrap();
        assert!(last.ends_with(MODEL_SUBDIR));
    }
}
