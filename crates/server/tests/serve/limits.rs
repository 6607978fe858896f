//! Tokens, limits and cancellation: 401 without a valid token, 413 for a
//! large body, 400 for bad queries, 429 past the `ask` limit, 403 for a
//! foreign `Origin`, tokens reloaded without a restart, a disconnected
//! client's question cancelled, no open bind without a token.

use std::time::{Duration, Instant};

use almirah_server::serve;
use serde_json::{Value, json};

use crate::common::{HR, STAFF, Served, error_code, slow};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_token_or_a_wrong_token_gets_401_and_no_data() {
    let served = Served::audience().await;
    let client = Served::client();
    for (method, path) in [
        ("GET", "/v1/search?q=bonus"),
        ("GET", "/v1/documents"),
        ("GET", "/v1/status"),
        ("POST", "/v1/ask"),
        ("POST", "/mcp"),
        ("GET", "/v1/models"),
    ] {
        for auth in [None, Some("Bearer wrong-token-0123456789"), Some(&*format!("Basic {STAFF}")), Some("Bearer ")] {
            let mut req = client
                .request(method.parse().unwrap(), format!("{}{path}", served.url))
                .json(&json!({"question": "bonus"}));
            if let Some(a) = auth {
                req = req.header("authorization", a);
            }
            let resp = req.send().await.unwrap();
            assert_eq!(resp.status(), 401, "{method} {path} {auth:?}");
            let challenge = resp.headers()["www-authenticate"].to_str().unwrap().to_string();
            assert!(challenge.starts_with("Bearer realm=\"almirah\""), "{challenge}");
            let invalid = auth.is_some_and(|a| a.starts_with("Bearer w"));
            assert_eq!(challenge.contains("invalid_token"), invalid, "{challenge}");
            let body = resp.text().await.unwrap();
            assert_eq!(error_code(&body), "unauthorized");
            assert!(!body.contains("bonus") && !body.contains("holiday"), "{body}");
        }
    }
    let (status, body) = served.get("/v1/ready", None).await;
    assert_eq!((status, body.as_str()), (200, r#"{"ready":true}"#));
    assert!(served.service.stats().unauthorized >= 24);
    served.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn oversized_bodies_get_413_and_bad_queries_a_json_400() {
    let served = Served::audience().await;
    let big = json!({"query": "x".repeat(20_000)});
    let (status, body) = served.post("/v1/search", Some(STAFF), &big).await;
    assert_eq!((status, error_code(&body).as_str()), (413, "body-too-large"), "{body}");
    // Issue 19: the token is checked first; a caller without one is not told the limit.
    for path in ["/v1/search", "/mcp"] {
        let (status, body) = served.post(path, None, &big).await;
        assert_eq!((status, error_code(&body).as_str()), (401, "unauthorized"), "{path}: {body}");
    }
    // Streamed without a Content-Length, the body is cut at the same size.
    let chunks: Vec<Result<Vec<u8>, std::io::Error>> = (0..40).map(|_| Ok(vec![b' '; 1024])).collect();
    let resp = Served::client()
        .post(format!("{}/v1/search", served.url))
        .bearer_auth(STAFF)
        .header("content-type", "application/json")
        .body(reqwest::Body::wrap_stream(futures_util::stream::iter(chunks)))
        .send()
        .await;
    // The server answers 413 once the limit is passed and closes the
    // connection; a client still writing the rest may see that close (a
    // broken pipe on the body write) before it reads the answer. Either way
    // the body was cut; a server that read it all would answer 200 or 400.
    match resp {
        Ok(resp) => {
            assert_eq!(resp.status(), 413);
            assert_eq!(error_code(&resp.text().await.unwrap()), "body-too-large");
        }
        Err(e) => assert!(format!("{e:?}").contains("BodyWrite"), "{e:?}"),
    }
    let (status, body) = served.post("/mcp", Some(STAFF), &big).await;
    assert_eq!((status, error_code(&body).as_str()), (413, "body-too-large"), "{body}");
    for (body, code) in [
        (json!({"query": "q".repeat(201)}), "query-too-long"),
        (json!({"query": "   "}), "empty-query"),
        (json!({"query": "bonus", "audience": ["hr-only"]}), "bad-json"),
        (json!({"query": "bonus", "as_of": "yesterday"}), "bad-date"),
        (json!({"k": 3}), "bad-json"),
    ] {
        let (status, text) = served.post("/v1/search", Some(STAFF), &body).await;
        assert_eq!((status, error_code(&text).as_str()), (400, code), "{body}: {text}");
    }
    let (status, text) = served.get("/v1/search?q=bonus&audience=hr-only", Some(STAFF)).await;
    assert_eq!((status, error_code(&text).as_str()), (400, "bad-query"), "{text}");
    let (status, text) = served.post("/v1/ask", Some(STAFF), &json!({"question": "q".repeat(201)})).await;
    assert_eq!((status, error_code(&text).as_str()), (400, "query-too-long"), "{text}");
    let (status, text) = served.get("/v2/everything", Some(STAFF)).await;
    assert_eq!((status, error_code(&text).as_str()), (404, "not-found"), "{text}");
    let (status, text) = served.post("/v1/status", Some(STAFF), &json!({})).await;
    assert_eq!((status, error_code(&text).as_str()), (405, "method-not-allowed"), "{text}");
    served.stop().await;
}

async fn wait_for(what: &str, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(start.elapsed() < Duration::from_secs(60), "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn asks_past_the_limit_get_429_with_retry_after() {
    let served = Served::start(Some(slow(Duration::from_millis(700))), "").await;
    let url = served.url.clone();
    let asks: Vec<_> = (0..2)
        .map(|_| {
            let url = url.clone();
            tokio::spawn(async move {
                let resp = Served::client()
                    .post(format!("{url}/v1/ask"))
                    .bearer_auth(STAFF)
                    .json(&json!({"question": "When does the canteen serve lunch?"}))
                    .send()
                    .await
                    .unwrap();
                (resp.status().as_u16(), resp.text().await.unwrap())
            })
        })
        .collect();
    let service = served.service.clone();
    wait_for("two questions in flight", || service.stats().asks_in_flight == 2).await;
    let resp = Served::client()
        .post(format!("{url}/v1/ask"))
        .bearer_auth(HR)
        .json(&json!({"question": "When does the canteen serve lunch?"}))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 429);
    assert_eq!(resp.headers()["retry-after"], "3");
    assert_eq!(error_code(&resp.text().await.unwrap()), "busy");
    let mcp = crate::mcp_client::connect(&url, HR).await;
    let (error, text, _) = crate::mcp_client::call(&mcp, "ask", json!({"question": "lunch?"})).await;
    assert!(error && text.contains("retry in 3 s"), "{text}");
    for ask in asks {
        let (status, body) = ask.await.unwrap();
        assert_eq!(status, 200);
        assert!(body.contains("event: status") && body.contains("event: answer"), "{body}");
        assert!(body.contains("12:30"), "{body}");
    }
    let stats = served.service.stats();
    assert_eq!((stats.asks_refused, stats.asks_answered, stats.asks_in_flight), (2, 2, 0), "{stats:?}");
    // The slots are free again.
    let (status, _) =
        served.post("/v1/ask", Some(STAFF), &json!({"question": "When does the canteen serve lunch?"})).await;
    assert_eq!(status, 200);
    mcp.cancel().await.unwrap();
    served.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_disconnects_cancels_its_question() {
    let served = Served::start(Some(slow(Duration::from_millis(400))), "").await;
    let question =
        "What is the festival bonus, when does the canteen serve lunch, and which holidays does the office close on?";
    let mut resp = Served::client()
        .post(format!("{}/v1/ask", served.url))
        .bearer_auth(STAFF)
        .json(&json!({"question": question, "mode": "classic"}))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 200);
    assert_eq!(resp.headers()["content-type"], "text/event-stream");
    let first = resp.chunk().await.unwrap().unwrap();
    assert!(String::from_utf8_lossy(&first).contains("event: status"), "{first:?}");
    drop(resp);
    let service = served.service.clone();
    wait_for("the question to be cancelled", || {
        let s = service.stats();
        s.asks_cancelled == 1 && s.asks_in_flight == 0
    })
    .await;
    assert_eq!(served.service.stats().asks_answered, 0);
    // The slot and the snapshot are free: the next question is answered.
    let (status, body) =
        served.post("/v1/ask", Some(STAFF), &json!({"question": "When does the canteen serve lunch?"})).await;
    assert!(status == 200 && body.contains("event: answer"), "{body}");
    served.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_foreign_origin_gets_403_on_mcp_and_everywhere() {
    let served = Served::audience().await;
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}});
    for (origin, forbidden) in [
        ("https://evil.example", true),
        ("null", true),
        ("http://127.0.0.1.evil.example", true),
        ("http://localhost:5173", false),
    ] {
        for path in ["/mcp", "/v1/search?q=bonus"] {
            let resp = Served::client()
                .post(format!("{}{path}", served.url))
                .bearer_auth(STAFF)
                .header("origin", origin)
                .header("accept", "application/json, text/event-stream")
                .json(&init)
                .send()
                .await
                .unwrap();
            let status = resp.status().as_u16();
            let body = resp.text().await.unwrap();
            if forbidden {
                assert_eq!((status, error_code(&body).as_str()), (403, "origin-not-allowed"), "{origin} {path}");
            } else {
                assert_ne!(status, 403, "{origin} {path}: {body}");
            }
        }
    }
    served.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tokens_are_reloaded_when_the_config_changes() {
    let served = Served::audience().await;
    let newcomer = "newcomer-token-0123456789";
    assert_eq!(served.get("/v1/status", Some(newcomer)).await.0, 401);
    let rewrite = |text: String| {
        std::fs::write(&served.config, text).unwrap();
        let later = std::time::SystemTime::now() + Duration::from_secs(5);
        std::fs::File::options().write(true).open(&served.config).unwrap().set_modified(later).unwrap();
    };
    rewrite(crate::common::config_text(&format!("[[serve.tokens]]\nname = \"newcomer\"\ntoken = \"{newcomer}\"\n")));
    let (status, body) = served.get("/v1/status", Some(newcomer)).await;
    assert_eq!(status, 200, "{body}");
    let v: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["server"]["caller"], "newcomer");
    assert!(!body.contains(newcomer), "the token itself must never be shown");
    // A config that no longer parses keeps the tokens in force.
    std::fs::write(&served.config, "[serve\nbroken").unwrap();
    assert_eq!(served.get("/v1/status", Some(newcomer)).await.0, 200);
    // Revoked: the staff token is gone from the file.
    rewrite(crate::common::config_text("").replace(STAFF, "replaced-token-0123456789"));
    assert_eq!(served.get("/v1/status", Some(STAFF)).await.0, 401);
    assert_eq!(served.get("/v1/status", Some(newcomer)).await.0, 401);
    assert_eq!(served.get("/v1/status", Some(HR)).await.0, 200);
    served.stop().await;
}

#[test]
fn a_non_loopback_bind_without_a_token_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let none = almirah_settings::Config::default();
    let open = serve::extra_tokens(&none, dir.path(), "0.0.0.0:8765".parse().unwrap());
    assert!(matches!(open, Err(almirah_server::ServerError::OpenBind { .. })), "{:?}", open.err());
    let lan = serve::extra_tokens(&none, dir.path(), "192.0.2.7:8765".parse().unwrap());
    assert!(lan.is_err());
    let with: almirah_settings::Config =
        toml::from_str("[[serve.tokens]]\ntoken = \"0123456789abcdefghij\"\n").unwrap();
    assert!(serve::extra_tokens(&with, dir.path(), "0.0.0.0:8765".parse().unwrap()).is_ok());
    // Loopback with no token: a private token file, kept across restarts.
    let (extra, file) = serve::extra_tokens(&none, dir.path(), "127.0.0.1:8765".parse().unwrap()).unwrap();
    let file = file.unwrap();
    let token = extra.local.unwrap();
    assert!(token.len() >= 32);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(std::fs::metadata(&file).unwrap().permissions().mode() & 0o777, 0o600);
    }
    let (again, _) = serve::extra_tokens(&none, dir.path(), "[::1]:8765".parse().unwrap()).unwrap();
    assert_eq!(again.local.unwrap(), token);
}

