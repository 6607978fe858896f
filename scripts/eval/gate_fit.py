#!/usr/bin/env python3
"""Fit the builtin's answer-or-abstain gate by logistic regression.

Input: the candidates the builtin dumped while answering (ALMIRAH_CANDIDATES=FILE
scripts/eval-all.sh --half all ...), whose lines carry the question-level
gate facts (`gate`: evidence speaks of the question, unknown terms) and
whether each candidate is `kept` by the answerer's filters; and the
question files. Each question's first dumped group with gate facts is used.

A question is simulated as the answerer does it: the first kept candidate
in score order that passes the gate answers, or the question is abstained
on. An answerable question is right when that candidate holds one of its
`answer_any` strings; an out-of-scope one when nothing answers.

The fitted gate is a logistic regression (L2, batch gradient descent on
standardised features; Cox 1958; Hastie et al., ESL ch. 4.4) of "this
candidate holds the answer" over the kept candidates of the tuning halves
(out-of-scope questions give negatives only), on the features in FEATURES.
The gate it is fitted for answers with the first kept candidate in score
order (the answerer's ranking) that passes the current rule *or* whose
probability reaches a threshold, chosen on the tuning halves; the
reporting halves only report. `retrieval` is the chunk's fused (RRF)
search score × 30, so about 0.5-1.0. The halves are those of
crates/answer/src/eval/set.rs (a pinned "half", else the parity of the
first byte of BLAKE3 of the id; even: tuning). Needs `blake3` from PyPI.

Approximations: the dump holds a question's 20 best candidates (the
answerer reads all of them), and the short-question exclusion counts all of
the question's terms (the answerer its asked terms, without the background
names); the evaluation's figures are the ones to quote.

Usage: gate_fit.py CANDIDATES.jsonl QUESTIONS.jsonl [QUESTIONS.jsonl ...]
Prints the current gate's and the fitted gate's right answers per half, the
weights on each feature's raw scale, and the chosen threshold.
"""

import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fit as fit_py  # noqa: E402  (the logistic regression, shared)
from fit import norm  # noqa: E402

try:
    from blake3 import blake3
except ImportError:
    sys.exit("gate_fit.py needs the blake3 package: pip install blake3")

# Measured on the tuning halves at 7928f36: adding `direct`, the share of
# unknown terms and the chunk's rank changed the right answers by at most
# one on either half, and the share of unknown terms took a positive weight.
FEATURES = ["coverage", "weighted_coverage", "meaning", "typed", "lacks_value", "retrieval"]
# With --soft-filters the answerer's filters (the amount asked for, every
# name the question gives) become a feature instead of removing candidates.
SOFT = "--soft-filters" in sys.argv
if SOFT:
    FEATURES.append("kept")


def half(item):
    if item.get("half"):
        return item["half"]
    return "tuning" if blake3(item["id"].encode()).digest()[0] % 2 == 0 else "reporting"


def load(cands_path, question_paths):
    items = {}
    for path in question_paths:
        for line in open(path, encoding="utf-8"):
            if line.strip() and not line.lstrip().startswith("//"):
                item = json.loads(line)
                items.setdefault(item["question"].strip(), item)
    groups, seen, current = [], set(), None
    for line in open(cands_path, encoding="utf-8"):
        c = json.loads(line)
        if c["place"] == 0:
            current = None
            q = c["question"].strip()
            if q in items and q not in seen and c.get("gate") is not None:
                seen.add(q)
                current = []
                groups.append((items[q], current))
        if current is not None:
            current.append(c)
    return groups


def answers_of(item):
    e = item["expect"]
    return None if e.get("abstain") else [norm(a) for a in e["answer_any"]]


def holds(c, answers):
    return answers is not None and any(a in norm(c["text"]) for a in answers)


