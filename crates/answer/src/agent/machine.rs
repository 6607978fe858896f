//! The agent loop as a sans-IO state machine (ARCHITECTURE §5):
//! [`Machine::next_step`] says what to do next ([`Action`]); the runner does
//! it and feeds the result back ([`Machine::on_model_reply`],
//! [`Machine::on_tool_results`], [`Machine::on_draft`]). The machine owns
//! the budgets, the evidence ledger (admitted chunks only), the sufficiency
//! check and the stop reason; it never touches the network or the disk.

use std::collections::BTreeSet;
use std::sync::Arc;

use almirah_core::freshness::AsOf;

use super::exec::{ToolOutcome, render};
use super::tools::{self, ToolRequest};
use super::{AgentConfig, AgentContext, action, prompt, sufficiency};
use crate::builtin::BuiltinModel;
use crate::evidence::Evidence;
use crate::model::{ChatRequest, ChatResponse, Draft, Message, ModelError, Purpose, Role, ToolCall};
use crate::question::Question;
use crate::trace::{Step, StopReason, Trace};

/// What the runner should do next.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// Call the model (through the loop's policy) with this request; the
    /// context is the loop's typed state, for a policy that plans in code.
    CallModel {
        /// The chat request.
        request: ChatRequest,
        /// What the loop knows so far.
        context: AgentContext,
    },
    /// Run these tool calls (already validated and clamped).
    CallTools(Vec<ToolRequest>),
    /// Draft the answer from the evidence (`retry_note` on the one regeneration).
    Draft {
        /// Failures of the first draft, for the regeneration.
        retry_note: Option<String>,
    },
    /// Finished: the runner composes the answer from the draft, evidence and trace.
    Done,
}

#[derive(Debug, Clone, PartialEq)]
enum Phase {
    Decide,
    Judge,
    Tools(Vec<ToolRequest>),
    Draft(Option<String>),
    Done,
}

/// The loop's state for one question.
pub struct Machine {
    parsed: Question,
    cfg: AgentConfig,
    context: AgentContext,
    messages: Vec<Message>,
    phase: Phase,
    rounds: u32,
    seen: BTreeSet<String>,
    idle_rounds: u32,
    regenerated: bool,
    pending_estimate: u64,
    /// Admitted chunks gathered so far, in order of arrival.
    pub evidence: Vec<Evidence>,
    /// Withheld notes gathered so far.
    pub withheld: Vec<String>,
    /// The verified draft, once drafted.
    pub draft: Option<Draft>,
    /// The stop reason, once stopped.
    pub stop: Option<StopReason>,
    /// What the model's last verdict said is missing.
    pub last_missing: Option<String>,
    /// Input tokens used (reported by the model, else estimated at 4 characters a token).
    pub input_tokens: u64,
    /// The trace so far.
    pub trace: Trace,
    /// The builtin that focuses a small model's evidence and answers when
    /// the model does not ([`Machine::with_builtin`]).
    builtin: Arc<BuiltinModel>,
}

impl Machine {
    /// A machine for `question` (split into `parts` by the router; `hops`
    /// when later parts name `<answer N>`), answering as of `as_of`.
    pub fn new(
        question: &Question,
        parts: Vec<String>,
        hops: bool,
        as_of: AsOf,
        cfg: AgentConfig,
        trace: Trace,
    ) -> Self {
        let system = prompt::system(&cfg, as_of);
        let messages = vec![
            Message { role: Role::System, content: system },
            Message { role: Role::User, content: question.text().into() },
        ];
        // Each part parsed once: the whole question is already parsed.
        let asked = parts
            .iter()
            .map(|p| match sufficiency::strip_placeholders(p) {
                t if t == question.text() => question.clone(),
                t => question.derive(&t),
            })
            .collect();
        let context = AgentContext { question: question.text().into(), parts, asked, hops, ..Default::default() };
        Self {
            parsed: question.clone(),
            cfg,
            context,
            messages,
            phase: Phase::Decide,
            rounds: 0,
            seen: BTreeSet::new(),
            idle_rounds: 0,
            regenerated: false,
            pending_estimate: 0,
            evidence: Vec::new(),
            withheld: Vec::new(),
            draft: None,
            stop: None,
            last_missing: None,
            input_tokens: 0,
            trace,
            builtin: Arc::new(BuiltinModel::default()),
        }
    }

