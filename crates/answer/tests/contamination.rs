//! Reporting figures are honest only when no rule was written while looking
//! at the questions they are computed on. This test fails when the source or
//! the tests of the project quote a reporting-half question (any run of
//! [`WINDOW`] consecutive words of it, or all of a shorter one) or its id.
//! A question found quoted moves to the tuning half (`"half": "tuning"` on
//! its line); a first-sight set (`eval/first-sight/`) may never be quoted or
//! pinned, since all of it is reporting.

#![allow(clippy::expect_used)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use almirah_answer::eval::{EvalItem, Half, load};

/// Consecutive words of a question that count as a quote.
const WINDOW: usize = 8;

/// Folders of the project whose text files are its source and tests.
const SOURCE_DIRS: [&str; 4] = ["crates", "src-tauri", "ui/src", "scripts"];

/// File kinds read as source.
const SOURCE_EXTENSIONS: [&str; 7] = ["rs", "ts", "svelte", "js", "py", "sh", "toml"];

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Lower-case words of `text`: runs of letters and digits (Devanagari
/// included), everything else a separator.
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric() && !is_devanagari_mark(c))
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

fn is_devanagari_mark(c: char) -> bool {
    ('\u{0900}'..='\u{097f}').contains(&c)
}

/// The text of every source file under [`SOURCE_DIRS`], as `" w1 w2 … "`
/// (words joined by single spaces) beside its raw text.
fn sources() -> Vec<(PathBuf, String, String)> {
    let mut out = Vec::new();
    let mut stack: Vec<PathBuf> = SOURCE_DIRS.iter().map(|d| repo_root().join(d)).collect();
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            if path.is_dir() {
                if !matches!(name.as_str(), "target" | "node_modules" | "gen" | "dist") {
                    stack.push(path);
                }
            } else if path.extension().is_some_and(|e| SOURCE_EXTENSIONS.iter().any(|x| e == *x)) {
                let Ok(raw) = std::fs::read_to_string(&path) else { continue };
                let joined = format!(" {} ", words(&raw).join(" "));
                out.push((path, joined, raw));
            }
        }
    }
    out
}

/// Every question file under `eval/` (first-sight sets included), with
/// whether it is a first-sight set.
fn question_files() -> Vec<(PathBuf, bool)> {
    let eval = repo_root().join("eval");
    let mut files = Vec::new();
    for (dir, first_sight) in [(eval.clone(), false), (eval.join("first-sight"), true)] {
        for entry in std::fs::read_dir(&dir).expect("eval folder").flatten() {
            if entry.path().extension().is_some_and(|e| e == "jsonl") {
                files.push((entry.path(), first_sight));
            }
        }
    }
    files.sort();
    files
}

/// The word windows of a question that count as quoting it.
fn quote_windows(question: &str) -> Vec<String> {
    let w = words(question);
    if w.len() <= WINDOW {
        return vec![format!(" {} ", w.join(" "))];
    }
    w.windows(WINDOW).map(|win| format!(" {} ", win.join(" "))).collect()
}

/// Whether `raw` names `id` as a whole token (not inside a longer id).
fn names_id(raw: &str, id: &str) -> bool {
    let is_id_char = |c: char| c.is_alphanumeric() || c == '-' || c == '_';
    raw.match_indices(id).any(|(at, _)| {
        let before = raw[..at].chars().next_back();
        let after = raw[at + id.len()..].chars().next();
        !before.is_some_and(is_id_char) && !after.is_some_and(is_id_char)
    })
}

/// The source files that quote `item`'s question or name its id.
fn quoted_in(item: &EvalItem, sources: &[(PathBuf, String, String)]) -> Vec<PathBuf> {
    let windows = quote_windows(&item.question);
    sources
        .iter()
        .filter(|(_, joined, raw)| windows.iter().any(|w| joined.contains(w.as_str())) || names_id(raw, &item.id))
        .map(|(path, _, _)| path.strip_prefix(repo_root()).unwrap_or(path).to_path_buf())
        .collect()
}

#[test]
fn no_reporting_question_is_quoted_in_the_source_or_the_tests() {
    let sources = sources();
    assert!(sources.len() > 100, "found only {} source files under {SOURCE_DIRS:?}", sources.len());
    let mut quoted: BTreeMap<String, Vec<PathBuf>> = BTreeMap::new();
    let mut checked = 0;
    for (file, first_sight) in question_files() {
        let (items, errors) = load(&std::fs::read_to_string(&file).expect("question file"));
        assert!(errors.is_empty(), "{}: {errors:?}", file.display());
        for item in items {
            let set = file.file_name().unwrap_or_default().to_string_lossy();
            if first_sight {
                assert!(item.half.is_none(), "{set} {}: a first-sight question may not be pinned", item.id);
            } else if item.half() != Half::Reporting {
                continue;
            }
            checked += 1;
            let found = quoted_in(&item, &sources);
            if !found.is_empty() {
                quoted.insert(format!("{set} {}", item.id), found);
            }
        }
    }
    assert!(checked > 200, "only {checked} reporting questions checked");
    assert!(
        quoted.is_empty(),
        "reporting questions quoted in the source or tests (move the quote, or pin the question to the tuning half): {quoted:#?}"
    );
}

#[test]
fn the_detector_finds_a_quote_a_paraphrase_and_an_id() {
    let item = EvalItem {
        id: "leave-07".into(),
        question: "How many days of earned leave can I carry forward into the next year?".into(),
        as_of: None,
        expect: Default::default(),
        half: None,
    };
    let source = |raw: &str| (PathBuf::from("x.rs"), format!(" {} ", words(raw).join(" ")), raw.to_string());
    // Eight words in a row, across a line break and punctuation, are a quote.
    assert_eq!(quoted_in(&item, &[source("// \"many days of earned\n// leave, can I carry forward\"")]).len(), 1);
    // Seven words are not.
    assert!(quoted_in(&item, &[source("days of earned leave can I carry")]).is_empty());
    // The id as a whole token is a quote; inside a longer id it is not.
    assert_eq!(quoted_in(&item, &[source("assert_eq!(id, \"leave-07\")")]).len(), 1);
    assert!(quoted_in(&item, &[source("\"leave-070\" and \"xleave-07\"")]).is_empty());
}
