#!/usr/bin/env python3
"""Accuracy per set and half from the results.json files of a `--half all`
run of scripts/eval-all.sh (or scripts/eval/ablate.sh): each question's
half is its pinned "half" or, as in crates/answer/src/eval/set.rs, the
parity of the first byte of the BLAKE3 hash of its id (even: tuning).
First-sight sets are reported whole. Needs the `blake3` package from PyPI.

Usage: halves.py OUT_DIR
"""
import json
import os
import sys

try:
    from blake3 import blake3
except ImportError:
    sys.exit("halves.py needs the blake3 package: pip install blake3")
def half(item): 
    if item.get("half"): return item["half"]
    return "tuning" if blake3(item["id"].encode()).digest()[0]%2==0 else "reporting"
sets={"sample-docs":"eval/sample-docs.jsonl","versions":"eval/versions.jsonl","handbooks":"eval/handbooks.jsonl","hindi":"eval/hindi.jsonl","tune-handbooks2":"eval/tune-handbooks2.jsonl","hotpotqa":"eval/hotpotqa.jsonl","musique":"eval/musique.jsonl","musique-unanswerable":"eval/musique-unanswerable.jsonl","fs-handbooks":"eval/first-sight/handbooks.jsonl","fs-versions":"eval/first-sight/versions.jsonl","fs-pdfs":"eval/first-sight/pdfs.jsonl","fs-rfcs":"eval/first-sight/rfcs.jsonl","fs-sourcegraph":"eval/first-sight/sourcegraph.jsonl","fs-hindi":"eval/first-sight/hindi.jsonl","fs-handbooks3":"eval/first-sight/handbooks3.jsonl","fs-mixed5":"eval/first-sight/mixed5.jsonl","fs-mixed6":"eval/first-sight/mixed6.jsonl","fs-mixed7":"eval/first-sight/mixed7.jsonl"}
out=sys.argv[1]
for name,qf in sets.items():
    p=f"{out}/{name}/results.json"
    if not os.path.exists(p): continue
    items={json.loads(l)["id"]:json.loads(l) for l in open(qf) if l.strip()}
    res=json.load(open(p))
    rows=res["results"]
    by={"tuning":[0,0],"reporting":[0,0],"all":[0,0]}
    cps={"tuning":[],"reporting":[],"all":[]}
    stale=0
    for r in rows:
        if r.get("mode","classic")!="classic": continue
        h="all" if name.startswith("fs-") else half(items[r["id"]])
        ok=bool(r.get("correct"))
        cp=r.get("citation_precision")
        for k in {h,"all"}:
            by[k][0]+=ok; by[k][1]+=1
            if cp is not None and r.get("cited"):
                cps[k].append(cp)
        stale+=bool(r.get("stale_citation"))
    print(f"{name:22s} " + "  ".join(f"{k} {v[0]}/{v[1]}={v[0]/max(v[1],1):.3f}" for k,v in by.items() if v[1]) + f"  stale {stale}  citation precision " + " ".join(f"{k} {sum(v)/len(v):.3f}" for k,v in cps.items() if v))
