//! The `[serve]` section: how `almirah serve` listens, who may call it and
//! what each caller sees, and its limits.
//!
//! ```toml
//! [serve]
//! bind = "127.0.0.1"          # a non-loopback address needs a token
//! port = 8765
//! max_body_bytes = 65536      # larger request bodies get 413
//! max_query_chars = 1000      # longer queries and questions get 400
//! max_concurrent_asks = 2     # more get 429 with Retry-After
//! header_timeout_ms = 10000   # a request head not sent by then: the connection is cut
//! shutdown_grace_ms = 5000    # on SIGTERM, requests in progress get this long
//! max_connections = 512       # connections served at once; more wait to be accepted
//! allowed_origins = []        # browser origins besides loopback ones (MCP Origin check)
//! allowed_hosts = []          # Host names besides loopback ones (behind a reverse proxy)
//!
//! [serve.profiles]            # audience profiles a token can name
//! hr = ["all-staff", "staff", "hr-only"]
//!
//! [[serve.tokens]]            # RFC 6750 bearer tokens
//! name = "front-office"       # shown in logs instead of the token
//! token_env = "ALMIRAH_TOKEN_FRONT_OFFICE"   # or: token = "…"
//! profile = "default"         # "default" (or omitted): the config's [profile]
//! ```

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// `[serve]` section.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ServeSection {
    /// Address to listen on (default `127.0.0.1`).
    pub bind: String,
    /// Port (default 8765).
    pub port: u16,
    /// Largest request body, bytes (default 65,536).
    pub max_body_bytes: usize,
    /// Longest query or question, characters (default 1,000).
    pub max_query_chars: usize,
    /// Questions answered at once; more are refused with 429 (default 2).
    pub max_concurrent_asks: usize,
    /// Seconds a refused `ask` is told to wait (`Retry-After`, default 5).
    pub retry_after_secs: u64,
    /// Interval of the SSE keep-alive comments of `ask`, ms (default
    /// 5,000). A client that went away is noticed at the next write.
    pub sse_keep_alive_ms: u64,
    /// A client that has not sent a whole request head within this many ms
    /// is disconnected (default 10,000), so slow or half-sent requests
    /// cannot hold connections (or a shutdown) open.
    pub header_timeout_ms: u64,
    /// On Ctrl-C or SIGTERM, requests in progress may finish within this
    /// many ms; then every connection still open is cut (default 5,000).
    pub shutdown_grace_ms: u64,
    /// Connections served at once; more wait in the listen backlog (default 512).
    pub max_connections: usize,
    /// Browser origins allowed besides loopback ones (`http://localhost:*`
    /// and the like), e.g. `https://intranet.example.org`.
    pub allowed_origins: Vec<String>,
    /// `Host` names allowed on the MCP endpoint besides loopback ones and
    /// the bind address, e.g. the public name behind a reverse proxy.
    pub allowed_hosts: Vec<String>,
    /// Audience profiles by name: `hr = ["all-staff", "hr-only"]`.
    pub profiles: BTreeMap<String, Vec<String>>,
    /// Bearer tokens, each mapped to a profile.
    pub tokens: Vec<TokenEntry>,
}

impl Default for ServeSection {
    fn default() -> Self {
        Self {
            bind: "127.0.0.1".into(),
            port: 8765,
            max_body_bytes: 64 * 1024,
            max_query_chars: 1000,
            max_concurrent_asks: 2,
            retry_after_secs: 5,
            sse_keep_alive_ms: 5000,
            header_timeout_ms: 10_000,
            shutdown_grace_ms: 5000,
            max_connections: 512,
            allowed_origins: Vec::new(),
            allowed_hosts: Vec::new(),
            profiles: BTreeMap::new(),
            tokens: Vec::new(),
        }
    }
}

/// One `[[serve.tokens]]` entry. Exactly one of `token` and `token_env`
/// gives the secret.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TokenEntry {
    /// A name for logs and `status` (the token itself is never shown).
    pub name: String,
    /// The token (keep the config file private: `chmod 600`).
    pub token: Option<String>,
    /// The environment variable holding the token instead.
    pub token_env: Option<String>,
    /// A `[serve.profiles]` name; `default` or empty: the config's `[profile]`.
    pub profile: String,
}

/// The profile name that means the config's own `[profile]`.
pub const DEFAULT_PROFILE: &str = "default";

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    #[test]
    fn parses_tokens_and_profiles() {
        let text = "[serve]\nport = 9000\n[serve.profiles]\nhr = [\"hr-only\"]\n[[serve.tokens]]\nname = \"hr\"\ntoken = \"s3cret\"\nprofile = \"hr\"\n";
        let c: crate::Config = toml::from_str(text).unwrap();
        assert_eq!(c.serve.port, 9000);
        assert_eq!(c.serve.bind, "127.0.0.1");
        assert_eq!(c.serve.profiles["hr"], ["hr-only"]);
        assert_eq!(c.serve.tokens[0].token.as_deref(), Some("s3cret"));
        assert!(toml::from_str::<crate::Config>("[serve]\nprot = 1\n").is_err());
    }
}
