// The only module that talks to the Rust side. Every command is a typed
// wrapper here; the rest of the UI never calls `invoke` or `listen` itself.
// Outside Tauri (plain browser, `npm run dev`) the same calls go to an
// in-memory mock, so the UI can be developed and looked at without the app.

import { invoke, Channel } from "@tauri-apps/api/core";
import { listen } from "@tauri-apps/api/event";
import type { AnswerView } from "../bindings/AnswerView";
import type { AskRequest } from "../bindings/AskRequest";
import type { CommandError } from "../bindings/CommandError";
import type { Connectivity } from "../bindings/Connectivity";
import type { DocumentRow } from "../bindings/DocumentRow";
import type { DroppedFiles } from "../bindings/DroppedFiles";
import type { EmbedderView } from "../bindings/EmbedderView";
import type { ImportReport } from "../bindings/ImportReport";
import type { IndexProgress } from "../bindings/IndexProgress";
import type { IndexSummary } from "../bindings/IndexSummary";
import type { KeyStatus } from "../bindings/KeyStatus";
import type { LibraryOverview } from "../bindings/LibraryOverview";
import type { McpSetupView } from "../bindings/McpSetupView";
import type { ReembedSummary } from "../bindings/ReembedSummary";
import type { SettingsView } from "../bindings/SettingsView";
import type { SourceView } from "../bindings/SourceView";
import type { WatchChangeView } from "../bindings/WatchChangeView";
import * as mock from "./mock";

/** Whether we run inside the Tauri webview (false in a plain browser). */
export const inTauri: boolean =
  typeof window !== "undefined" &&
  (window as unknown as { __TAURI_INTERNALS__?: unknown }).__TAURI_INTERNALS__ !== undefined;

if (!inTauri) mock.installBrowserDrop();

/** Providers that take an API key. */
export type KeyProvider = "openai" | "gemini";

/** Stops listening to an event. */
export type Unlisten = () => void;

/** Turns whatever a command rejected with into a CommandError. */
export function toCommandError(e: unknown): CommandError {
  if (e && typeof e === "object") {
    const o = e as Record<string, unknown>;
    if (typeof o.message === "string") {
      return { kind: typeof o.kind === "string" ? o.kind : "bug", message: o.message };
    }
  }
  if (typeof e === "string") return { kind: "bug", message: e };
  return { kind: "bug", message: String(e) };
}

/** The sentence to show the user for a rejected command. */
export function errorMessage(e: unknown): string {
  return toCommandError(e).message;
}

async function call<T>(cmd: string, args?: Record<string, unknown>): Promise<T> {
  try {
    return inTauri ? await invoke<T>(cmd, args) : await mock.invoke<T>(cmd, args ?? {});
  } catch (e) {
    throw toCommandError(e);
  }
}

/** A per-job channel (a real `Channel` in Tauri, the callback itself in the mock). */
function channel<T>(onMessage: (message: T) => void): unknown {
  return inTauri ? new Channel<T>(onMessage) : onMessage;
}

async function on<T>(event: string, handler: (payload: T) => void): Promise<Unlisten> {
  if (!inTauri) return mock.listen<T>(event, handler);
  return listen<T>(event, (e) => handler(e.payload));
}

// ---- library -------------------------------------------------------------

export const libraryOverview = () => call<LibraryOverview>("library_overview");

/** Indexes every watched folder, streaming progress. */
export const syncLibrary = (onProgress: (p: IndexProgress) => void) =>
  call<IndexSummary>("sync_library", { onProgress: channel(onProgress) });

/** Native folder picker; null when cancelled. */
export const pickFolder = () => call<string | null>("pick_folder");

export const addFolder = (path: string) => call<LibraryOverview>("add_folder", { path });

export const removeFolder = (path: string, keepDocuments: boolean) =>
  call<LibraryOverview>("remove_folder", { path, keepDocuments });

// ---- embedder ------------------------------------------------------------

/** The library's embedder against the configured one. */
export const embedderStatus = () => call<EmbedderView>("embedder_status");

