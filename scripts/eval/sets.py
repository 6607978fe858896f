#!/usr/bin/env python3
"""Print the evaluation sets of eval/sets.toml, one per line, for eval-all.sh:
name<TAB>questions<TAB>versioning<TAB>documents (|-joined)<TAB>exclude (|-joined)."""
import sys
import tomllib

with open(sys.argv[1], "rb") as f:
    sets = tomllib.load(f)["set"]
wanted = set(sys.argv[2].split(",")) if len(sys.argv) > 2 and sys.argv[2] else None
for s in sets:
    if wanted and s["name"] not in wanted:
        continue
    print("\t".join([s["name"], s["questions"], s.get("versioning", "auto"),
                     "|".join(s["documents"]), "|".join(s.get("exclude", []))]))
