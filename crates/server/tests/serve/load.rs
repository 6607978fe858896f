//! Load on loopback (issue 19, acceptance 3): concurrent clients searching
//! and asking while the watcher adds files; no failed request other than
//! the intended 429s (counted apart), every added file searchable at the
//! end, no hidden text in any response. Bounded by default (CI);
//! `ALMIRAH_SERVE_LOAD=full` runs 50 clients × 100 searches, 20 asks and
//! 200 files. Prints p50/p95 latency and requests per second.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use almirah_core::{Notice, WatchOptions, Watcher};
use serde_json::json;

use crate::common::{STAFF, Served};

struct Size {
    clients: usize,
    searches: usize,
    asks: usize,
    files: usize,
}

fn size() -> Size {
    if std::env::var("ALMIRAH_SERVE_LOAD").is_ok_and(|v| v == "full") {
        Size { clients: 50, searches: 100, asks: 20, files: 200 }
    } else {
        Size { clients: 8, searches: 15, asks: 6, files: 20 }
    }
}

const QUERIES: [&str; 6] = [
    "When does the canteen serve lunch?",
    "restricted holidays",
    "festival bonus",
    "meal coupons",
    "office closes on 26 January",
    "parking rule for the annex",
];

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

/// One client: `n` searches; (latencies in ms, failures).
async fn searcher(url: String, n: usize, offset: usize, served: Arc<Served>) -> (Vec<f64>, Vec<String>) {
    let client = Served::client();
    let (mut ms, mut failures) = (Vec::with_capacity(n), Vec::new());
    for i in 0..n {
        let q = QUERIES[(i + offset) % QUERIES.len()];
        let started = Instant::now();
        let resp =
            client.get(format!("{url}/v1/search?q={}&k=5", crate::common::enc(q))).bearer_auth(STAFF).send().await;
        match resp {
            Ok(r) if r.status() == 200 => {
                let body = r.text().await.unwrap_or_default();
                ms.push(started.elapsed().as_secs_f64() * 1000.0);
                failures.extend(served.leaks(&body));
            }
            Ok(r) => failures.push(format!("search {q:?}: {}", r.status())),
            Err(e) => failures.push(format!("search {q:?}: {e}")),
        }
    }
    (ms, failures)
}

/// One question: Ok(true) answered, Ok(false) refused with 429.
async fn asker(url: String, served: Arc<Served>) -> Result<bool, String> {
    let body = json!({"question": "When does the canteen serve lunch, and what are the restricted holidays?"});
    let resp = Served::client().post(format!("{url}/v1/ask")).bearer_auth(STAFF).json(&body).send().await;
    let resp = resp.map_err(|e| e.to_string())?;
    match resp.status().as_u16() {
        429 => Ok(false),
        200 => {
            let text = resp.text().await.map_err(|e| e.to_string())?;
            let leaks = served.leaks(&text);
            if text.contains("event: answer") && leaks.is_empty() {
                Ok(true)
            } else {
                Err(format!("ask: {leaks:?} {text}"))
            }
        }
        s => Err(format!("ask: {s}")),
    }
}

fn notice(i: usize) -> String {
    format!(
        "---\ntitle: Notice {i}\n---\n# Notice {i}\n\nNotice {i} sets the zeta{i}quux parking rule for the annex.\n"
    )
}

