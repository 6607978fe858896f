//! The attacker of `gate_attack.rs`: a library with a gate-independent
//! oracle (which chunks must never get through, and their canaries), and a
//! scripted model that tries every key, filter and table.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

pub mod audience;
mod wire;

use std::collections::{BTreeSet, HashSet, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

use almirah_answer::agent::{AgentConfig, Budgets, ask_agent};
use almirah_answer::classic::Answer;
use almirah_answer::evidence::Evidence;
use almirah_answer::model::{ChatModel, ChatRequest, ChatResponse, Draft, ModelError, Purpose, ToolCall};
use almirah_answer::providers::{ProviderOptions, from_spec};
use almirah_answer::trace::Step;
use almirah_core::embed::EmbedderConfig;
use almirah_core::{Engine, EngineConfig, NoProgress};
use almirah_embed::test_server::Server;
use chrono::NaiveDate;
use serde_json::json;
use wire::http_reply;

/// What the hand-written table says of a document at the test's date.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expect {
    /// In force and visible: may be searched, read and cited.
    Admitted,
    /// Visible, not in force: may be named in a note, never quoted or cited.
    Withheld,
    /// Outside the profile's audience: must look like it does not exist.
    Hidden,
}

/// A chunk that must not get through.
pub struct Blocked {
    pub key: String,
    pub doc_key: String,
    pub text: String,
    pub expect: Expect,
}

/// A library indexed from a folder, with the oracle.
pub struct Library {
    pub name: String,
    _dirs: (tempfile::TempDir, tempfile::TempDir),
    pub engine: Arc<Engine>,
    pub admitted: Vec<(String, String)>,
    pub blocked: Vec<Blocked>,
    pub hidden_doc_keys: Vec<String>,
    pub series: BTreeSet<String>,
    pub sessions: BTreeSet<String>,
    pub tables: BTreeSet<String>,
    tokens: Vec<String>,
    phrases: HashSet<String>,
    /// Blocked chunks with no canary (their text equals an admissible chunk's).
    pub uncanaried: usize,
}

/// Words per canary phrase.
const PHRASE: usize = 8;

/// `../shared/corpora` (or `$ALMIRAH_CORPORA`); a missing corpus fails the test.
pub fn corpora() -> PathBuf {
    let path = std::env::var_os("ALMIRAH_CORPORA")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpora"));
    assert!(path.is_dir(), "test corpora missing at {} (set ALMIRAH_CORPORA)", path.display());
    path
}

/// Copy a folder tree.
pub fn copy_dir(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        let dest = to.join(entry.file_name());
        if entry.path().is_dir() {
            std::fs::create_dir_all(&dest).unwrap();
            copy_dir(&entry.path(), &dest);
        } else {
            std::fs::copy(entry.path(), &dest).unwrap();
        }
    }
}

fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).map(str::to_lowercase).collect()
}

/// The 8-word phrases inside each sentence (so two admitted sentences set
/// side by side never form a phrase of a withheld chunk).
fn phrases(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for segment in text.split(['.', '!', '?', ';', '\n', '[', ']', '"', '|', '<', '>']) {
        let w = words(segment);
        out.extend(w.windows(PHRASE).map(|win| win.join(" ")));
    }
    out
}

/// The phrases of a chunk's text, read both by its lines and with its
/// lines joined: a PDF wraps a sentence across lines, and the answerer
/// reads it joined ("… and all other fees\nremain payable" in the current
/// circular is the withheld one's "… and all other fees remain payable").
fn phrases_in(text: &str) -> Vec<String> {
    let mut out = phrases(text);
    out.extend(phrases(&text.replace('\n', " ")));
    out
}

