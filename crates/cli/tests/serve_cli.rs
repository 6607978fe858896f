//! `almirah mcp` and `almirah serve` through the real binary, with the
//! builtin embedder over sample-docs plus one hr-only page: a real MCP
//! client (rmcp) drives `almirah mcp` over stdio with every tool and
//! hostile arguments; `almirah serve` refuses an open bind without a token,
//! serves with its token file, runs the watcher (a second watcher is told
//! who holds the library) and stops cleanly on SIGTERM.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::io::BufRead;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::transport::TokioChildProcess;
use serde_json::{Value, json};

const SALARY: &str = "---\ntitle: Salary bands\naudience: [hr-only]\n---\n# Salary bands\n\nBand A pays Rs 9,40,000 a year CANARYHRSALARYA.\n";

/// sample-docs and the hr-only page, indexed; the library and the docs folder.
fn library(config: &str) -> (common::Library, tempfile::TempDir) {
    let docs = tempfile::tempdir().unwrap();
    common::copy_tree(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../sample-docs"), docs.path());
    std::fs::create_dir_all(docs.path().join("hr")).unwrap();
    std::fs::write(docs.path().join("hr/z-salary-bands.md"), SALARY).unwrap();
    let lib = common::Library::with_config(config);
    let out = lib.run(&["index", "--quiet", docs.path().to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    (lib, docs)
}

/// The key of a chunk of the hidden page, found with an hr profile.
fn hidden_key(lib: &common::Library) -> String {
    let hr = lib.dir.path().join("hr.toml");
    std::fs::write(&hr, "[profile]\naudience = [\"hr-only\"]\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_almirah"))
        .arg("--data-dir")
        .arg(lib.data())
        .arg("--config")
        .arg(&hr)
        .args(["--json", "search", "Band A pays", "-k", "1"])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let key = v["results"]["hits"][0]["key"].as_str().unwrap().to_string();
    assert!(key.contains("salary"), "{key}");
    key
}

fn text(result: &rmcp::model::CallToolResult) -> String {
    result.content.iter().filter_map(|c| c.as_text()).map(|t| t.text.clone()).collect()
}

#[test]
fn a_real_mcp_client_drives_almirah_mcp_over_stdio() {
    // A [serve] token whose variable the MCP client does not set must not stop stdio.
    let (lib, _docs) = library(
        "[sessions]\ncurrent = \"2026-27\"\n[[serve.tokens]]\nname = \"x\"\ntoken_env = \"ALMIRAH_TEST_UNSET\"\n",
    );
    let withheld: Value = lib.json(&["search", "hostel fee scholarship holders", "--all-versions"]);
    let old_key = withheld["withheld"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["hit"]["key"].as_str().unwrap().to_string())
        .find(|k| k.starts_with("circular-09@2024-25"))
        .unwrap();
    let hidden = hidden_key(&lib);
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let mut cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_almirah"));
        cmd.arg("--data-dir").arg(lib.data()).arg("--config").arg(lib.dir.path().join("config.toml")).arg("mcp");
        let client = ().serve(TokioChildProcess::new(cmd).unwrap()).await.unwrap();
        let info = client.peer_info().unwrap();
        assert_eq!(info.server_info.as_ref().unwrap().name, "almirah");
        let tools = client.list_all_tools().await.unwrap();
        let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
        assert_eq!(names, ["search_documents", "read_chunk", "list_documents", "lookup_table", "ask"]);
        assert!(tools.iter().all(|t| t.description.as_ref().is_some_and(|d| d.len() > 80)));
        let call = |name: &'static str, args: Value| {
            let client = &client;
            async move {
                let Value::Object(args) = args else { unreachable!() };
                let r = client.call_tool(CallToolRequestParams::new(name).with_arguments(args)).await.unwrap();
                (r.is_error.unwrap_or(false), text(&r), serde_json::to_string(&r).unwrap())
            }
        };
        let (error, answer, whole) =
            call("ask", json!({"question": "What hostel fee does a North-East scholarship holder pay?"})).await;
        assert!(!error, "{answer}");
        assert!(answer.contains("[circular-14@2026-27::"), "Circular-14 is not cited: {answer}");
        assert!(
            answer.contains("Withheld") && answer.contains("circular-09@2024-25: superseded by circular-14@2026-27"),
            "{answer}"
        );
        assert!(whole.contains("\"citations\""), "{whole}");
        let (_, read_old, _) = call("read_chunk", json!({"key": old_key, "as_of": "2024-10-01"})).await;
        assert!(
            read_old.contains("is not in force") && read_old.contains("superseded by circular-14@2026-27"),
            "{read_old}"
        );
        assert!(!read_old.contains("<document"), "withheld text was returned: {read_old}");
        let (hidden_error, read_hidden, whole) =
            call("read_chunk", json!({"key": hidden, "audience": ["hr-only"]})).await;
        let (unknown_error, read_unknown, _) = call("read_chunk", json!({"key": "nothing@1::here#1"})).await;
        assert!(hidden_error && unknown_error);
        assert_eq!(read_hidden.replace(&hidden, "K"), read_unknown.replace("nothing@1::here#1", "K"));
        assert!(!whole.contains("CANARY"));
        let (_, found, _) =
            call("search_documents", json!({"query": "hostel fee scholarship", "k": 1_000_000, "as_of": "2024-10-01"}))
                .await;
        assert!(found.matches("<document key=").count() <= 8 && !found.contains("key=\"circular-09"), "{found}");
        assert!(found.contains("document=\"circular-14@2026-27\"") && found.contains("status=\"current\""), "{found}");
        assert!(found.contains("withheld (not in force; do not use): circular-09@2024-25"), "{found}");
        let (_, listed, _) = call("list_documents", json!({"filter": ""})).await;
        assert!(listed.contains("circular-14@2026-27") && !listed.contains("salary"), "{listed}");
        let (error, fees, _) = call("lookup_table", json!({"table": "fees", "key": "MTech"})).await;
        assert!(!error && fees.contains("MTech"), "{fees}");
        for (name, args, want) in [
            ("search_documents", json!({"query": ""}), "missing argument"),
            ("search_documents", json!({"query": "x", "session": "last year"}), "not like 2026-27"),
            ("read_chunk", json!({}), "missing argument"),
            ("ask", json!({"question": "  "}), "empty"),
            ("ask", json!({"question": "q".repeat(5000)}), "limit"),
            // Issue 19: every tool's text is bounded over stdio too (max_query_chars 1000 by default).
            ("search_documents", json!({"query": "q".repeat(5000)}), "5000 characters; the limit is 1000"),
            ("list_documents", json!({"filter": "q".repeat(5000)}), "the limit is 1000"),
            ("drop_tables", json!({}), "lookup_table, ask"),
        ] {
            let (error, reply, _) = call(name, args).await;
            assert!(error && reply.contains(want), "{name}: {reply}");
        }
        for (_, text, _) in [
            call("search_documents", json!({"query": "Band A salary CANARYHRSALARYA"})).await,
            call("list_documents", json!({"filter": "salary"})).await,
        ] {
            assert!(!text.contains("CANARY") && !text.contains("salary-bands"), "{text}");
        }
        client.cancel().await.unwrap();
    });
}