def row(c):
    g = c["gate"]
    n = max(len(c["q_terms"]), 1)
    values = {
        "coverage": c["coverage"],
        "weighted_coverage": c["weighted_coverage"] if c["weighted_coverage"] is not None else c["coverage"],
        "direct": c["direct"],
        "meaning": c["meaning"] if c["meaning"] is not None else 0.0,
        "typed": float(c["typed"]),
        "lacks_value": float(c["lacks_value"]),
        "unknown_share": g["unknown"] / n,
        "retrieval": min(c["retrieval_score"] or 0.0, 2.0 / 61.0) * 30.0,
        "chunk": float(c["chunk"]),
        "kept": float(c["kept"]),
    }
    return [values[f] for f in FEATURES]


def current_gate(c):
    g = c["gate"]
    return g["speaks_of"] and (c["covers_enough"] or (g["known"] and (c["answers"] or c["close_in_meaning"])))


def simulate(groups, passes, soft=False):
    """(right answerable, answerable, right abstain, abstain, wrong answers)."""
    ra = a = rb = b = wrong = 0
    for item, cands in groups:
        answers = answers_of(item)
        first = next((c for c in cands if (soft or c["kept"]) and passes(c)), None)
        if answers is None:
            b += 1
            rb += first is None
            wrong += first is not None
        else:
            a += 1
            ok = first is not None and holds(first, answers)
            ra += ok
            wrong += first is not None and not ok
    return ra, a, rb, b, wrong


def fit(xs, ys):
    """The pointwise fit of fit.py (standardised features, L2), longer and
    more regularised: the gate's candidates are few per question."""
    return fit_py.fit(xs, ys, epochs=600, l2=1e-2)


def prob(weights, bias, c):
    z = bias + sum(w * x for w, x in zip(weights, row(c)))
    return 1 / (1 + math.exp(-max(-30, min(30, z))))


def show(label, result):
    ra, a, rb, b, wrong = result
    return f"{label}: answerable {ra}/{a}, out of scope {rb}/{b}, right {ra + rb}/{a + b}, wrong answers {wrong}"


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    groups = load(args[0], args[1:])
    halves = {h: [g for g in groups if half(g[0]) == h] for h in ("tuning", "reporting")}
    xs, ys = [], []
    for item, cands in halves["tuning"]:
        answers = answers_of(item)
        for c in cands:
            if (SOFT or c["kept"]) and c["gate"]["speaks_of"]:
                xs.append(row(c))
                ys.append(1.0 if holds(c, answers) else 0.0)
    print(f"{len(groups)} questions ({len(halves['tuning'])} tuning); {len(xs)} tuning candidates, {int(sum(ys))} hold the answer")
    weights, bias = fit(xs, ys)
    print("| feature | weight |\n|---|---|")
    for f, w in zip(FEATURES, weights):
        print(f"| {f} | {w:+.3f} |")
    print(f"| bias | {bias:+.3f} |")
    print("Rust (crates/answer/src/builtin/confidence.rs): "
          + ", ".join(f"{w:.3}" for w in weights) + f"; bias {bias:.3}")
    def fitted(t):
        # Not for a short question whose subject the evidence never names
        # (fewer than 4 terms and one unknown), as in the current rule.
        def short(c):
            return c["gate"]["unknown"] > 0 and len(c["q_terms"]) < 4
        return lambda c: current_gate(c) or (c["gate"]["speaks_of"] and not short(c) and prob(weights, bias, c) >= t)

    best = max((sum(simulate(halves["tuning"], fitted(t), SOFT)[0:4:2]), t) for t in [i / 100 for i in range(5, 96)])
    threshold = best[1]
    print(f"threshold (best right on tuning): {threshold:.2f}")
    for h, gs in halves.items():
        print(show(f"{h} current", simulate(gs, current_gate)))
        print(show(f"{h} fitted ", simulate(gs, fitted(threshold), SOFT)))
    print("\nthreshold sweep (tuning | reporting right, wrong answers)")
    for t in [0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5]:
        cells = []
        for h in ("tuning", "reporting"):
            ra, a, rb, b, wrong = simulate(halves[h], fitted(t), SOFT)
            cells.append(f"{ra + rb}/{a + b} w{wrong}")
        print(f"  {t:.2f}  " + "  |  ".join(cells))


if __name__ == "__main__":
    main()