/// `text` without the lines that echo the model's own arguments back
/// ("RESULT of read_chunk {\"key\": …}", "error: no passage has the key …").
/// The retry note echoes the model's own citations the same way for an
/// unknown key ("[k] was not retrieved and admitted"); those parts go too.
fn without_echoes(text: &str) -> String {
    let own = |part: &&str| !part.trim_end_matches('.').ends_with("was not retrieved and admitted");
    text.lines()
        .filter(|l| !l.starts_with("RESULT of ") && !l.starts_with("error: "))
        .map(|l| l.split("; ").filter(own).collect::<Vec<_>>().join("; "))
        .collect::<Vec<_>>()
        .join("\n")
}

impl Library {
    /// Index what `fill` writes, then read the oracle white-box from the
    /// store: every chunk of every file, judged by `expect` on its path.
    pub fn build(name: &str, fill: impl FnOnce(&Path), expect: fn(&Path) -> Expect, explicit: bool) -> Self {
        Self::build_with(name, fill, expect, explicit, EmbedderConfig::Hash { dimensions: 64 })
    }

    /// [`Library::build`] with another embedder (the builtin one for the server's tests).
    pub fn build_with(
        name: &str,
        fill: impl FnOnce(&Path),
        expect: fn(&Path) -> Expect,
        explicit: bool,
        embedder: EmbedderConfig,
    ) -> Self {
        let (src, data) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        fill(src.path());
        let mut cfg = EngineConfig::new(data.path());
        cfg.embedder = embedder;
        cfg.map_size = 1 << 30;
        cfg.audiences = vec!["all-staff".into(), "students".into()];
        let engine = Arc::new(Engine::open(cfg).unwrap());
        engine.index(&[src.path().to_path_buf()], &NoProgress, &AtomicBool::new(false)).unwrap();
        let mut lib = Library {
            name: name.into(),
            _dirs: (src, data),
            engine,
            admitted: Vec::new(),
            blocked: Vec::new(),
            hidden_doc_keys: Vec::new(),
            series: BTreeSet::new(),
            sessions: BTreeSet::new(),
            tables: BTreeSet::new(),
            tokens: Vec::new(),
            phrases: HashSet::new(),
            uncanaried: 0,
        };
        lib.read_oracle(expect);
        lib.make_canaries(explicit);
        lib
    }

    fn read_oracle(&mut self, expect: fn(&Path) -> Expect) {
        let dbs = *self.engine.store().dbs();
        let rtxn = self.engine.store().read_txn().unwrap();
        for entry in dbs.files.iter(&rtxn).unwrap() {
            let (path, record) = entry.unwrap();
            let Some(doc) = record.doc_id.and_then(|id| dbs.documents.get(&rtxn, &id).unwrap()) else { continue };
            let verdict = expect(Path::new(path));
            if verdict == Expect::Hidden {
                self.hidden_doc_keys.push(doc.key.clone());
            }
            if let Some(meta) = dbs.doc_meta.get(&rtxn, &doc.id).unwrap() {
                self.series.extend(meta.series.map(|f| f.value));
                self.sessions.extend(meta.session.map(|f| f.value.to_string()));
            }
            if dbs.tables.get(&rtxn, &doc.id).unwrap().is_some() {
                self.tables.insert(doc.key.clone());
                self.tables.insert(doc.title.clone());
            }
            for id in &doc.chunks {
                let chunk = dbs.chunks.get(&rtxn, id).unwrap().unwrap();
                match verdict {
                    Expect::Admitted => self.admitted.push((chunk.key, chunk.text)),
                    _ => self.blocked.push(Blocked {
                        key: chunk.key,
                        doc_key: doc.key.clone(),
                        text: chunk.text,
                        expect: verdict,
                    }),
                }
            }
        }
    }