/** Writes the builtin model into the config; it applies after `restartApp`. */
export const chooseBuiltinEmbedder = (model: string) =>
  call<EmbedderView>("choose_builtin_embedder", { model });

/** Re-embeds every chunk with the configured embedder, streaming progress (chunks). */
export const reEmbedLibrary = (onProgress: (p: IndexProgress) => void) =>
  call<ReembedSummary>("re_embed_library", { onProgress: channel(onProgress) });

/** Starts the app again (a new embedder applies). */
export const restartApp = () => call<null>("restart_app");

// ---- documents -----------------------------------------------------------

/** Documents with their status at `asOf` (ISO date; null means today). */
export const listDocuments = (asOf: string | null) =>
  call<DocumentRow[]>("list_documents", { asOf });

/** Overrides one field of a document (by key); null removes the override. */
export const setOverride = (document: string, field: string, value: string | null) =>
  call<DocumentRow>("set_override", { document, field, value });

// ---- import --------------------------------------------------------------

/** Imports the files of a `files-dropped` job. */
export const importDropped = (job: number, onProgress: (p: IndexProgress) => void) =>
  call<ImportReport>("import_dropped", { job, onProgress: channel(onProgress) });

/** File picker then import; null when cancelled. */
export const pickAndImport = (onProgress: (p: IndexProgress) => void) =>
  call<ImportReport | null>("pick_and_import", { onProgress: channel(onProgress) });

// ---- chat ----------------------------------------------------------------

/** Asks a question; status lines stream while it works. */
export const ask = (request: AskRequest, onStatus: (line: string) => void) =>
  call<AnswerView>("ask", { request, onStatus: channel(onStatus) });

export const readSource = (key: string, asOf: string | null) =>
  call<SourceView>("read_source", { key, asOf });

/** Opens the source file in the OS viewer. */
export const openSourceFile = (key: string) => call<null>("open_source_file", { key });

/** Save dialog; returns the path written, or null when cancelled. */
export const exportAnswer = (markdown: string) =>
  call<string | null>("export_answer", { markdown });

// ---- settings ------------------------------------------------------------

export const getSettings = () => call<SettingsView>("get_settings");

export const saveSettings = (settings: SettingsView) =>
  call<SettingsView>("save_settings", { settings });

export const keyStatus = (provider: KeyProvider) => call<KeyStatus>("key_status", { provider });

export const setApiKey = (provider: KeyProvider, key: string) =>
  call<KeyStatus>("set_api_key", { provider, key });

export const deleteApiKey = (provider: KeyProvider) =>
  call<KeyStatus>("delete_api_key", { provider });

export const connectivity = () => call<Connectivity>("connectivity");

/** The JSON that registers this app as an MCP server in Claude Desktop and VS Code. */
export const mcpSetup = () => call<McpSetupView>("mcp_setup");

// ---- events --------------------------------------------------------------

/** Broadcast after anything changed the library; the payload is a reason. */
export const onLibraryChanged = (handler: (reason: string) => void) =>
  on<string>("library-changed", handler);

/** A change the background watcher committed. */
export const onWatchChange = (handler: (change: WatchChangeView) => void) =>
  on<WatchChangeView>("watch-change", handler);

/** Files dropped on the window; start the import with `importDropped(job)`. */
export const onFilesDropped = (handler: (dropped: DroppedFiles) => void) =>
  on<DroppedFiles>("files-dropped", handler);

/**
 * Whether something is being dragged over the window (Tauri's own
 * drag-and-drop events), to show the drop overlay.
 */
export async function onDragHover(handler: (hovering: boolean) => void): Promise<Unlisten> {
  const offs = await Promise.all([
    on<unknown>("tauri://drag-enter", () => handler(true)),
    on<unknown>("tauri://drag-leave", () => handler(false)),
    on<unknown>("tauri://drag-drop", () => handler(false)),
  ]);
  return () => offs.forEach((off) => off());
}
