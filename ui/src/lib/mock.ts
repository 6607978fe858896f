// An in-memory stand-in for the Rust commands, used when the UI runs in a
// plain browser (`npm run dev` without Tauri). The data is small but shaped
// like a real library: a superseded circular, its replacement, a document
// for another session, problems, an inbox. Only api.ts imports this.

import type { AnswerView } from "../bindings/AnswerView";
import type { AskRequest } from "../bindings/AskRequest";
import type { CitationView } from "../bindings/CitationView";
import type { CommandError } from "../bindings/CommandError";
import type { Connectivity } from "../bindings/Connectivity";
import type { DocumentRow } from "../bindings/DocumentRow";
import type { DroppedFiles } from "../bindings/DroppedFiles";
import type { EmbedderView } from "../bindings/EmbedderView";
import type { FieldView } from "../bindings/FieldView";
import type { FolderView } from "../bindings/FolderView";
import type { ImportedFile } from "../bindings/ImportedFile";
import type { ImportReport } from "../bindings/ImportReport";
import type { IndexProgress } from "../bindings/IndexProgress";
import type { IndexSummary } from "../bindings/IndexSummary";
import type { KeyStatus } from "../bindings/KeyStatus";
import type { LibraryOverview } from "../bindings/LibraryOverview";
import type { McpSetupView } from "../bindings/McpSetupView";
import type { ProblemView } from "../bindings/ProblemView";
import type { SettingsView } from "../bindings/SettingsView";
import type { SourceView } from "../bindings/SourceView";
import type { TraceStepView } from "../bindings/TraceStepView";
import type { WatchChangeView } from "../bindings/WatchChangeView";

// ---- events --------------------------------------------------------------

type Handler = (payload: never) => void;
const handlers = new Map<string, Set<Handler>>();

export function listen<T>(event: string, handler: (payload: T) => void): () => void {
  const set = handlers.get(event) ?? new Set<Handler>();
  handlers.set(event, set);
  set.add(handler as Handler);
  return () => set.delete(handler as Handler);
}

function emit<T>(event: string, payload: T): void {
  for (const h of handlers.get(event) ?? []) (h as (p: T) => void)(payload);
}

/** A deep copy, as the IPC boundary would make. */
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function fail(kind: string, message: string): never {
  const e: CommandError = { kind, message };
  throw e;
}

// ---- data ----------------------------------------------------------------

const HOME = "/home/asha/Documents/Policies";
const SHARE = "/mnt/office-share/Circulars 2026-27";
const INBOX = "/home/asha/.local/share/almirah/inbox";

const folders: FolderView[] = [
  { path: HOME, inbox: false, exists: true, mode: "events", poll_reason: null, files: 5, documents: 4, chunks: 46, failing: 1 },
  {
    path: SHARE, inbox: false, exists: true, mode: "polling",
    poll_reason: "network filesystem (cifs): change events are not delivered",
    files: 3, documents: 2, chunks: 17, failing: 1,
  },
  { path: INBOX, inbox: true, exists: true, mode: "events", poll_reason: null, files: 1, documents: 1, chunks: 5, failing: 0 },
];

const problems: ProblemView[] = [
  { path: `${HOME}/Salary-structure-2026.pdf`, status: "needs-password", message: "needs password", kept_previous: false },
  { path: `${SHARE}/Scanned notice (board meeting).pdf`, status: "no-text-layer", message: "no text layer (scanned?)", kept_previous: true },
];

type Seed = {
  key: string; title: string; dir: string; file: string; series: string; version: string; session: string;
  issued: string; from: string; until: string; supersedes: string; audience: string;
  status: string; reason: string; superseded_by: string[]; chunks: number; from_inbox?: boolean;
  src: Partial<Record<string, string>>;
};