    /// The machine with `builtin` ([`BuiltinModel::for_reader`]: by
    /// meaning) in place of the words-only default.
    pub fn with_builtin(mut self, builtin: Arc<BuiltinModel>) -> Self {
        self.builtin = builtin;
        self
    }

    /// The builtin this machine focuses evidence and falls back with.
    pub fn builtin(&self) -> Arc<BuiltinModel> {
        self.builtin.clone()
    }

    /// The question.
    pub fn question(&self) -> &str {
        &self.context.question
    }

    /// The parts of the question, each parsed once ([`AgentContext::asked`]).
    pub fn asked_parts(&self) -> &[Question] {
        &self.context.asked
    }

    /// The parts as the planner reads them: the router's parts, or the
    /// whole question when it has none.
    pub fn part_texts(&self) -> &[String] {
        if self.context.parts.is_empty() { std::slice::from_ref(&self.context.question) } else { &self.context.parts }
    }

    /// The question as parsed once for the whole answer.
    pub fn parsed(&self) -> &Question {
        &self.parsed
    }

    /// What the tools returned, in order (for drafting per query).
    pub fn outcomes(&self) -> &[ToolOutcome] {
        &self.context.done
    }

    /// The next action. `elapsed_ms` is the wall-clock time since the start.
    pub fn next_step(&mut self, elapsed_ms: u64) -> Action {
        match self.phase.clone() {
            Phase::Decide | Phase::Judge if self.stop.is_none() => {
                if let Some(reason) = self.budget_exhausted(elapsed_ms) {
                    self.stop_with(reason, format!("budget exhausted: {reason:?}"));
                    return self.next_step(elapsed_ms);
                }
                self.model_request()
            }
            Phase::Decide | Phase::Judge => {
                self.phase = Phase::Draft(None);
                Action::Draft { retry_note: None }
            }
            Phase::Tools(requests) => Action::CallTools(requests),
            Phase::Draft(note) => Action::Draft { retry_note: note },
            Phase::Done => Action::Done,
        }
    }

    fn budget_exhausted(&self, elapsed_ms: u64) -> Option<StopReason> {
        let b = &self.cfg.budgets;
        if elapsed_ms >= b.max_wall_ms {
            Some(StopReason::BudgetTime)
        } else if self.input_tokens >= b.max_input_tokens {
            Some(StopReason::BudgetTokens)
        } else if self.trace.tool_calls >= b.max_tool_calls && self.phase == Phase::Decide {
            Some(StopReason::BudgetToolCalls)
        } else if self.rounds >= b.max_rounds && self.phase == Phase::Decide {
            Some(StopReason::BudgetRounds)
        } else {
            None
        }
    }

    fn model_request(&mut self) -> Action {
        let judging = self.phase == Phase::Judge;
        if !judging {
            self.rounds += 1;
        }
        let mut messages = self.messages.clone();
        let (tools, schema) = if judging {
            messages.push(Message { role: Role::User, content: prompt::JUDGE.into() });
            (Vec::new(), Some(action::verdict_schema()))
        } else if self.cfg.action_mode() {
            messages.push(Message { role: Role::User, content: prompt::ACTION.into() });
            (Vec::new(), Some(action::action_schema()))
        } else {
            (tools::specs(), None)
        };
        self.pending_estimate = estimate_tokens(&messages);
        self.input_tokens += self.pending_estimate;
        let context = AgentContext { judging, ..self.context.clone() };
        let purpose = if judging { Purpose::Verdict } else { Purpose::AgentStep };
        Action::CallModel { request: ChatRequest { messages, tools, response_schema: schema, purpose }, context }
    }

    /// Feed the model's reply (or its error) back; `ms` is the call's time.
    pub fn on_model_reply(&mut self, reply: Result<ChatResponse, ModelError>, model: &str, ms: f64) {
        self.trace.model_calls += 1;
        let reply = match reply {
            Ok(r) => r,
            Err(e) => {
                self.stop_with(StopReason::ProviderUnavailable, format!("{}: {e}", crate::classic::PROVIDER_ERROR));
                self.phase = Phase::Draft(None);
                return;
            }
        };
        let u = reply.usage;
        if u.input_tokens > 0 {
            // Replace the estimate for this call with the reported count.
            self.input_tokens = self.input_tokens.saturating_sub(self.pending_estimate) + u.input_tokens;
        }
        self.trace.steps.push(Step::Model {
            model: model.into(),
            sentences: 0,
            input_tokens: u.input_tokens,
            output_tokens: u.output_tokens,
            ms,
        });
        if self.phase == Phase::Judge {
            self.on_verdict(&reply.content);
        } else {
            self.on_decision(reply);
        }
    }

