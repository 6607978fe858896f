//! The evaluation harness: a JSONL set of questions with expectations, run
//! through the answering path, scored per question and summarised per mode.
//!
//! Line format: `{id, question, as_of, expect: {answer_any, answer_none,
//! sources_all, sources_none, abstain}}`; sources are file names.
//! Metrics: answer correctness and token F1 (SQuAD-style, Rajpurkar et al.
//! 2016), retrieval coverage, citation precision and count, stale-citation
//! rate (judged against `sources_none`, never the gate's own verdict),
//! abstention precision and recall, latency p50/p95, model and tool calls,
//! tokens; exact match (SQuAD normalisation) and recall@5/@10 of the gold
//! sources among the admitted documents. [`retrieval`] scores rankers
//! alone (BM25, vectors, hybrid): recall@k and nDCG@10.

pub mod journal;
pub mod metrics;
pub mod plots;
pub mod retrieval;
pub mod set;

pub use journal::{Journal, JournalError};
pub use metrics::{QuestionResult, Summary, score, summarise};
pub use retrieval::{RetrievalResult, RetrievalSummary, summarise_retrieval};
pub use set::{EvalItem, Expect, Half, load};