const seeds: Seed[] = [
  {
    key: "circular-09@2026-27", title: "Hostel and mess fees for 2026-27", dir: HOME, file: "Circular-09-2026-27.pdf",
    series: "circular", version: "09", session: "2026-27", issued: "2026-04-02", from: "2026-04-01", until: "",
    supersedes: "", audience: "students, wardens", status: "superseded", reason: "superseded by circular-14@2026-27",
    superseded_by: ["circular-14@2026-27"], chunks: 6, src: { title: "text", series: "filename", version: "filename", session: "filename", issued: "text", effective_from: "text" },
  },
  {
    key: "circular-14@2026-27", title: "Revised hostel and mess fees (supersedes Circular 09)", dir: HOME, file: "Circular-14-2026-27.pdf",
    series: "circular", version: "14", session: "2026-27", issued: "2026-08-18", from: "2026-09-01", until: "",
    supersedes: "circular-09@2026-27", audience: "students, wardens", status: "current", reason: "in force since 2026-09-01",
    superseded_by: [], chunks: 7, src: { title: "text", series: "filename", version: "filename", session: "filename", issued: "text", effective_from: "text", supersedes: "text" },
  },
  {
    key: "student-handbook@2026-27", title: "Student Handbook 2026-27", dir: HOME, file: "student handbook 2026-27 (v3).docx",
    series: "student-handbook", version: "v3", session: "2026-27", issued: "2026-06-10", from: "2026-07-01", until: "2027-06-30",
    supersedes: "", audience: "students", status: "current", reason: "in force 2026-07-01 – 2027-06-30",
    superseded_by: [], chunks: 22, src: { title: "front-matter", series: "sidecar", version: "filename", session: "filename", issued: "file-time", effective_from: "sidecar", effective_until: "sidecar" },
  },
  {
    key: "fee-schedule@2025-26", title: "Fee schedule 2025-26", dir: SHARE, file: "Fee_Schedule_2025-26.pdf",
    series: "fee-schedule", version: "", session: "2025-26", issued: "2025-03-15", from: "2025-04-01", until: "2026-03-31",
    supersedes: "", audience: "students, accounts", status: "expired", reason: "expired 2026-03-31; session 2025-26",
    superseded_by: [], chunks: 9, src: { title: "title", series: "filename", session: "filename", issued: "text", effective_from: "default", effective_until: "default" },
  },
  {
    key: "exam-policy@2026-27", title: "Examination and re-evaluation policy", dir: SHARE, file: "exam-policy-2026-27.md",
    series: "exam-policy", version: "2", session: "2026-27", issued: "2026-10-30", from: "2027-01-01", until: "",
    supersedes: "", audience: "students, faculty", status: "not-yet-effective", reason: "in force from 2027-01-01",
    superseded_by: [], chunks: 8, src: { title: "front-matter", series: "front-matter", version: "front-matter", session: "front-matter", issued: "front-matter", effective_from: "front-matter" },
  },
  {
    key: "leave-policy@2026-27", title: "Staff leave policy", dir: HOME, file: "Leave Policy.pdf",
    series: "leave-policy", version: "", session: "2026-27", issued: "2026-05-01", from: "2026-05-01", until: "",
    supersedes: "", audience: "staff", status: "current", reason: "in force since 2026-05-01",
    superseded_by: [], chunks: 11, src: { title: "title", series: "title", session: "default", issued: "file-time", effective_from: "default" },
  },
  {
    key: "anti-ragging-notice@2026-27", title: "Anti-ragging undertaking — last date", dir: INBOX, file: "Anti-ragging notice.pdf",
    series: "anti-ragging-notice", version: "", session: "2026-27", issued: "2026-07-20", from: "2026-07-20", until: "",
    supersedes: "", audience: "students", status: "current", reason: "in force since 2026-07-20",
    superseded_by: [], chunks: 5, from_inbox: true, src: { title: "text", series: "title", session: "text", issued: "text", effective_from: "text" },
  },
];

const FIELD_NAMES = ["title", "series", "version", "session", "issued", "effective_from", "effective_until", "supersedes", "audience"];

function seedValue(s: Seed, name: string): string {
  switch (name) {
    case "title": return s.title;
    case "series": return s.series;
    case "version": return s.version;
    case "session": return s.session;
    case "issued": return s.issued;
    case "effective_from": return s.from;
    case "effective_until": return s.until;
    case "supersedes": return s.supersedes;
    case "audience": return s.audience;
    default: return "";
  }
}

