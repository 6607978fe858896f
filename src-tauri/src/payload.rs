//! The payloads the app's commands return and take. They are the UI's
//! contract: `cargo test -p almirah-desktop` regenerates the TypeScript
//! types in `ui/src/bindings/` from these structs (ts-rs) and fails when the
//! committed copies are stale. Dates are ISO 8601 strings (`2026-11-29`),
//! times are RFC 3339, durations are ms, sizes are bytes.

use serde::{Deserialize, Serialize};

/// Every error a command returns: a stable `kind` the UI can act on, and a
/// sentence for the user.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[cfg_attr(test, derive(ts_rs::TS), ts(export))]
pub struct CommandError {
    /// `invalid-input` (the user can fix it), `not-found`, `cancelled`,
    /// `io` (disk or permissions), `provider` (a model server failed),
    /// `keyring` (no keyring service), or `bug`.
    pub kind: String,
    /// What happened, for the user.
    pub message: String,
}

/// A watched folder with its counts.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(export))]
pub struct FolderView {
    /// Absolute path.
    pub path: String,
    /// Whether this is the app's drag-and-drop inbox (never removed by a reconcile).
    pub inbox: bool,
    /// Whether it exists on disk now.
    pub exists: bool,
    /// `events`, `polling` (see `poll_reason`), `missing` or `not watched`.
    pub mode: String,
    /// Why it is polled, or since when it is missing, when it is.
    pub poll_reason: Option<String>,
    /// Files recorded.
    #[cfg_attr(test, ts(type = "number"))]
    pub files: u64,
    /// Documents searchable.
    #[cfg_attr(test, ts(type = "number"))]
    pub documents: u64,
    /// Chunks.
    #[cfg_attr(test, ts(type = "number"))]
    pub chunks: u64,
    /// Files whose last read failed.
    #[cfg_attr(test, ts(type = "number"))]
    pub failing: u64,
}

/// A file that is not (fully) indexed.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(export))]
pub struct ProblemView {
    /// Path.
    pub path: String,
    /// `needs-password`, `needs-conversion`, `no-text-layer`, `low-quality-text`, `unsupported` or `failed`.
    pub status: String,
    /// A sentence for the user ("needs password", "old format: … save it as .docx", "failed: …").
    pub message: String,
    /// An older version of the file is still searchable.
    pub kept_previous: bool,
}

/// The library at a glance.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(export))]
pub struct LibraryOverview {
    /// Library folder (the LMDB environment).
    pub data_dir: String,
    /// The config file in use.
    pub config_path: Option<String>,
    /// Watched folders.
    pub folders: Vec<FolderView>,
    /// Documents searchable.
    #[cfg_attr(test, ts(type = "number"))]
    pub documents: u64,
    /// Chunks.
    #[cfg_attr(test, ts(type = "number"))]
    pub chunks: u64,
    /// Chunks searchable by keywords that still wait for their vector
    /// (the background embedding, phase 2 of ingest).
    #[cfg_attr(test, ts(type = "number"))]
    pub vectors_pending: u64,
    /// Files per status (`indexed`, `needs-password`, …).
    #[cfg_attr(test, ts(type = "Array<[string, number]>"))]
    pub files_by_status: Vec<(String, u64)>,
    /// Files with problems.
    pub problems: Vec<ProblemView>,
    /// Data file size, bytes.
    #[cfg_attr(test, ts(type = "number"))]
    pub disk_bytes: u64,
    /// Embedder the index was built with ("builtin all-MiniLM-L6-v2, 384-d").
    pub embedder: String,
    /// The chat model spec (`builtin`, `ollama:qwen2.5:1.5b`, …).
    pub model: String,
    /// Whether the background watcher runs.
    pub watching: bool,
    /// Files waiting in the watcher's queue.
    #[cfg_attr(test, ts(type = "number"))]
    pub queue: u64,
    /// When the last reconcile finished (RFC 3339).
    pub last_reconcile: Option<String>,
}

/// One metadata field with where it came from.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(export))]
pub struct FieldView {
    /// `title`, `series`, `version`, `session`, `issued`, `effective_from`,
    /// `effective_until`, `supersedes` or `audience`.
    pub name: String,
    /// The value as text (lists joined with ", ").
    pub value: String,
    /// `override`, `sidecar`, `front-matter`, `filename`, `title`, `properties`, `text`, `file-time` or `default`.
    pub source: String,
}

