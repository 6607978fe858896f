#!/usr/bin/env python3
"""Combine the per-set reports of `almirah eval --report DIR` into one
self-contained HTML file (tables, the SVG plots inlined, and the questions
answered wrongly or citing a stale source).

Usage: combine.py OUT_DIR [SETS] [TITLE]   (reads OUT_DIR/<set>/results.json
and *.svg for the comma-separated SETS, default every folder holding a
results.json; writes OUT_DIR/index.html; TITLE names what wrote it).
Exits 1 when any set cited a stale source or a named set has no results.
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
    ("own_accuracy", "own accuracy", "{:.3f}"),
    ("fallback_rate", "builtin fallback", "{:.3f}"),
    ("false_abstention_rate", "abstained (answerable)", "{:.3f}"),
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
        asked = html.escape(r.get("question", ""))
        expected = html.escape(r.get("expected", ""))
        out.append(f"<li><code>{html.escape(r['id'])}</code> ({html.escape(r['mode'])}){flag}: <i>{asked}</i> "
                   f"expected <b>{expected}</b>; answered: {answer}</li>")
    out.append("</ul></details>")
    return "\n".join(out), summaries, rankers


def main():
    root = pathlib.Path(sys.argv[1])
    named = [n for n in (sys.argv[2].split(",") if len(sys.argv) > 2 and sys.argv[2] else []) if n]
    title = sys.argv[3] if len(sys.argv) > 3 else "scripts/eval-all.sh"
    if named:
        missing = [n for n in named if not (root / n / "results.json").is_file()]
        if missing:
            print(f"error: no results for {', '.join(missing)} under {root}", file=sys.stderr)
        sets = [root / n for n in named if n not in missing]
    else:
        missing = []
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
<h1>Almirah evaluation</h1><p>Generated {when} by <code>{html.escape(title)}</code>. Stale-citation rate is judged against
each set's <code>sources_none</code> (for <code>versions</code> taken from the corpora's MANIFEST dates and the RFCs'
<code>Obsoletes:</code> headers; for <code>sample-docs</code> from the circulars' own supersession text), never against the gate's own verdict.</p>
<details><summary>What the columns mean</summary><ul>
<li><b>accuracy</b>: the answer holds at least one of the expected strings (<code>answer_any</code>) and none of the forbidden ones
(<code>answer_none</code>); for an unanswerable question, the answer is the abstention.</li>
<li><b>answer F1</b>, <b>EM</b>: SQuAD token F1 and exact match of the whole answer against the expected strings. Almirah answers in
cited sentences, so EM is 0 on answerable questions; a correct abstention counts as a match (as in SQuAD 2.0), which is all EM measures here.</li>
<li><b>R@5, R@10</b>: share of the gold sources (<code>sources_all</code>) among the first 5/10 documents the answer's searches admitted
(several searches interleaved by rank). <b>retrieval coverage</b>: share of questions whose gold sources were all admitted.</li>
<li><b>citation precision</b>: share of citations that point to a gold source. <b>stale-citation rate</b>: share of answers citing a
<code>sources_none</code> file. <b>abstention P / R</b>: of the abstentions, the share that should have abstained / of the
questions that should be abstained on, the share abstained.</li>
<li><b>model calls</b>: calls to the answering model (the builtin one too); <b>tool calls</b>: searches and table look-ups;
<b>calls on simple questions</b>: model plus tool calls on the questions the router sends down the classic path;
<b>tokens</b>: prompt plus completion tokens a real model reported (0 for the builtin model).</li>
<li><b>Rankers alone</b>: one search per question with BM25, vectors or both fused (RRF); recall@k and nDCG@10 over distinct documents.</li>
</ul></details>
<h2>Answering</h2>
{rows}
{''.join(sections)}
</body></html>"""
    (root / "index.html").write_text(page)
    print(root / "index.html")
    stale = [f"{s['set']} ({s['mode']}): {s['stale_citation_rate']:.3f}" for s in overview if s["stale_citation_rate"] > 0]
    if stale:
        print("error: stale citations (judged against sources_none): " + ", ".join(stale), file=sys.stderr)
    if stale or missing:
        sys.exit(1)


if __name__ == "__main__":
    main()