/// A library made by indexing an empty folder.
fn empty_library() -> common::Library {
    let lib = common::Library::with_config("");
    let empty = tempfile::tempdir().unwrap();
    let out = lib.run(&["index", "--quiet", empty.path().to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    lib
}

#[test]
fn serve_refuses_an_open_bind_without_a_token() {
    let lib = empty_library();
    let out = lib.run(&["serve", "--bind", "0.0.0.0", "--port", "0", "--no-watch"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("not a loopback address and no token is configured"), "{err}");
}

/// Issue 19: an OS error is printed once, not once per layer of context.
#[test]
fn a_port_in_use_is_reported_once() {
    let lib = empty_library();
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let out = lib.run(&["serve", "--port", &port, "--no-watch"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(&format!("listening on 127.0.0.1:{port}")), "{err}");
    assert_eq!(err.matches("os error").count(), 1, "{err}");
}

/// Issue 19: `mcp`, `serve` and the commands that read never create an
/// empty library from a mistyped path; they name it and say how to make one.
#[test]
fn mcp_serve_and_the_reading_commands_refuse_a_folder_with_no_library() {
    let lib = common::Library::with_config("");
    let config = lib.dir.path().join("config.toml");
    let missing = lib.dir.path().join("no-such-library");
    let run = |args: &[&str], env: bool| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_almirah"));
        if env {
            c.env("ALMIRAH_DATA_DIR", &missing);
        } else {
            c.arg("--data-dir").arg(&missing);
        }
        c.arg("--config").arg(&config).args(args).stdin(Stdio::null()).output().unwrap()
    };
    for (args, env, from) in [
        (&["mcp"][..], false, "--data-dir"),
        (&["mcp"][..], true, "ALMIRAH_DATA_DIR"),
        (&["serve", "--port", "0"][..], false, "--data-dir"),
        (&["search", "hostel fee"][..], false, "--data-dir"),
        (&["ask", "What is the hostel fee?"][..], true, "ALMIRAH_DATA_DIR"),
        (&["docs"][..], false, "--data-dir"),
    ] {
        let out = run(args, env);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.contains(&format!("no library in {} (from {from})", missing.display())), "{err}");
        assert!(err.contains("almirah index <folder>"), "{err}");
        assert_eq!(args[0] == "serve", err.contains("almirah folders add"), "{err}");
        assert!(!missing.exists(), "{args:?} created {}", missing.display());
    }
    // `status` says so, exits 0 and creates nothing either.
    let out = run(&["--json", "status"], false);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["library"].is_null() && v["from"] == "--data-dir", "{v}");
    assert!(!missing.exists(), "status created {}", missing.display());
}

/// An empty query is refused, and a setting out of range names the
/// config file it is in.
#[test]
fn an_empty_query_and_a_bad_setting_get_a_clear_error() {
    let docs = tempfile::tempdir().unwrap();
    std::fs::write(docs.path().join("fees.md"), "# Fees\n\nThe hostel fee is Rs 14,000 a semester.\n").unwrap();
    let lib = common::Library::hash(500);
    assert!(lib.run(&["index", "--quiet", docs.path().to_str().unwrap()]).status.success());
    let out = lib.run(&["search", "  "]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("the query is empty"), "{err}");
    let bad = common::Library::with_config("[sessions]\nstart_month = 13\n");
    let out = bad.run(&["status"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    let config = bad.dir.path().join("config.toml");
    assert!(err.contains(&format!("the config file {}", config.display())) && err.contains("start_month"), "{err}");
}

#[test]
fn serve_runs_the_watcher_with_its_token_file_and_stops_on_sigterm() {
    let docs = tempfile::tempdir().unwrap();
    std::fs::write(docs.path().join("canteen.md"), "# Canteen\n\nThe canteen serves lunch from 12:30 to 14:30.\n")
        .unwrap();
    let folder = docs.path().canonicalize().unwrap();
    let lib = common::Library::hash(500);
    let config = lib.dir.path().join("config.toml");
    let mut text = std::fs::read_to_string(&config).unwrap();
    text.push_str(&format!(
        "[[folders]]\npath = {:?}\n[watch]\ndebounce_ms = 100\n[serve]\nshutdown_grace_ms = 1000\n",
        folder.to_str().unwrap()
    ));
    std::fs::write(&config, text).unwrap();
    // The library does not exist yet: a watching server creates it.
    assert!(!lib.data().join("data.mdb").exists());
    let mut child =
        lib.cmd(&["--json", "serve", "--port", "0"]).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let log = std::thread::spawn(move || {
        let mut log = String::new();
        std::io::Read::read_to_string(&mut stderr, &mut log).unwrap();
        log
    });
    let mut line = String::new();
    let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    stdout.read_line(&mut line).unwrap();
    let ready: Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line:?}"));
    let url = ready["listening"].as_str().unwrap().to_string();
    assert_eq!(ready["watching"], true);
    let token = std::fs::read_to_string(ready["token_file"].as_str().unwrap()).unwrap();
    let http = reqwest::blocking::Client::new();
    assert_eq!(http.get(format!("{url}/v1/search?q=canteen")).send().unwrap().status(), 401);
    std::fs::write(docs.path().join("parking.md"), "# Parking\n\nVisitors park in the annex lot zeta77.\n").unwrap();
    let start = Instant::now();
    loop {
        let body =
            http.get(format!("{url}/v1/search?q=zeta77")).bearer_auth(token.trim()).send().unwrap().text().unwrap();
        if body.contains("parking.md") {
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(60), "the watcher never indexed parking.md: {body}");
        std::thread::sleep(Duration::from_millis(200));
    }
    let second = lib.run(&["watch"]);
    let err = String::from_utf8_lossy(&second.stderr);
    assert!(!second.status.success() && err.contains("already watched by pid"), "{err}");
    assert!(err.contains("(almirah serve)") && !err.contains("almirah watch`"), "{err}");
    let other = lib.run(&["serve", "--port", "0"]);
    let err = String::from_utf8_lossy(&other.stderr);
    assert!(!other.status.success() && err.contains("(almirah serve)") && err.contains("--no-watch"), "{err}");
    // A client holding a half-sent request must not keep the server from stopping.
    let addr = url.trim_start_matches("http://");
    let mut half = std::net::TcpStream::connect(addr).unwrap();
    std::io::Write::write_all(&mut half, b"GET /v1/ready HTTP/1.1\r\nHost: x\r\n").unwrap();
    std::thread::sleep(Duration::from_millis(200));
    let pid = child.id() as i32;
    assert_eq!(Command::new("kill").args(["-TERM", &pid.to_string()]).status().unwrap().code(), Some(0));
    let killed = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if killed.elapsed() > Duration::from_secs(20) {
            child.kill().unwrap();
            panic!("serve did not stop within 20 s of SIGTERM with a half-sent request open");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success(), "{status:?}");
    let mut last = String::new();
    stdout.read_line(&mut last).unwrap();
    let stopped: Value = serde_json::from_str(&last).unwrap_or_else(|e| panic!("{e}: {last:?}"));
    assert_eq!(stopped["stopped"]["cut"], 1, "{stopped}");
    assert!(stopped["stopped"]["stats"]["requests"].as_u64().unwrap() >= 1, "{stopped}");
    // One log line per request, at info: no token, no query text, no colour codes.
    let log = log.join().unwrap();
    assert!(log.contains("path=/v1/search") && log.contains("status=200") && log.contains("status=401"), "{log}");
    assert!(log.contains("caller=local token file"), "{log}");
    assert!(!log.contains(token.trim()) && !log.contains("zeta77"), "{log}");
    assert!(!log.contains('\x1b'), "ANSI codes in a non-terminal log: {log:?}");
    drop(half);
}

/// A `--config` file that does not exist is a usage error: exit 2, naming
/// the file, for every command (the README's exit codes).
#[test]
fn a_missing_config_file_exits_2_and_names_it() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("no-such-config.toml");
    for args in [&["status"][..], &["search", "hostel fee"][..], &["--json", "ask", "What is the hostel fee?"][..]] {
        let out = Command::new(env!("CARGO_BIN_EXE_almirah"))
            .arg("--config")
            .arg(&config)
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let said = format!("{}{}", String::from_utf8_lossy(&out.stderr), String::from_utf8_lossy(&out.stdout));
        assert_eq!(out.status.code(), Some(2), "{args:?}: {said}");
        assert!(said.contains(&config.display().to_string()), "{args:?}: {said}");
    }
    assert!(!config.exists());
}