/// A row of the documents table.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(export))]
pub struct DocumentRow {
    /// Internal id.
    pub id: u32,
    /// Readable key (`circular-14@2026-27`).
    pub key: String,
    /// Title.
    pub title: String,
    /// Source path.
    pub path: String,
    /// File name.
    pub file_name: String,
    /// Series key: the same document over time (empty when unknown).
    pub series: String,
    /// Version label.
    pub version: String,
    /// Session (`2026-27`).
    pub session: String,
    /// In force from (ISO date).
    pub effective_from: String,
    /// In force until (ISO date).
    pub effective_until: String,
    /// `current`, `superseded`, `expired`, `not-yet-effective`, … (strongest first).
    pub status: String,
    /// Every status label.
    pub statuses: Vec<String>,
    /// Readable reason ("superseded by circular-14@2026-27").
    pub reason: String,
    /// Keys of the documents that supersede it.
    pub superseded_by: Vec<String>,
    /// Chunks.
    #[cfg_attr(test, ts(type = "number"))]
    pub chunks: u64,
    /// Fields with provenance.
    pub fields: Vec<FieldView>,
    /// Fields the user overrode.
    pub overrides: Vec<String>,
    /// Set when a newer copy of the file could not be read.
    pub problem: Option<String>,
    /// Whether it came in through the drag-and-drop inbox.
    pub from_inbox: bool,
}

/// One progress update of an indexing job (sent over the job's channel;
/// throttled to about 10 per second, the first and last always sent).
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(export))]
pub struct IndexProgress {
    /// `scanning`, `indexing`, `ocr`, `embedding`, `committing`, `done` or
    /// `error`; a re-embed: `re-embedding`, `done` or `error`.
    pub phase: String,
    /// Files done (chunks, in a re-embed).
    #[cfg_attr(test, ts(type = "number"))]
    pub done: u64,
    /// Files to do (0 while scanning).
    #[cfg_attr(test, ts(type = "number"))]
    pub total: u64,
    /// The file being read.
    pub current: Option<String>,
    /// Files per second so far.
    pub rate: f64,
    /// Wall time so far, ms.
    #[cfg_attr(test, ts(type = "number"))]
    pub elapsed_ms: u64,
}

/// What one indexing job did.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(export))]
pub struct IndexSummary {
    /// Files found.
    #[cfg_attr(test, ts(type = "number"))]
    pub files_seen: u64,
    /// Files unchanged since last time.
    #[cfg_attr(test, ts(type = "number"))]
    pub unchanged: u64,
    /// Files indexed now.
    #[cfg_attr(test, ts(type = "number"))]
    pub indexed: u64,
    /// Files removed (deleted from disk).
    #[cfg_attr(test, ts(type = "number"))]
    pub removed: u64,
    /// Files that failed, with reasons.
    pub problems: Vec<ProblemView>,
    /// Wall time, ms.
    #[cfg_attr(test, ts(type = "number"))]
    pub elapsed_ms: u64,
}

/// One file of a drag-and-drop import.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(export))]
pub struct ImportedFile {
    /// The file as dropped.
    pub source: String,
    /// Its copy in the inbox.
    pub copy: String,
    /// `indexed`, `needs-password`, `needs-conversion`, `no-text-layer`, `failed`, …
    pub status: String,
    /// A sentence for the user when it was not indexed.
    pub message: Option<String>,
    /// What was inferred, for the user to confirm or correct.
    pub document: Option<DocumentRow>,
}

/// A drag-and-drop import.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(export))]
pub struct ImportReport {
    /// Per file, in drop order.
    pub files: Vec<ImportedFile>,
    /// The indexing job.
    pub summary: IndexSummary,
}

/// Files the window received by drag and drop (event `files-dropped`);
/// the UI starts the import with `import_dropped(job, channel)`.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(export))]
pub struct DroppedFiles {
    /// Job id.
    pub job: u32,
    /// The paths dropped (files and folders).
    pub paths: Vec<String>,
}

/// One earlier turn of the conversation.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(export))]
pub struct Turn {
    /// The question as asked.
    pub question: String,
    /// The question as answered (follow-ups resolved).
    pub resolved: String,
    /// The answer text.
    pub answer: String,
}

/// A question.
#[derive(Debug, Clone, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(export))]
pub struct AskRequest {
    /// The question.
    pub question: String,
    /// `auto`, `classic` or `agent`.
    pub mode: String,
    /// As-of date (ISO); empty or absent means today.
    pub as_of: Option<String>,
    /// Earlier turns, oldest first (for follow-ups such as "and for 2024-25?").
    pub history: Vec<Turn>,
}

