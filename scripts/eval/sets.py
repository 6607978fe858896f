#!/usr/bin/env python3
"""Print the evaluation sets of eval/sets.toml, one per line, for eval-all.sh
and eval-llm.sh: name<TAB>questions<TAB>versioning<TAB>generated (yes/no)<TAB>
modes (,-joined)<TAB>documents (|-joined)<TAB>exclude (|-joined, last because it
may be empty: `read` merges adjacent tabs).

Usage: sets.py MANIFEST [SETS] [MODES]   (SETS, MODES: comma-separated filters;
empty = all). A set's modes are its `modes` (default classic,agent,auto),
narrowed to MODES when given; a set left with no mode is skipped with a note.
Exit 2 when SETS names a set the manifest does not have."""
import sys
import tomllib

DEFAULT_MODES = ["classic", "agent", "auto"]

with open(sys.argv[1], "rb") as f:
    sets = tomllib.load(f)["set"]
arg = lambda i: set(sys.argv[i].split(",")) if len(sys.argv) > i and sys.argv[i] else None
wanted, modes_wanted = arg(2), arg(3)
unknown = sorted((wanted or set()) - {s["name"] for s in sets})
if unknown:
    sys.exit(f"error: unknown set(s) {', '.join(unknown)}; the sets are {', '.join(s['name'] for s in sets)}")
for s in sets:
    if wanted and s["name"] not in wanted:
        continue
    modes = [m for m in s.get("modes", DEFAULT_MODES) if not modes_wanted or m in modes_wanted]
    if not modes:
        print(f"note: skipping {s['name']}: none of its modes ({', '.join(s.get('modes', DEFAULT_MODES))}) was asked for",
              file=sys.stderr)
        continue
    print("\t".join([s["name"], s["questions"], s.get("versioning", "auto"), "yes" if s.get("generated") else "no",
                     ",".join(modes), "|".join(s["documents"]), "|".join(s.get("exclude", []))]))
