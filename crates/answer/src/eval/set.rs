//! Reading an evaluation set (JSONL). A malformed line is reported and skipped.

use serde::{Deserialize, Serialize};

/// What a correct answer looks like.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Expect {
    /// At least one must appear in the answer (case-insensitive).
    pub answer_any: Vec<String>,
    /// None may appear in the answer.
    pub answer_none: Vec<String>,
    /// File names that must be cited.
    pub sources_all: Vec<String>,
    /// File names that must never be cited (stale or wrong).
    pub sources_none: Vec<String>,
    /// The right answer is the abstention.
    pub abstain: bool,
}

/// One question.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EvalItem {
    /// Identifier.
    pub id: String,
    /// The question.
    pub question: String,
    /// The date it is asked on (YYYY-MM-DD).
    pub as_of: Option<String>,
    /// Expectations.
    #[serde(default)]
    pub expect: Expect,
}

/// Parse a JSONL set: the items, and `(line number, error)` for each bad line.
pub fn load(text: &str) -> (Vec<EvalItem>, Vec<(usize, String)>) {
    let mut items = Vec::new();
    let mut errors = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.trim_start().starts_with("//") {
            continue;
        }
        match serde_json::from_str::<EvalItem>(line) {
            Ok(item) => items.push(item),
            Err(e) => errors.push((i + 1, e.to_string())),
        }
    }
    (items, errors)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn malformed_lines_are_reported_and_skipped() {
        let text = "{\"id\":\"a\",\"question\":\"q?\",\"expect\":{\"abstain\":true}}\nnot json\n\n{\"id\":\"b\",\"question\":\"r?\"}\n";
        let (items, errors) = load(text);
        assert_eq!(items.len(), 2);
        assert!(items[0].expect.abstain);
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].0, 2);
    }
}
