#!/usr/bin/env python3
"""Measure the builtin's answer-or-abstain gate on dumped candidates.

Input: the candidates the builtin dumped while answering the tuning halves
(ALMIRAH_CANDIDATES=FILE scripts/eval-all.sh --half tuning ...; see fit.py)
and the question files. For each question (its first dumped group), the
gate is simulated: the question is answered by the first candidate, in
score order, that passes the rule, or abstained on when none does. An
answerable question counts as right when that candidate holds one of its
`answer_any` strings; a question whose right answer is the abstention
counts as right when no candidate passes.

The current rule is approximated from the dump (it lacks the evidence-wide
"known terms" test, so its figure is an upper bound): coverage >= 0.55, or
a typed sentence with direct coverage >= 0.45, or close in meaning (cosine
>= 0.62, coverage >= 0.4, not lacking the value). Each alternative adds
one clause, "meaning >= M and coverage >= C", over a grid; the table gives
right answers on answerable and abstain questions for each.

Usage: gate.py CANDIDATES.jsonl=QUESTIONS.jsonl[,QUESTIONS.jsonl ...] [...]
(one dump per group of sets: a question asked of two libraries, as MuSiQue's
are of the full and the unanswerable pools, needs a dump of its own)
"""

import json
import re
import sys


def norm(text):
    return re.sub(r"\s+", " ", text.lower())


def load(cands_path, question_paths):
    expect = {}
    for path in question_paths:
        for line in open(path, encoding="utf-8"):
            if line.strip() and not line.lstrip().startswith("//"):
                item = json.loads(line)
                e = item["expect"]
                expect[item["question"].strip()] = None if e.get("abstain") else [norm(a) for a in e["answer_any"]]
    groups, seen, current = [], set(), None
    for line in open(cands_path, encoding="utf-8"):
        c = json.loads(line)
        if c["place"] == 0:
            current = None
            if c["question"] not in seen and c["question"] in expect:
                seen.add(c["question"])
                current = []
                groups.append((c["question"], current))
        if current is not None:
            current.append(c)
    # Only what the answerer's filters keep (dumps since gate_fit.py mark the rest).
    return [(q, [c for c in g if c.get("kept", True)], expect[q]) for q, g in groups]


def meaning(c):
    return c["features"]["meaning"] if c["has_meaning"] else 0.0


def current_rule(c):
    typed = c["features"]["typed"] > 0
    close = meaning(c) >= 0.62 and c["coverage"] >= 0.4 and not c["lacks_value"]
    return c["coverage"] >= 0.55 or (typed and c["direct"] >= 0.45) or close


def holds(c, answers):
    text = norm(c["text"])
    return any(a in text for a in answers)


def score(groups, rule):
    right_answerable = right_abstain = answerable = abstain = 0
    for _, cands, answers in groups:
        first = next((c for c in cands if rule(c)), None)
        if answers is None:
            abstain += 1
            right_abstain += first is None
        else:
            answerable += 1
            right_answerable += first is not None and holds(first, answers)
    return right_answerable, answerable, right_abstain, abstain


def main():
    if len(sys.argv) < 2 or any("=" not in a for a in sys.argv[1:]):
        sys.exit(__doc__)
    groups = []
    for arg in sys.argv[1:]:
        dump, questions = arg.split("=", 1)
        groups += load(dump, questions.split(","))
    ra, a, rb, b = score(groups, current_rule)
    print(f"{len(groups)} questions ({a} answerable, {b} abstain)")
    print(f"current rule: answerable {ra}/{a}, abstain {rb}/{b}, total {ra + rb}")
    missed = [(q, c) for q, cands, ans in groups if ans is not None
              for c in [next((c for c in cands if holds(c, ans)), None)]
              if c is not None and next((x for x in cands if current_rule(x)), None) is None]
    print(f"answerable questions abstained on with the answer among the candidates: {len(missed)}")
    for q, c in missed:
        print(f"  place {c['place']:2} cov {c['coverage']:.2f} direct {c['direct']:.2f} meaning {meaning(c):.2f} "
              f"typed {c['features']['typed']:.0f}: {q[:70]}")
    print("\nadded clause: meaning >= M and coverage >= C")
    print("   M     C   answerable  abstain  total  change")
    base = ra + rb
    for m in [0.45, 0.5, 0.55, 0.6]:
        for cov in [0.2, 0.3, 0.4, 0.5]:
            rule = lambda c, m=m, cov=cov: current_rule(c) or (meaning(c) >= m and c["coverage"] >= cov)
            xa, _, xb, _ = score(groups, rule)
            print(f"{m:5.2f} {cov:5.2f}   {xa:4}/{a:<4}   {xb:3}/{b:<3}  {xa + xb:5}  {xa + xb - base:+d}")


if __name__ == "__main__":
    main()