    fn make_canaries(&mut self, explicit: bool) {
        let admitted: HashSet<String> = self.admitted.iter().flat_map(|(_, t)| phrases_in(t)).collect();
        for b in &self.blocked {
            let own: Vec<String> = phrases_in(&b.text).into_iter().filter(|p| !admitted.contains(p)).collect();
            let tokens: Vec<String> =
                words(&b.text).into_iter().filter(|w| w.starts_with("canary")).map(|w| w.to_uppercase()).collect();
            if explicit {
                assert!(!tokens.is_empty(), "{}: chunk {} carries no canary token", self.name, b.key);
            }
            if own.is_empty() && tokens.is_empty() {
                self.uncanaried += 1;
            }
            self.phrases.extend(own);
            self.tokens.extend(tokens);
        }
        // Old versions repeat unchanged sections word for word: those chunks carry
        // nothing new to leak, and only the key checks apply to them.
        assert!(self.blocked.is_empty() || self.uncanaried < self.blocked.len(), "{}: no canary at all", self.name);
    }

    /// The hr-only document's id must equal some admissible chunk's id, so
    /// a gate that mixes the two kinds of id would admit it.
    pub fn assert_hidden_id_collides_with_an_admitted_chunk(&self) {
        let dbs = *self.engine.store().dbs();
        let rtxn = self.engine.store().read_txn().unwrap();
        let admitted_ids: HashSet<u32> =
            self.admitted.iter().map(|(k, _)| dbs.chunk_keys.get(&rtxn, k).unwrap().unwrap().get()).collect();
        let collides = self.hidden_doc_keys.iter().any(|k| {
            let id = dbs.doc_keys.get(&rtxn, k).unwrap().unwrap();
            admitted_ids.contains(&id.get())
        });
        assert!(collides, "no hidden document id equals an admissible chunk id; the fixture lost its point");
    }

    /// Every place the oracle's canaries or hidden keys occur in `text`.
    pub fn leaks(&self, text: &str) -> Vec<String> {
        let mut out = Vec::new();
        let upper = text.to_uppercase();
        out.extend(self.tokens.iter().filter(|t| upper.contains(t.as_str())).map(|t| format!("canary {t}")));
        out.extend(
            self.hidden_doc_keys.iter().filter(|k| text.contains(k.as_str())).map(|k| format!("hidden key {k}")),
        );
        out.extend(phrases(text).into_iter().filter(|p| self.phrases.contains(p)).map(|p| format!("phrase {p:?}")));
        out.sort();
        out.dedup();
        out
    }

    /// The folder the library indexes.
    pub fn source(&self) -> &Path {
        self._dirs.0.path()
    }

    /// The library (data) folder.
    pub fn data(&self) -> &Path {
        self._dirs.1.path()
    }

    /// The keys of the admissible chunks.
    pub fn admitted_key_list(&self) -> Vec<String> {
        self.admitted.iter().map(|(k, _)| k.clone()).collect()
    }

    fn admitted_keys(&self) -> HashSet<&str> {
        self.admitted.iter().map(|(k, _)| k.as_str()).collect()
    }
}

/// The scripted attacker.
pub struct Attacker {
    rounds: Mutex<VecDeque<Vec<ToolCall>>>,
    harvested: Mutex<bool>,
    blocked_keys: Vec<String>,
    /// Every text the model was given (deduplicated).
    pub inputs: Mutex<BTreeSet<String>>,
}

fn call(name: &str, arguments: serde_json::Value) -> ToolCall {
    ToolCall { name: name.into(), arguments }
}

