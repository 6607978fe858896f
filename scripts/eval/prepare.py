#!/usr/bin/env python3
"""Build the generated evaluation sets from the corpora's public QA data.

Usage (from the repository root):

    python3 scripts/eval/prepare.py [--corpora DIR] [--data DIR] [--questions DIR]

Writes one document per paragraph or abstract under DATA (default
target/eval-data; files are rewritten only when their content changes, so a
re-run does not re-index) and the question sets under QUESTIONS (default
eval/, where they are committed):

- hotpotqa: the 100 HotpotQA items of qa_multihop/hotpotqa with every
  paragraph of the pooled corpus (994) as `<nnnn>-<title>.txt`;
  `sources_all` = the paragraphs of `supporting_facts`, `answer_any` = the
  answer.
- musique: the 100 MuSiQue-Ans items likewise (1,890 paragraphs in the
  pool, each distinct (title, text) once); gold = `is_supporting`
  paragraphs, `answer_any` = answer and aliases.
- musique-unanswerable: MuSiQue-Full style unanswerable variants (Trivedi et
  al. 2022, section 3.4: remove supporting paragraphs so a hop cannot be
  answered): the pool without the paragraph that supports each question's
  last hop, keeping only questions whose answer and aliases occur nowhere
  else in that reduced pool; expected: abstention, and none of the answers.
- scifact: the 300 claims of claims_validation.csv (BEIR's SciFact test
  split) against the 5,183 abstracts as `<doc_id>.txt`; `sources_all` = the
  claim's `cited_doc_ids` (BEIR's 339 qrels). Retrieval only.
- scifact-ci: the claims of scifact.jsonl against 600 of the abstracts (every cited
  one, then the others in the corpus's order), small enough for CI to index
  in a few minutes of the debug build; its figures are a regression check,
  not comparable with the full set's.

Exit status 0, or 1 with a message when a corpus file is missing or malformed.
"""

from __future__ import annotations

import argparse
import ast
import csv
import json
import re
import sys
from pathlib import Path

SCIFACT_CI_DOCS = 600  # abstracts in scifact-ci: every cited one, then the first others
AS_OF = "2026-11-01"  # versioning is off for these sets: the date is not used


def slug(title: str) -> str:
    s = re.sub(r"[^A-Za-z0-9]+", "-", title).strip("-")
    return s[:60].rstrip("-") or "untitled"


def sync_dir(folder: Path, files: dict[str, str]) -> None:
    """Make `folder` hold exactly `files` (name -> text), touching only changes."""
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.iterdir():
        if old.is_file() and old.name not in files:
            old.unlink()
    for name, text in files.items():
        p = folder / name
        if not p.is_file() or p.read_text(encoding="utf-8") != text:
            p.write_text(text, encoding="utf-8")


def item(qid: str, question: str, answers: list[str], sources: list[str], abstain: bool = False) -> dict:
    expect = {
        "answer_any": [] if abstain else answers,
        "answer_none": answers if abstain else [],
        "sources_all": [] if abstain else sources,
        "sources_none": [],
        "abstain": abstain,
    }
    return {"id": qid, "question": question, "as_of": AS_OF, "expect": expect}


def write_jsonl(path: Path, items: list[dict]) -> None:
    # A question pinned to a half by hand ("half": "tuning": its wording is
    # quoted in the source, see crates/answer/tests/contamination.rs) keeps
    # its pin when the set is written again, wherever it is written: the
    # pins are read from the committed set (eval/<name>) and from `path`.
    pinned = {}
    for source in (Path(__file__).resolve().parents[2] / "eval" / path.name, path):
        if source.is_file():
            for line in source.read_text(encoding="utf-8").splitlines():
                old = json.loads(line) if line.strip() else {}
                if "half" in old:
                    pinned[old["id"]] = old["half"]
    for i in items:
        if i["id"] in pinned:
            i["half"] = pinned[i["id"]]
    text = "".join(json.dumps(i, ensure_ascii=False) + "\n" for i in items)
    if not path.is_file() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")
    print(f"{path}: {len(items)} questions")


def hotpotqa(src: Path, data: Path, out: Path) -> None:
    corpus = json.loads((src / "hotpotqa_train_100_corpus.json").read_text())
    names, files = {}, {}
    for i, (title, sentences) in enumerate(corpus.items()):
        names[title] = f"{i:04d}-{slug(title)}.txt"
        files[names[title]] = f"{title}\n\n{''.join(sentences).strip()}\n"
    sync_dir(data / "hotpotqa", files)
    items = []
    for q in json.loads((src / "hotpotqa_train_100.json").read_text()):
        gold = sorted({names[t] for t, _ in q["supporting_facts"]})
        items.append(item(q["_id"], q["question"], [q["answer"]], gold))
    write_jsonl(out / "hotpotqa.jsonl", items)


