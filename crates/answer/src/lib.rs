//! Almirah's answering layer (ARCHITECTURE §5).
//!
//! - [`question`] parses a question once into the [`question::Question`]
//!   every other module reads.
//! - [`router`] decides, in code, what kind of question arrived: chit-chat,
//!   simple, multi-part, multi-hop or historical (which sets the as-of date
//!   and session, §2).
//! - [`classic`] is the classic path: one search through the freshness gate,
//!   a cut-off, a drafted answer, verified citations, the trace.
//! - [`model`] is the `ChatModel` trait; [`builtin`] the offline,
//!   deterministic, extractive model every other model is measured against.
//! - [`citations`] splits an answer into sentences with their `[chunk-key]`
//!   citations; [`numeric`] checks that every number, amount or date in a
//!   cited sentence comes from its cited chunks or from the question;
//!   [`verify`] applies both.
//! - [`fallback`]: the builtin answers when the configured model gives
//!   no verified sentence, and says so.
//! - [`focus`] cuts the evidence a small model reads to the best passages
//!   and, in each, the sentences around its best one.
//! - [`lexicon`] holds the word lists and word tests they share
//!   (negation cues).
//! - [`trace`] records every step as structured data.
//! - [`providers`] holds the HTTP chat models (OpenAI-compatible, Gemini)
//!   and builds a model from a spec string.
//!
//! # Read-only by construction
//!
//! Answer code reads the library through a [`almirah_core::Reader`] or a
//! snapshot, and the compiler keeps it from writing: the store's writer
//! and its LMDB environment are private to `almirah-core`, and so is every
//! core function that writes. A store opens read transactions:
//!
//! ```
//! # fn read(engine: &almirah_core::Engine) -> almirah_core::Result<u64> {
//! let rtxn = engine.store().read_txn()?;
//! Ok(engine.store().dbs().documents.len(&rtxn)?)
//! # }
//! ```
//!
//! and nothing else: no write operation (E0624, private method),
//!
//! ```compile_fail,E0624
//! # fn write(engine: &almirah_core::Engine) {
//! let _ = engine.store().write(|wtxn, _dbs| Ok(wtxn.commit()?));
//! # }
//! ```
//!
//! no environment to open a write transaction on (E0599, no such method),
//!
//! ```compile_fail,E0599
//! # fn write(engine: &almirah_core::Engine) {
//! let _ = engine.store().env().write_txn();
//! # }
//! ```
//!
//! and no write path around the engine (E0603, private function).
//!
//! ```compile_fail,E0603
//! # fn write(engine: &almirah_core::Engine, params: &almirah_core::IndexParams) {
//! let _ = almirah_core::update::remove_folder(engine.store(), params, std::path::Path::new("/x"));
//! # }
//! ```

pub mod agent;
pub mod builtin;
pub mod citations;
pub mod classic;
pub mod eval;
pub mod evidence;
pub mod fallback;
pub mod focus;
pub mod followup;
pub mod lexicon;
pub mod mode;
pub mod model;
pub mod numeric;
pub mod pick;
pub mod plan;
pub mod providers;
pub mod question;
pub mod router;
pub mod trace;
pub mod verify;
