//! Helpers for driving the real `almirah` binary.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// `../shared/corpora` (or `$ALMIRAH_CORPORA`); fails the test when missing.
pub fn corpora() -> PathBuf {
    let path = std::env::var_os("ALMIRAH_CORPORA")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpora"));
    assert!(path.is_dir(), "test corpora missing at {} (set ALMIRAH_CORPORA)", path.display());
    path
}

/// A library folder with a config file selecting `embedder_toml`.
pub struct Library {
    /// Holds the data and config.
    pub dir: tempfile::TempDir,
}

impl Library {
    /// A library using the deterministic hash embedder and small batches.
    pub fn hash(batch_max_chunks: usize) -> Self {
        Self::with_config(&format!(
            "[embedder]\nprovider = \"hash\"\ndimensions = 64\n[index]\nbatch_max_chunks = {batch_max_chunks}\nextract_timeout_secs = 120\n"
        ))
    }

    /// A library with the given config file text.
    pub fn with_config(config: &str) -> Self {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("config.toml"), config).unwrap();
        Self { dir }
    }

    /// The data folder.
    pub fn data(&self) -> PathBuf {
        self.dir.path().join("data")
    }

    /// `almirah --data-dir … --config … <args>`, not yet run.
    pub fn cmd(&self, args: &[&str]) -> Command {
        let mut c = Command::new(env!("CARGO_BIN_EXE_almirah"));
        c.arg("--data-dir").arg(self.data()).arg("--config").arg(self.dir.path().join("config.toml"));
        c.args(args);
        c.env_remove("ALMIRAH_FAILPOINT");
        c
    }

    /// Run and return the output.
    pub fn run(&self, args: &[&str]) -> Output {
        self.cmd(args).output().unwrap()
    }

    /// Run with `--json` and parse stdout.
    pub fn json(&self, args: &[&str]) -> serde_json::Value {
        let mut full = vec!["--json"];
        full.extend_from_slice(args);
        let out = self.run(&full);
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
            panic!(
                "bad JSON ({e}) from {args:?}: {}\n{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            )
        })
    }

    /// The logical dump hash.
    pub fn dump_hash(&self) -> String {
        let out = self.run(&["__dump"]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        v["hash"].as_str().unwrap().to_string()
    }
}

/// Copy a folder tree.
pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        let p = entry.path();
        let dest = to.join(entry.file_name());
        if p.is_dir() {
            copy_tree(&p, &dest);
        } else {
            std::fs::copy(&p, &dest).unwrap();
        }
    }
}

/// Every Markdown file under `dir`, as sorted relative paths.
pub fn markdown_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap().flatten() {
            let p = entry.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|e| e == "md") {
                out.push(p.strip_prefix(dir).unwrap().to_path_buf());
            }
        }
    }
    out.sort();
    out
}

/// Copy `from/rel` to `to/rel`, creating folders.
pub fn copy_rel(from: &Path, to: &Path, rel: &Path) {
    let dest = to.join(rel);
    std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
    std::fs::copy(from.join(rel), dest).unwrap();
}