/// A citation chip.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(export))]
pub struct CitationView {
    /// 1-based number as shown in the text (`[1]`).
    pub n: u32,
    /// Chunk key.
    pub key: String,
    /// Document key (`circular-14@2026-27`).
    pub document: String,
    /// Document title.
    pub title: String,
    /// Source path.
    pub path: String,
    /// File name.
    pub file_name: String,
    /// Section heading path, when known.
    pub section: Option<String>,
    /// "p. 2" or "pp. 2-3", when the source is paged.
    pub pages: Option<String>,
    /// Gate status at the answer's as-of ("current", with a note when it has one).
    pub status: String,
}

/// A chunk withheld as out of date.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(export))]
pub struct WithheldView {
    /// Chunk or document key.
    pub key: String,
    /// Why ("superseded by circular-14@2026-27").
    pub reason: String,
}

/// One step of the trace.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(export))]
pub struct TraceStepView {
    /// Round number (1-based; 0 for routing).
    pub round: u32,
    /// `route`, `search`, `model`, `tool`, `verdict`, `check`, `note` or `fallback`.
    pub kind: String,
    /// One line ("search \"hostel fee\" → 6 hits, 2 withheld").
    pub title: String,
    /// Details, one per line (hits with verdicts, tool arguments…).
    pub details: Vec<String>,
    /// Input tokens (model steps).
    #[cfg_attr(test, ts(type = "number"))]
    pub input_tokens: u64,
    /// Output tokens (model steps).
    #[cfg_attr(test, ts(type = "number"))]
    pub output_tokens: u64,
    /// Wall time, ms.
    pub ms: f64,
}

/// The trace of one answer.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(export))]
pub struct TraceView {
    /// Steps in order.
    pub steps: Vec<TraceStepView>,
    /// Rounds.
    pub rounds: u32,
    /// Model calls.
    pub model_calls: u32,
    /// Tool calls.
    pub tool_calls: u32,
    /// Input tokens, all model calls.
    #[cfg_attr(test, ts(type = "number"))]
    pub input_tokens: u64,
    /// Output tokens, all model calls.
    #[cfg_attr(test, ts(type = "number"))]
    pub output_tokens: u64,
    /// Wall time, ms.
    pub total_ms: f64,
    /// `answered`, `abstained`, `only-withheld`, `budget-rounds`, …
    pub stop_reason: String,
}

/// An answer.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(export))]
pub struct AnswerView {
    /// The question as asked.
    pub question: String,
    /// The question as answered (a follow-up joined with the turn it refers to).
    pub resolved: String,
    /// The answer, with citations written `[1]`, `[2]` (numbers of `citations`).
    pub text: String,
    /// Citation chips, numbered in order of first use.
    pub citations: Vec<CitationView>,
    /// Chunks withheld as out of date, and why.
    pub withheld: Vec<WithheldView>,
    /// The date the answer speaks for (ISO).
    pub as_of: String,
    /// The session the answer speaks for (`2026-27`).
    pub session: String,
    /// `classic`, `agent` (the path taken).
    pub mode: String,
    /// Whether it is the abstention ("I could not find this in the documents.").
    pub abstained: bool,
    /// The trace.
    pub trace: TraceView,
    /// The answer with its sources as Markdown (copy and export).
    pub markdown: String,
}

/// A cited chunk, opened from its chip.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(export))]
pub struct SourceView {
    /// Chunk key.
    pub key: String,
    /// Document title.
    pub title: String,
    /// Source path.
    pub path: String,
    /// Section heading path.
    pub section: Option<String>,
    /// "p. 2", when paged.
    pub pages: Option<String>,
    /// The chunk's text.
    pub text: String,
    /// Its status now.
    pub status: String,
}

