//! The classic path (ARCHITECTURE §5): route, one search through the gate, a
//! cut-off, a drafted answer, then verified citations and the numeric check
//! (regenerate once on failure, then drop the claim and say so). Out-of-date
//! chunks never reach the model: only admitted hits become evidence.

use std::time::Instant;

use almirah_core::freshness::{AsOf, StatusLabel};
use almirah_core::read::{CitationCheck, GatedResults, WithheldHit};
use almirah_core::{Reader, Snapshot};
use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

use crate::builtin::BuiltinModel;
use crate::evidence::Evidence;
use crate::model::{ChatModel, Draft};
use crate::question::Question;
use crate::router::{self, RouteLabel};
use crate::trace::{Step, StopReason, Trace, TraceHit};

/// How a trace note about a failed model call starts.
pub const PROVIDER_ERROR: &str = "model error";

/// The error of the first failed model call in `trace`, if any.
pub fn provider_error(trace: &Trace) -> Option<String> {
    trace.steps.iter().find_map(|s| match s {
        Step::Note { text } => text.strip_prefix(PROVIDER_ERROR).map(|e| e.trim_start_matches(": ").to_string()),
        _ => None,
    })
}

pub use crate::lexicon::ABSTAIN;
/// Evidence chunks passed to the model.
pub const EVIDENCE_K: usize = 8;

/// A citation in the answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Citation {
    /// Chunk key.
    pub key: String,
    /// Document title.
    pub title: String,
    /// Source path.
    pub path: String,
    /// Pages.
    pub pages: Option<(u32, u32)>,
    /// The gate's status of the cited chunk at the answer's as-of, checked
    /// again when the answer is composed (only `current` is ever cited).
    pub status: StatusLabel,
    /// The gate's mark on the document ("a newer version exists but could
    /// not be read: …") and how the text was read ("read by OCR …").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// An answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Answer {
    /// The question.
    pub question: String,
    /// The answer text with `[key]` citations.
    pub text: String,
    /// Citations, in order of first use.
    pub citations: Vec<Citation>,
    /// Notes on withheld chunks: "circular-09@2024-25: superseded by …".
    pub withheld: Vec<String>,
    /// When the answer speaks for.
    pub as_of: AsOf,
    /// Router label.
    pub route: String,
    /// Whether the answer is the abstention.
    pub abstained: bool,
    /// The trace.
    pub trace: Trace,
}

/// Where status lines go ("Searching circulars…"), and whether the caller
/// still wants the answer (a server's client that disconnected does not).
pub trait Status {
    /// Show one short line.
    fn line(&self, text: &str);

    /// Whether the caller gave up on the question. Checked between steps
    /// (before each search, tool round and model call); once it is true
    /// the answer stops with [`almirah_core::Error::Cancelled`] and its
    /// snapshot is released. Default: never.
    fn cancelled(&self) -> bool {
        false
    }
}

/// [`almirah_core::Error::Cancelled`] once `status` says the caller gave up.
///
/// # Errors
/// [`almirah_core::Error::Cancelled`].
pub(crate) fn check_cancelled(status: &dyn Status) -> almirah_core::Result<()> {
    if status.cancelled() { Err(almirah_core::Error::Cancelled) } else { Ok(()) }
}

impl<F: Fn(&str)> Status for F {
    fn line(&self, text: &str) {
        self(text)
    }
}

