//! The router (ARCHITECTURE §5): decides in code, before any model, what kind
//! of question arrived, and whether it is historical (§2).
//!
//! Order of checks:
//! 1. **Chit-chat** (`router/chitchat.rs`): a short greeting, thanks, help request,
//!    goodbye or acknowledgement with no policy word. It gets
//!    [`chit_chat_reply`] and no search.
//! 2. **Historical** (`router/historical.rs`): a past session or date sets
//!    [`Route::session`] and [`Route::as_of`].
//! 3. **Multi-hop** (`router/hops.rs`), then **multi-part** (`router/split.rs`), else simple.
//!
//! The label is [`RouteLabel::Historical`] when a historical question is
//! otherwise simple. A historical question that is also multi-part or
//! multi-hop keeps that label (it needs the agent loop) and still carries
//! `session` and `as_of`: use [`Route::is_historical`] to decide the as-of.

mod chitchat;
mod historical;
mod hops;
mod split;

use chrono::NaiveDate;
use regex::Regex;
use serde::{Deserialize, Serialize};

use almirah_core::freshness::Session;

use crate::question::Question;

/// What kind of question arrived.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RouteLabel {
    /// Greeting, thanks, help: a direct reply, no search.
    ChitChat,
    /// One question about the current documents: the classic path.
    Simple,
    /// Several questions in one message: the agent loop, one part each.
    MultiPart,
    /// A question that needs a bridging entity: the agent loop, hop by hop.
    MultiHop,
    /// One question about a past session or date: the classic path at `as_of`.
    Historical,
}

/// The router's decision, recorded in the trace.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Route {
    /// The kind of question.
    pub label: RouteLabel,
    /// Why, in words ("contains 2 questions joined by 'and'").
    pub reason: String,
    /// The questions to answer: the parts of a multi-part question, the hops
    /// of a multi-hop one (later hops use `<answer N>`, the answer of hop N),
    /// the question itself when simple or historical, none for chit-chat.
    pub parts: Vec<String>,
    /// The session a historical question names (`S`), if it names one.
    pub session: Option<Session>,
    /// The as-of date of a historical question (`D`): the named date, or the
    /// earlier of today and the named session's last day.
    pub as_of: Option<NaiveDate>,
    /// Whether a hop finds a bridging entity inside a part ("the country
    /// where …"), not only a later part that refers back ("…, and where is
    /// his office?"): the answer is then the last hop's, and the bridges
    /// alone answer nothing.
    #[serde(default)]
    pub bridged: bool,
}

impl Route {
    /// Whether the question is historical: it sets its own as-of date.
    pub fn is_historical(&self) -> bool {
        self.as_of.is_some()
    }
}

#[allow(clippy::expect_used)]
fn re(pattern: &str) -> Regex {
    // The patterns are constants; a bad one is a programming error caught by the unit tests.
    Regex::new(pattern).expect("valid router pattern")
}

/// Whether `text` is a short social message with no policy words ("hi",
/// "aap kaise hain?"): the router answers it without a search.
pub fn is_chit_chat(text: &str) -> bool {
    chitchat::classify(text).is_some()
}

/// Route `question` asked on `today`, for sessions starting in `start_month` (1-12).
pub fn route(question: &Question, today: NaiveDate, start_month: u32) -> Route {
    let question = question.text();
    if let Some(kind) = chitchat::classify(question) {
        let reason = format!("a short {kind} message with no policy words");
        return Route {
            label: RouteLabel::ChitChat,
            reason,
            parts: Vec::new(),
            session: None,
            as_of: None,
            bridged: false,
        };
    }
    let split = split::split(question);
    let mut bridged = false;
    let (mut label, parts, shape) = if let Some(plan) = hops::plan(&split.parts) {
        bridged = plan.bridged;
        (RouteLabel::MultiHop, plan.hops, format!("needs a bridging entity: {}", plan.patterns.join("; ")))
    } else if split.parts.len() > 1 {
        let joiners = dedup(&split.joiners).join(" and ");
        let shape = format!("contains {} questions joined by {joiners}", split.parts.len());
        (RouteLabel::MultiPart, split.parts, shape)
    } else {
        (RouteLabel::Simple, vec![question.to_string()], "a single question".to_string())
    };
    let Some(time) = historical::detect(question, today, start_month) else {
        return Route { label, reason: shape, parts, session: None, as_of: None, bridged };
    };
    if !time.past {
        let reason = format!("{shape}; {}", time.reason);
        return Route { label, reason, parts, session: None, as_of: None, bridged };
    }
    if label == RouteLabel::Simple {
        label = RouteLabel::Historical;
    }
    let reason = format!("historical: {}; {shape}", time.reason);
    Route { label, reason, parts, session: time.session, as_of: Some(time.as_of), bridged }
}

fn dedup(words: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for w in words {
        if !out.contains(w) {
            out.push(w.clone());
        }
    }
    out
}

/// A short canned reply to a chit-chat message (in Hinglish when the message
/// is: "namaste", "shukriya", "kaise ho"). Anything else gets the help text.
pub fn chit_chat_reply(question: &str) -> String {
    chitchat::reply(question)
}

#[cfg(test)]
mod tests;
