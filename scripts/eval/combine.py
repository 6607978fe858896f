#!/usr/bin/env python3
"""Combine the per-set reports of `almirah eval --report DIR` into one
self-contained HTML file (tables, the SVG plots inlined, and the questions
answered wrongly or citing a stale source).

Usage: combine.py OUT_DIR   (reads OUT_DIR/<set>/results.json and *.svg,
writes OUT_DIR/index.html). Exits 1 when any set cited a stale source.
"""
import html
import json
import pathlib
import sys
import datetime

COLUMNS = [
    ("mode", "mode", "{}"),
    ("questions", "questions", "{}"),
    ("accuracy", "accuracy", "{:.3f}"),
    ("f1", "answer F1", "{:.3f}"),
    ("exact_match", "EM", "{:.3f}"),
    ("recall_at_5", "R@5", "{:.3f}"),
    ("recall_at_10", "R@10", "{:.3f}"),
    ("retrieval_coverage", "retrieval coverage", "{:.3f}"),
    ("citation_precision", "citation precision", "{:.3f}"),
    ("stale_citation_rate", "stale-citation rate", "{:.3f}"),
    ("abstention_precision", "abstention P", "{:.3f}"),
    ("abstention_recall", "abstention R", "{:.3f}"),
    ("p50_ms", "p50 ms", "{:.0f}"),
    ("p95_ms", "p95 ms", "{:.0f}"),
    ("model_calls", "model calls", "{:.2f}"),
    ("tool_calls", "tool calls", "{:.2f}"),
    ("input_tokens", "input tokens", "{:.0f}"),
]

RANKER_COLUMNS = [
    ("mode", "ranker", "{}"),
    ("questions", "questions", "{}"),
    ("recall_at_5", "recall@5", "{:.3f}"),
    ("recall_at_10", "recall@10", "{:.3f}"),
    ("ndcg_at_10", "nDCG@10", "{:.3f}"),
    ("p50_ms", "p50 ms", "{:.1f}"),
    ("p95_ms", "p95 ms", "{:.1f}"),
]

COST_COLUMNS = [
    ("mode", "mode", "{}"),
    ("questions", "questions", "{}"),
    ("model_calls", "model calls / question", "{:.2f}"),
    ("tool_calls", "tool calls / question", "{:.2f}"),
    ("simple_calls", "calls on simple questions", "{:.2f}"),
    ("input_tokens", "input tokens / question", "{:.0f}"),
    ("tokens", "tokens / question", "{:.0f}"),
    ("p50_ms", "p50 ms", "{:.0f}"),
    ("accuracy", "accuracy", "{:.3f}"),
]

STYLE = """
body{font:15px/1.5 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:2rem auto;max-width:1100px;padding:0 1rem;color:#1d232b;background:#fff}
h1{font-size:1.6rem}h2{margin-top:2.5rem;border-bottom:1px solid #d8dee6;padding-bottom:.3rem}
table{border-collapse:collapse;margin:1rem 0;font-variant-numeric:tabular-nums}
th,td{border:1px solid #d8dee6;padding:.3rem .6rem;text-align:right}th{background:#f2f5f8}
td:first-child,th:first-child{text-align:left}
.plots{display:flex;flex-wrap:wrap;gap:1rem}.plots svg{max-width:520px;height:auto;border:1px solid #e3e8ee}
details{margin:.5rem 0}code{background:#f2f5f8;padding:0 .2rem}
.bad{color:#a4161a}.ok{color:#1b7f3b}
@media (prefers-color-scheme: dark){body{background:#14181d;color:#e4e8ee}th{background:#222a33}th,td{border-color:#2e3844}code{background:#222a33}.plots svg{background:#fff}}
"""


def cell(summary, key, fmt):
    value = summary.get(key)
    if value is None:
        return "—"
    try:
        return fmt.format(value)
    except (ValueError, TypeError):
        return html.escape(str(value))


