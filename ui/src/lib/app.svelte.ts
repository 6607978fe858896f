// App-wide state shared by the views: the library overview, the startup
// sync, imports, the watcher's activity, settings and connectivity, and the
// conversation. Views read it and call the actions below; only api.ts talks
// to Rust.

import * as api from "./api";
import type { AnswerView } from "../bindings/AnswerView";
import type { Connectivity } from "../bindings/Connectivity";
import type { DocumentRow } from "../bindings/DocumentRow";
import type { DroppedFiles } from "../bindings/DroppedFiles";
import type { ImportReport } from "../bindings/ImportReport";
import type { IndexProgress } from "../bindings/IndexProgress";
import type { IndexSummary } from "../bindings/IndexSummary";
import type { LibraryOverview } from "../bindings/LibraryOverview";
import type { SettingsView } from "../bindings/SettingsView";
import type { WatchChangeView } from "../bindings/WatchChangeView";
import { todayIso } from "./format";

export type View = "library" | "documents" | "chat" | "settings";
export const VIEWS: { id: View; label: string }[] = [
  { id: "library", label: "Library" },
  { id: "documents", label: "Documents" },
  { id: "chat", label: "Chat" },
  { id: "settings", label: "Settings" },
];

/** An indexing job's progress as the UI shows it. */
export type JobState = {
  progress: IndexProgress | null;
  running: boolean;
  error: string | null;
};

export type ImportJob = JobState & {
  /** Stable id for keyed lists. */
  id: string;
  /** What started it ("3 items dropped", "Added with the file picker"). */
  label: string;
  paths: string[];
  report: ImportReport | null;
  /** Imported files the user confirmed with "Looks right", by copy path. */
  confirmed: string[];
};

export type ActivityItem = WatchChangeView & { at: string; id: number };

export type ChatEntry = {
  id: number;
  question: string;
  mode: string;
  asOf: string;
  status: string[];
  pending: boolean;
  answer: AnswerView | null;
  error: string | null;
};

class AppState {
  view = $state<View>("library");
  overview = $state<LibraryOverview | null>(null);
  overviewError = $state<string | null>(null);
  /** Bumped on every `library-changed`; views that list things reload on it. */
  libraryVersion = $state(0);
  sync = $state<JobState & { summary: IndexSummary | null }>({ progress: null, running: false, error: null, summary: null });
  imports = $state<ImportJob[]>([]);
  activity = $state<ActivityItem[]>([]);
  connectivity = $state<Connectivity | null>(null);
  connectivityError = $state<string | null>(null);
  settings = $state<SettingsView | null>(null);
  settingsError = $state<string | null>(null);
  dragging = $state(false);
  chat = $state<{ entries: ChatEntry[]; mode: string | null; asOf: string }>({ entries: [], mode: null, asOf: todayIso() });
}

export const app = new AppState();

let seq = 0;
const nextId = () => ++seq;

export function showView(view: View): void {
  app.view = view;
}

export async function refreshOverview(): Promise<void> {
  try {
    app.overview = await api.libraryOverview();
    app.overviewError = null;
  } catch (e) {
    app.overviewError = api.errorMessage(e);
  }
}

export async function refreshConnectivity(): Promise<void> {
  try {
    app.connectivity = await api.connectivity();
    app.connectivityError = null;
  } catch (e) {
    app.connectivityError = api.errorMessage(e);
  }
}

export async function loadSettings(): Promise<void> {
  try {
    app.settings = await api.getSettings();
    app.settingsError = null;
  } catch (e) {
    app.settingsError = api.errorMessage(e);
  }
}

/** Indexes every watched folder (once at startup, or on request). */
export async function runSync(): Promise<void> {
  if (app.sync.running) return;
  app.sync = { progress: null, running: true, error: null, summary: null };
  try {
    const summary = await api.syncLibrary((p) => (app.sync.progress = p));
    app.sync.summary = summary;
  } catch (e) {
    app.sync.error = api.errorMessage(e);
  } finally {
    app.sync.running = false;
    app.libraryVersion++;
    void refreshOverview();
  }
}

