//! The gate over HTTP and MCP: a staff token never sees an hr-only
//! document, its text, key or path, through any endpoint, whatever it
//! asks; withheld chunks are refused with their reason; `as_of` in the
//! past admits the version then in force only.

use serde_json::{Value, json};

use crate::common::attack::Expect;
use crate::common::{HR, STAFF, Served, enc};
use crate::mcp_client;

/// Queries an attacker would try: the questions, the canaries, the hidden
/// keys, every blocked key.
fn hostile_queries(served: &Served) -> Vec<String> {
    let mut q: Vec<String> = [
        "What is the festival bonus?",
        "Which salary band pays what?",
        "Band C pays Rs 21,75,000",
        "CANARYHRSALARYA",
        "hr-only",
        "Staff with three months of service are eligible",
    ]
    .map(String::from)
    .to_vec();
    q.extend(served.lib.hidden_doc_keys.iter().cloned());
    q.extend(served.lib.blocked.iter().map(|b| b.key.clone()));
    q
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_staff_token_never_sees_hr_only_documents_through_any_endpoint() {
    let served = Served::audience().await;
    let mut problems = Vec::new();
    let mut check = |what: String, body: &str| {
        let past = what.contains("2025-06-01");
        for leak in if past { served.hidden_leaks(body) } else { served.leaks(body) } {
            problems.push(format!("{what}: {leak}"));
        }
    };
    for q in hostile_queries(&served) {
        for as_of in ["", "&as_of=2025-06-01", "&as_of=2026-11-29"] {
            let (status, body) = served.get(&format!("/v1/search?q={}&k=50{as_of}", enc(&q)), Some(STAFF)).await;
            assert_eq!(status, 200, "{body}");
            check(format!("GET search {q:?}{as_of}"), &body);
        }
        let (status, body) =
            served.post("/v1/search", Some(STAFF), &json!({"query": q, "k": 50, "series": "bonus-rules"})).await;
        assert_eq!(status, 200, "{body}");
        check(format!("POST search {q:?}"), &body);
    }
    for path in ["/v1/documents", "/v1/documents?as_of=2025-06-01", "/v1/documents?status=superseded", "/v1/status"] {
        let (status, body) = served.get(path, Some(STAFF)).await;
        assert_eq!(status, 200, "{body}");
        check(path.to_string(), &body);
    }
    let (_, docs) = served.get("/v1/documents", Some(STAFF)).await;
    let docs: Value = serde_json::from_str(&docs).unwrap();
    assert_eq!(docs["documents"].as_array().unwrap().len(), 3, "{docs}");
    let (_, status) = served.get("/v1/status", Some(STAFF)).await;
    let status: Value = serde_json::from_str(&status).unwrap();
    assert_eq!(status["documents"], 3, "{status}");
    for q in ["What is the festival bonus?", "Which salary band pays what?"] {
        let (code, body) = served.post("/v1/ask", Some(STAFF), &json!({"question": q, "as_of": "2026-11-29"})).await;
        assert_eq!(code, 200, "{body}");
        assert!(body.contains("event: answer"), "{body}");
        check(format!("ask {q:?}"), &body);
        let chat = json!({"model": "almirah", "messages": [{"role": "user", "content": q}]});
        let (code, body) = served.post("/v1/chat/completions", Some(STAFF), &chat).await;
        assert_eq!(code, 200, "{body}");
        let reply: Value = serde_json::from_str(&body).unwrap();
        assert!(reply["choices"][0]["message"]["content"].as_str().is_some_and(|c| !c.is_empty()), "{body}");
        check(format!("chat {q:?}"), &body);
        let streamed = json!({"model": "almirah", "stream": true, "messages": [{"role": "user", "content": q}]});
        let (code, body) = served.post("/v1/chat/completions", Some(STAFF), &streamed).await;
        assert!(code == 200 && body.contains("chat.completion.chunk") && body.ends_with("data: [DONE]\n\n"), "{body}");
        check(format!("chat stream {q:?}"), &body);
    }
    // Positive control: the hr token does see the salary bands.
    let (_, body) = served.get(&format!("/v1/search?q={}", enc("Band C pays")), Some(HR)).await;
    assert!(body.contains("CANARYHRSALARYC"), "the hr profile should see its own documents: {body}");
    assert!(problems.is_empty(), "{} leaks:\n{}", problems.len(), problems.join("\n"));
    served.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mcp_over_http_refuses_withheld_keys_and_hides_hidden_ones() {
    let served = Served::audience().await;
    let client = mcp_client::connect(&served.url, STAFF).await;
    let tools = client.list_all_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    assert_eq!(names, ["search_documents", "read_chunk", "list_documents", "lookup_table", "ask"]);
    let (_, unknown, _) = mcp_client::call(&client, "read_chunk", json!({"key": "no-such@1::nothing#1"})).await;
    let mut problems = Vec::new();
    for b in &served.lib.blocked {
        let args = json!({"key": b.key, "as_of": "2025-06-01", "audience": ["hr-only"]});
        let (error, text, whole) = mcp_client::call(&client, "read_chunk", args).await;
        problems.extend(
            served.leaks(&whole.replace(&b.key, "KEY")).into_iter().map(|l| format!("read_chunk {}: {l}", b.key)),
        );
        match b.expect {
            Expect::Hidden => {
                assert!(error, "{text}");
                assert_eq!(
                    text.replace(&b.key, "K"),
                    unknown.replace("no-such@1::nothing#1", "K"),
                    "hidden key {}",
                    b.key
                );
            }
            Expect::Withheld => {
                assert!(text.contains("is not in force") && text.contains("superseded by a newer document"), "{text}");
            }
            Expect::Admitted => unreachable!(),
        }
    }
    for (name, args) in [
        (
            "search_documents",
            json!({"query": "festival bonus salary band", "k": 100000, "as_of": "2025-06-01", "audience": ["hr-only"]}),
        ),
        ("search_documents", json!({"query": "bonus", "series": "bonus-rules"})),
        ("list_documents", json!({"filter": ""})),
        ("list_documents", json!({"filter": "salary", "audience": "hr-only"})),
        ("lookup_table", json!({"table": "salary-bands", "key": "Band"})),
        ("ask", json!({"question": "What is the festival bonus?", "audience": ["hr-only"], "as_of": "2025-06-01"})),
    ] {
        let (_, _, whole) = mcp_client::call(&client, name, args.clone()).await;
        problems.extend(served.leaks(&whole).into_iter().map(|l| format!("{name} {args}: {l}")));
    }
    let (error, text, _) = mcp_client::call(&client, "search_documents", json!({"query": ""})).await;
    assert!(error && text.contains("missing argument"), "{text}");
    let (_, text, whole) =
        mcp_client::call(&client, "search_documents", json!({"query": "holidays", "k": 100000})).await;
    assert!(text.matches("<document key=").count() <= 8, "k was not clamped: {text}");
    assert!(text.contains("status=\"current\"") && text.contains("document=\""), "{text}");
    assert!(whole.contains("structuredContent"), "{whole}");
    let (error, text, _) = mcp_client::call(&client, "delete_everything", json!({})).await;
    assert!(error && text.contains("unknown tool") && text.contains("lookup_table, ask"), "{text}");
    // Issue 19: every tool's text arguments are bounded like /v1/search's query (200 here).
    let long = "bonus ".repeat(40);
    for (name, args) in [
        ("search_documents", json!({"query": long})),
        ("search_documents", json!({"query": "bonus", "series": long})),
        ("read_chunk", json!({"key": long})),
        ("list_documents", json!({"filter": long})),
        ("lookup_table", json!({"table": "fees", "key": long})),
        ("ask", json!({"question": long})),
    ] {
        let (error, text, _) = mcp_client::call(&client, name, args).await;
        assert!(error && text.contains("240 characters; the limit is 200"), "{name}: {text}");
    }
    assert!(problems.is_empty(), "{} leaks:\n{}", problems.len(), problems.join("\n"));
    client.cancel().await.unwrap();
    served.stop().await;
}

fn bonus_keys(served: &Served) -> (String, String) {
    let old = served.lib.blocked.iter().find(|b| b.expect == Expect::Withheld).unwrap().doc_key.clone();
    let new = served.lib.hidden_doc_keys.iter().find(|k| k.contains("bonus")).unwrap().clone();
    (old, new)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn as_of_in_the_past_admits_the_then_current_version_only() {
    let served = Served::audience().await;
    let (old, new) = bonus_keys(&served);
    let bonus = |body: &str| -> Vec<String> {
        Served::hit_keys(body).into_iter().filter(|k| k.starts_with(&old) || k.starts_with(&new)).collect()
    };
    let q = enc("What is the festival bonus?");
    let (_, then) = served.get(&format!("/v1/search?q={q}&k=20&as_of=2025-06-01"), Some(HR)).await;
    let then_keys = bonus(&then);
    assert!(!then_keys.is_empty() && then_keys.iter().all(|k| k.starts_with(&old)), "{then}");
    let (_, now) = served.get(&format!("/v1/search?q={q}&k=20&as_of=2026-11-29"), Some(HR)).await;
    let now_keys = bonus(&now);
    assert!(!now_keys.is_empty() && now_keys.iter().all(|k| k.starts_with(&new)), "{now}");
    let v: Value = serde_json::from_str(&now).unwrap();
    assert!(v["withheld"].as_array().unwrap().iter().any(|w| w["document"] == old.as_str()), "{now}");
    // The staff profile: the old rules were in force then; now they are withheld by a document it cannot see.
    let (_, then) = served.get(&format!("/v1/search?q={q}&k=20&as_of=2025-06-01"), Some(STAFF)).await;
    assert!(bonus(&then).iter().all(|k| k.starts_with(&old)) && !bonus(&then).is_empty(), "{then}");
    let (_, now) = served.get(&format!("/v1/search?q={q}&k=20&as_of=2026-11-29"), Some(STAFF)).await;
    assert!(bonus(&now).is_empty(), "{now}");
    assert!(now.contains("superseded by a newer document"), "{now}");
    served.stop().await;
}

/// One JSON-RPC message to `/mcp` as `token` in `session`: the status, the
/// session id the server gave, and the body.
async fn raw_mcp(served: &Served, token: &str, session: Option<&str>, body: Value) -> (u16, Option<String>, String) {
    let mut req = Served::client()
        .post(format!("{}/mcp", served.url))
        .bearer_auth(token)
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2025-06-18")
        .json(&body);
    if let Some(s) = session {
        req = req.header("mcp-session-id", s);
    }
    let resp = req.send().await.unwrap();
    let id = resp.headers().get("mcp-session-id").map(|v| v.to_str().unwrap().to_string());
    (resp.status().as_u16(), id, resp.text().await.unwrap())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_mcp_session_opened_with_one_token_answers_each_request_as_its_own_token() {
    let served = Served::audience().await;
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}});
    let (status, session, body) = raw_mcp(&served, HR, None, init).await;
    assert_eq!(status, 200, "{body}");
    let session = session.expect("a session id");
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    assert_eq!(raw_mcp(&served, HR, Some(&session), initialized).await.0, 202);
    let search = |id: u32| {
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
               "params": {"name": "search_documents", "arguments": {"query": "Band C pays", "k": 8}}})
    };
    let (status, _, as_hr) = raw_mcp(&served, HR, Some(&session), search(2)).await;
    assert_eq!(status, 200, "{as_hr}");
    assert!(as_hr.contains("CANARYHRSALARYC"), "the hr token should see its page: {as_hr}");
    // The staff token reuses the hr session: it still sees only what staff may see.
    let (status, _, as_staff) = raw_mcp(&served, STAFF, Some(&session), search(3)).await;
    assert_eq!(status, 200, "{as_staff}");
    assert!(served.leaks(&as_staff).is_empty(), "{:?}", served.leaks(&as_staff));
    // And without a token the session id alone gets nothing.
    let resp = Served::client()
        .post(format!("{}/mcp", served.url))
        .header("mcp-session-id", &session)
        .header("accept", "application/json, text/event-stream")
        .json(&search(4))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 401);
    served.stop().await;
}

