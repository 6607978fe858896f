//! Per-question scores and per-mode summaries.

use serde::{Deserialize, Serialize};

use super::retrieval::{ranked_documents, recall_at};
use super::set::EvalItem;
use crate::citations::strip_citations;
use crate::classic::Answer;
use crate::trace::Step;

/// How one question went.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct QuestionResult {
    /// Item id.
    pub id: String,
    /// Mode it ran in.
    pub mode: String,
    /// The question asked.
    pub question: String,
    /// What a right answer holds: one of `answer_any`, or "(abstain)".
    pub expected: String,
    /// The answer text.
    pub answer: String,
    /// Correct: expected strings present, forbidden ones absent, abstention as expected.
    pub correct: bool,
    /// Best token F1 against the `answer_any` references (1.0 for a correct abstention).
    pub f1: f64,
    /// The whole answer equals a reference after SQuAD normalisation
    /// (lowercase, no punctuation or articles); a correct abstention counts.
    pub exact_match: bool,
    /// Recall@5 of the gold sources over the admitted documents, ranked as in
    /// [`ranked_documents`] (`None` without gold sources).
    pub recall_at_5: Option<f64>,
    /// Recall@10 likewise.
    pub recall_at_10: Option<f64>,
    /// Every gold source was retrieved and admitted (`None` when there are none).
    pub coverage: Option<bool>,
    /// Cited file names.
    pub cited: Vec<String>,
    /// Share of citations in `sources_all` (`None` without citations or gold sources).
    pub citation_precision: Option<f64>,
    /// A file in `sources_none` was cited.
    pub stale_citation: bool,
    /// The system abstained.
    pub abstained: bool,
    /// Words in the answer, citations removed.
    #[serde(default)]
    pub answer_words: usize,
    /// The set expects an abstention.
    pub expect_abstain: bool,
    /// Wall time, ms.
    pub ms: f64,
    /// Model calls.
    pub model_calls: u32,
    /// Router label (`simple`, `multi-part`, …).
    #[serde(default)]
    pub route: String,
    /// Tool calls.
    pub tool_calls: u32,
    /// Prompt tokens.
    pub input_tokens: u64,
    /// Completion tokens.
    pub output_tokens: u64,
    /// The builtin answered because the configured model gave no verified
    /// sentence ([`crate::fallback`]).
    #[serde(default)]
    pub fallback: bool,
}

fn file_name(path: &str) -> String {
    path.rsplit('/').next().unwrap_or(path).to_string()
}

/// Whether a cited or retrieved `path` is the expected source: a file name
/// matches the last path component; an entry with a `/`
/// (`travel-and-leave/overtime/2024-11-26_1e49556.md`, for corpora where one
/// commit's file name recurs in many folders) matches as a path suffix.
pub fn source_matches(path: &str, expected: &str) -> bool {
    if expected.contains('/') {
        path == expected || path.ends_with(&format!("/{}", expected.trim_start_matches('/')))
    } else {
        file_name(path) == expected
    }
}

/// Score one answer.
pub fn score(item: &EvalItem, answer: &Answer, mode: &str) -> QuestionResult {
    let e = &item.expect;
    let text = strip_citations(&answer.text).to_lowercase();
    let correct = if e.abstain { answer.abstained } else { !answer.abstained && answer_matches(e, &text) };
    let cited_paths: Vec<&str> = answer.citations.iter().map(|c| c.path.as_str()).collect();
    let cited: Vec<String> = cited_paths.iter().map(|p| file_name(p)).collect();
    let admitted = admitted_files(answer);
    let any_of = |paths: &[&str], expected: &[String]| -> Vec<bool> {
        paths.iter().map(|p| expected.iter().any(|e| source_matches(p, e))).collect()
    };
    let coverage = (!e.sources_all.is_empty())
        .then(|| e.sources_all.iter().all(|s| admitted.iter().any(|p| source_matches(p, s))));
    let citation_precision = (!cited.is_empty() && !e.sources_all.is_empty())
        .then(|| any_of(&cited_paths, &e.sources_all).iter().filter(|m| **m).count() as f64 / cited.len() as f64);
    let stale_citation = any_of(&cited_paths, &e.sources_none).contains(&true);
    let f1 = if e.abstain {
        if answer.abstained { 1.0 } else { 0.0 }
    } else {
        e.answer_any.iter().map(|r| token_f1(&text, r)).fold(0.0, f64::max)
    };
    let exact_match = if e.abstain {
        answer.abstained
    } else {
        let said = squad_normalise(&text);
        e.answer_any.iter().any(|r| squad_normalise(r) == said)
    };
    let ranked = ranked_documents(answer);
    let (input_tokens, output_tokens) = tokens(answer);
    QuestionResult {
        id: item.id.clone(),
        mode: mode.to_string(),
        question: item.question.clone(),
        expected: if e.abstain { "(abstain)".into() } else { e.answer_any.join(" | ") },
        answer: answer.text.clone(),
        correct,
        f1,
        exact_match,
        recall_at_5: recall_at(&ranked, &e.sources_all, 5),
        recall_at_10: recall_at(&ranked, &e.sources_all, 10),
        coverage,
        stale_citation,
        cited,
        citation_precision,
        abstained: answer.abstained,
        answer_words: text.split_whitespace().count(),
        expect_abstain: e.abstain,
        ms: answer.trace.total_ms,
        model_calls: answer.trace.model_calls,
        route: answer.route.clone(),
        tool_calls: answer.trace.tool_calls,
        input_tokens,
        output_tokens,
        fallback: crate::fallback::fell_back(&answer.trace),
    }
}

