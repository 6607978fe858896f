#!/usr/bin/env python3
"""Does a candidate feature carry? Top-1 of the builtin's sentence ranking on
the tuning halves, with the current weight table and with one more feature
(issue 39).

Input: DIR/SET.cands.jsonl, candidate dumps of each set's tuning half
(ALMIRAH_CANDIDATES=DIR/SET.cands.jsonl scripts/eval-all.sh --sets SET
--modes classic --half tuning --bin ALMIRAH), and optionally
DIR/SET.cos.jsonl beside each (the second embedder's cosines, line for line:
cargo run --release -p almirah-embed --example candidate_cosines --
DIR/SET.cands.jsonl DIR/SET.cos.jsonl).

A candidate is right when it holds one of the question's answer_any strings
(as in fit.py); top-1 counts the questions with a right candidate whose
best-ranked candidate is right. Two tests per feature:
- grid: the current table plus w x feature, for a few w (each set's top-1);
- leave-one-set-out: the pairwise logistic regression of fit.py fitted on
  three sets with the feature, top-1 on the fourth, summed.
Features: askcov (share of the asking sentence's terms held, headings at
half), retrieval (the chunk's retrieval score over the question's best),
headings (share of the question's terms in the title and headings), length
(words, capped at 60, over 60), first (first sentence of its chunk), novelty
(the share of its terms the question does not hold), counts (a number
right before the noun of "how many <noun>"), and,
with the cosines, e5 and minilm (cosine to the whole question) and
minilm_ask (to the asking sentence, the `ask` of each dumped row);
with DIR/SET.ms.jsonl beside each (cargo run --release -p almirah-embed
--example candidate_maxsim -- DIR/SET.cands.jsonl DIR/SET.ms.jsonl),
maxsim and maxsim_ask (late interaction: the mean over the question's word
pieces of the best cosine to a piece of the sentence).

Usage: features_cv.py DIR
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fit  # noqa: E402

SETS = ["sample-docs", "versions", "handbooks", "tune-handbooks2", "tune-mixed", "tune-mixed2"]
BASE = list(fit.CURRENT)


def extras(c, group):
    ask = set(c.get("ask_terms") or c["q_terms"])
    terms, ctx, q = set(c["terms"]), set(c["context_terms"]), set(c["q_terms"])
    held = sum(1 for t in ask if t in terms) + 0.5 * sum(1 for t in ask if t not in terms and t in ctx)
    best = max((x.get("retrieval_score") or 0) for x in group) or 1
    out = {
        "askcov": held / max(1, len(ask)),
        "retrieval": (c.get("retrieval_score") or 0) / best,
        "headings": sum(1 for t in q if t in ctx) / max(1, len(q)),
        "length": min(len(c["text"].split()), 60) / 60,
        "first": 1.0 if c.get("sentence", 1) == 0 else 0.0,
        # Novelty: the share of the sentence's terms the question does not
        # hold (an echo of the question says nothing new).
        "novelty": sum(1 for t in terms if t not in q) / max(1, len(terms)),
        # Narrower: it puts a word the question lacks before a pair of
        # adjacent question words ("unused travel comp time" for "comp time").
        "narrower": narrower(c),
        # Counts: a "how many <noun>" question, and a number right before
        # that noun in the sentence ("We conduct two reference checks").
        "counts": counts(c),
        # Subsumes: it says what another candidate says (80% of its terms)
        # and more (a condition, an exception).
        "subsumes": 1.0 if any(
            o is not c and len(set(o["terms"])) >= 3 and len(terms) > len(set(o["terms"]))
            and sum(1 for t in o["terms"] if t in terms) >= 0.8 * len(set(o["terms"]))
            for o in group) else 0.0,
    }
    for k in ("e5", "minilm", "minilm_ask", "maxsim", "maxsim_ask"):
        if k in c:
            out[k] = c[k]
    return out


STOP = set("a an the of to for in on at by and or my our your is are do does can i we you it what how when who which where why".split())


def words(text):
    import re
    return re.findall(r"[a-z0-9]+", text.lower())


def narrower(c):
    q = [w for w in words(c["question"])]
    pairs = {(a, b) for a, b in zip(q, q[1:]) if a not in STOP and b not in STOP}
    t = words(c["text"])
    for i in range(1, len(t) - 1):
        if (t[i], t[i + 1]) in pairs and t[i - 1] not in STOP and t[i - 1] not in q:
            return 1.0
    return 0.0


NUMBER_WORDS = set("one two three four five six seven eight nine ten eleven twelve fifteen twenty thirty forty fifty hundred".split())


def counts(c):
    q = words(c["question"])
    nouns = [q[i + 2] for i in range(len(q) - 2) if q[i] == "how" and q[i + 1] == "many"]
    if not nouns:
        return 0.0
    stem = nouns[0][:5]
    t = words(c["text"])
    for i, w in enumerate(t):
        if w.isdigit() or w in NUMBER_WORDS:
            if any(x.startswith(stem) for x in t[i + 1:i + 4]):
                return 1.0
    return 0.0


def load(folder, name):
    path = f"{folder}/{name}.cands.jsonl"
    sides = [p for p in (f"{folder}/{name}.cos.jsonl", f"{folder}/{name}.ms.jsonl") if os.path.exists(p)]
    if sides:
        rows = [json.loads(line) for line in open(path, encoding="utf-8")]
        for side in sides:
            for row, extra in zip(rows, (json.loads(line) for line in open(side, encoding="utf-8"))):
                row.update(extra)
        path = f"{folder}/{name}.merged.jsonl"
        with open(path, "w", encoding="utf-8") as f:
            f.writelines(json.dumps(r) + "\n" for r in rows)
    return fit.load(path, [f"eval/{name}.jsonl"])


def vectors(groups, feature):
    out = []
    for _, group, answers in groups:
        rows = []
        for c in group:
            x = [c["coverage"]] + [c["features"][n] for n in BASE]
            if feature:
                x.append(extras(c, group)[feature])
            rows.append((x, any(a in fit.norm(c["text"]) for a in answers)))
        out.append(rows)
    return out


def top1(questions, weights):
    hits = total = 0
    for rows in questions:
        if any(right for _, right in rows):
            total += 1
            hits += max(rows, key=lambda r: sum(w * v for w, v in zip(weights, r[0])))[1]
    return hits, total


def pairwise(questions):
    xs, ys = [], []
    for rows in questions:
        for p, _ in (r for r in rows if r[1]):
            for n, _ in (r for r in rows if not r[1]):
                d = [a - b for a, b in zip(p, n)]
                xs += [d, [-v for v in d]]
                ys += [1.0, 0.0]
    return fit.fit(xs, ys)[0]


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    groups = {name: load(sys.argv[1], name) for name in SETS}
    current = [1.0] + [fit.CURRENT[n] for n in BASE]
    names = ["askcov", "retrieval", "headings", "length", "first", "novelty", "subsumes", "narrower", "counts"]
    if "e5" in groups[SETS[0]][0][1][0]:
        names += ["e5", "minilm"] + (["minilm_ask"] if "minilm_ask" in groups[SETS[0]][0][1][0] else [])
    if "maxsim" in groups[SETS[0]][0][1][0]:
        names += ["maxsim", "maxsim_ask"]
    base = [top1(vectors(groups[s], None), current) for s in SETS]
    print(f"current table: top-1 {sum(h for h, _ in base)}/{sum(t for _, t in base)} ({', '.join(f'{s} {h}/{t}' for s, (h, t) in zip(SETS, base))})")
    for feature in [None] + names:
        label = feature or "(none)"
        if feature:
            grid = []
            for w in (-0.2, -0.1, 0.1, 0.2, 0.3, 0.5, 1.0):
                grid.append(f"{w:+}: {sum(top1(vectors(groups[s], feature), current + [w])[0] for s in SETS)}")
            print(f"{label:10} grid  {'  '.join(grid)}")
        held_out = 0
        for s in SETS:
            weights = pairwise([q for o in SETS if o != s for q in vectors(groups[o], feature)])
            held_out += top1(vectors(groups[s], feature), weights)[0]
        print(f"{label:10} leave-one-set-out fitted: {held_out}")


if __name__ == "__main__":
    main()
