//! The async runner: drives a [`Machine`] to its end, calling the model on
//! the blocking pool under the wall-clock budget, and running tools against
//! the engine.

use std::sync::Arc;
use std::time::{Duration, Instant};

use almirah_core::{Reader, Snapshot};
use chrono::NaiveDate;

use super::exec::{self, ToolOutcome};
use super::policy::Policy;
use super::{AgentConfig, AgentContext, Machine};
use crate::classic::{ABSTAIN, Answer, Status};
use crate::model::{ChatModel, ChatRequest, ChatResponse, Draft, ModelError};
use crate::question::Question;
use crate::router::RouteLabel;
use crate::trace::{Step, StopReason};

/// How long a question's snapshot may outlive its wall-clock budget: the
/// final draft (one model call, bounded by the provider's request timeout,
/// 300 s by default) and the citation check run after the budget stops the
/// loop.
const SNAPSHOT_GRACE: Duration = Duration::from_secs(600);

/// Answer `question` with the agent loop, blocking (builds a small tokio
/// runtime). Chit-chat is answered by the classic path.
///
/// # Errors
/// Storage errors, and an I/O error if the runtime cannot start.
pub fn ask_agent(
    reader: &Reader<'_>,
    model: Arc<dyn ChatModel>,
    question: &Question,
    today: NaiveDate,
    status: &dyn Status,
    cfg: &AgentConfig,
) -> almirah_core::Result<Answer> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .map_err(|source| almirah_core::Error::Io { path: "tokio runtime".into(), source })?;
    rt.block_on(run(reader, model, question, today, status, cfg))
}

/// Run the loop to its end and compose the answer. The whole question reads
/// one snapshot (one read transaction, one gate), bounded by the wall-clock
/// budget plus a grace period, so every tool call sees the same library.
///
/// # Errors
/// Storage errors.
pub async fn run(
    reader: &Reader<'_>,
    model: Arc<dyn ChatModel>,
    question: &Question,
    today: NaiveDate,
    status: &dyn Status,
    cfg: &AgentConfig,
) -> almirah_core::Result<Answer> {
    let started = Instant::now();
    let prepared = crate::classic::prepare(reader, question, today);
    if prepared.route.label == RouteLabel::ChitChat {
        return crate::classic::ask(reader, model.as_ref(), question, today, status);
    }
    let (route, as_of, trace, label) = (prepared.route, prepared.as_of, prepared.trace, prepared.label);
    let snapshot =
        reader.snapshot_with_max_age(as_of, Duration::from_millis(cfg.budgets.max_wall_ms) + SNAPSHOT_GRACE)?;
    let hops = route.label == RouteLabel::MultiHop;
    let parts = if route.parts.is_empty() { vec![question.text().to_string()] } else { route.parts.clone() };
    let builtin = Arc::new(crate::builtin::BuiltinModel::for_reader(reader));
    let mut m = Machine::new(question, parts, hops, as_of, cfg.for_model(model.as_ref()), trace).with_builtin(builtin);
    let policy = super::policy::for_model(model.clone());
    loop {
        crate::classic::check_cancelled(status)?;
        let elapsed = started.elapsed().as_millis() as u64;
        match m.next_step(elapsed) {
            super::Action::CallModel { request, context } => {
                let remaining = cfg.budgets.max_wall_ms.saturating_sub(elapsed);
                let t = Instant::now();
                let reply = call_chat(policy.clone(), request, context, remaining).await;
                m.on_model_reply(reply, &model.id(), t.elapsed().as_secs_f64() * 1000.0);
            }
            super::Action::CallTools(requests) => {
                let mut outcomes = Vec::new();
                for r in &requests {
                    if m.trace.tool_calls as usize + outcomes.len() > 0 {
                        almirah_core::failpoint::hit("agent-between-tool-calls");
                    }
                    crate::classic::check_cancelled(status)?;
                    status.line(&format!("{}: {}", r.name(), r.arguments()));
                    outcomes.push(exec::execute(&snapshot, r));
                }
                m.on_tool_results(outcomes);
            }
            super::Action::Draft { retry_note } => {
                status.line("Drafting the answer…");
                let t = Instant::now();
                let draft = draft(model.clone(), &m, retry_note).await;
                m.on_draft(draft, &model.id(), t.elapsed().as_secs_f64() * 1000.0);
            }
            super::Action::Done => break,
        }
    }
    let mut answer = finish(&m, label, &snapshot)?;
    answer.trace.total_ms = started.elapsed().as_secs_f64() * 1000.0;
    Ok(answer)
}

async fn call_chat(
    policy: Arc<dyn Policy>,
    request: ChatRequest,
    context: AgentContext,
    remaining_ms: u64,
) -> Result<ChatResponse, ModelError> {
    let job = tokio::task::spawn_blocking(move || policy.decide(&request, &context));
    match tokio::time::timeout(Duration::from_millis(remaining_ms.max(1)), job).await {
        Ok(Ok(reply)) => reply,
        Ok(Err(join)) => Err(ModelError::Unavailable(format!("model call failed: {join}"))),
        Err(_) => Err(ModelError::Unavailable(format!("no reply within the remaining {remaining_ms} ms budget"))),
    }
}

