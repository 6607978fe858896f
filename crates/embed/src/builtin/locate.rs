//! Where a builtin model lives.

use std::path::{Path, PathBuf};

use crate::EmbedError;

/// What a builtin model's folder holds and where it is looked for.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ModelFiles {
    /// The folder under the repository (and under `/usr/lib/Almirah/` in the .deb).
    pub(crate) subdir: &'static str,
    /// Files the folder must hold.
    pub(crate) files: &'static [&'static str],
    /// The environment variable that names the folder.
    pub(crate) env: &'static str,
}

/// all-MiniLM-L6-v2's folder.
pub(crate) const MINILM: ModelFiles = ModelFiles {
    subdir: "models/all-MiniLM-L6-v2",
    files: &["model.safetensors", "tokenizer.json", "config.json"],
    env: "ALMIRAH_MODEL_DIR",
};

/// Resolves the model folder: `explicit`, else `$<model.env>` (both
/// authoritative when set), else the first complete candidate of
/// [`default_candidates`].
///
/// # Errors
/// [`EmbedError::ModelMissing`] with the path that was (first) looked at.
pub(crate) fn model_dir(explicit: Option<&Path>, model: &ModelFiles) -> Result<PathBuf, EmbedError> {
    let env = std::env::var_os(model.env).filter(|v| !v.is_empty()).map(PathBuf::from);
    if let Some(dir) = explicit.map(Path::to_path_buf).or(env) {
        return if is_complete(&dir, model) { Ok(dir) } else { Err(EmbedError::ModelMissing { path: dir }) };
    }
    let candidates = default_candidates(model);
    match candidates.iter().find(|d| is_complete(d, model)) {
        Some(dir) => Ok(dir.clone()),
        None => {
            let path = candidates.into_iter().last().unwrap_or_else(|| PathBuf::from(model.subdir));
            Err(EmbedError::ModelMissing { path })
        }
    }
}

/// `<exe dir>/../lib/Almirah/models/…` (the installed .deb), `<exe dir>/models/…`,
/// `<exe dir>/../../models/…` (target/debug/almirah), `<exe dir>/../../../models/…`
/// (target/debug/deps/test binaries), then the source tree's `models/…`
/// fixed at compile time.
fn default_candidates(model: &ModelFiles) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Some(exe_dir) = std::env::current_exe().ok().and_then(|p| p.parent().map(Path::to_path_buf)) {
        out.push(exe_dir.join("../lib/Almirah").join(model.subdir));
        out.push(exe_dir.join(model.subdir));
        out.push(exe_dir.join("../..").join(model.subdir));
        out.push(exe_dir.join("../../..").join(model.subdir));
    }
    out.push(Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(model.subdir));
    out
}

fn is_complete(dir: &Path, model: &ModelFiles) -> bool {
    model.files.iter().all(|f| dir.join(f).is_file())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    #[test]
    fn explicit_missing_dir_is_model_missing_with_fetch_hint() {
        let tmp = tempfile::tempdir().unwrap();
        let err = model_dir(Some(tmp.path()), &MINILM).unwrap_err();
        assert!(matches!(&err, EmbedError::ModelMissing { path } if path == tmp.path()));
        assert!(err.to_string().contains("scripts/fetch-models.sh"));
    }

    #[test]
    fn explicit_complete_dir_is_used() {
        let tmp = tempfile::tempdir().unwrap();
        for f in MINILM.files {
            std::fs::write(tmp.path().join(f), b"x").unwrap();
        }
        assert_eq!(model_dir(Some(tmp.path()), &MINILM).unwrap(), tmp.path());
    }

    #[test]
    fn source_tree_is_the_last_candidate() {
        let last = default_candidates(&MINILM).pop().unwrap();
        assert!(last.ends_with(MINILM.subdir));
    }
}
