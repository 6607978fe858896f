//! Almirah as a service (issue 19): the library as MCP tools for other
//! agents, and an HTTP API for a shared office library, both thin adapters
//! over the same gated read snapshot as the CLI and the desktop app
//! (ARCHITECTURE §1).
//!
//! - [`mcp`]: the MCP server (rmcp) over stdio (`almirah mcp`) and
//!   streamable HTTP (`/mcp` on `almirah serve`'s port); its tools are the
//!   agent loop's own ([`tools`]) plus `ask`.
//! - [`http`]: the HTTP API (axum): search, ask (server-sent events),
//!   documents, status, readiness, an OpenAI-compatible chat endpoint.
//! - [`tokens`]: bearer tokens (RFC 6750) mapped to audience profiles,
//!   compared in constant time, reloaded when the config changes.
//! - [`service`]: the shared state; one snapshot per request, on the
//!   blocking pool, with the caller's audience. Nothing here writes.
//! - [`serve`]: binding (loopback unless a token is configured), the
//!   watcher, shutdown.
//!
//! The as-of date and the audience are never tool arguments: MCP tools
//! read as of today for the server's (or the token's) profile; the HTTP
//! API takes `as_of` as a request parameter, because a person chose it.
//!
//! # Read-only by construction
//!
//! The service reads the library through a [`almirah_core::Reader`] or a
//! snapshot (it writes only by running the engine's watcher), and the
//! compiler keeps it from writing any other way: the store's writer
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

pub mod ask;
pub mod error;
pub mod http;
pub mod mcp;
pub mod render;
pub mod serve;
pub mod service;
pub mod tokens;
pub mod tools;

pub use error::{ApiError, ServerError};
pub use serve::{Running, ServeOptions, start};
pub use service::{ModelFactory, Service, Setup, StatsView};
pub use tokens::{ExtraTokens, Principal};