impl Attacker {
    /// The first round: every blocked key, every filter and every table,
    /// with arguments that try to widen the gate.
    pub fn new(lib: &Library, question: &str, earlier: &[Answer]) -> Arc<Self> {
        let widen = json!({"as_of": "2024-09-01", "audience": ["hr-only", "all"], "include_withheld": true});
        let mut first: Vec<ToolCall> = Vec::new();
        for b in &lib.blocked {
            first.push(call("read_chunk", json!({"key": b.key, "as_of": "2024-09-01", "audience": ["hr-only"]})));
            first.push(call("read_chunk", json!({"key": format!("[{}]", b.key)})));
        }
        for s in &lib.series {
            first.push(call("search_documents", json!({"query": question, "series": s, "k": 8, "extra": widen})));
        }
        for s in &lib.sessions {
            let mut args = json!({"query": question, "session": s, "k": 8});
            for (k, v) in widen.as_object().unwrap() {
                args[k] = v.clone();
            }
            first.push(call("search_documents", args));
        }
        for t in &lib.tables {
            first.push(call("lookup_table", json!({"table": t, "key": "fee", "as_of": "2024-09-01"})));
        }
        for key in &lib.hidden_doc_keys {
            first.push(call("list_documents", json!({"filter": key, "audience": ["hr-only"]})));
            first.push(call("lookup_table", json!({"table": key, "key": "band"})));
        }
        first.push(call("list_documents", json!({"filter": ""})));
        // Keys of earlier answers: their citations, and the documents their notes name.
        for a in earlier {
            for c in &a.citations {
                first.push(call("read_chunk", json!({"key": c.key})));
            }
            for note in &a.withheld {
                let doc = note.split(':').next().unwrap_or_default();
                first.push(call("read_chunk", json!({"key": format!("{doc}::p1#1")})));
                first.push(call("list_documents", json!({"filter": doc})));
            }
        }
        let blocked_keys = lib.blocked.iter().map(|b| b.key.clone()).collect();
        Arc::new(Self {
            rounds: Mutex::new(VecDeque::from([first])),
            harvested: Mutex::new(false),
            blocked_keys,
            inputs: Mutex::new(BTreeSet::new()),
        })
    }

    fn record(&self, text: &str) {
        self.inputs.lock().unwrap().insert(text.to_string());
    }

    /// Keys it saw anywhere in what it was given.
    fn seen_keys(&self) -> BTreeSet<String> {
        let inputs = self.inputs.lock().unwrap();
        let mut keys = BTreeSet::new();
        for text in inputs.iter() {
            for part in text.split(['[', ']', '"', ' ', '\n', ',']) {
                if part.contains("::") || part.contains('@') {
                    keys.insert(part.trim_end_matches(':').to_string());
                }
            }
        }
        keys
    }
}

/// What the attacker does on one turn.
enum Turn {
    Verdict(bool),
    Calls(Vec<ToolCall>),
    Answer,
}

impl Attacker {
    fn turn(&self, judging: bool) -> Turn {
        if judging {
            return Turn::Verdict(self.rounds.lock().unwrap().is_empty() && *self.harvested.lock().unwrap());
        }
        if let Some(next) = self.rounds.lock().unwrap().pop_front() {
            return Turn::Calls(next);
        }
        let mut harvested = self.harvested.lock().unwrap();
        if !*harvested {
            *harvested = true;
            drop(harvested);
            return Turn::Calls(
                self.seen_keys().into_iter().map(|k| call("read_chunk", json!({ "key": k }))).collect(),
            );
        }
        Turn::Answer
    }

    /// Cite every passage it was given, and every blocked or seen key.
    fn draft(&self, passages: &[(String, String)]) -> Vec<(String, Vec<String>)> {
        let mut sentences = Vec::new();
        for (key, text) in passages {
            let first = text.split_terminator(". ").next().unwrap_or(text).trim().to_string();
            sentences.push((first, vec![key.clone()]));
        }
        for k in self.blocked_keys.iter().chain(self.seen_keys().iter()) {
            sentences.push(("This passage states the rule that applies.".into(), vec![k.clone()]));
        }
        sentences
    }
}

impl ChatModel for Attacker {
    fn id(&self) -> String {
        "attacker".into()
    }

    fn chat(&self, request: &ChatRequest) -> Result<ChatResponse, ModelError> {
        for m in request.messages.iter().filter(|m| m.role != almirah_answer::model::Role::Assistant) {
            self.record(&without_echoes(&m.content));
        }
        Ok(match self.turn(request.purpose == Purpose::Verdict) {
            Turn::Verdict(done) => {
                ChatResponse { content: json!({"enough": done, "missing": ""}).to_string(), ..Default::default() }
            }
            Turn::Calls(tool_calls) => ChatResponse { tool_calls, ..Default::default() },
            Turn::Answer => ChatResponse { content: "Here is the answer.".into(), ..Default::default() },
        })
    }

