//! The trace: every step of answering as structured data (route, queries,
//! hits, withheld chunks with reasons, checks, tokens, ms, stop reason).

use serde::{Deserialize, Serialize};

/// One hit as the trace records it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TraceHit {
    /// Chunk key.
    pub key: String,
    /// Source path.
    pub path: String,
    /// Fused score.
    pub score: f32,
    /// `admitted`, or `withheld: <reason>`.
    pub verdict: String,
}

/// One step.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "step", rename_all = "kebab-case")]
pub enum Step {
    /// The router's decision.
    Route {
        /// Label.
        label: String,
        /// Why.
        reason: String,
    },
    /// A search through the gate.
    Search {
        /// Query text.
        query: String,
        /// As-of date.
        as_of: String,
        /// Session.
        session: String,
        /// Admitted hits.
        hits: Vec<TraceHit>,
        /// Withheld hits (notes only).
        withheld: Vec<TraceHit>,
        /// Time, ms.
        ms: f64,
    },
    /// A model call.
    Model {
        /// Model id.
        model: String,
        /// Sentences drafted.
        sentences: usize,
        /// Prompt tokens.
        input_tokens: u64,
        /// Completion tokens.
        output_tokens: u64,
        /// Time, ms.
        ms: f64,
    },
    /// An agent tool call (searches are also recorded as [`Step::Search`]).
    Tool {
        /// Tool name.
        name: String,
        /// Arguments after clamping and validation, or as sent when invalid.
        arguments: serde_json::Value,
        /// What came back ("3 admitted, 1 withheld", "error: unknown tool").
        outcome: String,
        /// Chunk keys it added to the evidence.
        new_keys: Vec<String>,
        /// Time, ms.
        ms: f64,
    },
    /// The sufficiency check after a round.
    Verdict {
        /// Whether every part has admitted evidence (the check in code).
        coverage: bool,
        /// The model's verdict, as parsed ("yes", "no: …", "unclear: …").
        model: String,
    },
    /// A note: an error returned to the model, a budget, a hand-over.
    Note {
        /// The text.
        text: String,
    },
    /// A citation or numeric check.
    Check {
        /// The sentence.
        sentence: String,
        /// `ok` or the failure.
        verdict: String,
    },
    /// The configured model gave no verified sentence, and the builtin
    /// extractive model answered from the same admitted evidence instead.
    Fallback {
        /// The configured model's id.
        from: String,
        /// Why: "it abstained" or "its 2 sentence(s) failed the checks".
        reason: String,
        /// Verified sentences the builtin gave.
        sentences: usize,
    },
}

/// Why answering stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StopReason {
    /// An answer with citations.
    Answered,
    /// Nothing admissible supports an answer.
    Abstained,
    /// Only withheld evidence covers the question.
    OnlyWithheld,
    /// Chit-chat, no search.
    ChitChat,
    /// The agent loop used all its rounds.
    BudgetRounds,
    /// The agent loop used all its tool calls.
    BudgetToolCalls,
    /// The agent loop used all its input tokens.
    BudgetTokens,
    /// The agent loop ran out of wall-clock time.
    BudgetTime,
    /// The model kept repeating a query it had already run.
    RepeatedQuery,
    /// Rounds stopped adding admitted evidence.
    NoNewEvidence,
    /// The model provider could not be reached or kept failing.
    ProviderUnavailable,
    /// No verified answer could be given; the hand-over message was shown.
    HandedOver,
}

/// The whole trace.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Trace {
    /// Steps in order.
    pub steps: Vec<Step>,
    /// Why it stopped.
    pub stop_reason: StopReason,
    /// Total time, ms.
    pub total_ms: f64,
    /// Model calls.
    pub model_calls: u32,
    /// Tool calls (searches).
    pub tool_calls: u32,
}

impl Trace {
    /// A readable multi-line rendering for `--trace`.
    pub fn render(&self) -> String {
        let mut out = Vec::new();
        for step in &self.steps {
            match step {
                Step::Route { label, reason } => out.push(format!("route   {label}: {reason}")),
                Step::Search { query, as_of, session, hits, withheld, ms } => {
                    out.push(format!("search  {query:?} as of {as_of} ({session}), {ms:.1} ms"));
                    for h in hits {
                        out.push(format!("          {:.4} {} [{}]", h.score, h.key, h.verdict));
                    }
                    for h in withheld {
                        out.push(format!("          {:.4} {} [{}]", h.score, h.key, h.verdict));
                    }
                }
                Step::Model { model, sentences, input_tokens, output_tokens, ms } => out.push(format!(
                    "model   {model}: {sentences} sentences, {input_tokens} in / {output_tokens} out tokens, {ms:.1} ms"
                )),
                Step::Check { sentence, verdict } => out.push(format!("check   {verdict}: {sentence}")),
                Step::Tool { name, arguments, outcome, new_keys, ms } => {
                    out.push(format!("tool    {name} {arguments} → {outcome}, {ms:.1} ms"));
                    if !new_keys.is_empty() {
                        out.push(format!("          new: {}", new_keys.join(", ")));
                    }
                }
                Step::Verdict { coverage, model } => out.push(format!("verdict coverage {coverage}, model {model}")),
                Step::Note { text } => out.push(format!("note    {text}")),
                Step::Fallback { from, reason, sentences } => {
                    out.push(format!("fallback {from} {reason}; the builtin model gave {sentences} sentence(s)"))
                }
            }
        }
        out.push(format!(
            "stop    {:?} after {:.1} ms ({} model calls, {} searches)",
            self.stop_reason, self.total_ms, self.model_calls, self.tool_calls
        ));
        out.join("\n")
    }
}