async function runImport(job: ImportJob, start: (onProgress: (p: IndexProgress) => void) => Promise<ImportReport | null>) {
  app.imports.unshift(job);
  // Work on the proxied copy so updates render.
  const live = app.imports.find((j) => j.id === job.id) ?? job;
  try {
    const report = await start((p) => (live.progress = p));
    if (report === null) {
      app.imports = app.imports.filter((j) => j.id !== job.id);
      return;
    }
    live.report = report;
  } catch (e) {
    live.error = api.errorMessage(e);
  } finally {
    live.running = false;
    app.libraryVersion++;
    void refreshOverview();
  }
}

function newJob(id: string, label: string, paths: string[]): ImportJob {
  return { id, label, paths, progress: null, running: true, error: null, report: null, confirmed: [] };
}

/** Starts the import of a `files-dropped` job and shows it in the Library view. */
export function importDropped(dropped: DroppedFiles): Promise<void> {
  app.dragging = false;
  app.view = "library";
  const n = dropped.paths.length;
  const job = newJob(`drop-${dropped.job}`, `${n} item${n === 1 ? "" : "s"} dropped`, dropped.paths);
  return runImport(job, (onProgress) => api.importDropped(dropped.job, onProgress));
}

/** "Add files…": the native picker, then the same import. */
export function pickAndImport(): Promise<void> {
  const job = newJob(`pick-${nextId()}`, "Added with the file picker", []);
  return runImport(job, (onProgress) => api.pickAndImport(onProgress));
}

export function dismissImport(id: string): void {
  app.imports = app.imports.filter((j) => j.id !== id);
}

/** "Looks right" on an imported file. */
export function confirmImported(jobId: string, copy: string): void {
  const job = app.imports.find((j) => j.id === jobId);
  if (job && !job.confirmed.includes(copy)) job.confirmed.push(copy);
}

/** Replaces a document everywhere the import panels show it. */
export function updateImportedDocument(row: DocumentRow): void {
  for (const job of app.imports) {
    for (const file of job.report?.files ?? []) {
      if (file.document?.key === row.key) file.document = row;
    }
  }
}

/**
 * Subscribes to the app's events; returns the cleanup. A listener that
 * cannot be registered is reported, and the others still work.
 */
export async function startEvents(onError: (message: string) => void): Promise<() => void> {
  const results = await Promise.allSettled([
    api.onLibraryChanged(() => {
      app.libraryVersion++;
      void refreshOverview();
    }),
    api.onWatchChange((change) => {
      app.activity = [{ ...change, at: new Date().toISOString(), id: nextId() }, ...app.activity].slice(0, 50);
    }),
    api.onFilesDropped((dropped) => void importDropped(dropped)),
    api.onDragHover((hovering) => (app.dragging = hovering)),
  ]);
  const offs: api.Unlisten[] = [];
  for (const r of results) {
    if (r.status === "fulfilled") offs.push(r.value);
    else onError(api.errorMessage(r.reason));
  }
  return () => offs.forEach((off) => off());
}

/** Earlier answered turns, oldest first, for follow-up questions. */
export function chatHistory() {
  return app.chat.entries
    .filter((e) => e.answer !== null)
    .map((e) => ({ question: e.answer!.question, resolved: e.answer!.resolved, answer: e.answer!.text }));
}

export async function askQuestion(question: string, mode: string, asOf: string): Promise<void> {
  const history = chatHistory();
  app.chat.entries.push({ id: nextId(), question, mode, asOf, status: [], pending: true, answer: null, error: null });
  const entry = app.chat.entries[app.chat.entries.length - 1];
  try {
    entry.answer = await api.ask(
      { question, mode, as_of: asOf || null, history },
      (line) => entry.status.push(line),
    );
  } catch (e) {
    entry.error = api.errorMessage(e);
  } finally {
    entry.pending = false;
  }
}