/// Answer `question` as of `today` (the real date, or the `--as-of` flag).
/// The as-of date and session are set in code: today, or, when the router
/// finds a past session or date in the question, that time (ARCHITECTURE §2).
///
/// # Errors
/// Storage and embedder errors.
pub fn ask(
    reader: &Reader<'_>,
    model: &dyn ChatModel,
    parsed: &Question,
    today: NaiveDate,
    status: &dyn Status,
) -> almirah_core::Result<Answer> {
    let started = Instant::now();
    let question = parsed.text();
    let Prepared { route, as_of, mut trace, label } = prepare(reader, parsed, today);
    if route.label == RouteLabel::ChitChat {
        trace.stop_reason = StopReason::ChitChat;
        trace.total_ms = started.elapsed().as_secs_f64() * 1000.0;
        let text = router::chit_chat_reply(question);
        return Ok(Answer {
            question: question.into(),
            text,
            citations: Vec::new(),
            withheld: Vec::new(),
            as_of,
            route: label,
            abstained: false,
            trace,
        });
    }
    let queries = match route.label {
        RouteLabel::MultiPart | RouteLabel::MultiHop if route.parts.len() > 1 => route.parts.clone(),
        _ => vec![question.to_string()],
    };
    let hops = route.label == RouteLabel::MultiHop;
    let snapshot = reader.snapshot(as_of)?;
    let mut run = Run::default();
    let mut answers: Vec<String> = Vec::new();
    let searched = &queries[..queries.len().min(if hops { crate::plan::MAX_HOPS } else { 4 })];
    // A multi-hop answer is the last hop's: the bridges alone answer nothing.
    let mut last_hop_answered = false;
    // The parts of a multi-part question, to name those no sentence answers.
    let mut parts: Vec<Question> = Vec::new();
    // Built once: it judges every hop's last sentence, focuses a small
    // model's evidence and answers when the model does not.
    let builtin = BuiltinModel::for_reader(reader);
    for (i, template) in searched.iter().enumerate() {
        let Some(query) = crate::plan::fill(template, &answers) else { break };
        check_cancelled(status)?;
        status.line(&format!("Searching: {query}"));
        let results = search(&snapshot, &query, &mut trace)?;
        let evidence: Vec<Evidence> = results.results.hits.iter().take(EVIDENCE_K).map(Evidence::from).collect();
        check_cancelled(status)?;
        // A part or a hop is a question of its own; the whole question is parsed already.
        let asked = if query == question { parsed.clone() } else { parsed.derive(&query) };
        let draft = draft_and_verify(model, &builtin, &asked, &evidence, &mut trace);
        if !hops && searched.len() > 1 {
            parts.push(asked.clone());
        }
        if hops {
            let bridge = answers.last().cloned();
            match draft.sentences.first().and_then(|(s, _)| crate::plan::bridge_entity(s, &query)) {
                Some(entity) => answers.push(entity),
                None if draft.sentences.is_empty() => break,
                None => {}
            }
            // A last hop that only repeats a bridge's sentence, or only names
            // the bridge, answers nothing new.
            let new = draft.sentences.iter().any(|(t, keys)| {
                let title = evidence.iter().find(|e| keys.contains(&e.key)).map_or("", |e| e.title.as_str());
                !run.draft.sentences.iter().any(|(s, _)| s == t)
                    && bridge.as_deref().is_none_or(|b| crate::plan::answers_last_hop(&builtin, &query, b, t, title))
            });
            last_hop_answered = i + 1 == searched.len() && new;
        }
        run.add(draft, evidence, &results);
    }
    if !hops && searched.len() > 1 {
        // Parts past the search limit are not searched, and so not answered.
        parts.extend(queries[searched.len()..].iter().map(|q| parsed.derive(q)));
    }
    if route.bridged && !last_hop_answered {
        run.draft.sentences.clear();
    }
    check_cancelled(status)?;
    let last_results = run.results.clone().unwrap_or_else(|| GatedResults::empty(as_of));
    let mut answer = compose(question, &run.draft, &run.evidence, run.withheld.clone(), &snapshot, label, trace)?;
    if let Some(error) = provider_error(&answer.trace) {
        // Never report a model that could not be reached as "not in the documents".
        answer.text = format!("Could not answer: the chat model {} failed ({error}).", model.id());
        answer.trace.stop_reason = StopReason::ProviderUnavailable;
    } else if answer.citations.is_empty() {
        answer.text = only_withheld_message(parsed, &last_results, as_of).unwrap_or_else(|| ABSTAIN.to_string());
        answer.abstained = answer.text == ABSTAIN;
        answer.trace.stop_reason = if answer.abstained { StopReason::Abstained } else { StopReason::OnlyWithheld };
    } else {
        let unanswered = unanswered_parts(&parts, &run.draft);
        if !unanswered.is_empty() {
            note_parts_not_found(&mut answer, &unanswered);
        }
    }
    answer.trace.total_ms = started.elapsed().as_secs_f64() * 1000.0;
    Ok(answer)
}

/// Share of a part's content terms a drafted sentence must hold to answer it.
pub const PART_ANSWERED: f32 = 0.5;