/// Whether `text` (lower-cased, citations removed) is a right answer for
/// `e`: a yes/no question (every `answer_any` is "yes" or "no") is judged by
/// the answer's first word alone, so "No: ..." is not credited for "yes"
/// and a "yes" buried in the evidence does not count; otherwise one of
/// `answer_any` occurs as whole words ("35" does not match "1935", "no"
/// does not match "not" or "November") and none of `answer_none` does.
pub fn answer_matches(e: &super::set::Expect, text: &str) -> bool {
    let is_yes_no = |a: &String| matches!(a.trim().to_lowercase().as_str(), "yes" | "no");
    if !e.answer_any.is_empty() && e.answer_any.iter().all(is_yes_no) {
        let first = text.split(|c: char| !c.is_alphanumeric()).find(|w| !w.is_empty()).unwrap_or_default();
        return e.answer_any.iter().any(|a| a.trim().eq_ignore_ascii_case(first));
    }
    let any = e.answer_any.is_empty() || e.answer_any.iter().any(|a| contains_words(text, &a.to_lowercase()));
    any && e.answer_none.iter().all(|a| !contains_words(text, &a.to_lowercase()))
}

/// Whether `needle` occurs in `text` on word boundaries: where the needle
/// starts (ends) with a letter or digit, the text character before (after)
/// the match is not one. Both are compared as given (lower-case them first).
pub fn contains_words(text: &str, needle: &str) -> bool {
    let needle = needle.trim();
    if needle.is_empty() {
        return true;
    }
    let word_start = needle.chars().next().is_some_and(char::is_alphanumeric);
    let word_end = needle.chars().next_back().is_some_and(char::is_alphanumeric);
    let mut from = 0;
    while let Some(i) = text[from..].find(needle) {
        let (start, end) = (from + i, from + i + needle.len());
        let before = text[..start].chars().next_back().is_some_and(char::is_alphanumeric);
        let after = text[end..].chars().next().is_some_and(char::is_alphanumeric);
        let split_word = (word_start && before) || (word_end && after);
        if !split_word {
            return true;
        }
        from = start + text[start..].chars().next().map_or(1, char::len_utf8);
    }
    false
}

/// Paths of every chunk a search admitted.
fn admitted_files(answer: &Answer) -> Vec<&str> {
    let mut files = Vec::new();
    for step in &answer.trace.steps {
        if let Step::Search { hits, .. } = step {
            files.extend(hits.iter().map(|h| h.path.as_str()));
        }
    }
    files
}

fn tokens(answer: &Answer) -> (u64, u64) {
    answer.trace.steps.iter().fold((0, 0), |acc, s| match s {
        Step::Model { input_tokens, output_tokens, .. } => (acc.0 + input_tokens, acc.1 + output_tokens),
        _ => acc,
    })
}

/// SQuAD answer normalisation (Rajpurkar et al. 2016, the official
/// `evaluate-v1.1.py`): lowercase, drop punctuation and the articles a, an,
/// the, collapse whitespace.
pub fn squad_normalise(s: &str) -> String {
    let no_punct: String = s.to_lowercase().chars().map(|c| if c.is_ascii_punctuation() { ' ' } else { c }).collect();
    no_punct.split_whitespace().filter(|w| !matches!(*w, "a" | "an" | "the")).collect::<Vec<_>>().join(" ")
}

