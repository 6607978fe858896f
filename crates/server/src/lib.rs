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
