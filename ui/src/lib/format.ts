// Small formatting helpers shared by the views.

/** Today as an ISO date in the user's time zone (`2026-11-29`). */
export function todayIso(): string {
  const d = new Date();
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let v = bytes / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(v < 10 ? 1 : 0)} ${units[i]}`;
}

export function formatMs(ms: number): string {
  if (ms < 1) return `${ms.toFixed(2)} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const m = Math.floor(ms / 60_000);
  return `${m} min ${Math.round((ms % 60_000) / 1000)} s`;
}

export function formatCount(n: number): string {
  return n.toLocaleString();
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString()} ${n === 1 ? one : many}`;
}

/** An RFC 3339 time as a short local date and time. */
export function formatTime(rfc3339: string | null): string {
  if (!rfc3339) return "never";
  const d = new Date(rfc3339);
  if (Number.isNaN(d.getTime())) return rfc3339;
  return d.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

/** The last path component (handles both separators). */
export function baseName(path: string): string {
  const parts = path.split(/[\\/]/).filter(Boolean);
  return parts[parts.length - 1] ?? path;
}

/** A field name (`effective_from`) as a label (`Effective from`). */
export function fieldLabel(name: string): string {
  const s = name.replace(/_/g, " ");
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** Status → the colour family of its badge (the text label is always shown too). */
export function statusTone(status: string): "ok" | "bad" | "muted" | "info" | "warn" {
  const s = status.toLowerCase();
  if (s.startsWith("current") || s === "indexed") return "ok";
  if (s.startsWith("superseded") || s === "failed" || s === "needs-password" || s === "needs-conversion") return "bad";
  if (s.startsWith("expired") || s === "unsupported") return "muted";
  if (s.startsWith("not-yet") || s.startsWith("pending")) return "info";
  return "warn";
}

/** Status label for display (`not-yet-effective` → `not yet effective`). */
export function statusLabel(status: string): string {
  return status.replace(/-/g, " ");
}
