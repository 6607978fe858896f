//! Panic guard for third-party parsers.
//!
//! pdf-extract 0.12.1 and lopdf 0.42 contain `unwrap`/`expect` calls that fire
//! on malformed files (e.g. "missing unicode map and encoding"). Every call
//! into them goes through [`guarded`], which turns a panic into
//! [`ExtractError::Failed`] with the panic message. The process-wide panic hook
//! is left alone (it still prints to stderr); the core runs extraction in a
//! child process anyway (ARCHITECTURE §4).

use std::panic::{AssertUnwindSafe, catch_unwind};

use crate::ExtractError;

/// Run `f`, converting a panic into `Failed("parser panicked: <msg>")`.
pub(crate) fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, ExtractError> {
    catch_unwind(AssertUnwindSafe(f))
        .map_err(|payload| ExtractError::Failed(format!("parser panicked: {}", panic_message(&payload))))
}

/// The message of a panic payload (`&str` or `String`), else a placeholder.
fn panic_message(payload: &Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic payload".to_string()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::panic)]
    use super::*;

    #[test]
    fn panic_becomes_failed_with_message() {
        let r: Result<(), _> = guarded(|| std::panic::panic_any("boom"));
        assert_eq!(r, Err(ExtractError::Failed("parser panicked: boom".into())));
    }

    #[test]
    fn value_passes_through() {
        assert_eq!(guarded(|| 7), Ok(7));
    }
}