    fn on_verdict(&mut self, content: &str) {
        let verdict = sufficiency::parse_verdict(content);
        self.trace.steps.push(Step::Verdict { coverage: true, model: verdict.describe() });
        if verdict.enough {
            self.stop = Some(StopReason::Answered);
            self.phase = Phase::Draft(None);
        } else {
            let missing = verdict.missing.unwrap_or_else(|| "not said".into());
            self.last_missing = Some(missing.clone());
            self.messages.push(Message {
                role: Role::User,
                content: format!("The evidence is not enough yet (missing: {missing}). Search for what is missing."),
            });
            self.phase = Phase::Decide;
        }
    }

    fn on_decision(&mut self, reply: ChatResponse) {
        let calls: Vec<ToolCall> =
            if reply.tool_calls.is_empty() { action::parse_calls(&reply.content) } else { reply.tool_calls.clone() };
        if calls.is_empty() {
            if let Some(searches) = self.unsearched_parts() {
                // Small models often "answer" before searching anything; coverage in code
                // says every part is missing, so search the parts once before drafting.
                self.trace.steps.push(Step::Note {
                    text: format!("the model answered without searching; searching its {} part(s)", searches.len()),
                });
                self.phase = Phase::Tools(searches);
                return;
            }
            // The model answers: draft from what was gathered.
            self.stop.get_or_insert(StopReason::Answered);
            self.phase = Phase::Draft(None);
            return;
        }
        self.messages.push(Message { role: Role::Assistant, content: transcript(&calls) });
        let remaining = self.cfg.budgets.max_tool_calls.saturating_sub(self.trace.tool_calls) as usize;
        let mut valid = Vec::new();
        let mut notes = Vec::new();
        for call in &calls {
            match tools::validate(call) {
                Ok(req) if !self.seen.insert(req.signature()) => notes.push(format!(
                    "error: {} {} was already run; its result is above",
                    req.name(),
                    req.arguments()
                )),
                Ok(req) if valid.len() < remaining => valid.push(req),
                Ok(req) => notes.push(format!("error: tool-call budget reached; {} was not run", req.name())),
                Err(e) => notes.push(format!("error: {e}")),
            }
        }
        for n in &notes {
            self.trace.steps.push(Step::Note { text: n.clone() });
        }
        if !notes.is_empty() {
            self.messages.push(Message { role: Role::User, content: notes.join("\n") });
        }
        if valid.is_empty() {
            self.idle_rounds += 1;
            if self.idle_rounds >= 2 {
                self.stop_with(StopReason::RepeatedQuery, "two rounds without a new valid tool call".into());
            }
            return;
        }
        self.phase = Phase::Tools(valid);
    }

    /// Feed the tool results back.
    pub fn on_tool_results(&mut self, outcomes: Vec<ToolOutcome>) {
        let mut added = 0;
        for outcome in outcomes {
            self.trace.tool_calls += 1;
            let mut new_keys = Vec::new();
            for e in &outcome.evidence {
                if !self.evidence.iter().any(|x| x.key == e.key) {
                    self.evidence.push(e.clone());
                    new_keys.push(e.key.clone());
                }
            }
            for w in &outcome.withheld {
                if !self.withheld.contains(w) {
                    self.withheld.push(w.clone());
                }
            }
            added += new_keys.len();
            if let Some(step) = outcome.search_step.clone() {
                self.trace.steps.push(step);
            }
            self.trace.steps.push(Step::Tool {
                name: outcome.name.clone(),
                arguments: outcome.arguments.clone(),
                outcome: summary(&outcome),
                new_keys,
                ms: outcome.ms,
            });
            self.messages.push(Message { role: Role::User, content: render(&outcome) });
            self.context.done.push(outcome);
        }
        self.idle_rounds = if added == 0 { self.idle_rounds + 1 } else { 0 };
        if self.idle_rounds >= 2 {
            self.stop_with(StopReason::NoNewEvidence, "two rounds added no admitted evidence".into());
            return;
        }
        let covered = sufficiency::covered(&self.context, &self.evidence);
        if !covered {
            self.trace.steps.push(Step::Verdict { coverage: false, model: "not asked".into() });
        }
        self.phase = if covered { Phase::Judge } else { Phase::Decide };
    }

