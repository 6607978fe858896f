//! The app's commands: each is a few lines around one core call, with the
//! blocking part off the async runtime (STYLE conventions 1 and 12). Every
//! command is listed in `build.rs` and granted in `capabilities/main.json`.

pub mod chat;
pub mod documents;
pub mod embedder;
pub mod import;
pub mod library;
pub mod mcp;
pub mod settings;
