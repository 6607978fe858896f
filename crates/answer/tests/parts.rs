//! Every part answered, or said to be missing (issue #39): a multi-part
//! question whose one part the documents do not cover gets the other
//! part's answer and a closing sentence naming the part left out, on the
//! classic path and in the agent loop; a question whose parts are all
//! answered gets no such sentence.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::sync::Arc;

use almirah_answer::agent::{AgentConfig, ask_agent};
use almirah_answer::builtin::BuiltinModel;
use almirah_answer::classic::{Answer, ask};
use almirah_answer::question::Question;
use almirah_answer::trace::Step;
use common::{engine, today};

const MISSING_PART: &str = "How many days of earned leave do I get, and what is the gym membership subsidy?";
const BOTH_PARTS: &str = "How many days of earned leave do I get, and what is the daily allowance on official travel?";

fn classic(q: &str) -> Answer {
    let reader = engine().reader();
    ask(&reader, &BuiltinModel::for_reader(&reader), &Question::parse(q), today(), &|_: &str| {}).unwrap()
}

fn agent(q: &str) -> Answer {
    let reader = engine().reader();
    let model = Arc::new(BuiltinModel::for_reader(&reader));
    ask_agent(&reader, model, &Question::parse(q), today(), &|_: &str| {}, &AgentConfig::default()).unwrap()
}

fn noted(a: &Answer) -> bool {
    a.trace.steps.iter().any(|s| matches!(s, Step::Note { text } if text.starts_with("parts not answered")))
}

#[test]
fn the_part_the_documents_do_not_cover_is_named() {
    for a in [classic(MISSING_PART), agent(MISSING_PART)] {
        assert!(a.text.contains("18 days") && !a.abstained, "{}\n{}", a.text, a.trace.render());
        assert!(
            a.text
                .ends_with("I could not find an answer in the documents to: \"what is the gym membership subsidy?\".")
                || a.text.ends_with(
                    "I could not find an answer in the documents to: \"What is the gym membership subsidy?\"."
                ),
            "{}\n{}",
            a.text,
            a.trace.render()
        );
        assert!(noted(&a), "{}", a.trace.render());
    }
}

/// The second part ("How much?") names nothing of its own: the first
/// part's sentence answers it.
const ELLIPTICAL: &str = "Do employees on official travel get a daily allowance? How much?";

#[test]
fn a_question_whose_parts_are_all_answered_names_none() {
    for q in [BOTH_PARTS, ELLIPTICAL] {
        for a in [classic(q), agent(q)] {
            assert!(a.text.contains("2,500"), "{}\n{}", a.text, a.trace.render());
            assert!(q == ELLIPTICAL || a.text.contains("18 days"), "{}", a.text);
            assert!(!a.text.contains("could not find"), "{}\n{}", a.text, a.trace.render());
            assert!(!noted(&a), "{}", a.trace.render());
        }
    }
}
