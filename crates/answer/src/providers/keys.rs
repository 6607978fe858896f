//! API keys: from the environment, else from the OS keyring (ARCHITECTURE §6).
//!
//! A key lives in a [`Secret`], whose `Debug` prints `Secret(***)` and which
//! has no `Display` and no `Serialize`, so it cannot reach the index, a trace
//! or a log by accident. Transports also scrub the key out of server messages.
//!
//! **Keyring.** The `keyring` crate (3.x) is built with its pure-Rust stores
//! only, so no system library or `-dev` package is needed: the kernel keyutils
//! store on Linux (works headless; it is *not* GNOME Keyring/KWallet, which
//! would need the D-Bus Secret Service and `libdbus-1-dev`), Keychain on macOS,
//! Credential Manager on Windows. Entries are service [`KEYRING_SERVICE`],
//! user = the provider (`openai`, `gemini`); [`store_in_keyring`] writes one.

/// Keyring service name of Almirah's entries.
pub const KEYRING_SERVICE: &str = "almirah";

pub use almirah_embed::transport::Secret;

/// A key and where it was found (for hints: `$GEMINI_API_KEY`, `the OS keyring …`).
#[derive(Debug, Clone)]
pub struct FoundKey {
    /// The key.
    pub secret: Secret,
    /// Where it came from, safe to show.
    pub source: String,
}

/// Where to look for one provider's key.
#[derive(Debug, Clone, Default)]
pub struct KeyLookup {
    /// Environment variables, tried in order.
    pub env_vars: Vec<String>,
    /// Keyring user (the provider name) to try after them, or `None` to skip the keyring.
    pub keyring_user: Option<String>,
}

impl KeyLookup {
    /// Where this lookup looks, for a "no key" message: `$A, $B or the OS keyring (…)`.
    pub fn places(&self) -> String {
        let mut places: Vec<String> = self.env_vars.iter().map(|v| format!("${v}")).collect();
        if let Some(user) = &self.keyring_user {
            places.push(keyring_place(user));
        }
        match places.len() {
            0 => "nowhere".into(),
            1 => places.remove(0),
            n => format!("{} or {}", places[..n - 1].join(", "), places[n - 1]),
        }
    }
}

/// Finds a key in the process environment and the OS keyring. A keyring
/// that cannot be reached counts as holding no key (logged at debug level).
///
/// # Returns
/// `None` when no place holds a non-empty key.
pub fn find_key(lookup: &KeyLookup) -> Option<FoundKey> {
    find_key_with(lookup, |var| std::env::var(var).ok(), read_keyring)
}

/// [`find_key`] over any environment and keyring (the tests use fakes).
pub(crate) fn find_key_with(
    lookup: &KeyLookup,
    env: impl Fn(&str) -> Option<String>,
    keyring: impl Fn(&str) -> Result<Option<String>, String>,
) -> Option<FoundKey> {
    for var in &lookup.env_vars {
        if let Some(value) = env(var).filter(|v| !v.trim().is_empty()) {
            return Some(FoundKey { secret: Secret::new(value), source: format!("${var}") });
        }
    }
    let user = lookup.keyring_user.as_deref()?;
    match keyring(user) {
        Ok(Some(value)) if !value.trim().is_empty() => {
            Some(FoundKey { secret: Secret::new(value), source: keyring_place(user) })
        }
        Ok(_) => None,
        Err(message) => {
            tracing::debug!(%message, user, "OS keyring not readable; no key from it");
            None
        }
    }
}

/// Stores `secret` as the key of `provider` (`openai`, `gemini`) in the OS keyring.
///
/// # Errors
/// The keyring's own error (locked, unavailable, too long), without the key.
pub fn store_in_keyring(provider: &str, secret: &Secret) -> Result<(), String> {
    let entry = keyring::Entry::new(KEYRING_SERVICE, provider).map_err(|e| describe(&e))?;
    entry.set_password(secret.expose()).map_err(|e| secret.redact(&describe(&e)))
}

/// Whether the OS keyring holds a key for `provider`.
///
/// # Errors
/// The keyring's own error (no keyring service, locked).
pub fn keyring_has(provider: &str) -> Result<bool, String> {
    read_keyring(provider).map(|v| v.is_some_and(|k| !k.trim().is_empty()))
}

/// Removes the key of `provider` from the OS keyring (nothing stored is fine).
///
/// # Errors
/// The keyring's own error.
pub fn delete_from_keyring(provider: &str) -> Result<(), String> {
    let entry = keyring::Entry::new(KEYRING_SERVICE, provider).map_err(|e| describe(&e))?;
    match entry.delete_credential() {
        Ok(()) | Err(keyring::Error::NoEntry) => Ok(()),
        Err(e) => Err(describe(&e)),
    }
}

fn keyring_place(user: &str) -> String {
    format!("the OS keyring (service {KEYRING_SERVICE}, user {user})")
}

/// The password of (service [`KEYRING_SERVICE`], `user`), `None` when there is no entry.
fn read_keyring(user: &str) -> Result<Option<String>, String> {
    let entry = keyring::Entry::new(KEYRING_SERVICE, user).map_err(|e| describe(&e))?;
    match entry.get_password() {
        Ok(password) => Ok(Some(password)),
        Err(keyring::Error::NoEntry) => Ok(None),
        Err(e) => Err(describe(&e)),
    }
}

/// A keyring error as text that never contains the stored bytes.
fn describe(e: &keyring::Error) -> String {
    match e {
        keyring::Error::BadEncoding(_) => "the stored key is not UTF-8".into(),
        other => other.to_string(),
    }
}
