#!/usr/bin/env bash
# Run every evaluation set of eval/sets.toml with the builtin models and
# write one combined report: OUT/index.html (a single file: tables and plots
# inlined), plus per set OUT/<set>/{report.md,results.json,*.svg}.
# Each set is indexed into its own library under OUT/libs (kept between
# runs: re-running only re-indexes changed files).
# The generated sets (HotpotQA, MuSiQue, SciFact) are written first by
# scripts/eval/prepare.py from ../shared/corpora/qa_multihop.
# Each set runs its own `modes` from eval/sets.toml (answering modes
# classic/agent/auto, rankers bm25/vector/hybrid); --modes narrows them.
# Usage: scripts/eval-all.sh [--sets a,b] [--modes classic,agent,auto,bm25,vector,hybrid] [--out DIR] [--bin ALMIRAH]
set -euo pipefail
cd "$(dirname "$0")/.."
sets="" modes="" out="target/eval-all" bin=""
while [ $# -gt 0 ]; do
  case "$1" in
    --sets) sets="$2"; shift 2 ;;
    --modes) modes="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --bin) bin="$2"; shift 2 ;;
    *) echo "usage: $0 [--sets a,b] [--modes classic,agent,auto,bm25,vector,hybrid] [--out DIR] [--bin ALMIRAH]" >&2; exit 2 ;;
  esac
done
python3 scripts/eval/prepare.py >/dev/null
python3 eval/validate.py eval/sets.toml
if [ -z "$bin" ]; then
  scripts/fetch-models.sh >/dev/null
  cargo build --release --locked -q -p almirah-cli
  bin="${CARGO_TARGET_DIR:-target}/release/almirah"
fi
mkdir -p "$out/libs"
status=0
while IFS=$'\t' read -r name questions versioning set_modes documents exclude; do
  echo "== $name ($(wc -l < "$questions") questions; modes $set_modes)"
  lib="$out/libs/$name"
  mkdir -p "$lib"
  config="$lib/config.toml"
  : > "$config"
  IFS='|' read -r -a docs <<< "$documents"
  IFS='|' read -r -a excl <<< "$exclude"
  globs=""
  for e in "${excl[@]}"; do [ -n "$e" ] && globs+="\"$e\", "; done
  for d in "${docs[@]}"; do
    printf '[[folders]]\npath = "%s"\nversioning = "%s"\nexclude = [%s]\n\n' "$(realpath "$d")" "$versioning" "${globs%, }" >> "$config"
  done
  "$bin" --config "$config" --data-dir "$lib/data" index --quiet "${docs[@]}" || true
  if ! "$bin" --config "$config" --data-dir "$lib/data" eval "$questions" --mode "$set_modes" --report "$out/$name"; then
    status=1
  fi
done < <(python3 scripts/eval/sets.py eval/sets.toml "$sets" "$modes")
python3 scripts/eval/combine.py "$out" || status=1
exit "$status"
