//! Citation and numeric verification (ARCHITECTURE §5): every sentence cites
//! at least one chunk this run retrieved and admitted, and every number in
//! it appears in a cited chunk or in the question (or is shown as arithmetic
//! over such numbers).

use crate::evidence::Evidence;
use crate::model::Draft;
use crate::numeric;
use crate::trace::{Step, Trace};

/// Why one sentence fails, or `None` when it passes.
pub fn check(sentence: &str, keys: &[String], evidence: &[Evidence], question: &str) -> Option<String> {
    if keys.is_empty() {
        return Some(format!("no citation: {sentence:?}"));
    }
    let mut cited = Vec::with_capacity(keys.len());
    for k in keys {
        match evidence.iter().find(|e| &e.key == k) {
            Some(e) => cited.push(e.text.as_str()),
            None => return Some(format!("[{k}] was not retrieved and admitted")),
        }
    }
    let claim = numeric::strip_system_labels(sentence);
    numeric::check_sentence(&claim, &cited, question).err().map(|v| v.to_string())
}

/// Every failure of a draft.
pub fn failures(draft: &Draft, evidence: &[Evidence], question: &str) -> Vec<String> {
    draft.sentences.iter().filter_map(|(s, keys)| check(s, keys, evidence, question)).collect()
}

/// Record a check step per sentence.
pub fn record(draft: &Draft, evidence: &[Evidence], question: &str, trace: &mut Trace) {
    for (s, keys) in &draft.sentences {
        let verdict = check(s, keys, evidence, question).unwrap_or_else(|| "ok".into());
        trace.steps.push(Step::Check { sentence: s.clone(), verdict });
    }
}

/// The draft without the sentences that fail, counting them in `dropped`.
pub fn keep_verified(draft: Draft, evidence: &[Evidence], question: &str) -> Draft {
    let before = draft.sentences.len();
    let sentences: Vec<(String, Vec<String>)> =
        draft.sentences.into_iter().filter(|(s, keys)| check(s, keys, evidence, question).is_none()).collect();
    Draft { dropped: draft.dropped + before - sentences.len(), sentences, usage: draft.usage }
}
