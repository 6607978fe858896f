#!/usr/bin/env python3
"""Fit the builtin's sentence-score weights by logistic regression.

Input: the candidates the builtin dumped while answering the tuning halves
(ALMIRAH_CANDIDATES=FILE scripts/eval-all.sh --half tuning ...; one JSON
line per candidate: question, place, text, coverage, direct, lacks_value,
has_meaning and the feature values of crates/answer/src/builtin/features.rs)
and the question files. A candidate is a positive when its sentence holds
one of its question's `answer_any` strings (case-insensitive, whitespace
collapsed). The model is a logistic regression (L2, batch gradient descent
on standardised features; Cox 1958, Hastie et al., ESL ch. 4.4) over the
candidates of answerable questions (with --pointwise), or by default a
pairwise one over the (positive, negative) pairs of each question. It prints the weights on the scale of
the score (coverage = 1), and the top-1 rate of each ranking: the share of
questions with a positive candidate whose best-ranked candidate is one,
by the current weights and by the fitted ones.

Usage: fit.py CANDIDATES.jsonl QUESTIONS.jsonl [QUESTIONS.jsonl ...] [--pointwise]
"""

import json
import math
import re
import sys

CURRENT = {"typed": 0.2, "number-asked": 0.15, "chunk-rank": -0.02, "defers": -0.15,
           "worked-example": -0.15, "no-new-name": -0.1, "meaning": 0.25}


def norm(text):
    return re.sub(r"\s+", " ", text.lower())


def load(cands_path, question_paths):
    answers = {}
    for path in question_paths:
        for line in open(path, encoding="utf-8"):
            if line.strip():
                item = json.loads(line)
                if not item["expect"].get("abstain"):
                    answers[item["question"].strip()] = [norm(a) for a in item["expect"]["answer_any"]]
    groups, current = [], None
    for line in open(cands_path, encoding="utf-8"):
        c = json.loads(line)
        if c["place"] == 0:
            current = []
            groups.append((c["question"], current))
        current.append(c)
    return [(q, g, answers[q]) for q, g in groups if q in answers]


def row(c, names):
    f = c["features"]
    return [c["coverage"], c["direct"], float(c["lacks_value"])] + [f[n] for n in names]


def fit(xs, ys, epochs=400, rate=0.5, l2=1e-3):
    n, d = len(xs), len(xs[0])
    mean = [sum(x[j] for x in xs) / n for j in range(d)]
    std = [math.sqrt(sum((x[j] - mean[j]) ** 2 for x in xs) / n) or 1.0 for j in range(d)]
    zs = [[(x[j] - mean[j]) / std[j] for j in range(d)] for x in xs]
    w, b = [0.0] * d, 0.0
    for _ in range(epochs):
        gw, gb = [0.0] * d, 0.0
        for z, y in zip(zs, ys):
            p = 1 / (1 + math.exp(-max(-30, min(30, b + sum(wj * zj for wj, zj in zip(w, z))))))
            for j in range(d):
                gw[j] += (p - y) * z[j]
            gb += p - y
        w = [wj - rate * (g / n + l2 * wj) for wj, g in zip(w, gw)]
        b -= rate * gb / n
    # Back to the raw scale of each feature.
    raw = [wj / sj for wj, sj in zip(w, std)]
    return raw, b - sum(r * m for r, m in zip(raw, mean))


def fit_pairwise(groups, names):
    """Pairwise logistic regression (RankNet-style, Burges et al. 2005):
    within each question, every (positive, negative) candidate pair gives
    the difference of their feature rows, labelled 1, and its negation,
    labelled 0; the fitted weights rank positives first."""
    xs, ys = [], []
    for _, g, ans in groups:
        pos = [c for c in g if any(a in norm(c["text"]) for a in ans)]
        neg = [c for c in g if not any(a in norm(c["text"]) for a in ans)]
        for p in pos:
            for q in neg:
                d = [a - b for a, b in zip(row(p, names), row(q, names))]
                xs.append(d)
                ys.append(1.0)
                xs.append([-v for v in d])
                ys.append(0.0)
    return fit(xs, ys)


def top1(groups, score):
    hits = total = 0
    for _, g, ans in groups:
        labels = [any(a in norm(c["text"]) for a in ans) for c in g]
        if any(labels):
            total += 1
            best = max(range(len(g)), key=lambda i: score(g[i]))
            hits += labels[best]
    return hits, total


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    groups = load(sys.argv[1], [a for a in sys.argv[2:] if not a.startswith("--")])
    names = list(CURRENT)
    xs, ys = [], []
    for _, g, ans in groups:
        for c in g:
            xs.append(row(c, names))
            ys.append(1.0 if any(a in norm(c["text"]) for a in ans) else 0.0)
    print(f"{len(groups)} questions, {len(xs)} candidates, {int(sum(ys))} positive")
    raw, bias = fit(xs, ys) if "--pointwise" in sys.argv else fit_pairwise(groups, names)
    scale = raw[0] or 1.0
    labels = ["coverage", "direct", "lacks-value"] + names
    print("| feature | current weight | fitted (coverage = 1) |\n|---|---|---|")
    for label, r in zip(labels, raw):
        cur = {"coverage": 1.0}.get(label, CURRENT.get(label, 0.0))
        print(f"| {label} | {cur:+.3f} | {r / scale:+.3f} |")
    current = lambda c: c["coverage"] + sum(CURRENT[n] * c["features"][n] for n in names)
    fitted = lambda c: sum(r * x for r, x in zip(raw, row(c, names)))
    for name, score in [("current", current), ("fitted", fitted)]:
        hits, total = top1(groups, score)
        print(f"top-1 {name}: {hits}/{total} = {hits / max(total, 1):.3f}")


if __name__ == "__main__":
    main()