def musique_pool(src: Path) -> tuple[dict[tuple[str, str], str], dict[str, str]]:
    names, files = {}, {}
    for p in json.loads((src / "musique_train_100_corpus.json").read_text()):
        key = (p["title"], p["text"])
        if key not in names:
            names[key] = f"{len(names):04d}-{slug(p['title'])}.txt"
            files[names[key]] = f"{p['title']}\n\n{p['text'].strip()}\n"
    return names, files


def musique(src: Path, data: Path, out: Path) -> None:
    names, files = musique_pool(src)
    sync_dir(data / "musique", files)
    questions = json.loads((src / "musique_train_100.json").read_text())
    items, last_hop = [], {}
    for q in questions:
        by_idx = {p["idx"]: names[(p["title"], p["paragraph_text"])] for p in q["paragraphs"]}
        gold = sorted({by_idx[p["idx"]] for p in q["paragraphs"] if p["is_supporting"]})
        answers = [q["answer"], *q.get("answer_aliases", [])]
        items.append(item(q["id"], q["question"], answers, gold))
        last_hop[q["id"]] = by_idx[q["question_decomposition"][-1]["paragraph_support_idx"]]
    write_jsonl(out / "musique.jsonl", items)
    unanswerable(questions, files, last_hop, data, out)


def unanswerable(questions: list[dict], files: dict[str, str], last_hop: dict[str, str], data: Path, out: Path) -> None:
    kept = {q["id"] for q in questions}
    while True:  # removing fewer paragraphs can bring an answer back: repeat to a fixed point
        removed = {last_hop[i] for i in kept}
        pool = [t.lower() for n, t in files.items() if n not in removed]
        still = {
            q["id"]
            for q in questions
            if q["id"] in kept and not any(a.lower() in t for a in [q["answer"], *q.get("answer_aliases", [])] for t in pool)
        }
        if still == kept:
            break
        kept = still
    sync_dir(data / "musique-unanswerable", {n: t for n, t in files.items() if n not in removed})
    items = [
        item(q["id"] + "-unanswerable", q["question"], [q["answer"], *q.get("answer_aliases", [])], [], abstain=True)
        for q in questions
        if q["id"] in kept
    ]
    write_jsonl(out / "musique-unanswerable.jsonl", items)


def scifact(src: Path, data: Path, out: Path) -> None:
    csv.field_size_limit(1 << 24)
    files = {}
    with open(src / "corpus_train.csv", newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            sentences = ast.literal_eval(row["abstract"].replace("'\n '", "', '").replace('"\n "', '", "'))
            files[f"{row['doc_id']}.txt"] = f"{row['title']}\n\n{' '.join(s.strip() for s in sentences)}\n"
    sync_dir(data / "scifact", files)
    claims: dict[str, tuple[str, set[str]]] = {}
    with open(src / "claims_validation.csv", newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            cited = row["cited_doc_ids"].strip("[]").split()
            claims.setdefault(row["id"], (row["claim"], set()))[1].update(f"{d}.txt" for d in cited)
    items = [item(f"scifact-{i}", c, [], sorted(d)) for i, (c, d) in claims.items() if d]
    write_jsonl(out / "scifact.jsonl", items)
    cited = {name for _, d in claims.values() for name in d}
    subset = [name for name in files if name in cited]
    subset += [name for name in files if name not in cited][: max(0, SCIFACT_CI_DOCS - len(subset))]
    sync_dir(data / "scifact-ci", {name: files[name] for name in subset})


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    root = Path(__file__).resolve().parents[2]
    ap.add_argument("--corpora", type=Path, default=root.parent / "shared" / "corpora")
    ap.add_argument("--data", type=Path, default=root / "target" / "eval-data")
    ap.add_argument("--questions", type=Path, default=root / "eval")
    args = ap.parse_args()
    qa = args.corpora / "qa_multihop"
    if not qa.is_dir():
        print(f"error: {qa} not found (set --corpora to the shared corpora folder)", file=sys.stderr)
        return 1
    args.questions.mkdir(parents=True, exist_ok=True)
    try:
        hotpotqa(qa / "hotpotqa", args.data, args.questions)
        musique(qa / "musique", args.data, args.questions)
        scifact(qa / "scifact", args.data, args.questions)
    except (OSError, KeyError, ValueError, SyntaxError) as e:
        print(f"error: preparing the generated sets from {qa}: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
