//! Bearer tokens (RFC 6750) and the principal each one stands for.
//!
//! Tokens come from `[[serve.tokens]]` (each mapped to an audience
//! profile), from `ALMIRAH_SERVE_TOKEN` (the config's own profile), or, for
//! a loopback server with neither, from a token file the server writes
//! (see [`crate::serve::local_token`]). Only their BLAKE3 digests are kept, a
//! presented token is hashed and compared with every digest in constant
//! time (`subtle`), and no token is ever logged: logs and `status` name the
//! entry instead. [`LiveTokens`] re-reads the table when the config file
//! changes, so tokens can be added and revoked without a restart.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock};
use std::time::SystemTime;

use almirah_core::Audience;
use almirah_settings::Config;
use almirah_settings::serve::{DEFAULT_PROFILE, ServeSection};
use subtle::ConstantTimeEq;

use crate::error::ServerError;

/// Shortest token accepted, in characters.
pub const MIN_TOKEN_CHARS: usize = 16;

/// Who a request acts for: a name for logs and the audience it may see.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Principal {
    /// The token entry's name (never the token).
    pub name: String,
    /// The audiences this caller sees; no argument can widen them.
    pub audience: Audience,
}

struct Entry {
    digest: [u8; 32],
    principal: Principal,
}

/// The tokens in force.
#[derive(Default)]
pub struct TokenTable {
    entries: Vec<Entry>,
}

/// Secrets that do not come from the config file.
#[derive(Debug, Clone, Default)]
pub struct ExtraTokens {
    /// `ALMIRAH_SERVE_TOKEN`: the config's own profile.
    pub env: Option<String>,
    /// The token file of a loopback server with no other token.
    pub local: Option<String>,
}

fn digest(token: &str) -> [u8; 32] {
    *blake3::hash(token.as_bytes()).as_bytes()
}

impl TokenTable {
    /// The table `config` and `extra` describe.
    ///
    /// # Errors
    /// [`ServerError::Config`] for an entry with no secret or two, a token
    /// shorter than [`MIN_TOKEN_CHARS`], a token given twice (two entries,
    /// or `ALMIRAH_SERVE_TOKEN` and an entry; the message names the entries,
    /// never the token), an unset `token_env` variable, or an unknown profile.
    pub fn build(config: &Config, extra: &ExtraTokens) -> Result<Self, ServerError> {
        let own = Audience::new(config.profile.audience.clone());
        let mut table = Self::default();
        for (i, entry) in config.serve.tokens.iter().enumerate() {
            let name = if entry.name.is_empty() { format!("token {}", i + 1) } else { entry.name.clone() };
            let secret = secret_of(&name, entry.token.as_deref(), entry.token_env.as_deref())?;
            let audience = profile(&config.serve, &entry.profile, &own).ok_or_else(|| {
                ServerError::Config(format!("{name}: no profile {:?} in [serve.profiles]", entry.profile))
            })?;
            table.push(&name, &secret, audience)?;
        }
        if let Some(secret) = &extra.env {
            table.push("ALMIRAH_SERVE_TOKEN", secret, own.clone())?;
        }
        if let Some(secret) = &extra.local {
            table.push("local token file", secret, own)?;
        }
        Ok(table)
    }

    fn push(&mut self, name: &str, secret: &str, audience: Audience) -> Result<(), ServerError> {
        if secret.chars().count() < MIN_TOKEN_CHARS {
            return Err(ServerError::Config(format!("{name}: a token needs at least {MIN_TOKEN_CHARS} characters")));
        }
        let digest = digest(secret);
        if let Some(twin) = self.entries.iter().find(|e| e.digest == digest) {
            return Err(ServerError::Config(format!(
                "{name} has the same token as {:?}; give every entry a token of its own (a shared token would \
                 decide the caller's profile by its order in the file)",
                twin.principal.name
            )));
        }
        let principal = Principal { name: name.to_string(), audience };
        self.entries.push(Entry { digest, principal });
        Ok(())
    }

    /// Whether no token is configured.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The principal of `presented`, comparing its digest with every entry
    /// in constant time (no early exit, so timing tells nothing of which
    /// entry, or how much of one, matched).
    pub fn lookup(&self, presented: &str) -> Option<Principal> {
        let wanted = digest(presented);
        let mut found: Option<&Entry> = None;
        for entry in &self.entries {
            let hit: bool = entry.digest.ct_eq(&wanted).into();
            if hit && found.is_none() {
                found = Some(entry);
            }
        }
        found.map(|e| e.principal.clone())
    }
}

fn secret_of(name: &str, token: Option<&str>, env: Option<&str>) -> Result<String, ServerError> {
    match (token, env) {
        (Some(t), None) => Ok(t.to_string()),
        (None, Some(var)) => std::env::var(var)
            .map_err(|_| ServerError::Config(format!("{name}: the environment variable {var} is not set"))),
        _ => Err(ServerError::Config(format!("{name}: give exactly one of token and token_env"))),
    }
}

