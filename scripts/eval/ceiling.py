#!/usr/bin/env python3
"""How far could better sentence ranking take the builtin? (issue 39)

For each set, from its candidate dump and its results (run with
ALMIRAH_CANDIDATES=DIR/SET.cands.jsonl and --json > DIR/SET.json), counts
the answerable questions:
- correct: answered right;
- among candidates: a right sentence (one holding an answer_any string) is
  among the dumped candidates (the best 20 by the score, before the
  answerer's filters);
- among kept: one is among the candidates the filters keep (the amount
  asked for, the names given);
- in the first 8: one is among the first 8, the candidates compared by
  meaning;
and the out-of-scope questions abstained on. A perfect ranker and gate over
the kept candidates would answer "among kept" + "out of scope right".

Usage: ceiling.py DIR SET [SET ...]   (sets as named in eval/sets.toml)
"""
import collections
import json
import re
import sys
import tomllib


def norm(text):
    return re.sub(r"\s+", " ", text.lower())


def first_groups(path):
    """Each question's first dumped group of candidates (a question the
    answerer selects for twice, a part or a hop, keeps its first)."""
    groups, starts = collections.defaultdict(list), collections.Counter()
    for line in open(path, encoding="utf-8"):
        c = json.loads(line)
        q = c["question"].strip()
        starts[q] += c["place"] == 0
        if starts[q] == 1:
            groups[q].append(c)
    return groups


def count(folder, name, manifest):
    expect = {}
    for line in open(manifest[name]["questions"], encoding="utf-8"):
        if line.strip() and not line.lstrip().startswith("//"):
            item = json.loads(line)
            expect[item["id"]] = item["expect"]
    groups = first_groups(f"{folder}/{name}.cands.jsonl")
    out = collections.Counter()
    for r in json.load(open(f"{folder}/{name}.json", encoding="utf-8"))["results"]:
        e = expect[r["id"]]
        if e.get("abstain"):
            out["out of scope"] += 1
            out["out of scope right"] += bool(r.get("correct"))
            continue
        answers = [norm(a) for a in e["answer_any"]]
        right = [c for c in groups.get(r["question"].strip(), []) if any(a in norm(c["text"]) for a in answers)]
        out["answerable"] += 1
        out["correct"] += bool(r.get("correct"))
        out["among candidates"] += bool(right)
        out["among kept"] += any(c["kept"] for c in right)
        out["in the first 8"] += any(c["place"] < 8 for c in right)
    return out


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    manifest = {s["name"]: s for s in tomllib.load(open("eval/sets.toml", "rb"))["set"]}
    keys = ["answerable", "correct", "among candidates", "among kept", "in the first 8", "out of scope",
            "out of scope right"]
    print("| set | " + " | ".join(keys) + " |")
    print("|---" * (len(keys) + 1) + "|")
    total = collections.Counter()
    for name in sys.argv[2:]:
        c = count(sys.argv[1], name, manifest)
        total.update(c)
        print(f"| {name} | " + " | ".join(str(c[k]) for k in keys) + " |")
    print("| **all** | " + " | ".join(f"**{total[k]}**" for k in keys) + " |")


if __name__ == "__main__":
    main()