/// Token-level F1 of `answer` against `reference` (lowercased, alphanumeric tokens).
pub fn token_f1(answer: &str, reference: &str) -> f64 {
    let toks = |s: &str| -> Vec<String> {
        s.to_lowercase().split(|c: char| !c.is_alphanumeric()).filter(|t| !t.is_empty()).map(String::from).collect()
    };
    let (a, r) = (toks(answer), toks(reference));
    if a.is_empty() || r.is_empty() {
        return 0.0;
    }
    let mut pool = r.clone();
    let mut common = 0usize;
    for t in &a {
        if let Some(i) = pool.iter().position(|x| x == t) {
            pool.swap_remove(i);
            common += 1;
        }
    }
    if common == 0 {
        return 0.0;
    }
    let p = common as f64 / a.len() as f64;
    let rc = common as f64 / r.len() as f64;
    2.0 * p * rc / (p + rc)
}

/// The summary of one mode.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    /// Mode.
    pub mode: String,
    /// Questions.
    pub questions: usize,
    /// Share correct.
    pub accuracy: f64,
    /// Mean token F1.
    pub f1: f64,
    /// Share of exact matches (SQuAD normalisation).
    pub exact_match: f64,
    /// Mean recall@5 of the gold sources, over questions that have some.
    pub recall_at_5: f64,
    /// Mean recall@10 likewise.
    pub recall_at_10: f64,
    /// Share of questions with gold sources whose sources were all admitted.
    pub retrieval_coverage: f64,
    /// Mean citation precision.
    pub citation_precision: f64,
    /// Mean citations per answered question.
    pub citations_per_answer: f64,
    /// Share of questions citing a stale source.
    pub stale_citation_rate: f64,
    /// Of the abstentions, the share that should have abstained.
    pub abstention_precision: f64,
    /// Of the questions to abstain on, the share abstained.
    pub abstention_recall: f64,
    /// Latency p50, ms.
    pub p50_ms: f64,
    /// Latency p95, ms.
    pub p95_ms: f64,
    /// Mean model calls.
    pub model_calls: f64,
    /// Mean model plus tool calls on simple and historical questions (the
    /// ones `auto` keeps on the classic path).
    pub simple_calls: f64,
    /// Mean input tokens per question.
    pub input_tokens: f64,
    /// Mean tool calls.
    pub tool_calls: f64,
    /// Mean words per answer, over the questions answered (not abstained).
    pub answer_words: f64,
    /// Mean prompt plus completion tokens.
    pub tokens: f64,
    /// Share of questions the builtin answered for the configured model.
    #[serde(default)]
    pub fallback_rate: f64,
    /// Share of questions answered correctly by the configured model
    /// itself (a builtin fallback counts as not correct).
    #[serde(default)]
    pub own_accuracy: f64,
    /// Share of the questions to answer (not to abstain on) that were abstained.
    #[serde(default)]
    pub false_abstention_rate: f64,
}

fn mean(xs: impl Iterator<Item = f64>) -> f64 {
    let v: Vec<f64> = xs.collect();
    if v.is_empty() { 0.0 } else { v.iter().sum::<f64>() / v.len() as f64 }
}

/// Nearest-rank percentile of `xs` (0..=100).
pub fn percentile(xs: &[f64], p: f64) -> f64 {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    if v.is_empty() {
        return 0.0;
    }
    let rank = ((p / 100.0) * v.len() as f64).ceil() as usize;
    v[rank.clamp(1, v.len()) - 1]
}

