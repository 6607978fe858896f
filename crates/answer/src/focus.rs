//! Focused evidence for small models (issue 18): the passages a drafting
//! prompt shows, ordered by how well their best sentence answers the
//! question and cut to a window around that sentence.
//!
//! A 1.5B model reading ten whole chunks (about 2,000 tokens) picks a
//! wrong but verifiable sentence more often than the builtin, and reading
//! the prompt takes most of its time (30-44 tokens/s on 2 cores). The
//! builtin's sentence scorer ([`BuiltinModel::score_in`]: coverage of the
//! question's terms, the answer type, rank) orders the passages here, so
//! the passage whose sentence the builtin would quote is `[1]`, and each
//! passage keeps only the sentences nearest its best one. The focused
//! copies keep their chunk keys: the checks still verify every sentence
//! against the whole chunk, and a model can cite only what it was shown.

use std::collections::HashMap;

use crate::builtin::{BuiltinModel, join_wrapped_lines, table_text};
use crate::citations::split_sentences;
use crate::evidence::Evidence;
use crate::model::ChatModel;
use crate::question::Question;

/// How much of the evidence a focused prompt shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Focus {
    /// Passages shown at most.
    pub passages: usize,
    /// Words of each passage shown at most (whitespace-separated words; the
    /// best sentence is always shown whole, even when longer).
    pub words: usize,
}

impl Focus {
    /// The budget for a small local model: 5 passages of at most 120 words,
    /// about 900 prompt tokens of evidence.
    pub const SMALL: Focus = Focus { passages: 5, words: 120 };
}

/// The evidence a drafting prompt shows `model`: [`focused`] by `builtin`
/// (the question's own, [`BuiltinModel::for_reader`]) with [`Focus::SMALL`]
/// when the model [reads focused
/// evidence](ChatModel::reads_focused_evidence), else all of it.
pub fn shown(
    model: &dyn ChatModel,
    builtin: &BuiltinModel,
    question: &Question,
    evidence: &[Evidence],
) -> Vec<Evidence> {
    if model.reads_focused_evidence() { focused(builtin, question, evidence, Focus::SMALL) } else { evidence.to_vec() }
}

/// The passages of `evidence` to show for `question`, scored by `builtin`
/// (by meaning too when it has the library's embedder): at most
/// `focus.passages`, the one holding the best-scored sentence first, each
/// cut to at most `focus.words` words around its best sentence (an elided
/// start or end is marked "…"). Passages none of whose sentences share a
/// term with the question follow in retrieval order. Keys, titles,
/// headings and notes are kept; only `text` is cut.
pub fn focused(builtin: &BuiltinModel, question: &Question, evidence: &[Evidence], focus: Focus) -> Vec<Evidence> {
    let scored = builtin.score_in(question, evidence, evidence.len());
    // The best score of each sentence, by chunk key and sentence text.
    let mut best: HashMap<(&str, &str), f32> = HashMap::new();
    for s in &scored {
        best.entry((s.key.as_str(), s.text.as_str())).or_insert(s.score);
    }
    let passage_score = |e: &Evidence| scored.iter().find(|s| s.key == e.key).map_or(f32::NEG_INFINITY, |s| s.score);
    let mut order: Vec<(usize, f32)> = evidence.iter().enumerate().map(|(i, e)| (i, passage_score(e))).collect();
    // Stable: equal scores (and the unscored) keep retrieval order.
    order.sort_by(|a, b| b.1.total_cmp(&a.1));
    order
        .into_iter()
        .take(focus.passages)
        .map(|(i, _)| {
            let e = &evidence[i];
            let score_of = |text: &str| best.get(&(e.key.as_str(), text)).copied();
            Evidence { text: window(&e.text, score_of, focus.words), ..e.clone() }
        })
        .collect()
}

/// `text` cut to at most `words` words around its best-scored sentence,
/// growing a sentence at a time on each side (the next, then the one
/// before) while the budget holds; the whole text when it fits.
fn window(text: &str, score_of: impl Fn(&str) -> Option<f32>, words: usize) -> String {
    let count = |s: &str| s.split_whitespace().count();
    if count(text) <= words {
        return text.to_string();
    }
    let sentences: Vec<String> = split_sentences(&join_wrapped_lines(&table_text::rows_as_sentences(text)))
        .into_iter()
        .map(|s| s.text.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect();
    let Some(centre) = (0..sentences.len())
        .filter_map(|i| score_of(&sentences[i]).map(|score| (i, score)))
        .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)))
        .map(|(i, _)| i)
    else {
        // No sentence scored: the opening of the chunk.
        return first_words(text, words);
    };
    let (mut from, mut to) = (centre, centre + 1);
    let mut used = count(&sentences[centre]);
    loop {
        let mut grew = false;
        if let Some(n) = sentences.get(to).map(|s| count(s)).filter(|n| used + n <= words) {
            used += n;
            to += 1;
            grew = true;
        }
        if let Some(n) = from.checked_sub(1).map(|j| count(&sentences[j])).filter(|n| used + n <= words) {
            used += n;
            from -= 1;
            grew = true;
        }
        if !grew {
            break;
        }
    }
    let mut out = sentences[from..to].join(" ");
    if from > 0 {
        out = format!("… {out}");
    }
    if to < sentences.len() {
        out.push_str(" …");
    }
    out
}

/// The first `words` words of `text`, then "…".
fn first_words(text: &str, words: usize) -> String {
    let head: Vec<&str> = text.split_whitespace().take(words).collect();
    format!("{} …", head.join(" "))
}

#[cfg(test)]
mod tests;