/// Issue 19: a client that sends half a request head and keeps its
/// socket open is cut after `header_timeout_ms`, and holds a stop no
/// longer than `shutdown_grace_ms`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_half_sent_request_is_cut_and_never_holds_the_shutdown() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let half = |addr: std::net::SocketAddr| async move {
        let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
        s.write_all(b"GET /v1/ready HTTP/1.1\r\nHost: x\r\n").await.unwrap();
        s
    };
    let served = Served::start(None, "header_timeout_ms = 300\n").await;
    let mut slow = half(served.running.as_ref().unwrap().addr).await;
    let start = Instant::now();
    let mut buf = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(10), slow.read_to_end(&mut buf)).await;
    assert!(read.is_ok(), "a half-sent request held its connection for 10 s");
    assert!(start.elapsed() < Duration::from_secs(5), "{:?}", start.elapsed());
    served.stop().await;

    let mut served = Served::start(None, "header_timeout_ms = 600000\nshutdown_grace_ms = 300\n").await;
    let running = served.running.take().unwrap();
    let _held = half(running.addr).await;
    let (code, _) = served.get("/v1/ready", None).await;
    assert_eq!(code, 200);
    let start = Instant::now();
    let stopped = tokio::time::timeout(Duration::from_secs(10), running.stop()).await;
    let stopped = stopped.expect("a half-sent request blocked the shutdown");
    assert!(start.elapsed() < Duration::from_secs(3), "{:?}", start.elapsed());
    assert_eq!(stopped.cut, 1, "{stopped:?}");
    assert!(stopped.connections >= 2, "{stopped:?}");
}