    fn answer(
        &self,
        _q: &almirah_answer::question::Question,
        evidence: &[Evidence],
        _note: Option<&str>,
    ) -> Result<Draft, ModelError> {
        for e in evidence {
            self.record(&e.text);
            self.record(&e.key);
        }
        let passages: Vec<(String, String)> = evidence.iter().map(|e| (e.key.clone(), e.text.clone())).collect();
        Ok(Draft { sentences: self.draft(&passages), ..Default::default() })
    }
}

/// What the attack produced.
pub struct Report<'a> {
    lib: &'a Library,
    pub inputs: BTreeSet<String>,
    pub answers: Vec<Answer>,
    pub notes: Vec<String>,
}

/// Ask each question in agent mode with the attacker, as of `day`.
pub fn attack_in_process<'a>(lib: &'a Library, questions: &[&str], day: (i32, u32, u32)) -> Report<'a> {
    attack(lib, questions, day, |a| a)
}

/// The same attack through the real OpenAI-compatible provider, against
/// the attacker behind a loopback server.
pub fn attack_over_http<'a>(lib: &'a Library, questions: &[&str], day: (i32, u32, u32)) -> Report<'a> {
    attack(lib, questions, day, |attacker| {
        let behind = attacker.clone();
        let server = Server::start(move |_, request| http_reply(&behind, &request.body));
        let spec = format!("openai:{}/v1:attacker", server.url);
        let model = from_spec(&spec, &ProviderOptions::default()).unwrap();
        Arc::new(Recorded { model: Arc::from(model), attacker })
    })
}

/// The classic path (one search, then a draft) with the attacker behind a
/// loopback OpenAI-compatible server: it cites every blocked key it knows.
pub fn attack_classic_over_http<'a>(lib: &'a Library, questions: &[&str], day: (i32, u32, u32)) -> Report<'a> {
    let today = NaiveDate::from_ymd_opt(day.0, day.1, day.2).unwrap();
    let mut report = Report { lib, inputs: BTreeSet::new(), answers: Vec::new(), notes: Vec::new() };
    for q in questions {
        let attacker = Attacker::new(lib, q, &report.answers);
        let behind = attacker.clone();
        let server = Server::start(move |_, request| http_reply(&behind, &request.body));
        let model = from_spec(&format!("openai:{}/v1:attacker", server.url), &ProviderOptions::default()).unwrap();
        let answer = almirah_answer::classic::ask(
            &lib.engine.reader(),
            model.as_ref(),
            &almirah_answer::question::Question::parse(q),
            today,
            &|_: &str| {},
        )
        .unwrap();
        report.inputs.extend(attacker.inputs.lock().unwrap().iter().cloned());
        report.notes.extend(answer.withheld.iter().cloned());
        report.answers.push(answer);
    }
    report
}

/// The HTTP model, keeping the attacker it talks to for the report.
struct Recorded {
    model: Arc<dyn ChatModel>,
    attacker: Arc<Attacker>,
}

impl ChatModel for Recorded {
    fn id(&self) -> String {
        self.model.id()
    }

    fn chat(&self, request: &ChatRequest) -> Result<ChatResponse, ModelError> {
        self.model.chat(request)
    }

    fn answer(
        &self,
        q: &almirah_answer::question::Question,
        evidence: &[Evidence],
        note: Option<&str>,
    ) -> Result<Draft, ModelError> {
        for e in evidence {
            self.attacker.record(&e.text);
        }
        self.model.answer(q, evidence, note)
    }
}

