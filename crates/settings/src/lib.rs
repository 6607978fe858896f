//! The Almirah config file, shared by the CLI and the desktop app: where it
//! and the library live, what it holds (`[embedder]`, `[model]`, `[agent]`,
//! `[[folders]]`, `[watch]`…), the [`almirah_core::EngineConfig`] it
//! describes, and comment-preserving edits.

mod config;
pub mod edit;
mod error;
pub mod folders;
pub mod serve;

pub use config::*;
pub use error::{Result, SettingsError};