/** Inferred fields per document key, and the user's overrides. */
const inferred = new Map<string, FieldView[]>();
const overrides = new Map<string, Map<string, string>>();
const rows = new Map<string, Seed>();

function addSeed(s: Seed) {
  rows.set(s.key, s);
  inferred.set(
    s.key,
    FIELD_NAMES.map((name) => ({ name, value: seedValue(s, name), source: seedValue(s, name) ? (s.src[name] ?? "text") : "default" })),
  );
}
seeds.forEach(addSeed);

function toRow(s: Seed, id: number): DocumentRow {
  const own = overrides.get(s.key) ?? new Map<string, string>();
  const fields = (inferred.get(s.key) ?? []).map((f) =>
    own.has(f.name) ? { name: f.name, value: own.get(f.name) ?? "", source: "override" } : f,
  );
  const v = (n: string) => fields.find((f) => f.name === n)?.value ?? "";
  return {
    id, key: s.key, title: v("title"), path: `${s.dir}/${s.file}`, file_name: s.file,
    series: v("series"), version: v("version"), session: v("session"),
    effective_from: v("effective_from"), effective_until: v("effective_until"),
    status: s.status, statuses: s.status === "expired" ? ["expired", "other-session"] : [s.status],
    reason: s.reason, superseded_by: s.superseded_by, chunks: s.chunks, fields,
    overrides: [...own.keys()], problem: null, from_inbox: s.from_inbox ?? false,
  };
}

function allRows(): DocumentRow[] {
  return [...rows.values()].map((s, i) => toRow(s, i + 1));
}

function rowFor(key: string): DocumentRow {
  const list = allRows();
  const row = list.find((r) => r.key === key);
  if (!row) fail("not-found", `No document ${key}.`);
  return row;
}

let settings: SettingsView = {
  embedder_provider: "builtin", embedder_model: "", builtin_model: "auto", embedder_url: "",
  chat_provider: "builtin", chat_model: "", chat_url: "http://127.0.0.1:11434",
  mode: "auto", max_rounds: 4, max_tool_calls: 8, max_input_tokens: 24000, max_wall_ms: 60000,
  session_start_month: 4, audience: ["students"],
};

const keys = new Map<string, boolean>();
let lastReconcile: string | null = null;

function overview(): LibraryOverview {
  const documents = folders.reduce((n, f) => n + f.documents, 0);
  const chunks = folders.reduce((n, f) => n + f.chunks, 0);
  return {
    data_dir: "/home/asha/.local/share/almirah/library",
    config_path: "/home/asha/.config/almirah/config.toml",
    folders: clone(folders),
    documents, chunks, vectors_pending: 0,
    files_by_status: [["indexed", documents], ["needs-password", 1], ["no-text-layer", 1]],
    problems: clone(problems),
    disk_bytes: 18_874_368,
    embedder: "builtin all-MiniLM-L6-v2, 384-d",
    model: settings.chat_provider === "builtin" ? "builtin" : `${settings.chat_provider}:${settings.chat_model}`,
    watching: true, queue: 0, last_reconcile: lastReconcile,
  };
}

// ---- jobs ----------------------------------------------------------------

async function runJob(files: string[], onProgress: (p: IndexProgress) => void, perFile = 110): Promise<number> {
  const start = performance.now();
  const elapsed = () => Math.round(performance.now() - start);
  onProgress({ phase: "scanning", done: 0, total: 0, current: null, rate: 0, elapsed_ms: 0 });
  await sleep(300);
  for (let i = 0; i < files.length; i++) {
    const ms = elapsed() || 1;
    onProgress({ phase: "indexing", done: i, total: files.length, current: files[i], rate: (i * 1000) / ms, elapsed_ms: ms });
    await sleep(perFile);
  }
  onProgress({ phase: "committing", done: files.length, total: files.length, current: null, rate: (files.length * 1000) / (elapsed() || 1), elapsed_ms: elapsed() });
  await sleep(150);
  const ms = elapsed() || 1;
  onProgress({ phase: "done", done: files.length, total: files.length, current: null, rate: (files.length * 1000) / ms, elapsed_ms: ms });
  return ms;
}