def table(rows, columns, first=None):
    """An HTML table of `rows` (dicts); `first` = (header, per-row cell) prepended."""
    head = ([first[0]] if first else []) + [t for _, t, _ in columns]
    out = ["<table><tr>" + "".join(f"<th>{html.escape(t)}</th>" for t in head) + "</tr>"]
    for r in rows:
        bad = (r.get("stale_citation_rate") or 0) > 0
        lead = f"<td>{first[1](r)}</td>" if first else ""
        out.append(f"<tr class='{'bad' if bad else ''}'>{lead}" + "".join(f"<td>{cell(r, k, f)}</td>" for k, _, f in columns) + "</tr>")
    out.append("</table>")
    return "".join(out)


def section(set_dir):
    data = json.loads((set_dir / "results.json").read_text())
    summaries, results = data["summaries"], data["results"]
    rankers = data.get("retrieval", {}).get("summaries", [])
    out = [f"<h2 id='{set_dir.name}'>{html.escape(set_dir.name)}</h2>"]
    if summaries:
        out.append(table(summaries, COLUMNS))
    if rankers:
        out.append("<p>Rankers alone (documents, not chunks):</p>" + table(rankers, RANKER_COLUMNS))
    out.append("<div class='plots'>")
    for svg in sorted(set_dir.glob("*.svg")):
        text = svg.read_text()
        start = text.find("<svg")
        out.append(text[start:] if start >= 0 else "")
    out.append("</div>")
    wrong = [r for r in results if not r.get("correct") or r.get("stale_citation")]
    out.append(f"<details><summary>{len(wrong)} answers wrong or citing a stale source</summary><ul>")
    for r in wrong:
        flag = " <b class='bad'>stale citation</b>" if r.get("stale_citation") else ""
        answer = html.escape(r.get("answer", "").replace("\n", " "))[:600]
        out.append(f"<li><code>{html.escape(r['id'])}</code> ({html.escape(r['mode'])}){flag}: {answer}</li>")
    out.append("</ul></details>")
    return "\n".join(out), summaries, rankers


def main():
    root = pathlib.Path(sys.argv[1])
    sets = sorted(d for d in root.iterdir() if (d / "results.json").is_file())
    if not sets:
        sys.exit(f"no results.json under {root}")
    sections, overview, ranked = [], [], []
    for d in sets:
        text, summaries, rankers = section(d)
        sections.append(text)
        overview += [dict(s, set=d.name) for s in summaries]
        ranked += [dict(s, set=d.name) for s in rankers]
    link = ("set", lambda r: f"<a href='#{html.escape(r['set'])}'>{html.escape(r['set'])}</a>")
    answer_cols = [c for c in COLUMNS if c[0] in ("mode", "questions", "accuracy", "f1", "exact_match",
                                                  "recall_at_10", "citation_precision", "stale_citation_rate",
                                                  "abstention_precision", "abstention_recall")]
    rows = table(overview, answer_cols, link)
    rows += ("<h2>Rankers alone</h2>" + table(ranked, RANKER_COLUMNS, link)) if ranked else ""
    rows += "<h2>Cost per question: classic, agent, auto</h2>" + table(overview, COST_COLUMNS, link)
    when = datetime.datetime.now().strftime("%Y-%m-%d %H:%M")
    page = f"""<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>Almirah evaluation</title><style>{STYLE}</style></head><body>
<h1>Almirah evaluation</h1><p>Generated {when} by <code>scripts/eval-all.sh</code>. Stale-citation rate is judged against
each set's <code>sources_none</code> (taken from the corpora's MANIFEST dates), never against the gate's own verdict.</p>
<h2>Answering</h2>
<p>Accuracy: every expected string present and no forbidden one (or the abstention when expected). EM: SQuAD exact match of the
whole answer (Almirah answers in cited sentences, so EM is near 0 by construction; F1 and accuracy are the fair measures).
R@10: recall of the gold sources among the documents the answer's searches admitted.</p>
{rows}
{''.join(sections)}
</body></html>"""
    (root / "index.html").write_text(page)
    print(root / "index.html")
    stale = [f"{s['set']} ({s['mode']}): {s['stale_citation_rate']:.3f}" for s in overview if s["stale_citation_rate"] > 0]
    if stale:
        print("error: stale citations (judged against sources_none): " + ", ".join(stale), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