/// The settings the app edits (the same config file as the CLI).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(export))]
pub struct SettingsView {
    /// `builtin`, `ollama` or `openai` (any OpenAI-compatible server).
    pub embedder_provider: String,
    /// Embedding model name (ignored for builtin).
    pub embedder_model: String,
    /// The builtin model: `auto` (decided when the library is created:
    /// multilingual-e5-small when the first files hold Devanagari text),
    /// `all-MiniLM-L6-v2` (English) or `multilingual-e5-small` (Hindi,
    /// Hinglish and about 100 other languages); ignored for other providers.
    pub builtin_model: String,
    /// Embedding server URL (ignored for builtin).
    pub embedder_url: String,
    /// `builtin`, `ollama`, `openai` or `gemini`.
    pub chat_provider: String,
    /// Chat model name (ignored for builtin).
    pub chat_model: String,
    /// Chat server URL for `openai` (any OpenAI-compatible server) and `ollama`.
    pub chat_url: String,
    /// `auto`, `classic` or `agent`.
    pub mode: String,
    /// Agent budgets: rounds, tool calls, input tokens, wall time in ms.
    pub max_rounds: u32,
    /// Tool calls per question.
    pub max_tool_calls: u32,
    /// Input tokens per question.
    #[cfg_attr(test, ts(type = "number"))]
    pub max_input_tokens: u64,
    /// Wall time per question, ms.
    #[cfg_attr(test, ts(type = "number"))]
    pub max_wall_ms: u64,
    /// Month (1-12) the session starts in.
    pub session_start_month: u32,
    /// The user's audiences.
    pub audience: Vec<String>,
}

/// Whether an API key is stored.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(export))]
pub struct KeyStatus {
    /// `openai` or `gemini`.
    pub provider: String,
    /// A key is stored in the OS keyring.
    pub stored: bool,
    /// Where it is kept, or why it cannot be ("no keyring service: set OPENAI_API_KEY instead").
    pub message: String,
}

/// Whether the configured models can be reached.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(export))]
pub struct Connectivity {
    /// Everything the settings need runs on this machine (builtin models, or a server on loopback).
    pub offline_ready: bool,
    /// The chat model answered a health check (always true for builtin).
    pub model_reachable: bool,
    /// A sentence for the indicator ("Offline: builtin models", "Ollama at … is not running").
    pub message: String,
}

/// A change the background watcher committed (event `watch-change`).
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(export))]
pub struct WatchChangeView {
    /// The file.
    pub path: String,
    /// `indexed`, `moved from …`, `deleted`, or a failure.
    pub action: String,
    /// From the event to the commit, ms.
    #[cfg_attr(test, ts(type = "number"))]
    pub latency_ms: u64,
}

/// How to register Almirah as an MCP server in another assistant: this
/// program run with `args` (`mcp`), its config and library in `env`.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(export))]
pub struct McpSetupView {
    /// The program (this app's executable, absolute).
    pub command: String,
    /// Its arguments (`["mcp"]`).
    pub args: Vec<String>,
    /// `ALMIRAH_CONFIG` and `ALMIRAH_DATA_DIR`, so it reads this app's library.
    pub env: Vec<(String, String)>,
    /// The entry for Claude Desktop's `claude_desktop_config.json`, pretty JSON.
    pub claude_desktop: String,
    /// The entry for VS Code's `mcp.json`, pretty JSON.
    pub vscode: String,
}

/// The library's embedder against the configured one (the first-run choice
/// and the switch between builtin models).
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(export))]
pub struct EmbedderView {
    /// The embedder the library's vectors were made with
    /// ("multilingual-e5-small, 384-d"); `None` until the first chunk is embedded.
    pub library: Option<String>,
    /// What the config file names (`builtin auto`, `builtin all-MiniLM-L6-v2`,
    /// `ollama nomic-embed-text`, …).
    pub configured: String,
    /// The configured builtin model (`auto`, `all-MiniLM-L6-v2`,
    /// `multilingual-e5-small`), `None` for another provider.
    pub builtin_model: Option<String>,
    /// The library holds no chunk, so no embedder binds it yet: the moment to choose.
    pub first_run: bool,
    /// The config file names another embedder than the one the app opened
    /// the library with: it applies after a restart.
    pub restart_required: bool,
    /// The library was embedded with another model than the configured one:
    /// searches are refused until every chunk is re-embedded.
    pub re_embed_required: bool,
    /// Chunks a re-embed would embed.
    #[cfg_attr(test, ts(type = "number"))]
    pub chunks: u64,
    /// Why the configured embedder could not be loaded, when it could not.
    pub problem: Option<String>,
}

/// What a re-embed did.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(export))]
pub struct ReembedSummary {
    /// Chunks re-embedded.
    #[cfg_attr(test, ts(type = "number"))]
    pub chunks: u64,
    /// Vectors taken from the embedding cache (a model used before).
    #[cfg_attr(test, ts(type = "number"))]
    pub cache_hits: u64,
    /// Wall time, ms.
    #[cfg_attr(test, ts(type = "number"))]
    pub elapsed_ms: u64,
    /// The embedder now in use (as [`EmbedderView::library`]).
    pub embedder: String,
}