async function syncLibrary(onProgress: (p: IndexProgress) => void): Promise<IndexSummary> {
  const files = [...seeds.map((s) => `${s.dir}/${s.file}`), ...problems.map((p) => p.path),
    `${HOME}/Transport routes.xlsx.pdf`, `${SHARE}/Library timings.txt`, `${HOME}/Canteen menu.md`];
  const ms = await runJob(files, onProgress);
  lastReconcile = new Date().toISOString();
  setTimeout(() => {
    const change: WatchChangeView = { path: `${HOME}/Circular-14-2026-27.pdf`, action: "indexed", latency_ms: 640 };
    emit("watch-change", change);
  }, 2500);
  return { files_seen: files.length, unchanged: files.length - 3, indexed: 3, removed: 0, problems: clone(problems), elapsed_ms: ms };
}

let nextJob = 1;
const dropJobs = new Map<number, string[]>();

/** Dev helper: the browser's own drop event stands in for the window's. */
export function simulateDrop(names: string[]): void {
  if (names.length === 0) return;
  const job = nextJob++;
  const paths = names.map((n) => `/home/asha/Downloads/${n}`);
  dropJobs.set(job, paths);
  const dropped: DroppedFiles = { job, paths };
  emit("files-dropped", dropped);
}

function inferFrom(fileName: string): Seed {
  const base = fileName.replace(/\.[^.]+$/, "");
  const session = base.match(/20\d\d-\d\d/)?.[0] ?? "2026-27";
  const num = base.match(/(?:circular|notice)[\s_-]*(\d+)/i)?.[1] ?? "";
  const series = num ? "circular" : base.toLowerCase().replace(/20\d\d-\d\d/, "").replace(/[^a-z]+/g, "-").replace(/^-|-$/g, "") || "document";
  const key = `${series}${num ? `-${num}` : ""}@${session}`;
  return {
    key, title: base.replace(/[_-]+/g, " "), dir: INBOX, file: fileName, series, version: num, session,
    issued: "2026-11-02", from: "2026-11-02", until: "", supersedes: "", audience: "",
    status: "current", reason: "in force since 2026-11-02", superseded_by: [], chunks: 4, from_inbox: true,
    src: { title: "filename", series: "filename", version: num ? "filename" : "default", session: /20\d\d-\d\d/.test(base) ? "filename" : "default", issued: "file-time", effective_from: "file-time" },
  };
}

async function importPaths(paths: string[], onProgress: (p: IndexProgress) => void): Promise<ImportReport> {
  const ms = await runJob(paths, onProgress, 350);
  const files: ImportedFile[] = [];
  const newProblems: ProblemView[] = [];
  for (const source of paths) {
    const name = source.split("/").pop() ?? source;
    const copy = `${INBOX}/${name}`;
    if (/locked|password/i.test(name)) {
      const message = "needs password";
      files.push({ source, copy, status: "needs-password", message, document: null });
      newProblems.push({ path: copy, status: "needs-password", message, kept_previous: false });
      continue;
    }
    if (/\.doc$/i.test(name)) {
      const message = "old format: a Word 97-2003 document (.doc); open it in Word or LibreOffice and save it as .docx";
      files.push({ source, copy, status: "needs-conversion", message, document: null });
      newProblems.push({ path: copy, status: "needs-conversion", message, kept_previous: false });
      continue;
    }
    if (!/\.(pdf|docx|docm|odt|md|markdown|txt|text|html?|xhtml|csv|xlsx|xlsm|xls|ods)$/i.test(name)) {
      files.push({ source, copy, status: "unsupported", message: "unsupported file type", document: null });
      continue;
    }
    const seed = inferFrom(name);
    addSeed(seed);
    folders[2].files += 1;
    folders[2].documents += 1;
    folders[2].chunks += seed.chunks;
    files.push({ source, copy, status: "indexed", message: null, document: rowFor(seed.key) });
  }
  problems.push(...newProblems);
  emit("library-changed", "import");
  return {
    files,
    summary: { files_seen: paths.length, unchanged: 0, indexed: files.filter((f) => f.status === "indexed").length, removed: 0, problems: newProblems, elapsed_ms: ms },
  };
}

