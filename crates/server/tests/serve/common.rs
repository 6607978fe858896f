//! The server's test harness: the gate attack's audience library (one
//! superseded document, two hr-only ones with canaries) indexed with the
//! builtin embedder, served on 127.0.0.1:0 with two tokens.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "../../../answer/tests/attack/mod.rs"]
pub mod attack;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use almirah_answer::builtin::BuiltinModel;
use almirah_answer::evidence::Evidence;
use almirah_answer::model::{ChatModel, ChatRequest, ChatResponse, Draft, ModelError};
use almirah_core::embed::EmbedderConfig;
use almirah_server::{ModelFactory, Running, Service, Setup};
use attack::Library;
use attack::audience::{audience_expect, audience_fixture};
use serde_json::Value;

pub const STAFF: &str = "staff-token-0123456789abcdef";
pub const HR: &str = "hr-token-0123456789abcdefghij";

/// The config of the served library. `extra` is appended; its lines
/// before its first `[table]` header are `[serve]` keys.
pub fn config_text(extra: &str) -> String {
    let split = if extra.starts_with('[') { 0 } else { extra.find("\n[").map_or(extra.len(), |i| i + 1) };
    let (serve_keys, extra) = extra.split_at(split);
    format!(
        "[profile]\naudience = [\"all-staff\", \"students\"]\n\
         [serve]\nmax_body_bytes = 8192\nmax_query_chars = 200\nmax_concurrent_asks = 2\nsse_keep_alive_ms = 50\nretry_after_secs = 3\n{serve_keys}\
         [serve.profiles]\nhr = [\"all-staff\", \"students\", \"hr-only\"]\n\
         [[serve.tokens]]\nname = \"front office\"\ntoken = \"{STAFF}\"\n\
         [[serve.tokens]]\nname = \"hr\"\ntoken = \"{HR}\"\nprofile = \"hr\"\n{extra}"
    )
}

/// A served library.
pub struct Served {
    pub lib: Library,
    pub service: Arc<Service>,
    pub running: Option<Running>,
    pub url: String,
    pub config: PathBuf,
    _config_dir: tempfile::TempDir,
}

impl Served {
    /// The audience fixture with the builtin model.
    pub async fn audience() -> Self {
        Self::start(None, "").await
    }

    /// The audience fixture; `model` replaces the builtin answerer.
    pub async fn start(model: Option<ModelFactory>, extra_config: &str) -> Self {
        let lib = tokio::task::spawn_blocking(|| {
            Library::build_with("audience", audience_fixture, audience_expect, true, EmbedderConfig::default())
        })
        .await
        .unwrap();
        let dir = tempfile::tempdir().unwrap();
        let config = dir.path().join("config.toml");
        std::fs::write(&config, config_text(extra_config)).unwrap();
        let setup = Setup {
            config: almirah_settings::read(&config).unwrap(),
            config_path: Some(config.clone()),
            extra_tokens: Default::default(),
        };
        let service = match model {
            Some(m) => Service::with_model(lib.engine.clone(), setup, m).unwrap(),
            None => Service::new(lib.engine.clone(), setup).unwrap(),
        };
        let running = almirah_server::start(service.clone(), "127.0.0.1:0".parse().unwrap()).await.unwrap();
        let url = format!("http://{}", running.addr);
        Self { lib, service, running: Some(running), url, config, _config_dir: dir }
    }

    pub fn client() -> reqwest::Client {
        reqwest::Client::builder().timeout(Duration::from_secs(120)).build().unwrap()
    }

    /// GET `path` with `token`; the status and the body.
    pub async fn get(&self, path: &str, token: Option<&str>) -> (u16, String) {
        let mut req = Self::client().get(format!("{}{path}", self.url));
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        let resp = req.send().await.unwrap();
        (resp.status().as_u16(), resp.text().await.unwrap())
    }

    /// POST JSON `body` to `path` with `token`; the status and the body.
    pub async fn post(&self, path: &str, token: Option<&str>, body: &Value) -> (u16, String) {
        let mut req = Self::client().post(format!("{}{path}", self.url)).json(body);
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        let resp = req.send().await.unwrap();
        (resp.status().as_u16(), resp.text().await.unwrap())
    }

    /// The keys of a search response's hits.
    pub fn hit_keys(body: &str) -> Vec<String> {
        let v: Value = serde_json::from_str(body).unwrap();
        v["hits"].as_array().unwrap().iter().map(|h| h["key"].as_str().unwrap().to_string()).collect()
    }

    /// Every place a canary, a hidden key or a hidden file name shows in `text`.
    pub fn leaks(&self, text: &str) -> Vec<String> {
        let mut out = self.lib.leaks(text);
        for name in ["d-bonus-rules-2026", "z-salary-bands"] {
            if text.contains(name) {
                out.push(format!("hidden file {name}"));
            }
        }
        out
    }

    /// [`Served::leaks`] of hidden documents only (for a past `as_of`,
    /// when the now-withheld document was in force and may be quoted).
    pub fn hidden_leaks(&self, text: &str) -> Vec<String> {
        let upper = text.to_uppercase();
        let mut out: Vec<String> = attack::audience::AUDIENCE
            .iter()
            .filter(|(_, _, e)| *e == attack::Expect::Hidden)
            .flat_map(|(_, t, _)| t.split(|c: char| !c.is_alphanumeric()).filter(|w| w.starts_with("CANARY")))
            .filter(|c| upper.contains(c))
            .map(|c| format!("canary {c}"))
            .collect();
        out.extend(self.leaks(text).into_iter().filter(|l| l.starts_with("hidden")));
        out
    }

    pub async fn stop(mut self) {
        if let Some(r) = self.running.take() {
            r.stop().await;
        }
    }
}

/// `s` percent-encoded for a query string.
pub fn enc(s: &str) -> String {
    s.bytes().map(|b| if b.is_ascii_alphanumeric() { (b as char).to_string() } else { format!("%{b:02X}") }).collect()
}

/// The error code of a JSON error body.
pub fn error_code(body: &str) -> String {
    let v: Value = serde_json::from_str(body).unwrap_or_else(|e| panic!("not JSON ({e}): {body}"));
    v["error"]["code"].as_str().unwrap_or_else(|| panic!("no error code: {body}")).to_string()
}

/// The builtin answerer, slowed down: each draft takes `delay` (so a
/// question is still running when the test acts on it).
pub struct Slow {
    pub inner: BuiltinModel,
    pub delay: Duration,
}

impl ChatModel for Slow {
    fn id(&self) -> String {
        "slow-builtin".into()
    }

    fn chat(&self, request: &ChatRequest) -> Result<ChatResponse, ModelError> {
        std::thread::sleep(self.delay);
        self.inner.chat(request)
    }

    fn answer(
        &self,
        question: &almirah_answer::question::Question,
        evidence: &[Evidence],
        note: Option<&str>,
    ) -> Result<Draft, ModelError> {
        std::thread::sleep(self.delay);
        self.inner.answer(question, evidence, note)
    }

    fn drafts_per_query(&self) -> bool {
        self.inner.drafts_per_query()
    }
}

/// A factory of [`Slow`] models.
pub fn slow(delay: Duration) -> ModelFactory {
    Arc::new(move || Ok(Arc::new(Slow { inner: BuiltinModel::default(), delay }) as Arc<dyn ChatModel>))
}