/// The audience of profile `name`: the config's own for `default` or "".
fn profile(serve: &ServeSection, name: &str, own: &Audience) -> Option<Audience> {
    if name.is_empty() || name == DEFAULT_PROFILE {
        return Some(own.clone());
    }
    serve.profiles.get(name).map(|a| Audience::new(a.clone()))
}

/// The token table, re-read when the config file's modification time
/// changes (checked on every request: one `stat`).
pub struct LiveTokens {
    path: Option<PathBuf>,
    extra: ExtraTokens,
    seen: Mutex<Option<SystemTime>>,
    table: RwLock<Arc<TokenTable>>,
}

fn modified(path: &Path) -> Option<SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

impl LiveTokens {
    /// The table of `config`, following the file at `path` from now on.
    ///
    /// # Errors
    /// As [`TokenTable::build`].
    pub fn new(config: &Config, path: Option<PathBuf>, extra: ExtraTokens) -> Result<Self, ServerError> {
        let table = TokenTable::build(config, &extra)?;
        let seen = path.as_deref().and_then(modified);
        Ok(Self { path, extra, seen: Mutex::new(seen), table: RwLock::new(Arc::new(table)) })
    }

    /// The tokens in force now. When the config file changed, it is read
    /// again; a file that no longer parses keeps the previous table (and
    /// says so in the log).
    pub fn current(&self) -> Arc<TokenTable> {
        self.reload_if_changed();
        self.table.read().map(|t| t.clone()).unwrap_or_else(|e| e.into_inner().clone())
    }

    fn reload_if_changed(&self) {
        let Some(path) = &self.path else { return };
        let now = modified(path);
        let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        if now == *seen {
            return;
        }
        *seen = now;
        let table = almirah_settings::read(path)
            .map_err(|e| ServerError::Config(e.to_string()))
            .and_then(|config| TokenTable::build(&config, &self.extra));
        match table {
            Ok(table) => {
                tracing::info!(tokens = table.entries.len(), "config changed: tokens reloaded");
                *self.table.write().unwrap_or_else(|e| e.into_inner()) = Arc::new(table);
            }
            Err(e) => tracing::warn!(%e, "config changed but its tokens cannot be used; keeping the previous ones"),
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn config(text: &str) -> Config {
        toml::from_str(text).unwrap()
    }

    #[test]
    fn tokens_map_to_their_profiles_and_nothing_else_matches() {
        let c = config(
            "[profile]\naudience = [\"staff\"]\n[serve.profiles]\nhr = [\"hr-only\"]\n\
             [[serve.tokens]]\nname = \"hr\"\ntoken = \"hr-token-0123456789\"\nprofile = \"hr\"\n",
        );
        let extra = ExtraTokens { env: Some("env-token-0123456789".into()), local: None };
        let t = TokenTable::build(&c, &extra).unwrap();
        assert_eq!(t.lookup("hr-token-0123456789").unwrap().audience.names(), ["hr-only"]);
        assert_eq!(t.lookup("env-token-0123456789").unwrap().audience.names(), ["staff"]);
        assert!(t.lookup("hr-token-012345678").is_none());
        assert!(t.lookup("").is_none());
    }

    #[test]
    fn weak_or_ambiguous_entries_are_refused() {
        let short = config("[[serve.tokens]]\ntoken = \"short\"\n");
        assert!(TokenTable::build(&short, &ExtraTokens::default()).is_err());
        let both = config("[[serve.tokens]]\ntoken = \"0123456789abcdefg\"\ntoken_env = \"X\"\n");
        assert!(TokenTable::build(&both, &ExtraTokens::default()).is_err());
        let unknown = config("[[serve.tokens]]\ntoken = \"0123456789abcdefg\"\nprofile = \"nope\"\n");
        assert!(TokenTable::build(&unknown, &ExtraTokens::default()).is_err());
    }

    #[test]
    fn a_token_given_twice_is_refused_without_showing_it() {
        let secret = "shared-token-0123456789";
        let twice = config(&format!(
            "[serve.profiles]\nhr = [\"hr-only\"]\n[[serve.tokens]]\nname = \"front\"\ntoken = \"{secret}\"\n\
             [[serve.tokens]]\nname = \"hr\"\ntoken = \"{secret}\"\nprofile = \"hr\"\n"
        ));
        let e = TokenTable::build(&twice, &ExtraTokens::default()).err().unwrap().to_string();
        assert!(e.contains("hr has the same token as \"front\"") && !e.contains(secret), "{e}");
        let once = config(&format!("[[serve.tokens]]\nname = \"front\"\ntoken = \"{secret}\"\n"));
        let env = ExtraTokens { env: Some(secret.into()), local: None };
        let e = TokenTable::build(&once, &env).err().unwrap().to_string();
        assert!(e.contains("ALMIRAH_SERVE_TOKEN has the same token as \"front\"") && !e.contains(secret), "{e}");
    }
}