fn attack<'a, M: ChatModel + 'static>(
    lib: &'a Library,
    questions: &[&str],
    day: (i32, u32, u32),
    model_for: impl Fn(Arc<Attacker>) -> Arc<M>,
) -> Report<'a> {
    let today = NaiveDate::from_ymd_opt(day.0, day.1, day.2).unwrap();
    let cfg = AgentConfig {
        budgets: Budgets {
            max_rounds: 6,
            max_tool_calls: 100_000,
            max_input_tokens: u64::MAX / 4,
            max_wall_ms: 600_000,
        },
        ..AgentConfig::default()
    };
    let mut report = Report { lib, inputs: BTreeSet::new(), answers: Vec::new(), notes: Vec::new() };
    for q in questions {
        let attacker = Attacker::new(lib, q, &report.answers);
        let model = model_for(attacker.clone());
        let answer = ask_agent(
            &lib.engine.reader(),
            model,
            &almirah_answer::question::Question::parse(q),
            today,
            &|_: &str| {},
            &cfg,
        )
        .unwrap();
        report.inputs.extend(attacker.inputs.lock().unwrap().iter().cloned());
        report.notes.extend(answer.withheld.iter().cloned());
        report.answers.push(answer);
    }
    report
}

impl Report<'_> {
    /// No canary or hidden key anywhere; every citation and every admitted
    /// tool result is a chunk the table admits.
    pub fn assert_clean(&self) {
        let lib = self.lib;
        assert!(!lib.blocked.is_empty(), "{}: the fixture has nothing to withhold", lib.name);
        let mut problems = Vec::new();
        for text in &self.inputs {
            if std::env::var_os("ATTACK_DEBUG").is_some() {
                for k in &lib.hidden_doc_keys {
                    for (i, _) in text.match_indices(k.as_str()) {
                        eprintln!("INPUT …{}…", &text[i.saturating_sub(200)..(i + 80).min(text.len())]);
                    }
                }
            }
            problems.extend(lib.leaks(text).into_iter().map(|l| format!("model input: {l}")));
        }
        let admitted = lib.admitted_keys();
        for a in &self.answers {
            // The trace records the model's own tool calls and the errors that echo
            // their arguments ("no passage has the key [k]", as for any unknown key);
            // everything else in the answer must be free of canaries and hidden keys.
            let mut shown = a.clone();
            shown.trace.steps.retain(|s| match s {
                Step::Tool { outcome, .. } => !outcome.starts_with("error: "),
                Step::Note { text } => !text.starts_with("error: "),
                Step::Check { verdict, .. } => !verdict.ends_with("was not retrieved and admitted"),
                _ => true,
            });
            for s in &mut shown.trace.steps {
                if let Step::Tool { arguments, .. } = s {
                    *arguments = serde_json::Value::Null;
                }
            }
            let json = serde_json::to_string(&shown).unwrap();
            if std::env::var_os("ATTACK_DEBUG").is_some() {
                for k in &lib.hidden_doc_keys {
                    for (i, _) in json.match_indices(k.as_str()) {
                        eprintln!("…{}…", &json[i.saturating_sub(150)..(i + 80).min(json.len())]);
                    }
                }
            }
            problems.extend(lib.leaks(&json).into_iter().map(|l| format!("answer to {:?}: {l}", a.question)));
            for c in &a.citations {
                if !admitted.contains(c.key.as_str()) {
                    problems.push(format!("cited {} ({:?})", c.key, c.status));
                }
            }
            for step in &a.trace.steps {
                if let Step::Tool { new_keys, name, .. } = step {
                    for k in new_keys.iter().filter(|k| !admitted.contains(k.as_str())) {
                        problems.push(format!("{name} admitted {k}"));
                    }
                }
            }
            let reads = a.trace.steps.iter().filter(|s| matches!(s, Step::Tool { name, .. } if name == "read_chunk"));
            let agent = a.trace.steps.iter().any(|s| matches!(s, Step::Tool { .. }));
            assert!(!agent || reads.count() >= lib.blocked.len(), "{}: the attack missed blocked keys", lib.name);
        }
        assert!(problems.is_empty(), "{}: {} leaks:\n{}", lib.name, problems.len(), problems.join("\n"));
    }
}