// ---- chat ----------------------------------------------------------------

function cite(n: number, key: string, section: string | null, pages: string | null, status: string): CitationView {
  const s = rows.get(key.split("#")[0]);
  if (!s) fail("bug", `mock: no ${key}`);
  return { n, key, document: s.key, title: s.title, path: `${s.dir}/${s.file}`, file_name: s.file, section, pages, status };
}

const chunkText: Record<string, string> = {
  "circular-14@2026-27#1":
    "With effect from 1 September 2026, the hostel fee is revised to ₹48,000 per semester for double-occupancy rooms and ₹56,000 per semester for single rooms. The mess fee is ₹21,500 per semester. These rates replace those notified in Circular 09 of 2026-27.",
  "circular-14@2026-27#2":
    "Fees are payable by the 15th of the first month of each semester. A late fee of ₹100 per day applies after the due date, up to a maximum of ₹3,000.",
  "student-handbook@2026-27#7":
    "Residents must clear all hostel dues before the start of end-semester examinations. Hall tickets are withheld for students with outstanding dues.",
  "circular-09@2026-27#1":
    "The hostel fee for 2026-27 is ₹42,000 per semester for double-occupancy rooms. The mess fee is ₹19,000 per semester.",
};

function step(round: number, kind: string, title: string, details: string[], ms: number, input_tokens = 0, output_tokens = 0): TraceStepView {
  return { round, kind, title, details, input_tokens, output_tokens, ms };
}

async function ask(request: AskRequest, onStatus: (line: string) => void): Promise<AnswerView> {
  const q = request.question.trim();
  if (!q) fail("invalid-input", "Type a question first.");
  if (/\bfail\b/i.test(q)) {
    await sleep(400);
    fail("provider", "The chat model did not answer: Ollama at http://127.0.0.1:11434 is not running.");
  }
  const asOf = request.as_of || new Date().toISOString().slice(0, 10);
  const session = asOf >= "2027-04-01" ? "2027-28" : asOf >= "2026-04-01" ? "2026-27" : "2025-26";
  const mode = request.mode === "auto" ? (q.split(/\s+/).length > 9 ? "agent" : "classic") : request.mode;
  const last = request.history[request.history.length - 1];
  const resolved = /^(and|what about|how about)\b/i.test(q) && last ? `${last.resolved} — ${q}` : q;
  const started = performance.now();

  onStatus(`Routing (${mode})…`);
  await sleep(250);
  onStatus(`Searching “${resolved.slice(0, 60)}”…`);
  await sleep(450);
  const about = /(fee|hostel|mess|dues|late)/i.test(resolved);
  onStatus(about ? "Checking 6 passages against the as-of date…" : "No passage matched well enough.");
  await sleep(350);
  if (mode === "agent") {
    onStatus("Model call 2 of at most 4…");
    await sleep(400);
  }
  const total_ms = Math.round(performance.now() - started);

  if (!about) {
    const text = "I could not find this in the documents.";
    return {
      question: q, resolved, text, citations: [], withheld: [], as_of: asOf, session, mode, abstained: true,
      trace: {
        steps: [
          step(0, "route", `route → ${mode}`, [`question has ${q.split(/\s+/).length} words`], 1.2),
          step(1, "search", `search "${resolved.slice(0, 40)}" → 0 hits above threshold`, ["best score 0.21 < 0.35"], 38.5),
          step(1, "verdict", "abstain: no admissible passage", [], 0.3),
        ],
        rounds: 1, model_calls: 0, tool_calls: 1, input_tokens: 0, output_tokens: 0, total_ms, stop_reason: "abstained",
      },
      markdown: `**Q:** ${q}\n\n${text}\n`,
    };
  }

  const citations = [
    cite(1, "circular-14@2026-27#1", "Revised fees", "p. 1", "current"),
    cite(2, "circular-14@2026-27#2", "Payment schedule", "pp. 1-2", "current"),
    cite(3, "student-handbook@2026-27#7", "Hostel › Dues", "p. 14", "current"),
  ];
  const text =
    `For ${session}, the hostel fee is ₹48,000 per semester for a double room and ₹56,000 for a single room, and the mess fee is ₹21,500 per semester [1]. ` +
    `Fees are due by the 15th of the first month of the semester, with a late fee of ₹100 a day up to ₹3,000 [2].\n\n` +
    `Outstanding hostel dues must be cleared before end-semester examinations, or the hall ticket is withheld [3].`;
  const withheld = [{ key: "circular-09@2026-27#1", reason: "superseded by circular-14@2026-27" }];
  const steps = [
    step(0, "route", `route → ${mode}`, [`mode requested: ${request.mode}`, `history: ${request.history.length} turn(s)`], 1.4),
    step(1, "search", `search "hostel mess fee ${session}" → 6 hits, 1 withheld`, [
      "0.82 circular-14@2026-27#1 — current",
      "0.79 circular-09@2026-27#1 — withheld: superseded by circular-14@2026-27",
      "0.64 circular-14@2026-27#2 — current",
      "0.51 student-handbook@2026-27#7 — current",
      "0.33 fee-schedule@2025-26#2 — withheld: session 2025-26",
    ], 41.7),
    ...(mode === "agent"
      ? [
          step(1, "model", "model → tool call search(\"late fee hostel\")", ["finish: tool_calls"], 812.4, 1840, 46),
          step(2, "tool", "search \"late fee hostel\" → 3 hits", ["0.71 circular-14@2026-27#2 — current"], 22.9),
          step(2, "model", "model → answer with 3 citations", ["finish: stop"], 1460.2, 2950, 188),
        ]
      : [step(1, "model", "builtin extractive answer → 3 sentences", ["picked sentences from [1] [2] [3]"], 12.8)]),
    step(mode === "agent" ? 2 : 1, "check", "citations check: 3 of 3 supported", [], 2.1),
  ];
  const input_tokens = steps.reduce((n, s) => n + s.input_tokens, 0);
  const output_tokens = steps.reduce((n, s) => n + s.output_tokens, 0);
  const sources = citations.map((c) => `[${c.n}] ${c.title} — ${c.file_name}${c.pages ? `, ${c.pages}` : ""} (${c.status})`).join("\n");
  return {
    question: q, resolved, text, citations, withheld, as_of: asOf, session, mode, abstained: false,
    trace: {
      steps, rounds: mode === "agent" ? 2 : 1, model_calls: steps.filter((s) => s.kind === "model").length,
      tool_calls: steps.filter((s) => s.kind === "tool" || s.kind === "search").length,
      input_tokens, output_tokens, total_ms, stop_reason: "answered",
    },
    markdown: `**Q:** ${q}\n\n_As of ${asOf} (session ${session})_\n\n${text}\n\n**Sources**\n\n${sources}\n`,
  };
}

