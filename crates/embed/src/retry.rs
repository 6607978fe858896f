//! Retry policy: capped, jittered exponential backoff, decided by status.
//!
//! 429 and 5xx answers, connection failures and timeouts are transient and
//! retried; any other 4xx is permanent and fails at once (the pattern of
//! meilisearch's `rest.rs` embedder and the AWS "Exponential Backoff and
//! Jitter" note). A `Retry-After` header in seconds (RFC 9110 §10.2.3) replaces
//! the computed delay, capped at [`RetryPolicy::cap_ms`].

use std::time::Duration;

/// How often and how long to retry transient failures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Attempts in total, the first included (at least 1). Default 5.
    pub max_attempts: u32,
    /// Delay before the first retry, in milliseconds; doubles per retry. Default 250.
    pub base_ms: u64,
    /// Upper bound of any delay, `Retry-After` included, in milliseconds. Default 8000.
    pub cap_ms: u64,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        Self { max_attempts: 5, base_ms: 250, cap_ms: 8_000 }
    }
}

impl RetryPolicy {
    /// Attempts to make (never fewer than 1).
    pub fn attempts(&self) -> u32 {
        self.max_attempts.max(1)
    }

    /// The wait after failed attempt `attempt` (1-based): `Retry-After` if given,
    /// else `base · 2^(attempt-1)` with "equal jitter" (uniform in
    /// [half, full]); always at most `cap_ms`.
    pub fn delay(&self, attempt: u32, retry_after: Option<Duration>) -> Duration {
        let cap = Duration::from_millis(self.cap_ms);
        if let Some(wait) = retry_after {
            return wait.min(cap);
        }
        let exp = self.base_ms.saturating_mul(1_u64 << attempt.saturating_sub(1).min(30));
        let full = exp.min(self.cap_ms);
        let half = full / 2;
        let jittered = if full > half { rand::random_range(half..=full) } else { full };
        Duration::from_millis(jittered)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use crate::transport::{is_transient, parse_retry_after};

    #[test]
    fn delays_grow_jittered_and_capped() {
        let p = RetryPolicy { max_attempts: 9, base_ms: 100, cap_ms: 1_000 };
        for _ in 0..50 {
            let d1 = p.delay(1, None).as_millis();
            assert!((50..=100).contains(&d1), "{d1}");
            let d3 = p.delay(3, None).as_millis();
            assert!((200..=400).contains(&d3), "{d3}");
            assert!(p.delay(40, None).as_millis() <= 1_000);
        }
    }

    #[test]
    fn retry_after_is_honoured_and_capped() {
        let p = RetryPolicy::default();
        assert_eq!(p.delay(1, Some(Duration::from_secs(2))), Duration::from_secs(2));
        assert_eq!(p.delay(1, Some(Duration::from_secs(600))), Duration::from_secs(8));
        assert_eq!(parse_retry_after(" 3 "), Some(Duration::from_secs(3)));
        assert_eq!(parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT"), None);
        assert_eq!(parse_retry_after("-1"), None);
    }

    #[test]
    fn transient_statuses() {
        assert!(is_transient(429) && is_transient(500) && is_transient(503));
        assert!(!is_transient(400) && !is_transient(401) && !is_transient(404));
    }

    #[test]
    fn zero_attempts_means_one() {
        assert_eq!(RetryPolicy { max_attempts: 0, ..Default::default() }.attempts(), 1);
    }
}
