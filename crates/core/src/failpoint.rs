//! Named crash points for the crash-safety tests. When the environment
//! variable `ALMIRAH_FAILPOINT` is `name` (or `name@N`, the N-th hit, 1-based),
//! the process sends itself SIGKILL at that point: no destructor, no flush,
//! exactly like a power cut or `kill -9`. A test in the same process can
//! instead run code at a point ([`set_hook`]), e.g. commit a new version of
//! a document between two tool calls of one answer. Unset, a hit costs two
//! atomic loads.

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

static TARGET: OnceLock<Option<(String, u32)>> = OnceLock::new();
static HITS: AtomicU32 = AtomicU32::new(0);

type Hook = Arc<dyn Fn() + Send + Sync>;
static HOOKS: Mutex<Vec<(String, Hook)>> = Mutex::new(Vec::new());
static ANY_HOOK: AtomicBool = AtomicBool::new(false);

/// Run `hook` every time the point `name` is hit, in the hitting thread
/// (replaces an earlier hook of that name).
pub fn set_hook(name: &str, hook: impl Fn() + Send + Sync + 'static) {
    let mut hooks = HOOKS.lock().unwrap_or_else(|e| e.into_inner());
    hooks.retain(|(n, _)| n != name);
    hooks.push((name.to_string(), Arc::new(hook)));
    ANY_HOOK.store(true, Ordering::SeqCst);
}

/// Remove the hook of `name`.
pub fn clear_hook(name: &str) {
    let mut hooks = HOOKS.lock().unwrap_or_else(|e| e.into_inner());
    hooks.retain(|(n, _)| n != name);
    ANY_HOOK.store(!hooks.is_empty(), Ordering::SeqCst);
}

fn run_hooks(name: &str) {
    let matching: Vec<Hook> = {
        let hooks = HOOKS.lock().unwrap_or_else(|e| e.into_inner());
        hooks.iter().filter(|(n, _)| n == name).map(|(_, h)| h.clone()).collect()
    };
    for hook in matching {
        hook();
    }
}

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

/// Mark the named point; kills the process if it is the configured target,
/// and runs its hook if one is set.
pub fn hit(name: &str) {
    if ANY_HOOK.load(Ordering::SeqCst) {
        run_hooks(name);
    }
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