function readSource(key: string): SourceView {
  const s = rows.get(key.split("#")[0]);
  const text = chunkText[key];
  if (!s || !text) fail("not-found", `The passage ${key} is no longer in the library.`);
  const pages = key.endsWith("#2") ? "pp. 1-2" : key.endsWith("#7") ? "p. 14" : "p. 1";
  return { key, title: s.title, path: `${s.dir}/${s.file}`, section: key.includes("handbook") ? "Hostel › Dues" : "Revised fees", pages, text, status: s.status === "current" ? "current" : s.reason };
}

// ---- dispatch ------------------------------------------------------------

type Args = Record<string, unknown>;

function str(args: Args, name: string): string {
  const v = args[name];
  if (typeof v !== "string") fail("invalid-input", `mock: missing ${name}`);
  return v;
}

function keyStatus(provider: string): KeyStatus {
  if (provider !== "openai" && provider !== "gemini") fail("invalid-input", `Unknown provider ${provider}.`);
  const env = provider === "openai" ? "OPENAI_API_KEY" : "GEMINI_API_KEY";
  return keys.get(provider)
    ? { provider, stored: true, message: "Stored in the OS keyring (Secret Service)." }
    : { provider, stored: false, message: `No key stored. Without a keyring service, set ${env} in the environment instead.` };
}

