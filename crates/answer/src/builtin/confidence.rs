//! The answer-or-abstain gate's fitted clause: a candidate sentence also
//! answers when a logistic regression of "this sentence holds the answer"
//! (Cox 1958; Hastie et al., *The Elements of Statistical Learning*,
//! §4.4) gives it at least [`CONFIDENT`]. The rule clauses ([`Scored::answers`],
//! [`Scored::close_in_meaning`]) stay; this one answers paraphrased questions
//! whose words a document does not repeat, when their meaning, the
//! chunk's search score and the weight of the terms it holds agree.
//!
//! Fitted by `scripts/eval/gate_fit.py` on the candidates the builtin
//! dumped for the tuning halves of sample-docs, versions, handbooks and
//! tune-handbooks2 at 7928f36 (1,774 candidates, 147 holding the answer);
//! the threshold is the one with the most right answers on those halves.
//! Simulated there (an approximation: top-20 dump, all terms for the short-
//! question exclusion): tuning 89 → 92 of 135 right, reporting 44 → 45 of
//! 51. Measured by the evaluation (classic, `--half all`): tuning 119 → 117
//! (two out-of-scope questions of sample-docs and one of handbooks now
//! answered), reporting 49 → 50, first sight 44 → 48 of 140.
//! `ALMIRAH_ABLATE=confidence` switches it off.

use super::Scored;
use super::features::switched_off;

/// Weights, in the order of [`inputs`]: coverage, weighted coverage,
/// meaning, typed, lacks the value, retrieval.
const WEIGHTS: [f32; 6] = [0.667, 3.25, 2.09, 0.447, -1.54, 4.69];
/// The intercept.
const BIAS: f32 = -9.25;
/// The fused search score (reciprocal rank fusion, k = 60; about 0.016 to
/// 0.033) times this is the fit's `retrieval` input (about 0.5 to 1.0).
const RETRIEVAL_SCALE: f32 = 30.0;
/// The highest fused score two ranked lists give (first in both: 2 / 61).
/// A higher score (a test's 1.0) counts as this; a hit with no search
/// score (a table lookup, a chunk read by key: 0) counts as the lowest, so
/// the clause is conservative there. A BM25-only library (vectors still
/// being built) tops out at 1 / 61 and leans on the other inputs.
const RETRIEVAL_MAX: f32 = 2.0 / 61.0;
/// Probability at which the clause answers.
pub const CONFIDENT: f32 = 0.08;

/// The fit's inputs for `s`, whose chunk's fused search score is
/// `retrieval`: weighted coverage is plain coverage when the library gave
/// no term weights, and meaning is 0 for a sentence not compared by it.
fn inputs(s: &Scored, retrieval: f32) -> [f32; 6] {
    [
        s.coverage,
        s.weighted_coverage.unwrap_or(s.coverage),
        s.meaning.unwrap_or(0.0),
        f32::from(s.typed),
        f32::from(s.lacks_value),
        retrieval.clamp(0.0, RETRIEVAL_MAX) * RETRIEVAL_SCALE,
    ]
}

/// The fitted probability (0..=1) that `s` holds the answer.
pub fn probability(s: &Scored, retrieval: f32) -> f32 {
    let z = BIAS + WEIGHTS.iter().zip(inputs(s, retrieval)).map(|(w, x)| w * x).sum::<f32>();
    1.0 / (1.0 + (-z).exp())
}

/// Whether the fitted clause lets `s` answer (never when ablated).
pub fn confident(s: &Scored, retrieval: f32) -> bool {
    !switched_off("confidence") && probability(s, retrieval) >= CONFIDENT
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scored(coverage: f32, meaning: Option<f32>, typed: bool) -> Scored {
        Scored {
            text: "Please allow 10 business days.".into(),
            key: "doc::a#1".into(),
            coverage,
            weighted_coverage: None,
            score: coverage,
            features: Default::default(),
            meaning,
            typed,
            lacks_value: false,
            direct: coverage,
            at: (0, 0),
            lead: crate::builtin::Lead::None,
        }
    }

    #[test]
    fn meaning_and_a_high_search_score_answer_what_words_alone_do_not() {
        let paraphrase = scored(0.25, Some(0.6), true);
        assert!(confident(&paraphrase, 0.033), "p = {}", probability(&paraphrase, 0.033));
        // A score on another scale counts as the highest fused one.
        assert_eq!(probability(&paraphrase, 1.0), probability(&paraphrase, RETRIEVAL_MAX));
        // The same sentence from a chunk the search ranked low, or unrelated in meaning, does not.
        assert!(!confident(&paraphrase, 0.016), "p = {}", probability(&paraphrase, 0.016));
        assert!(!confident(&scored(0.25, Some(0.1), true), 0.033));
        // Every input moves the probability the way its weight says.
        let base = probability(&paraphrase, 0.025);
        assert!(probability(&scored(0.5, Some(0.6), true), 0.025) > base);
        assert!(probability(&scored(0.25, Some(0.7), true), 0.025) > base);
        assert!(probability(&scored(0.25, Some(0.6), false), 0.025) < base);
    }
}
