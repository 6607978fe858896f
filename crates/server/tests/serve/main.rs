//! The server's integration tests (one binary): the real server on
//! 127.0.0.1:0 over the gate attack's audience library, driven by a real
//! HTTP client and a real MCP client.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;
mod gate;
mod limits;
mod load;
mod mcp_client;