function connectivity(): Connectivity {
  if (settings.chat_provider === "builtin" && settings.embedder_provider === "builtin") {
    return { offline_ready: true, model_reachable: true, message: "Offline-ready · builtin models" };
  }
  if (settings.chat_provider === "ollama") {
    return { offline_ready: true, model_reachable: false, message: `Ollama at ${settings.chat_url || "http://127.0.0.1:11434"} is not running` };
  }
  return { offline_ready: false, model_reachable: true, message: `Online · ${settings.chat_provider} ${settings.chat_model}`.trim() };
}

function mcpSetup(): McpSetupView {
  const command = "/usr/bin/almirah-desktop";
  const env: [string, string][] = [["ALMIRAH_CONFIG", "/home/asha/.config/almirah/config.toml"], ["ALMIRAH_DATA_DIR", "/home/asha/.local/share/almirah"]];
  const envObj = Object.fromEntries(env);
  return {
    command,
    args: ["mcp"],
    env,
    claude_desktop: JSON.stringify({ mcpServers: { almirah: { command, args: ["mcp"], env: envObj } } }, null, 2),
    vscode: JSON.stringify({ servers: { almirah: { type: "stdio", command, args: ["mcp"], env: envObj } } }, null, 2),
  };
}

/** The model the mock library was embedded with, and the one the app runs with. */
let embedded = "all-MiniLM-L6-v2";
let running = settings.builtin_model;

function embedderView(): EmbedderView {
  const chunks = folders.reduce((n, f) => n + f.chunks, 0);
  const configured = settings.builtin_model;
  const effective = running === "auto" ? embedded : running;
  return {
    library: chunks ? `${embedded}, 384-d` : null,
    configured: `builtin ${configured}`,
    builtin_model: settings.embedder_provider === "builtin" ? configured : null,
    first_run: chunks === 0,
    restart_required: configured !== running,
    re_embed_required: chunks > 0 && configured === running && effective !== embedded,
    chunks,
    problem: null,
  };
}

async function reEmbed(onProgress: (p: IndexProgress) => void) {
  const total = folders.reduce((n, f) => n + f.chunks, 0);
  for (let done = 0; done <= total; done += Math.max(1, Math.ceil(total / 8))) {
    onProgress({ phase: "re-embedding", done, total, current: null, rate: 40, elapsed_ms: done * 25 });
    await sleep(120);
  }
  onProgress({ phase: "done", done: total, total, current: null, rate: 40, elapsed_ms: total * 25 });
  embedded = running === "auto" ? embedded : running;
  return { chunks: total, cache_hits: 0, elapsed_ms: total * 25, embedder: `${embedded}, 384-d` };
}