    /// Feed the draft back. It is checked here; failures regenerate once,
    /// then failing sentences are dropped.
    pub fn on_draft(&mut self, draft: Result<Draft, ModelError>, model: &str, ms: f64) {
        self.trace.model_calls += 1;
        if let Ok(d) = &draft {
            self.trace.steps.push(Step::Model {
                model: model.into(),
                sentences: d.sentences.len(),
                input_tokens: d.usage.input_tokens,
                output_tokens: d.usage.output_tokens,
                ms,
            });
        }
        let draft = match draft {
            Ok(d) => d,
            Err(e) => {
                self.trace.steps.push(Step::Note { text: format!("{}: {e}", crate::classic::PROVIDER_ERROR) });
                self.stop = Some(StopReason::HandedOver);
                self.phase = Phase::Done;
                return;
            }
        };
        let failures = crate::verify::failures(&draft, &self.evidence, &self.parsed);
        crate::verify::record(&draft, &self.evidence, &self.parsed, &mut self.trace);
        if !failures.is_empty() && !self.regenerated {
            self.regenerated = true;
            self.phase = Phase::Draft(Some(failures.join("; ")));
            return;
        }
        let verified = crate::verify::keep_verified(draft, &self.evidence, &self.parsed);
        self.draft = Some(crate::fallback::builtin_instead(
            &self.builtin,
            model,
            verified,
            &self.parsed,
            &self.evidence,
            &mut self.trace,
        ));
        self.phase = Phase::Done;
    }

    fn stop_with(&mut self, reason: StopReason, note: String) {
        self.trace.steps.push(Step::Note { text: note });
        self.stop = Some(reason);
        self.phase = Phase::Draft(None);
    }

    /// When the model answers before any tool call: searches for the
    /// question's parts (hop templates excepted), within the tool-call
    /// budget; `None` once anything was searched.
    fn unsearched_parts(&mut self) -> Option<Vec<ToolRequest>> {
        if self.trace.tool_calls > 0 {
            return None;
        }
        let remaining = self.cfg.budgets.max_tool_calls.saturating_sub(self.trace.tool_calls) as usize;
        let mut out = Vec::new();
        for part in sufficiency::uncovered(&self.context, &self.evidence) {
            if part.contains("<answer ") {
                continue;
            }
            let request = ToolRequest::Search { query: part, series: None, session: None, k: tools::DEFAULT_K };
            if out.len() < remaining && self.seen.insert(request.signature()) {
                out.push(request);
            }
        }
        (!out.is_empty()).then_some(out)
    }

    /// What is still missing: the parts no admitted chunk covers, and what
    /// the model's last verdict named.
    pub fn missing_parts(&self) -> Vec<String> {
        let mut out = sufficiency::uncovered(&self.context, &self.evidence);
        if let Some(m) = self.last_missing.as_ref().filter(|m| !out.contains(m) && m.as_str() != "not said") {
            out.push(m.clone());
        }
        out
    }

    /// Whether the parts are hops (later ones use `<answer N>`).
    pub fn hops(&self) -> bool {
        self.context.hops
    }

    /// The configuration.
    pub fn config(&self) -> &AgentConfig {
        &self.cfg
    }
}

fn transcript(calls: &[ToolCall]) -> String {
    calls
        .iter()
        .map(|c| serde_json::json!({"name": c.name, "arguments": c.arguments}).to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

fn summary(o: &ToolOutcome) -> String {
    if o.error {
        return o.text.clone();
    }
    if o.name == "list_documents" {
        let listed = o.text.lines().filter(|l| l.contains(" — ")).count();
        return format!("{listed} listed");
    }
    format!("{} admitted, {} withheld", o.evidence.len(), o.withheld.len())
}

/// Tokens of a prompt, estimated at 4 characters a token.
pub fn estimate_tokens(messages: &[Message]) -> u64 {
    messages.iter().map(|m| m.content.len() as u64 / 4 + 4).sum()
}