/// Draft from the gathered evidence: one call over everything, or, for a
/// model that drafts per query (the builtin), one per tool result.
async fn draft(model: Arc<dyn ChatModel>, m: &Machine, retry_note: Option<String>) -> Result<Draft, ModelError> {
    let question = m.parsed().clone();
    let parts = m.asked_parts().to_vec();
    let evidence = m.evidence.clone();
    let outcomes: Vec<ToolOutcome> = m.outcomes().to_vec();
    let structured = m.config().action_mode();
    let builtin = m.builtin();
    // A clause of the situation was searched for evidence; it asks nothing.
    let situation = if m.hops() { Vec::new() } else { super::planner::situation_clauses(m.part_texts()) };
    let job = tokio::task::spawn_blocking(move || {
        if !model.drafts_per_query() {
            let cap = if structured { super::draft::MAX_DRAFT_CHUNKS } else { evidence.len() };
            let shown = crate::focus::shown(model.as_ref(), &builtin, &question, &evidence[..cap.min(evidence.len())]);
            return if crate::pick::picks(model.as_ref()) {
                let max = crate::pick::max_picks(parts.len());
                crate::pick::picked(model.as_ref(), &builtin, &question, &shown, retry_note.as_deref(), max)
            } else if structured {
                super::draft::structured(model.as_ref(), &question, &shown, retry_note.as_deref())
            } else {
                model.answer(&question, &shown, retry_note.as_deref())
            };
        }
        let mut merged = Draft::default();
        for o in outcomes.iter().filter(|o| !o.evidence.is_empty()) {
            let label = draft_label(o, question.text());
            if situation.iter().any(|c| c == label.trim()) {
                continue;
            }
            // A part asked in a situation reads everything gathered; a plain query its own results.
            let scope = if crate::builtin::split_context(&label).is_some() { &evidence } else { &o.evidence };
            // The whole question and its parts are parsed already; a search of other words is a question of its own.
            let asked = match parts.iter().find(|p| p.text() == label.trim()) {
                Some(part) => part.clone(),
                None if label.trim() == question.text() => question.clone(),
                None => question.derive(&label),
            };
            let d = model.answer(&asked, scope, retry_note.as_deref())?;
            for s in d.sentences {
                if !merged.sentences.iter().any(|(t, _)| same_sentence(t, &s.0)) {
                    merged.sentences.push(s);
                }
            }
        }
        Ok(merged)
    });
    job.await.map_err(|e| ModelError::Unavailable(format!("drafting failed: {e}")))?
}

/// Whether two drafted sentences quote the same sentence and do not
/// disagree: "Yes: X" and "X" are one, "Yes: X" and "No: X" (two parts
/// answered differently) are both kept.
fn same_sentence(a: &str, b: &str) -> bool {
    let ((reply_a, a), (reply_b, b)) = (crate::lexicon::split_reply_word(a), crate::lexicon::split_reply_word(b));
    let agree = reply_a.zip(reply_b).is_none_or(|(x, y)| x == y);
    a.trim() == b.trim() && agree
}

fn draft_label(o: &ToolOutcome, question: &str) -> String {
    let arg = |k: &str| o.arguments[k].as_str().unwrap_or_default().to_string();
    match o.name.as_str() {
        "search_documents" => arg("query"),
        "lookup_table" => format!("{} {}", arg("key"), arg("table")),
        _ => question.to_string(),
    }
}

/// The answer: the verified draft with a note of what is missing when a
/// budget stopped the loop; the hand-over message when a budget or the
/// provider left nothing verified; else the abstention.
fn finish(m: &Machine, label: String, snapshot: &Snapshot<'_>) -> almirah_core::Result<Answer> {
    let draft = m.draft.clone().unwrap_or_default();
    let stop = m.stop.unwrap_or(StopReason::Answered);
    let mut trace = m.trace.clone();
    trace.stop_reason = stop;
    let question = m.question().to_string();
    let mut answer =
        crate::classic::compose(&question, &draft, &m.evidence, m.withheld.clone(), snapshot, label, trace)?;
    let budget_stop = !matches!(stop, StopReason::Answered);
    if !answer.citations.is_empty() {
        let missing = m.missing_parts();
        if budget_stop && !missing.is_empty() {
            answer.text.push_str(&format!(" Not answered within the limits: {}.", missing.join("; ")));
        } else if !budget_stop && !m.hops() {
            let unanswered = crate::classic::unanswered_parts(m.asked_parts(), &draft);
            if !unanswered.is_empty() {
                crate::classic::note_parts_not_found(&mut answer, &unanswered);
            }
        }
        return Ok(answer);
    }
    if let Some(error) = crate::classic::provider_error(&answer.trace) {
        answer.text = format!("Could not answer: the chat model failed ({error}).");
        answer.trace.stop_reason = StopReason::ProviderUnavailable;
        return Ok(answer);
    }
    if budget_stop {
        answer.text = m.config().handover.clone();
        answer.trace.stop_reason = StopReason::HandedOver;
        answer.trace.steps.push(Step::Note { text: format!("handed over after {stop:?}") });
        return Ok(answer);
    }
    answer.text = ABSTAIN.to_string();
    answer.abstained = true;
    answer.trace.stop_reason = StopReason::Abstained;
    Ok(answer)
}

#[cfg(test)]
mod tests {
    use super::same_sentence;

    #[test]
    fn a_sentence_is_shown_once_unless_two_parts_answer_it_differently() {
        let s = "Sharing password reset links for Sourcegraph is safe!";
        assert!(same_sentence(&format!("Yes: {s}"), s));
        assert!(same_sentence(s, s));
        assert!(!same_sentence(&format!("Yes: {s}"), &format!("No: {s}")));
        assert!(!same_sentence(s, "The link expires after 24 hours."));
    }
}
