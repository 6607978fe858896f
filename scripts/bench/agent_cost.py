#!/usr/bin/env python3
"""Agent cost: model calls, tool calls and tokens per question for classic,
agent and auto, read from evaluation reports (`almirah eval --report`, as
written by scripts/eval-all.sh and scripts/eval-llm.sh).

Usage: agent_cost.py LABEL=DIR [LABEL=DIR ...]
  e.g. agent_cost.py builtin=bench-out/eval llm-1.5b=target/eval-llm

For each DIR/<set>/results.json it prints one row per mode, then per LABEL
the question-weighted means over the sets that ran all three modes and one
headline line:
  agent/classic calls = 2.10, tokens = 1.85 (accuracy 0.62 vs 0.58); auto/classic …
A DIR without results is reported and skipped. Exit 1 when no DIR had any.
"""
import json
import pathlib
import sys

MODES = ("classic", "agent", "auto")


def rows(root):
    for f in sorted(root.glob("*/results.json")):
        for s in json.loads(f.read_text()).get("summaries", []):
            if s["mode"] in MODES:
                yield f.parent.name, s


def calls(s):
    return s["model_calls"] + s["tool_calls"]


def ratio(a, b):
    return f"{a / b:.2f}" if b else "n/a"


def report(label, root):
    found = list(rows(root))
    if not found:
        print(f"{label}: no evaluation results under {root} (skipped)")
        return False
    print(f"\n{label} ({root}): per question")
    print(f"{'set':<22}{'mode':<9}{'n':>4}{'model calls':>13}{'tool calls':>12}{'tokens':>9}{'p50 ms':>9}{'accuracy':>10}")
    for name, s in found:
        print(f"{name:<22}{s['mode']:<9}{s['questions']:>4}{s['model_calls']:>13.2f}{s['tool_calls']:>12.2f}"
              f"{s['tokens']:>9.0f}{s['p50_ms']:>9.0f}{s['accuracy']:>10.3f}")
    by_set = {}
    for name, s in found:
        by_set.setdefault(name, {})[s["mode"]] = s
    full = [m for m in by_set.values() if all(x in m for x in MODES)]
    if not full:
        print(f"{label}: no set ran all of classic, agent and auto")
        return True
    mean = {}
    for mode in MODES:
        n = sum(m[mode]["questions"] for m in full)
        w = lambda key: sum(m[mode][key] * m[mode]["questions"] for m in full) / n
        mean[mode] = {"calls": sum(calls(m[mode]) * m[mode]["questions"] for m in full) / n,
                      "tokens": w("tokens"), "accuracy": w("accuracy"), "p50": w("p50_ms")}
    c = mean["classic"]
    parts = [f"{m}/classic calls = {ratio(mean[m]['calls'], c['calls'])}, tokens = {ratio(mean[m]['tokens'], c['tokens'])}"
             f" (accuracy {mean[m]['accuracy']:.2f} vs {c['accuracy']:.2f})" for m in ("agent", "auto")]
    print(f"{label}: over {len(full)} sets, calls per question classic {c['calls']:.2f}, "
          f"agent {mean['agent']['calls']:.2f}, auto {mean['auto']['calls']:.2f}; "
          f"tokens {c['tokens']:.0f} / {mean['agent']['tokens']:.0f} / {mean['auto']['tokens']:.0f}")
    print(f"{label}: " + "; ".join(parts))
    return True


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    ok = False
    for arg in sys.argv[1:]:
        label, _, path = arg.partition("=")
        ok |= report(label, pathlib.Path(path or label))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
