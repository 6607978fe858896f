//! Command-level tests through `tauri::test::mock_builder()` (no display):
//! each command's success and error paths on a temporary library holding a
//! copy of `sample-docs`, with the real built-in embedder. Errors must
//! arrive as `{kind, message}`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};

use almirah_desktop::{AppState, Locations};
use serde_json::{Value, json};
use tauri::test::{INVOKE_KEY, get_ipc_response, mock_builder};
use tauri::webview::InvokeRequest;
use tauri::{Manager, WebviewWindow};

/// Fields drop in order: the window and app (and their watcher) before the temp folder.
struct Harness {
    window: WebviewWindow<tauri::test::MockRuntime>,
    app: tauri::App<tauri::test::MockRuntime>,
    dir: tempfile::TempDir,
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// A library seeded through the config with a copy of sample-docs as a watched folder.
fn harness() -> Harness {
    harness_with("")
}

/// [`harness`] with more config text after the sample-docs folder.
fn harness_with(extra_config: &str) -> Harness {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("policies");
    copy_tree(&repo().join("sample-docs"), &folder);
    let text = format!("[[folders]]\npath = {:?}\n{extra_config}", folder.to_string_lossy());
    std::fs::write(dir.path().join("config.toml"), text).unwrap();
    open_in(dir)
}

/// The app over the config and library in `dir`, as it starts (again).
fn open_in(dir: tempfile::TempDir) -> Harness {
    let locations = Locations {
        config: Some(dir.path().join("config.toml")),
        data_dir: Some(dir.path().join("library")),
        bundled_model: None,
        extractor_program: None,
    };
    let app = almirah_desktop::configure(mock_builder(), AppState::open(&locations))
        .build(almirah_desktop::context())
        .unwrap();
    let window = match app.get_webview_window("main") {
        Some(w) => w,
        None => tauri::WebviewWindowBuilder::new(&app, "main", Default::default()).build().unwrap(),
    };
    Harness { window, app, dir }
}

impl Harness {
    fn call(&self, cmd: &str, body: Value) -> Result<Value, Value> {
        self.call_from("tauri://localhost", cmd, body)
    }

    /// A call as a page at `url` would make it (the app's own pages are `tauri://localhost`).
    fn call_from(&self, url: &str, cmd: &str, body: Value) -> Result<Value, Value> {
        let request = InvokeRequest {
            cmd: cmd.into(),
            callback: tauri::ipc::CallbackFn(0),
            error: tauri::ipc::CallbackFn(1),
            url: url.parse().unwrap(),
            body: tauri::ipc::InvokeBody::Json(body),
            headers: Default::default(),
            invoke_key: INVOKE_KEY.to_string(),
        };
        get_ipc_response(&self.window, request).map(|b| b.deserialize::<Value>().unwrap())
    }

    fn ok(&self, cmd: &str, body: Value) -> Value {
        self.call(cmd, body).unwrap_or_else(|e| panic!("{cmd} failed: {e}"))
    }

    /// The error as `(kind, message)`, checking its shape.
    fn err(&self, cmd: &str, body: Value) -> (String, String) {
        let e = self.call(cmd, body).expect_err(cmd);
        let obj = e.as_object().unwrap_or_else(|| panic!("{cmd}: error is not an object: {e}"));
        assert_eq!(obj.len(), 2, "{cmd}: {e}");
        (obj["kind"].as_str().unwrap().to_string(), obj["message"].as_str().unwrap().to_string())
    }

    /// The app started again over the same config and library (a restart).
    fn restart(self) -> Harness {
        let Harness { window, app, dir } = self;
        app.state::<AppState>().close();
        drop(window);
        drop(app);
        open_in(dir)
    }