async function dispatch(cmd: string, args: Args): Promise<unknown> {
  await sleep(60);
  switch (cmd) {
    case "library_overview": return overview();
    case "sync_library": return syncLibrary(args.onProgress as (p: IndexProgress) => void);
    case "pick_folder": {
      const path = window.prompt("Folder to watch (mock picker):", "/home/asha/Documents/Notices");
      return path?.trim() || null;
    }
    case "add_folder": {
      const path = str(args, "path");
      if (!path.startsWith("/")) fail("invalid-input", "Choose an absolute folder path.");
      if (folders.some((f) => f.path === path)) fail("invalid-input", `${path} is already watched.`);
      folders.splice(folders.length - 1, 0, { path, inbox: false, exists: true, mode: "events", poll_reason: null, files: 0, documents: 0, chunks: 0, failing: 0 });
      emit("library-changed", "folder-added");
      return overview();
    }
    case "remove_folder": {
      const path = str(args, "path");
      const i = folders.findIndex((f) => f.path === path);
      if (i < 0) fail("not-found", `${path} is not watched.`);
      if (folders[i].inbox) fail("invalid-input", "The inbox cannot be removed.");
      folders.splice(i, 1);
      if (!args.keepDocuments) for (const [k, s] of rows) if (s.dir === path) rows.delete(k);
      emit("library-changed", "folder-removed");
      return overview();
    }
    case "list_documents": return allRows();
    case "set_override": {
      const document = str(args, "document");
      const field = str(args, "field");
      rowFor(document);
      if (!FIELD_NAMES.includes(field)) fail("invalid-input", `${field} cannot be overridden.`);
      const value = args.value;
      if (typeof value === "string" && /date|from|until|issued/.test(field) && value && !/^\d{4}-\d{2}-\d{2}$/.test(value)) {
        fail("invalid-input", `${field.replace("_", " ")} must be a date like 2026-09-01.`);
      }
      if (typeof value === "string" && field === "session" && value && !/^\d{4}-\d{2}$/.test(value)) {
        fail("invalid-input", "A session looks like 2026-27.");
      }
      const own = overrides.get(document) ?? new Map<string, string>();
      overrides.set(document, own);
      if (typeof value === "string") own.set(field, value.trim());
      else own.delete(field);
      emit("library-changed", "override");
      return rowFor(document);
    }
    case "import_dropped": {
      const job = args.job as number;
      const paths = dropJobs.get(job);
      if (!paths) fail("not-found", `No dropped files for job ${job}.`);
      dropJobs.delete(job);
      return importPaths(paths, args.onProgress as (p: IndexProgress) => void);
    }
    case "pick_and_import": {
      const names = window.prompt("Files to add, comma separated (mock picker):", "Circular-17-2026-27.pdf, Locked salary slip.pdf");
      if (!names) return null;
      const paths = names.split(",").map((n) => n.trim()).filter(Boolean).map((n) => `/home/asha/Downloads/${n}`);
      return importPaths(paths, args.onProgress as (p: IndexProgress) => void);
    }
    case "ask": return ask(args.request as AskRequest, args.onStatus as (l: string) => void);
    case "read_source": return readSource(str(args, "key"));
    case "open_source_file": {
      readSource(str(args, "key"));
      return null;
    }
    case "export_answer": return "/home/asha/Documents/almirah-answer.md";
    case "get_settings": return clone(settings);
    case "save_settings": {
      const next = args.settings as SettingsView;
      if (next.session_start_month < 1 || next.session_start_month > 12) fail("invalid-input", "The session start month must be 1–12.");
      if (next.chat_provider !== "builtin" && next.chat_provider !== "ollama" && !next.chat_model.trim()) {
        fail("invalid-input", `Name the ${next.chat_provider} chat model.`);
      }
      settings = clone(next);
      emit("library-changed", "settings");
      return clone(settings);
    }
    case "key_status": return keyStatus(str(args, "provider"));
    case "set_api_key": {
      const provider = str(args, "provider");
      if (!str(args, "key").trim()) fail("invalid-input", "Paste a key first.");
      keys.set(provider, true);
      return keyStatus(provider);
    }
    case "delete_api_key": {
      const provider = str(args, "provider");
      keys.delete(provider);
      return keyStatus(provider);
    }
    case "connectivity": return connectivity();
    case "mcp_setup": return mcpSetup();
    case "embedder_status": return embedderView();
    case "choose_builtin_embedder": {
      settings = { ...settings, embedder_provider: "builtin", builtin_model: str(args, "model") };
      return embedderView();
    }
    case "re_embed_library": return reEmbed(args.onProgress as (p: IndexProgress) => void);
    case "restart_app": {
      running = settings.builtin_model;
      return null;
    }
    default: return fail("bug", `mock: unknown command ${cmd}`);
  }
}

export async function invoke<T>(cmd: string, args: Args): Promise<T> {
  return clone(await dispatch(cmd, args)) as T;
}

/**
 * Dev helper: in a plain browser, HTML drag and drop stands in for the
 * window's native drop (Tauri emits `tauri://drag-*` and `files-dropped`).
 */
export function installBrowserDrop(): void {
  let depth = 0;
  window.addEventListener("dragenter", (e) => {
    e.preventDefault();
    if (depth++ === 0) emit("tauri://drag-enter", null);
  });
  window.addEventListener("dragleave", () => {
    if (--depth <= 0) {
      depth = 0;
      emit("tauri://drag-leave", null);
    }
  });
  window.addEventListener("dragover", (e) => e.preventDefault());
  window.addEventListener("drop", (e) => {
    e.preventDefault();
    depth = 0;
    emit("tauri://drag-drop", null);
    simulateDrop([...(e.dataTransfer?.files ?? [])].map((f) => f.name));
  });
}
