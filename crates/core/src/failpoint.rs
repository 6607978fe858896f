//! Named crash points for the crash-safety tests. When the environment
//! variable `ALMIRAH_FAILPOINT` is `name` (or `name@N`, the N-th hit, 1-based),
//! the process sends itself SIGKILL at that point: no destructor, no flush,
//! exactly like a power cut or `kill -9`. Unset, a hit costs one atomic load.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU32, Ordering};

static TARGET: OnceLock<Option<(String, u32)>> = OnceLock::new();
static HITS: AtomicU32 = AtomicU32::new(0);

fn target() -> &'static Option<(String, u32)> {
    TARGET.get_or_init(|| {
        let spec = std::env::var("ALMIRAH_FAILPOINT").ok()?;
        Some(parse(&spec))
    })
}

fn parse(spec: &str) -> (String, u32) {
    match spec.split_once('@') {
        Some((name, n)) => (name.to_string(), n.parse().unwrap_or(1).max(1)),
        None => (spec.to_string(), 1),
    }
}

/// Mark the named point; kills the process if it is the configured target.
pub fn hit(name: &str) {
    if let Some((target, nth)) = target()
        && target == name
        && HITS.fetch_add(1, Ordering::SeqCst) + 1 == *nth
    {
        let _ = rustix::process::kill_process(rustix::process::getpid(), rustix::process::Signal::KILL);
    }
}

#[cfg(test)]
mod tests {
    use super::parse;

    #[test]
    fn parses_name_and_hit_number() {
        assert_eq!(parse("mid-batch@3"), ("mid-batch".to_string(), 3));
        assert_eq!(parse("before-commit"), ("before-commit".to_string(), 1));
        assert_eq!(parse("x@0"), ("x".to_string(), 1));
    }
}
