//! A resumable evaluation: an append-only JSON-lines journal of finished
//! questions (issue #40). Each question's [`QuestionResult`] is appended as
//! soon as it is scored, one `write_all` of one line, so a run killed at any
//! point loses at most the question it was answering. A re-run with the
//! same journal and the same run key (the model and the commit, chosen by
//! the caller) reuses every finished question and answers only the rest.
//!
//! Line format: `{"key": "<run key>", "item": <EvalItem>, "result":
//! <QuestionResult>}`; a result is reused only for the same set line. Lines of
//! another key (another model or commit) stay in the file and are not
//! reused; a line cut short by a kill is skipped, and the next line starts
//! on a fresh line.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::metrics::QuestionResult;
use super::set::EvalItem;

/// Why the journal could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum JournalError {
    /// Opening, reading or appending to the file failed.
    #[error("journal {path}: {source}")]
    Io {
        /// The journal file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// A result could not be encoded (never expected for a scored result).
    #[error("journal {path}: encoding a result: {source}")]
    Encode {
        /// The journal file.
        path: PathBuf,
        /// The encoding error.
        source: serde_json::Error,
    },
}

#[derive(Serialize, Deserialize)]
struct Line {
    key: String,
    /// The question as the set gave it (its expectations and as-of date
    /// too): a corrected line is answered again.
    item: EvalItem,
    result: QuestionResult,
}

/// The finished questions of one run key, and the file new ones go to.
pub struct Journal {
    path: PathBuf,
    file: File,
    key: String,
    done: HashMap<(String, String), (EvalItem, QuestionResult)>,
    skipped_lines: usize,
}

impl Journal {
    /// Open (or create) the journal at `path` for the run `key`, reading
    /// the results it already holds under that key.
    ///
    /// # Errors
    /// [`JournalError::Io`] when the file cannot be opened, read or
    /// repaired (a torn last line gets its line break).
    pub fn open(path: &Path, key: &str) -> Result<Self, JournalError> {
        let io = |source| JournalError::Io { path: path.to_path_buf(), source };
        let mut file = OpenOptions::new().read(true).append(true).create(true).open(path).map_err(io)?;
        // Bytes, not text: a kill may cut a line inside a multi-byte character.
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).map_err(io)?;
        if !bytes.is_empty() && !bytes.ends_with(b"\n") {
            file.seek(SeekFrom::End(0)).map_err(io)?;
            file.write_all(b"\n").map_err(io)?;
        }
        let (mut done, mut skipped_lines) = (HashMap::new(), 0);
        for raw in bytes.split(|b| *b == b'\n').filter(|l| !l.trim_ascii().is_empty()) {
            match serde_json::from_slice::<Line>(raw) {
                Ok(line) if line.key == key => {
                    done.insert((line.result.mode.clone(), line.result.id.clone()), (line.item, line.result));
                }
                Ok(_) => {}
                Err(_) => skipped_lines += 1,
            }
        }
        Ok(Self { path: path.to_path_buf(), file, key: key.to_string(), done, skipped_lines })
    }

    /// The finished result of `item` in `mode`, if this run key holds one
    /// for the same line of the set (id, question, as-of date and
    /// expectations).
    pub fn finished(&self, mode: &str, item: &EvalItem) -> Option<&QuestionResult> {
        self.done.get(&(mode.to_string(), item.id.clone())).filter(|(asked, _)| asked == item).map(|(_, r)| r)
    }

    /// Append `result` of `item` under this run key, one line in one
    /// `write_all` (a kill can cut it short; [`Journal::open`] skips it).
    ///
    /// # Errors
    /// [`JournalError::Io`] when the append fails, [`JournalError::Encode`]
    /// when the result cannot be encoded.
    pub fn record(&mut self, item: &EvalItem, result: &QuestionResult) -> Result<(), JournalError> {
        let line = Line { key: self.key.clone(), item: item.clone(), result: result.clone() };
        let mut bytes =
            serde_json::to_vec(&line).map_err(|source| JournalError::Encode { path: self.path.clone(), source })?;
        bytes.push(b'\n');
        self.file.write_all(&bytes).map_err(|source| JournalError::Io { path: self.path.clone(), source })?;
        self.done.insert((result.mode.clone(), result.id.clone()), (item.clone(), result.clone()));
        Ok(())
    }

    /// Results held under this run key.
    pub fn len(&self) -> usize {
        self.done.len()
    }

    /// Whether no result is held under this run key.
    pub fn is_empty(&self) -> bool {
        self.done.is_empty()
    }

    /// Lines that could not be read (a line cut short by a kill, or one
    /// written by a version with another line format).
    pub fn skipped_lines(&self) -> usize {
        self.skipped_lines
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use crate::eval::set::Expect;

    fn item(id: &str, question: &str) -> EvalItem {
        EvalItem { id: id.into(), question: question.into(), as_of: None, expect: Expect::default(), half: None }
    }

    fn result(id: &str, question: &str, mode: &str) -> QuestionResult {
        serde_json::from_value(serde_json::json!({
            "id": id, "mode": mode, "question": question, "expected": "30 days", "answer": "30 days [a]",
            "correct": true, "f1": 1.0, "exact_match": false, "recall_at_5": null, "recall_at_10": null,
            "coverage": null, "cited": ["a.md"], "citation_precision": null, "stale_citation": false,
            "abstained": false, "expect_abstain": false, "ms": 12.5, "model_calls": 1, "tool_calls": 0,
            "input_tokens": 900, "output_tokens": 20
        }))
        .unwrap()
    }

    #[test]
    fn a_torn_line_is_skipped_and_the_next_record_starts_a_fresh_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j.jsonl");
        let mut j = Journal::open(&path, "m@c").unwrap();
        j.record(&item("q1", "How many days?"), &result("q1", "How many days?", "auto")).unwrap();
        drop(j);
        // A kill in the middle of the second write.
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        // Cut inside a Devanagari character.
        let torn = "{\"key\":\"m@c\",\"result\":{\"id\":\"q2\",\"question\":\"छुट्टी".as_bytes();
        f.write_all(&torn[..torn.len() - 1]).unwrap();
        drop(f);
        let mut j = Journal::open(&path, "m@c").unwrap();
        assert_eq!((j.len(), j.skipped_lines()), (1, 1));
        j.record(&item("q3", "Who approves?"), &result("q3", "Who approves?", "auto")).unwrap();
        let j = Journal::open(&path, "m@c").unwrap();
        assert_eq!((j.len(), j.skipped_lines()), (2, 1));
        assert_eq!(j.finished("auto", &item("q3", "Who approves?")).unwrap().ms, 12.5);
    }

    #[test]
    fn another_key_mode_or_question_text_is_not_reused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j.jsonl");
        let mut j = Journal::open(&path, "m@c1").unwrap();
        j.record(&item("q1", "How many days?"), &result("q1", "How many days?", "auto")).unwrap();
        let j = Journal::open(&path, "m@c2").unwrap();
        assert!(j.is_empty());
        let j = Journal::open(&path, "m@c1").unwrap();
        assert!(j.finished("auto", &item("q1", "How many days?")).is_some());
        assert!(j.finished("classic", &item("q1", "How many days?")).is_none());
        assert!(j.finished("auto", &item("q1", "How many weeks?")).is_none());
        let corrected = EvalItem { as_of: Some("2026-12-01".into()), ..item("q1", "How many days?") };
        assert!(j.finished("auto", &corrected).is_none(), "a corrected line is answered again");
    }
}