    fn sync(&self) -> Value {
        self.ok("sync_library", json!({ "onProgress": "__CHANNEL__:7" }))
    }
}

#[test]
fn sync_indexes_the_watched_folder_and_the_documents_table_shows_supersession() {
    let h = harness();
    let summary = h.sync();
    assert!(summary["indexed"].as_u64().unwrap() >= 8, "{summary}");
    let overview = h.ok("library_overview", json!({}));
    let folders = overview["folders"].as_array().unwrap();
    assert_eq!(folders.len(), 2, "the watched folder and the inbox: {overview}");
    assert!(folders.iter().any(|f| f["inbox"] == true));
    assert!(folders.iter().any(|f| f["documents"].as_u64().unwrap() >= 8), "{overview}");
    assert!(overview["watching"].as_bool().unwrap(), "sync starts the background watcher");
    let rows = h.ok("list_documents", json!({ "asOf": null }));
    let c09 =
        rows.as_array().unwrap().iter().find(|r| r["file_name"].as_str().unwrap().contains("Circular-09")).unwrap();
    assert_eq!(c09["status"], "superseded", "{c09}");
    assert!(c09["reason"].as_str().unwrap().contains("circular-14"), "{c09}");
    let (kind, message) = h.err("list_documents", json!({ "asOf": "29/11/2026" }));
    assert_eq!(kind, "invalid-input");
    assert!(message.contains("2026-11-29"), "{message}");
}

#[test]
fn a_drop_of_three_files_indexes_two_and_reports_the_password_protected_pdf() {
    let h = harness();
    let corpora = std::env::var_os("ALMIRAH_CORPORA").map_or_else(|| repo().join("../shared/corpora"), PathBuf::from);
    let locked = corpora.join("pdfs_mixed/pypdf_sample_files/libreoffice-writer-password.pdf");
    assert!(locked.is_file(), "corpus file missing: {}", locked.display());
    let drops = h.dir.path().join("desktop");
    std::fs::create_dir_all(&drops).unwrap();
    let circular = drops.join("Circular-15-2026-27.md");
    std::fs::write(&circular, "# Circular 15 (2026-27): Library hours\n\nWith effect from 01.12.2026 the central library stays open until 11 pm on weekdays.\n").unwrap();
    let note = drops.join("canteen-notice.txt");
    std::fs::write(&note, "Canteen notice\n\nThe staff canteen serves breakfast from 8 am to 10 am.\n").unwrap();
    let dropped = [circular, locked, note];
    for p in &dropped {
        assert!(p.is_file(), "{}", p.display());
    }
    let state = h.app.state::<AppState>();
    let job = state.next_job();
    state.drops.lock().unwrap().insert(job, dropped.to_vec());
    let report = h.ok("import_dropped", json!({ "job": job, "onProgress": "__CHANNEL__:9" }));
    let files = report["files"].as_array().unwrap();
    assert_eq!(files.len(), 3, "{report}");
    let statuses: Vec<&str> = files.iter().map(|f| f["status"].as_str().unwrap()).collect();
    assert_eq!(statuses, ["indexed", "needs-password", "indexed"], "{report}");
    assert_eq!(files[1]["message"], "needs password");
    assert!(files[1]["copy"].as_str().unwrap().contains("/inbox/"), "copied into the inbox: {report}");
    let inferred = &files[0]["document"];
    let session = inferred["fields"].as_array().unwrap().iter().find(|f| f["name"] == "session").unwrap();
    assert_eq!(
        (session["value"].as_str(), session["source"].as_str()),
        (Some("2026-27"), Some("filename")),
        "{inferred}"
    );
    let overview = h.ok("library_overview", json!({}));
    assert!(
        overview["problems"].as_array().unwrap().iter().any(|p| p["message"] == "needs password"),
        "the problem is shown in the library view: {overview}"
    );
    let (kind, _) = h.err("import_dropped", json!({ "job": job, "onProgress": "__CHANNEL__:9" }));
    assert_eq!(kind, "not-found", "a job is imported once");
}

#[test]
fn ask_cites_the_current_circular_notes_the_withheld_one_and_resolves_a_follow_up() {
    let h = harness();
    h.sync();
    let q = "What is the MTech fee, and is hostel still free on the north-east scholarship?";
    let request = json!({ "question": q, "mode": "auto", "as_of": "2026-11-29", "history": [] });
    let a = h.ok("ask", json!({ "request": request, "onStatus": "__CHANNEL__:3" }));
    let text = a["text"].as_str().unwrap();
    assert!(text.contains("Rs 48,500") && text.to_lowercase().contains("half"), "{text}");
    assert!(
        a["citations"].as_array().unwrap().iter().any(|c| c["file_name"].as_str().unwrap().contains("Circular-14"))
    );
    assert!(
        a["withheld"].as_array().unwrap().iter().any(|w| w["key"].as_str().unwrap().contains("circular-09")),
        "{a}"
    );
    assert!(text.contains("[1]") && !text.contains("::"), "chunk keys become numbers: {text}");
    let follow = json!({
        "question": "and for 2024-25?",
        "mode": "auto",
        "as_of": "2026-11-29",
        "history": [{ "question": q, "resolved": a["resolved"], "answer": text }],
    });
    let b = h.ok("ask", json!({ "request": follow, "onStatus": "__CHANNEL__:4" }));
    assert_eq!(b["session"], "2024-25", "{b}");
    assert!(b["resolved"].as_str().unwrap().contains("MTech fee"), "{b}");
    let key = a["citations"][0]["key"].as_str().unwrap();
    let source = h.ok("read_source", json!({ "key": key, "asOf": "2026-11-29" }));
    assert!(!source["text"].as_str().unwrap().is_empty());
    assert_eq!(h.err("read_source", json!({ "key": "nope@1::x#0", "asOf": null })).0, "not-found");
    let old_key =
        b["citations"].as_array().unwrap().iter().find(|c| c["file_name"].as_str().unwrap().contains("Circular-09"));
    let old_key =
        old_key.unwrap_or_else(|| panic!("the 2024-25 answer cites Circular-09: {b}"))["key"].as_str().unwrap();
    let old = h.ok("read_source", json!({ "key": old_key, "asOf": b["as_of"] }));
    assert!(!old["text"].as_str().unwrap().is_empty(), "a past answer's chip opens at its as-of date");
    let empty = json!({ "question": "  ", "mode": "auto", "as_of": null, "history": [] });
    assert_eq!(h.err("ask", json!({ "request": empty, "onStatus": "__CHANNEL__:5" })).0, "invalid-input");
    let bad_mode = json!({ "question": "fee?", "mode": "fast", "as_of": null, "history": [] });
    assert_eq!(h.err("ask", json!({ "request": bad_mode, "onStatus": "__CHANNEL__:6" })).0, "invalid-input");
}

#[test]
fn read_source_refuses_a_withheld_key_with_its_reason_and_a_hidden_key_like_an_unknown_one() {
    let h = harness();
    let hidden =
        "---\ntitle: Salary bands\naudience: [hr-only]\n---\n# Salary bands\n\nBand A pays Rs 9,40,000 a year.\n";
    std::fs::write(h.dir.path().join("policies/salary-bands.md"), hidden).unwrap();
    h.sync();
    let (kind, message) = h.err("read_source", json!({ "key": "circular-09@2024-25::p1#1", "asOf": "2026-11-29" }));
    assert_eq!(kind, "not-found");
    assert!(message.contains("superseded by circular-14@2026-27"), "{message}");
    let hidden_key = "salary-bands::salary-bands#1";
    let unknown_key = "salary-bandz::salary-bands#1";
    let as_hidden = h.err("read_source", json!({ "key": hidden_key, "asOf": null }));
    let as_unknown = h.err("read_source", json!({ "key": unknown_key, "asOf": null }));
    assert_eq!(
        (as_hidden.0, as_hidden.1.replace(hidden_key, "K")),
        (as_unknown.0, as_unknown.1.replace(unknown_key, "K"))
    );
    let docs = h.ok("list_documents", json!({ "asOf": null }));
    assert!(!docs.to_string().contains("salary"), "a hidden document is listed: {docs}");
}

/// Issue 21: a configured folder that is missing does not stop the start-up sync.
#[test]
fn a_missing_watched_folder_does_not_stop_the_start_up_sync() {
    let gone = tempfile::tempdir().unwrap().path().join("unplugged-drive");
    let h = harness_with(&format!("\n[[folders]]\npath = {:?}\n", gone.to_string_lossy()));
    let summary = h.sync();
    assert!(summary["indexed"].as_u64().unwrap_or(0) > 0, "{summary}");
    let docs = h.ok("list_documents", json!({ "asOf": null }));
    assert!(docs.to_string().contains("circular-14@2026-27"), "the present folder is indexed: {docs}");
    let overview = h.ok("library_overview", json!({}));
    let folders = overview["folders"].as_array().unwrap();
    let missing = folders.iter().find(|f| f["path"].as_str().unwrap().ends_with("unplugged-drive")).unwrap();
    assert_eq!(missing["exists"], false, "{overview}");
}

#[test]
fn folders_overrides_and_settings_succeed_or_fail_with_a_kind() {
    let h = harness();
    h.sync();
    assert_eq!(h.err("add_folder", json!({ "path": "/no/such/folder" })).0, "invalid-input");
    let extra = h.dir.path().join("more");
    std::fs::create_dir_all(&extra).unwrap();
    std::fs::write(extra.join("note.md"), "# Canteen hours\n\nThe canteen opens at 8 am.\n").unwrap();
    let overview = h.ok("add_folder", json!({ "path": extra.to_string_lossy() }));
    assert_eq!(overview["folders"].as_array().unwrap().len(), 3, "{overview}");
    assert_eq!(h.err("remove_folder", json!({ "path": "/elsewhere", "keepDocuments": false })).0, "invalid-input");
    let inbox = h.app.state::<AppState>().inbox.to_string_lossy().into_owned();
    assert_eq!(h.err("remove_folder", json!({ "path": inbox, "keepDocuments": false })).0, "invalid-input");
    let overview = h.ok("remove_folder", json!({ "path": extra.to_string_lossy(), "keepDocuments": false }));
    assert_eq!(overview["folders"].as_array().unwrap().len(), 2, "{overview}");
    // Removing a folder that sits inside another watched folder keeps its
    // documents: they are still watched through the outer one.
    let nested = h.dir.path().join("policies/university");
    let before = overview["documents"].as_u64().unwrap();
    h.ok("add_folder", json!({ "path": nested.to_string_lossy() }));
    let after = h.ok("remove_folder", json!({ "path": nested.to_string_lossy(), "keepDocuments": false }));
    assert_eq!(after["documents"].as_u64().unwrap(), before, "{after}");

    let rows = h.ok("list_documents", json!({ "asOf": null }));
    let c14 = rows.as_array().unwrap().iter().find(|r| r["file_name"] == "Circular-14-2026-27.pdf").unwrap();
    let key = c14["key"].as_str().unwrap();
    let row = h.ok("set_override", json!({ "document": key, "field": "effective_from", "value": "2026-08-01" }));
    let field = row["fields"].as_array().unwrap().iter().find(|f| f["name"] == "effective_from").unwrap();
    assert_eq!((field["value"].as_str(), field["source"].as_str()), (Some("2026-08-01"), Some("override")), "{row}");
    assert_eq!(h.err("set_override", json!({ "document": key, "field": "colour", "value": "red" })).0, "invalid-input");
    assert_eq!(
        h.err("set_override", json!({ "document": "no-such-doc", "field": "session", "value": "2026-27" })).0,
        "not-found"
    );

    let mut settings = h.ok("get_settings", json!({}));
    assert_eq!(settings["chat_provider"], "builtin");
    settings["max_rounds"] = json!(3);
    settings["audience"] = json!(["students"]);
    let saved = h.ok("save_settings", json!({ "settings": settings.clone() }));
    assert_eq!((saved["max_rounds"].as_u64(), saved["audience"][0].as_str()), (Some(3), Some("students")));
    // A server model that is down: the answer says so (no panic, no hang;
    // the HTTP client is built and dropped off the async runtime).
    let mut server = saved.clone();
    server["chat_provider"] = json!("openai");
    server["chat_url"] = json!("http://127.0.0.1:9/v1");
    server["chat_model"] = json!("qwen");
    h.ok("save_settings", json!({ "settings": server }));
    let q = json!({ "question": "How many days of earned leave do I get?", "mode": "classic", "as_of": null, "history": [] });
    let down = h.ok("ask", json!({ "request": q, "onStatus": "__CHANNEL__:8" }));
    assert_eq!(down["trace"]["stop_reason"], "provider-unavailable", "{down}");
    h.ok("save_settings", json!({ "settings": saved.clone() }));
    settings["session_start_month"] = json!(13);
    assert_eq!(h.err("save_settings", json!({ "settings": settings })).0, "invalid-input");
    assert_eq!(h.err("key_status", json!({ "provider": "acme" })).0, "invalid-input");
    assert_eq!(h.err("set_api_key", json!({ "provider": "openai", "key": " " })).0, "invalid-input");
    assert_eq!(h.err("delete_api_key", json!({ "provider": "acme" })).0, "invalid-input");
    let status = h.ok("key_status", json!({ "provider": "gemini" }));
    assert_eq!(status["provider"], "gemini");
    assert!(!status["message"].as_str().unwrap().is_empty(), "{status}");
    assert_eq!(h.err("open_source_file", json!({ "key": "no-such-doc@1::x#0" })).0, "not-found");
    let c = h.ok("connectivity", json!({}));
    let remote =
        h.call_from("https://example.com", "library_overview", json!({})).expect_err("remote pages get no commands");
    assert!(remote.to_string().contains("not allowed"), "{remote}");
    assert_eq!((c["offline_ready"].as_bool(), c["model_reachable"].as_bool()), (Some(true), Some(true)), "{c}");
}

#[test]
fn the_mcp_snippet_names_this_program_and_the_apps_library() {
    let h = harness();
    let view = h.ok("mcp_setup", json!({}));
    let exe = std::env::current_exe().unwrap().to_string_lossy().into_owned();
    assert_eq!(view["command"], exe.as_str());
    assert_eq!(view["args"], json!(["mcp"]));
    let claude: Value = serde_json::from_str(view["claude_desktop"].as_str().unwrap()).unwrap();
    let entry = &claude["mcpServers"]["almirah"];
    assert_eq!(entry["command"], exe.as_str());
    let data = h.dir.path().join("library");
    assert_eq!(entry["env"]["ALMIRAH_DATA_DIR"], data.to_string_lossy().as_ref());
    assert_eq!(entry["env"]["ALMIRAH_CONFIG"], h.dir.path().join("config.toml").to_string_lossy().as_ref());
    let vscode: Value = serde_json::from_str(view["vscode"].as_str().unwrap()).unwrap();
    assert_eq!(vscode["servers"]["almirah"]["type"], "stdio");
    assert_eq!(vscode["servers"]["almirah"]["args"], json!(["mcp"]));
}

#[test]
fn the_first_run_choice_of_builtin_model_is_written_to_the_config_and_applies_after_a_restart() {
    let h = harness();
    let first = h.ok("embedder_status", json!({}));
    assert_eq!(first["first_run"], true, "{first}");
    assert_eq!((first["builtin_model"].as_str(), first["library"].as_null()), (Some("auto"), Some(())), "{first}");
    assert_eq!(h.err("choose_builtin_embedder", json!({ "model": "bert" })).0, "invalid-input");
    let chosen = h.ok("choose_builtin_embedder", json!({ "model": "e5" }));
    assert_eq!(chosen["builtin_model"], "multilingual-e5-small", "{chosen}");
    assert_eq!(chosen["restart_required"], true, "{chosen}");
    let config = std::fs::read_to_string(h.dir.path().join("config.toml")).unwrap();
    assert!(config.contains("model = \"multilingual-e5-small\""), "{config}");
    assert!(config.contains("[[folders]]"), "the other keys stay: {config}");
    let (kind, message) = h.err("re_embed_library", json!({ "onProgress": "__CHANNEL__:9" }));
    assert_eq!(kind, "invalid-input");
    assert!(message.contains("restart"), "{message}");
    let settings = h.ok("get_settings", json!({}));
    assert_eq!(
        (settings["embedder_provider"].as_str(), settings["builtin_model"].as_str()),
        (Some("builtin"), Some("multilingual-e5-small"))
    );

    let h = h.restart();
    h.sync();
    let after = h.ok("embedder_status", json!({}));
    assert_eq!(after["library"], "multilingual-e5-small, 384-d", "{after}");
    let flags = ["first_run", "restart_required", "re_embed_required"].map(|f| after[f].as_bool());
    assert_eq!(flags, [Some(false); 3], "{after}");
}

#[test]
fn switching_builtin_models_asks_for_a_re_embed_that_moves_every_chunk_to_the_new_model() {
    let h = harness_with("[embedder]\nprovider = \"builtin\"\nmodel = \"all-MiniLM-L6-v2\"\n");
    h.sync();
    let before = h.ok("embedder_status", json!({}));
    assert_eq!(before["library"], "all-MiniLM-L6-v2, 384-d", "{before}");
    assert_eq!(before["re_embed_required"], false, "{before}");
    let mut settings = h.ok("get_settings", json!({}));
    settings["builtin_model"] = json!("multilingual-e5-small");
    h.ok("save_settings", json!({ "settings": settings }));
    assert_eq!(h.ok("embedder_status", json!({}))["restart_required"], true);

    let h = h.restart();
    let pending = h.ok("embedder_status", json!({}));
    assert_eq!(
        (pending["re_embed_required"].as_bool(), pending["restart_required"].as_bool()),
        (Some(true), Some(false)),
        "{pending}"
    );
    let chunks = pending["chunks"].as_u64().unwrap();
    assert!(chunks > 20, "{pending}");
    let done = h.ok("re_embed_library", json!({ "onProgress": "__CHANNEL__:10" }));
    assert_eq!(done["chunks"].as_u64(), Some(chunks), "{done}");
    assert_eq!(done["embedder"], "multilingual-e5-small, 384-d", "{done}");
    let after = h.ok("embedder_status", json!({}));
    assert_eq!(
        (after["library"].as_str(), after["re_embed_required"].as_bool()),
        (Some("multilingual-e5-small, 384-d"), Some(false)),
        "{after}"
    );
    let q = json!({ "question": "How many days of earned leave do I get?", "mode": "classic", "as_of": null, "history": [] });
    let answer = h.ok("ask", json!({ "request": q, "onStatus": "__CHANNEL__:11" }));
    assert!(!answer["citations"].as_array().unwrap().is_empty(), "{answer}");
    // While a re-embed runs, neither a second one nor a restart starts.
    let running = &h.app.state::<AppState>().re_embedding;
    running.store(true, std::sync::atomic::Ordering::SeqCst);
    assert_eq!(h.err("restart_app", json!({})).0, "invalid-input");
    assert_eq!(h.err("re_embed_library", json!({ "onProgress": "__CHANNEL__:12" })).0, "invalid-input");
    running.store(false, std::sync::atomic::Ordering::SeqCst);
}
