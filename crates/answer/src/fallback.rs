//! The builtin fallback: when the configured chat model gives no verified
//! sentence (it abstained, or every sentence failed the checks even after
//! the one regeneration), the builtin extractive model answers from the
//! same admitted evidence, through the same checks. The trace records a
//! [`Step::Fallback`], and the answer says who wrote it
//! ([`fallback_note`]), so a user and the evaluation can tell the
//! configured model's answers from the builtin's (issue 18).
//!
//! A model that could not be reached is not replaced: that stays a
//! provider error, so a broken configuration is never hidden.

use crate::builtin::BuiltinModel;
use crate::evidence::Evidence;
use crate::model::{ChatModel, Draft};
use crate::question::Question;
use crate::trace::{Step, Trace};

/// `draft` (the configured model's verified draft), or `builtin`'s
/// verified draft from `evidence` when `draft` has no sentence, `model_id`
/// is not the builtin and the builtin finds a verified answer. `builtin`
/// is the question's own ([`BuiltinModel::for_reader`]: by meaning, as
/// the builtin answers on its own). The builtin's draft keeps `draft`'s
/// token usage; its `dropped` is 0, because the note says why the
/// configured model's sentences are not shown.
pub fn builtin_instead(
    builtin: &BuiltinModel,
    model_id: &str,
    draft: Draft,
    question: &Question,
    evidence: &[Evidence],
    trace: &mut Trace,
) -> Draft {
    if !draft.sentences.is_empty() || model_id == "builtin" || evidence.is_empty() {
        return draft;
    }
    let Ok(builtin) = builtin.answer(question, evidence, None) else { return draft };
    let builtin = crate::verify::keep_verified(builtin, evidence, question);
    if builtin.sentences.is_empty() {
        return draft;
    }
    let reason = match draft.dropped {
        0 => "abstained".to_string(),
        n => format!("had {n} sentence(s) that failed the checks"),
    };
    trace.steps.push(Step::Fallback { from: model_id.into(), reason, sentences: builtin.sentences.len() });
    Draft { sentences: builtin.sentences, usage: draft.usage, dropped: 0 }
}

/// The line an answer ends with when the builtin answered for the
/// configured model, or `None` when it did not.
pub fn fallback_note(trace: &Trace) -> Option<String> {
    trace.steps.iter().find_map(|s| match s {
        Step::Fallback { from, reason, .. } => {
            Some(format!("(Answered by the builtin extractive model: {from} {reason}.)"))
        }
        _ => None,
    })
}

/// Whether the builtin answered for the configured model in `trace`.
pub fn fell_back(trace: &Trace) -> bool {
    trace.steps.iter().any(|s| matches!(s, Step::Fallback { .. }))
}
