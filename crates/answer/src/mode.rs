//! Which path answers: `classic` (one search per part, no model decisions),
//! `agent` (the loop), or `auto` (the router sends multi-part and multi-hop
//! questions to the loop and everything else to the classic path, so simple
//! questions cost what they cost on the classic path; a bridged chain the
//! builtin plans stays on the classic path, which checks its last hop).

use std::str::FromStr;
use std::sync::Arc;

use almirah_core::Reader;
use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

use crate::agent::{self, AgentConfig};
use crate::classic::{self, Answer, Status};
use crate::model::ChatModel;
use crate::question::Question;
use crate::router::{self, RouteLabel};

/// An answering mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// The classic path.
    Classic,
    /// The agent loop.
    Agent,
    /// Classic for simple and historical questions, the loop for multi-part and multi-hop ones.
    #[default]
    Auto,
}

impl FromStr for Mode {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_lowercase().as_str() {
            "classic" => Ok(Mode::Classic),
            "agent" => Ok(Mode::Agent),
            "auto" => Ok(Mode::Auto),
            other => Err(format!("unknown mode {other:?}; the modes are classic, agent and auto")),
        }
    }
}

impl std::fmt::Display for Mode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Mode::Classic => "classic",
            Mode::Agent => "agent",
            Mode::Auto => "auto",
        })
    }
}

/// Answer the question the user `typed` in `mode` (blocking); the answer
/// carries it as typed.
///
/// # Errors
/// Storage and embedder errors.
pub fn answer(
    reader: &Reader<'_>,
    model: Arc<dyn ChatModel>,
    typed: &str,
    today: NaiveDate,
    status: &dyn Status,
    mode: Mode,
    cfg: &AgentConfig,
) -> almirah_core::Result<Answer> {
    // Parsed once for the whole answer: the router, the classic path, the
    // agent's machine and its drafts, the builtin and the checks read this
    // one value (a part, a hop or a search of other words is parsed as a
    // question of its own).
    // A social message ("aap kaise hain?") is answered as typed; any other
    // question as the library reads it (romanized Hindi in Devanagari).
    let question = &if router::is_chit_chat(typed) {
        crate::builtin::background::tell(reader, Question::parse(typed))
    } else {
        crate::builtin::background::parse(reader, typed)
    };
    let use_agent = match mode {
        Mode::Classic => false,
        Mode::Agent => true,
        Mode::Auto => {
            let route = router::route(question, today, reader.settings().session_start_month);
            // A model that plans in code (the builtin) follows a bridged
            // chain as the classic path does, and only the classic path
            // checks that the last hop answered what was asked
            // ([`crate::plan::answers_last_hop`]).
            let chained_in_code = route.bridged && model.plans_in_code();
            matches!(route.label, RouteLabel::MultiPart | RouteLabel::MultiHop) && !chained_in_code
        }
    };
    let mut answer = if use_agent {
        agent::ask_agent(reader, model, question, today, status, cfg)
    } else {
        classic::ask(reader, model.as_ref(), question, today, status)
    }?;
    // The question as the user typed it, though the library may have read
    // it in another script.
    answer.question = typed.trim().to_string();
    Ok(answer)
}
