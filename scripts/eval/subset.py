#!/usr/bin/env python3
"""Write a fixed subset of an evaluation set: N lines, evenly spaced within
the answerable lines and within the abstain lines, in proportion to their
shares (at least one abstain line when the set has any and N > 1). The same file and
N always give the same subset, in file order.

Usage: subset.py SET.jsonl N OUT.jsonl
"""
import argparse
import json
import sys


def spaced(xs, n):
    return [xs[round(i * len(xs) / n)] for i in range(n)] if n and xs else []


ap = argparse.ArgumentParser(description="Write a fixed, stratified subset of an evaluation set.")
ap.add_argument("set", help="the evaluation set (JSONL)")
ap.add_argument("n", type=int, help="questions to keep")
ap.add_argument("out", help="where the subset goes (JSONL)")
args = ap.parse_args()
src, n, out = args.set, args.n, args.out
try:
    lines = [l for l in open(src, encoding="utf-8") if l.strip() and not l.lstrip().startswith("//")]
except OSError as e:
    sys.exit(f"error: reading {src}: {e}")
abstain = [i for i, l in enumerate(lines) if json.loads(l)["expect"]["abstain"]]
answerable = [i for i, l in enumerate(lines) if i not in set(abstain)]
n = min(n, len(lines))
k = min(len(abstain), max(1 if abstain and n > 1 else 0, round(n * len(abstain) / max(len(lines), 1))))
if not answerable:
    k = n
picked = sorted(set(spaced(abstain, k)) | set(spaced(answerable, n - k)))
with open(out, "w", encoding="utf-8") as f:
    f.writelines(lines[i] for i in picked)
print(f"{out}: {len(picked)} of {len(lines)} questions ({k} abstain)")