/// Summarise the results of one mode.
pub fn summarise(mode: &str, results: &[QuestionResult]) -> Summary {
    let b = |x: bool| if x { 1.0 } else { 0.0 };
    let abstained: Vec<&QuestionResult> = results.iter().filter(|r| r.abstained).collect();
    let expected: Vec<&QuestionResult> = results.iter().filter(|r| r.expect_abstain).collect();
    let ms: Vec<f64> = results.iter().map(|r| r.ms).collect();
    Summary {
        mode: mode.to_string(),
        questions: results.len(),
        accuracy: mean(results.iter().map(|r| b(r.correct))),
        f1: mean(results.iter().map(|r| r.f1)),
        exact_match: mean(results.iter().map(|r| b(r.exact_match))),
        recall_at_5: mean(results.iter().filter_map(|r| r.recall_at_5)),
        recall_at_10: mean(results.iter().filter_map(|r| r.recall_at_10)),
        retrieval_coverage: mean(results.iter().filter_map(|r| r.coverage).map(b)),
        citation_precision: mean(results.iter().filter_map(|r| r.citation_precision)),
        citations_per_answer: mean(results.iter().filter(|r| !r.abstained).map(|r| r.cited.len() as f64)),
        stale_citation_rate: mean(results.iter().map(|r| b(r.stale_citation))),
        abstention_precision: if abstained.is_empty() {
            1.0
        } else {
            mean(abstained.iter().map(|r| b(r.expect_abstain)))
        },
        abstention_recall: if expected.is_empty() { 1.0 } else { mean(expected.iter().map(|r| b(r.abstained))) },
        p50_ms: percentile(&ms, 50.0),
        p95_ms: percentile(&ms, 95.0),
        model_calls: mean(results.iter().map(|r| r.model_calls as f64)),
        simple_calls: mean(
            results
                .iter()
                .filter(|r| matches!(r.route.as_str(), "simple" | "historical"))
                .map(|r| (r.model_calls + r.tool_calls) as f64),
        ),
        input_tokens: mean(results.iter().map(|r| r.input_tokens as f64)),
        tool_calls: mean(results.iter().map(|r| r.tool_calls as f64)),
        answer_words: mean(results.iter().filter(|r| !r.abstained).map(|r| r.answer_words as f64)),
        tokens: mean(results.iter().map(|r| (r.input_tokens + r.output_tokens) as f64)),
        fallback_rate: mean(results.iter().map(|r| b(r.fallback))),
        own_accuracy: mean(results.iter().map(|r| b(r.correct && !r.fallback))),
        false_abstention_rate: mean(results.iter().filter(|r| !r.expect_abstain).map(|r| b(r.abstained))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_f1_and_percentiles() {
        assert!((token_f1("18 days a year", "18 days") - 2.0 * 0.5 * 1.0 / 1.5).abs() < 1e-9);
        assert_eq!(token_f1("nothing", "18 days"), 0.0);
        assert_eq!(percentile(&[5.0, 1.0, 3.0, 2.0, 4.0], 50.0), 3.0);
        assert_eq!(percentile(&[5.0, 1.0, 3.0, 2.0, 4.0], 95.0), 5.0);
    }

    #[test]
    fn answers_match_whole_words_only() {
        assert!(contains_words("the cap is rs 35 a day.", "35"));
        assert!(!contains_words("founded in 1935.", "35"));
        assert!(!contains_words("this is not allowed", "no"));
        assert!(!contains_words("christopher nolan directed it", "no"));
        assert!(contains_words("up to 4 hours (for each election)", "4 hours"));
        assert!(contains_words("e-mail hr@example.gov.", "hr@example.gov"));
        assert!(contains_words("$1,000.", "$1,000"));
        assert!(!contains_words("$11,000.", "1,000"));
        assert!(contains_words("आवास शुल्क 50%", "50%"));
    }

    #[test]
    fn yes_no_is_judged_by_the_first_word() {
        let expect = |any: &[&str]| super::super::set::Expect {
            answer_any: any.iter().map(|s| s.to_string()).collect(),
            ..Default::default()
        };
        assert!(answer_matches(&expect(&["no"]), "no: credit hours never expire."));
        assert!(!answer_matches(&expect(&["no"]), "yes: there is no limit."));
        assert!(!answer_matches(&expect(&["yes"]), "the policy says yes in one case."));
        assert!(answer_matches(&expect(&["yes"]), "\"yes\" - both are documentaries"));
        let mixed = expect(&["35 hours"]);
        assert!(!answer_matches(&mixed, "up to 135 hours."));
        let mut forbidden = expect(&["march"]);
        forbidden.answer_none = vec!["no".into()];
        assert!(answer_matches(&forbidden, "by march, not later."), "\"not\" is not the forbidden \"no\"");
    }

    #[test]
    fn squad_normalisation_drops_case_punctuation_and_articles() {
        assert_eq!(squad_normalise("The  Spirit."), "spirit");
        assert_eq!(squad_normalise("G. Stanley Hall"), "g stanley hall");
        assert_ne!(squad_normalise("a spirit of the air"), squad_normalise("a spirit"));
    }

    #[test]
    fn sources_match_by_file_name_or_by_path_suffix() {
        let path = "/c/versions/travel-and-leave/overtime/2024-11-26_1e49556.md";
        assert!(source_matches(path, "2024-11-26_1e49556.md"));
        assert!(source_matches(path, "travel-and-leave/overtime/2024-11-26_1e49556.md"));
        assert!(!source_matches(path, "travel-and-leave/leave/2024-11-26_1e49556.md"));
        assert!(!source_matches(path, "time/2024-11-26_1e49556.md"), "suffixes match whole components");
    }
}