/// p50 of one search, sequentially: in process (a snapshot and a search on
/// the blocking pool) and over HTTP (the same plus the token check, JSON
/// and loopback TCP); their difference is the request overhead.
async fn sequential_overhead(served: &Served) -> (f64, f64) {
    let client = Served::client();
    let (mut local, mut http) = (Vec::new(), Vec::new());
    for i in 0..40 {
        let q = QUERIES[i % QUERIES.len()];
        let engine = served.lib.engine.clone();
        let started = Instant::now();
        tokio::task::spawn_blocking(move || {
            let reader = engine.reader();
            let snapshot = reader.snapshot(reader.as_of(None, None)).unwrap();
            let opts = almirah_core::SearchOptions { k: 5, ..reader.settings().search };
            snapshot.search(q, &opts, 5, &Default::default()).unwrap()
        })
        .await
        .unwrap();
        local.push(started.elapsed().as_secs_f64() * 1000.0);
        let started = Instant::now();
        let url = format!("{}/v1/search?q={}&k=5", served.url, crate::common::enc(q));
        let body = client.get(url).bearer_auth(STAFF).send().await.unwrap().text().await.unwrap();
        http.push(started.elapsed().as_secs_f64() * 1000.0);
        assert!(body.contains("\"hits\""), "{body}");
    }
    local.sort_by(f64::total_cmp);
    http.sort_by(f64::total_cmp);
    (percentile(&local[5..], 0.5), percentile(&http[5..], 0.5))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn load_on_loopback_while_the_watcher_adds_files() {
    let size = size();
    let served = Arc::new(Served::audience().await);
    let (local, http) = sequential_overhead(&served).await;
    eprintln!(
        "serve overhead: one search p50 {local:.2} ms in process, {http:.2} ms over HTTP (+{:.2} ms)",
        http - local
    );
    let source = served.lib.source().canonicalize().unwrap();
    let changes = Arc::new(AtomicUsize::new(0));
    let seen = changes.clone();
    let mut options = WatchOptions::new(vec![source.clone()]);
    options.debounce = Duration::from_millis(100);
    let sink = Box::new(move |n: Notice| {
        if matches!(n, Notice::Change(_)) {
            seen.fetch_add(1, Ordering::SeqCst);
        }
    });
    let watcher = Watcher::start(served.lib.engine.clone(), options, sink).unwrap();
    let files = size.files;
    let writer = tokio::task::spawn_blocking(move || {
        for i in 0..files {
            std::fs::write(source.join(format!("notice-{i:03}.md")), notice(i)).unwrap();
            std::thread::sleep(Duration::from_millis(10));
        }
    });
    let started = Instant::now();
    let searchers: Vec<_> = (0..size.clients)
        .map(|c| tokio::spawn(searcher(served.url.clone(), size.searches, c, served.clone())))
        .collect();
    let askers: Vec<_> = (0..size.asks).map(|_| tokio::spawn(asker(served.url.clone(), served.clone()))).collect();
    let (mut latencies, mut failures) = (Vec::new(), Vec::new());
    for s in searchers {
        let (ms, f) = s.await.unwrap();
        latencies.extend(ms);
        failures.extend(f);
    }
    let search_secs = started.elapsed().as_secs_f64();
    let (mut answered, mut refused) = (0, 0);
    for a in askers {
        match a.await.unwrap() {
            Ok(true) => answered += 1,
            Ok(false) => refused += 1,
            Err(e) => failures.push(e),
        }
    }
    writer.await.unwrap();
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
    latencies.sort_by(f64::total_cmp);
    eprintln!(
        "serve load: {} searches by {} clients in {search_secs:.2} s = {:.0} req/s; p50 {:.1} ms, p95 {:.1} ms, max {:.1} ms; \
         asks: {answered} answered, {refused} refused with 429; {} files added by the watcher",
        latencies.len(),
        size.clients,
        latencies.len() as f64 / search_secs,
        percentile(&latencies, 0.5),
        percentile(&latencies, 0.95),
        latencies.last().copied().unwrap_or_default(),
        size.files,
    );
    assert_eq!(latencies.len(), size.clients * size.searches);
    assert!(answered >= 1, "no question was answered");
    let deadline = Instant::now() + Duration::from_secs(120);
    for i in 0..size.files {
        let q = format!("zeta{i}quux");
        loop {
            let (status, body) = served.get(&format!("/v1/search?q={q}&k=3"), Some(STAFF)).await;
            assert_eq!(status, 200, "{body}");
            if body.contains(&format!("notice-{i:03}.md")) {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "notice {i} never became searchable ({} changes): {body}",
                changes.load(Ordering::SeqCst)
            );
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }
    watcher.stop();
}