/// The parts of `parts` that ask something ([`Question::asks`]) and that no sentence
/// of `draft` answers: none holds [`PART_ANSWERED`] of the part's content
/// terms (of its ask's alone when it is told in a situation: "I have an
/// audit in Hyderabad … What can I claim?" is judged by "claim"). A
/// one-part question has none to name.
pub(crate) fn unanswered_parts(parts: &[Question], draft: &Draft) -> Vec<String> {
    if parts.len() < 2 {
        return Vec::new();
    }
    let model = BuiltinModel::default();
    let said: Vec<_> = draft.sentences.iter().map(|(s, _)| model.content_terms(s)).collect();
    parts
        .iter()
        .filter(|part| part.asks())
        .filter(|part| {
            // A part told in a situation asks only its question: "What can
            // I claim?" is answered without a sentence about the audit.
            let text = part.text();
            let ask = crate::builtin::split_context(text).or_else(|| crate::builtin::situation_first(text));
            let terms = ask.map_or_else(|| part.terms().clone(), |(ask, _)| model.content_terms(ask));
            !terms.is_empty()
                && !said.iter().any(|s| {
                    terms.iter().filter(|t| s.contains(*t)).count() as f32 >= PART_ANSWERED * terms.len() as f32
                })
        })
        .map(|part| part.text().to_string())
        .collect()
}

/// End a partial answer with the parts it does not answer
/// ([`crate::lexicon::parts_not_found`]), and note them in the trace.
pub(crate) fn note_parts_not_found(answer: &mut Answer, parts: &[String]) {
    let sentence = crate::lexicon::parts_not_found(parts);
    answer.text = format!("{} {sentence}", answer.text.trim_end());
    answer.trace.steps.push(Step::Note { text: format!("parts not answered: {}", parts.join("; ")) });
}

/// A routed question: its route, the as-of it speaks for, and the trace
/// with the route step.
pub(crate) struct Prepared {
    pub route: router::Route,
    pub as_of: AsOf,
    pub trace: Trace,
    pub label: String,
}

/// Route `question` and set its as-of date and session in code: today, or,
/// when the router finds a past session or date in the question, that time
/// (ARCHITECTURE §2).
pub(crate) fn prepare(reader: &Reader<'_>, question: &Question, today: NaiveDate) -> Prepared {
    let settings = reader.settings();
    let route = router::route(question, today, settings.session_start_month);
    let mut trace =
        Trace { steps: Vec::new(), stop_reason: StopReason::Answered, total_ms: 0.0, model_calls: 0, tool_calls: 0 };
    let label = serde_json::to_value(route.label).ok().and_then(|v| v.as_str().map(String::from)).unwrap_or_default();
    trace.steps.push(Step::Route { label: label.clone(), reason: route.reason.clone() });
    let month = settings.session_start_month;
    let as_of = match (route.session, route.as_of) {
        (Some(session), _) => AsOf::for_session(session, today, month),
        (None, Some(date)) => AsOf { historical: true, ..AsOf::at(date, None, month) },
        (None, None) => AsOf::at(today, settings.session_override, month),
    };
    Prepared { route, as_of, trace, label }
}

/// What the searches of one question gathered.
#[derive(Default)]
struct Run {
    draft: Draft,
    evidence: Vec<Evidence>,
    withheld: Vec<String>,
    results: Option<GatedResults>,
}

impl Run {
    fn add(&mut self, draft: Draft, evidence: Vec<Evidence>, results: &GatedResults) {
        for s in draft.sentences {
            if !self.draft.sentences.iter().any(|(t, _)| *t == s.0) {
                self.draft.sentences.push(s);
            }
        }
        self.draft.dropped += draft.dropped;
        for e in evidence {
            if !self.evidence.iter().any(|x| x.key == e.key) {
                self.evidence.push(e);
            }
        }
        for note in withheld_notes(results) {
            if !self.withheld.contains(&note) {
                self.withheld.push(note);
            }
        }
        self.results = Some(results.clone());
    }
}

