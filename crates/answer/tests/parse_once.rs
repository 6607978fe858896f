//! Each answer reads its question once: the router, the planner, the
//! builtin and the checks all take the one [`Question`] that
//! `mode::answer` parses (issue #39). The process-wide parse counter makes
//! this observable, so this binary holds this one test alone.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::sync::Arc;

use almirah_answer::agent::AgentConfig;
use almirah_answer::builtin::BuiltinModel;
use almirah_answer::mode::{Mode, answer};
use almirah_answer::model::ChatModel;
use almirah_answer::question::Question;
use common::{engine, today};

#[test]
fn each_answer_parses_its_question_once() {
    let reader = engine().reader();
    let model: Arc<dyn ChatModel> = Arc::new(BuiltinModel::for_reader(&reader));
    let q = "How many days of earned leave do I get per year?";
    for mode in [Mode::Classic, Mode::Agent, Mode::Auto] {
        let before = Question::parses();
        let a = answer(&reader, model.clone(), q, today(), &|_: &str| {}, mode, &AgentConfig::default()).unwrap();
        assert!(a.text.contains("18 days"), "{mode}: {}", a.text);
        assert_eq!(Question::parses() - before, 1, "{mode}: the question was parsed more than once");
    }
}
