// Splits answer text into plain runs and citation markers (`[1]`, `[1, 2]`),
// so markers render as chips without any HTML injection.

export type Segment = { kind: "text"; text: string } | { kind: "cite"; n: number };

const MARKER = /\[(\d+(?:\s*,\s*\d+)*)\]/g;

export function splitCitations(text: string): Segment[] {
  const out: Segment[] = [];
  let last = 0;
  for (const m of text.matchAll(MARKER)) {
    const at = m.index ?? 0;
    if (at > last) out.push({ kind: "text", text: text.slice(last, at) });
    for (const n of m[1].split(",")) out.push({ kind: "cite", n: Number(n.trim()) });
    last = at + m[0].length;
  }
  if (last < text.length) out.push({ kind: "text", text: text.slice(last) });
  return out;
}