fn search(snapshot: &Snapshot<'_>, query: &str, trace: &mut Trace) -> almirah_core::Result<GatedResults> {
    let settings = snapshot.settings();
    let opts = almirah_core::SearchOptions { k: EVIDENCE_K + 2, ..settings.search };
    let results = snapshot.search(query, &opts, settings.withheld_notes, &Default::default())?;
    let as_of = snapshot.as_of();
    trace.tool_calls += 1;
    let hits = results
        .results
        .hits
        .iter()
        .map(|h| TraceHit { key: h.key.clone(), path: h.path.clone(), score: h.score, verdict: "admitted".into() })
        .collect();
    let withheld = results
        .withheld
        .iter()
        .map(|w| TraceHit {
            key: w.hit.key.clone(),
            path: w.hit.path.clone(),
            score: w.hit.score,
            verdict: w.hit.verdict.to_string(),
        })
        .collect();
    trace.steps.push(Step::Search {
        query: query.to_string(),
        as_of: as_of.date.to_string(),
        session: as_of.session.to_string(),
        hits,
        withheld,
        ms: results.results.elapsed_ms,
    });
    Ok(results)
}

fn call_model(
    model: &dyn ChatModel,
    builtin: &BuiltinModel,
    question: &Question,
    evidence: &[Evidence],
    note: Option<&str>,
    trace: &mut Trace,
) -> Draft {
    let started = Instant::now();
    let shown = crate::focus::shown(model, builtin, question, evidence);
    let drafted = if crate::pick::picks(model) {
        crate::pick::picked(model, builtin, question, &shown, note, crate::pick::MAX_PICKS)
    } else {
        model.answer(question, &shown, note)
    };
    let draft = match drafted {
        Ok(d) => d,
        Err(e) => {
            trace.steps.push(Step::Note { text: format!("{PROVIDER_ERROR}: {e}") });
            Draft::default()
        }
    };
    trace.model_calls += 1;
    trace.steps.push(Step::Model {
        model: model.id(),
        sentences: draft.sentences.len(),
        input_tokens: draft.usage.input_tokens,
        output_tokens: draft.usage.output_tokens,
        ms: started.elapsed().as_secs_f64() * 1000.0,
    });
    draft
}

/// Draft, check every sentence against its whole chunk, regenerate once if
/// any fails, then drop the sentences that still fail; `builtin` answers
/// when none is left ([`crate::fallback::builtin_instead`]).
fn draft_and_verify(
    model: &dyn ChatModel,
    builtin: &BuiltinModel,
    question: &Question,
    evidence: &[Evidence],
    trace: &mut Trace,
) -> Draft {
    let first = call_model(model, builtin, question, evidence, None, trace);
    let failures = crate::verify::failures(&first, evidence, question);
    let verified = if failures.is_empty() {
        crate::verify::record(&first, evidence, question, trace);
        first
    } else {
        let second = call_model(model, builtin, question, evidence, Some(&failures.join("; ")), trace);
        crate::verify::record(&second, evidence, question, trace);
        crate::verify::keep_verified(second, evidence, question)
    };
    if provider_error(trace).is_some() {
        return verified;
    }
    crate::fallback::builtin_instead(builtin, &model.id(), verified, question, evidence, trace)
}

/// The answer text with `[key]` marks, its citations and the withheld notes.
/// Every cited key is checked again against the snapshot's gate: a sentence
/// citing anything that is not admissible (withheld, hidden, unknown) is
/// dropped and counted, and each citation's status and mark come from the
/// gate.
///
/// # Errors
/// [`almirah_core::Error::SnapshotExpired`]; storage errors.
pub(crate) fn compose(
    question: &str,
    draft: &Draft,
    evidence: &[Evidence],
    withheld: Vec<String>,
    snapshot: &Snapshot<'_>,
    route: String,
    trace: Trace,
) -> almirah_core::Result<Answer> {
    let as_of = snapshot.as_of();
    let mut text = Vec::new();
    let mut citations: Vec<Citation> = Vec::new();
    let mut dropped = draft.dropped;
    for (sentence, keys) in &draft.sentences {
        let Some(checked) = recheck(keys, evidence, snapshot)? else {
            dropped += 1;
            continue;
        };
        let marks: String = keys.iter().map(|k| format!(" [{k}]")).collect();
        text.push(format!("{}{marks}", sentence.trim()));
        for c in checked {
            if !citations.iter().any(|x| x.key == c.key) {
                citations.push(c);
            }
        }
    }
    if dropped > 0 {
        text.push(format!("({dropped} claim(s) could not be verified against the documents and were left out.)"));
    }
    if let Some(note) = crate::fallback::fallback_note(&trace).filter(|_| !citations.is_empty()) {
        text.push(note);
    }
    let mut body = text.join(" ");
    if as_of.historical && !citations.is_empty() {
        body = format!("As of {} (session {}): {body}", as_of.date, as_of.session);
    }
    Ok(Answer { question: question.into(), text: body, citations, withheld, as_of, route, abstained: false, trace })
}