/// Issue 19: a file that failed to read, made `hr-only` by its sidecar,
/// is named to the hr token in `/v1/status` and to no staff token.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_hr_only_file_is_named_to_no_staff_token() {
    let served = Served::audience().await;
    let engine = served.lib.engine.clone();
    tokio::task::spawn_blocking(move || {
        let root = std::path::PathBuf::from(&engine.status().unwrap().roots[0]);
        let hr = root.join("hr");
        std::fs::create_dir_all(&hr).unwrap();
        std::fs::write(hr.join("payroll-secret.pdf"), b"\x00\x01 garbage, not a pdf").unwrap();
        std::fs::write(hr.join("payroll-secret.pdf.meta.toml"), "audience = [\"hr-only\"]\n").unwrap();
        let cancel = std::sync::atomic::AtomicBool::new(false);
        let report = engine.index(&[root], &almirah_core::NoProgress, &cancel).unwrap();
        assert_eq!(report.failures(), 1, "{:?}", report.outcomes);
    })
    .await
    .unwrap();
    let (_, staff) = served.get("/v1/status", Some(STAFF)).await;
    assert!(!staff.contains("payroll-secret"), "{staff}");
    let (_, docs) = served.get("/v1/documents", Some(STAFF)).await;
    assert!(!docs.contains("payroll-secret"), "{docs}");
    let (_, hr) = served.get("/v1/status", Some(HR)).await;
    assert!(hr.contains("payroll-secret.pdf"), "{hr}");
    served.stop().await;
}
