#!/usr/bin/env python3
"""Print the [[folders]] tables of one evaluation set's library config: one
per document folder of the set in eval/sets.toml, with the set's
`versioning`, `include` and `exclude`. Paths are made absolute from the
current directory (eval-all.sh and eval-llm.sh run from the repository root).

Usage: folders.py MANIFEST NAME   (exit 1 when NAME is not a set)
"""
import json
import os
import sys
import tomllib

with open(sys.argv[1], "rb") as f:
    sets = {s["name"]: s for s in tomllib.load(f)["set"]}
spec = sets.get(sys.argv[2])
if spec is None:
    sys.exit(f"error: unknown set {sys.argv[2]!r}; the sets are {', '.join(sets)}")
for folder in spec["documents"]:
    # JSON strings are valid TOML basic strings (quotes and backslashes escaped).
    print("[[folders]]")
    print(f"path = {json.dumps(os.path.realpath(folder))}")
    print(f"versioning = {json.dumps(spec.get('versioning', 'auto'))}")
    for key in ("include", "exclude"):
        if spec.get(key):
            print(f"{key} = {json.dumps(spec[key])}")
    print()