/// The citations of one sentence, or `None` when any cited key was not
/// retrieved this run or is not admissible in the snapshot now.
fn recheck(
    keys: &[String],
    evidence: &[Evidence],
    snapshot: &Snapshot<'_>,
) -> almirah_core::Result<Option<Vec<Citation>>> {
    let mut out = Vec::with_capacity(keys.len());
    for k in keys {
        let Some(ev) = evidence.iter().find(|e| &e.key == k) else { return Ok(None) };
        let CitationCheck::Admitted { mark } = snapshot.check_citation(k)? else { return Ok(None) };
        out.push(citation(k, ev, mark));
    }
    Ok(Some(out))
}

fn citation(key: &str, ev: &Evidence, mark: Option<String>) -> Citation {
    Citation {
        key: key.to_string(),
        title: ev.title.clone(),
        path: ev.path.clone(),
        pages: ev.pages,
        status: StatusLabel::Current,
        note: join_notes(mark, ev.source_note.clone()),
    }
}

/// The gate's mark and the source note, `; `-joined.
fn join_notes(mark: Option<String>, source: Option<String>) -> Option<String> {
    match (mark, source) {
        (Some(m), Some(s)) => Some(format!("{m}; {s}")),
        (m, s) => m.or(s),
    }
}

/// Cosine similarity (all-MiniLM-L6-v2 scale) below which a withheld chunk
/// is unrelated to the question and gets no note.
pub const MIN_NOTE_COSINE: f32 = 0.3;

/// One note per withheld document that bears on the question (as relevant
/// as the admitted evidence by keywords or by meaning):
/// "circular-09@2024-25: superseded by …".
pub fn withheld_notes(results: &GatedResults) -> Vec<String> {
    let hits = &results.results.hits;
    let top_bm25 = hits.iter().filter_map(|h| h.bm25.map(|r| r.score)).fold(0.0f32, f32::max);
    let top_cos = hits.iter().filter_map(|h| h.vector.map(|r| r.score)).fold(0.0f32, f32::max);
    // A withheld chunk only bears on the question if it is about it at all
    // (cosine ≥ MIN_NOTE_COSINE), not merely the best of the withheld ones.
    let about = |w: &WithheldHit| w.hit.vector.is_none_or(|r| r.score >= MIN_NOTE_COSINE);
    let relevant = |w: &&WithheldHit| {
        about(w)
            && (hits.is_empty()
                || w.hit.bm25.is_some_and(|r| r.score >= 0.6 * top_bm25)
                || w.hit.vector.is_some_and(|r| r.score >= top_cos - 0.05))
    };
    let mut notes: Vec<String> = Vec::new();
    for w in results.withheld.iter().filter(relevant) {
        let doc = crate::evidence::document_of(&w.hit.key);
        let note = format!("{doc}: {}", w.reason);
        if !notes.contains(&note) {
            notes.push(note);
        }
    }
    notes
}

/// "Only the 2025-26 <title> covers this; no 2026-27 version was found."
/// when the withheld evidence alone would answer the question. Whether it
/// would is judged by the in-process extractive scorer (the builtin model),
/// never by the configured chat model: withheld text never reaches a model.
pub(crate) fn only_withheld_message(question: &Question, results: &GatedResults, as_of: AsOf) -> Option<String> {
    let withheld: Vec<Evidence> = results.withheld.iter().map(|w| Evidence::from(&w.hit)).collect();
    let draft = BuiltinModel::default().draft(question, &withheld);
    let key = draft.sentences.first()?.1.first()?;
    let w = results.withheld.iter().find(|w| &w.hit.key == key)?;
    // Admitted evidence that matches the question as well as the withheld chunk does means
    // the documents in force do cover the topic; do not claim they do not.
    let w_bm25 = w.hit.bm25.map_or(0.0, |r| r.score);
    if results.results.hits.iter().any(|h| h.bm25.is_some_and(|r| r.score >= 0.6 * w_bm25)) {
        return None;
    }
    Some(match w.reason.other_session() {
        Some(s) => format!("Only the {s} {} covers this; no {} version was found.", w.hit.title, as_of.session),
        None => format!("Only {} covers this, and it is not in force ({}).", w.hit.title, w.reason),
    })
}
