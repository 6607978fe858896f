#!/usr/bin/env python3
"""Check retrieval figures against the committed reference, to 3 decimals.

Reads the retrieval summaries (recall@5, recall@10 and nDCG@10 of the
bm25, vector and hybrid rankers; crates/answer/src/eval/retrieval.rs) from
OUT/<set>/results.json of a scripts/eval-all.sh run, and compares each
figure, rounded to 3 decimals, with eval/retrieval-reference.json. A change
to storage or search that moves any figure fails the check: the figures
are the library's, not a tolerance band.

Usage: retrieval_check.py OUT_DIR SET[,SET...]            (exit 1 on a difference)
       retrieval_check.py OUT_DIR SET[,SET...] --write    (record them as the reference)
"""

import json
import os
import sys

REFERENCE = os.path.join(os.path.dirname(__file__), "..", "..", "eval", "retrieval-reference.json")
FIGURES = ("recall_at_5", "recall_at_10", "ndcg_at_10")


def measured(out, name):
    with open(os.path.join(out, name, "results.json"), encoding="utf-8") as f:
        summaries = json.load(f)["retrieval"]["summaries"]
    return {s["mode"]: {k: round(s[k], 3) for k in FIGURES} | {"questions": s["questions"]} for s in summaries}


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) != 2:
        sys.exit(__doc__)
    out, sets = args[0], args[1].split(",")
    try:
        with open(REFERENCE, encoding="utf-8") as f:
            reference = json.load(f)
    except FileNotFoundError:
        reference = {}
    now = {name: measured(out, name) for name in sets}
    if "--write" in sys.argv:
        reference.update(now)
        with open(REFERENCE, "w", encoding="utf-8") as f:
            json.dump(reference, f, indent=2, sort_keys=True)
            f.write("\n")
        print(f"recorded {', '.join(sets)} in {os.path.normpath(REFERENCE)}")
        return
    failed = False
    print("| set | ranker | figure | reference | now |\n|---|---|---|---|---|")
    for name in sets:
        if name not in reference:
            print(f"error: {name} has no reference figures (run with --write once)", file=sys.stderr)
            failed = True
            continue
        for mode in sorted(set(now[name]) - set(reference[name])):
            print(f"error: {name} {mode} is measured but has no reference figures", file=sys.stderr)
            failed = True
        for mode, figures in sorted(reference[name].items()):
            got = now[name].get(mode)
            for k in FIGURES + ("questions",):
                value = None if got is None else got.get(k)
                mark = "" if value == figures.get(k) else "  <-- differs"
                failed |= bool(mark)
                print(f"| {name} | {mode} | {k} | {figures.get(k)} | {value}{mark} |")
    if failed:
        print("error: retrieval figures differ from eval/retrieval-reference.json", file=sys.stderr)
        sys.exit(1)
    print("retrieval figures equal the reference to 3 decimals")


if __name__ == "__main__":
    main()
