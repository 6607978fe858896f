#!/usr/bin/env bash
# Run the evaluation sets of eval/sets.toml with the builtin models and
# write one combined report: OUT/index.html (a single file: tables and plots
# inlined) covering the sets of this run, plus per set
# OUT/<set>/{report.md,results.json,*.svg}.
# Each set is indexed into its own library under OUT/libs (kept between
# runs: re-running only re-indexes changed files). The generated sets
# (HotpotQA, MuSiQue, SciFact) are written first by scripts/eval/prepare.py
# from ../shared/corpora/qa_multihop, when one of them is selected.
# Each set runs its own `modes` from eval/sets.toml (answering modes
# classic/agent/auto, rankers bm25/vector/hybrid); --modes narrows them.
# Paths are relative to the repository root. Exit 1 when a set fails to
# index or evaluate, or any answer cites a stale source.
# --half picks the questions: each question's half (tuning or reporting) is
# fixed by the BLAKE3 hash of its id, or pinned to tuning on its line when
# the source quotes it (eval/README.md); figures are quoted on the reporting
# half (the default), rules are tuned on the tuning half.
# --embedder builtin:MODEL indexes and asks with that builtin embedder
# (all-MiniLM-L6-v2 or multilingual-e5-small; default: the library's auto
# choice); use its own --out, as a library keeps the embedder it was made with.
# Usage: scripts/eval-all.sh [--sets a,b] [--modes classic,agent,auto,bm25,vector,hybrid] [--half reporting|tuning|all] [--out DIR] [--bin ALMIRAH] [--embedder builtin:MODEL]
set -euo pipefail
cd "$(dirname "$0")/.."
usage="usage: $0 [--sets a,b] [--modes classic,agent,auto,bm25,vector,hybrid] [--half reporting|tuning|all] [--out DIR] [--bin ALMIRAH] [--embedder builtin:MODEL]"
sets="" modes="" out="target/eval-all" bin="" half="reporting"
embedder=()
while [ $# -gt 0 ]; do
  case "$1" in
    --sets) sets="${2:?$usage}"; shift 2 ;;
    --modes) modes="${2:?$usage}"; shift 2 ;;
    --out) out="${2:?$usage}"; shift 2 ;;
    --half) half="${2:?$usage}"; shift 2 ;;
    --bin) bin="${2:?$usage}"; shift 2 ;;
    --embedder) embedder=(--embedder "${2:?$usage}"); shift 2 ;;
    *) echo "$usage" >&2; exit 2 ;;
  esac
done
selected="$(python3 scripts/eval/sets.py eval/sets.toml "$sets" "$modes")"
if [ -z "$selected" ]; then
  echo "error: no set left to run (sets: ${sets:-all}; modes: ${modes:-as in eval/sets.toml})" >&2
  exit 2
fi
if cut -f4 <<< "$selected" | grep -qx yes; then
  python3 scripts/eval/prepare.py >/dev/null
fi
python3 eval/validate.py eval/sets.toml --sets "$(cut -f1 <<< "$selected" | paste -sd, -)"
if [ -z "$bin" ]; then
  scripts/fetch-models.sh >/dev/null
  cargo build --release --locked -q -p almirah-cli
  bin="${CARGO_TARGET_DIR:-target}/release/almirah"
fi
mkdir -p "$out/libs"
status=0
ran=()
while IFS=$'\t' read -r name questions versioning generated set_modes documents exclude; do
  echo "== $name ($(wc -l < "$questions") questions; modes $set_modes)"
  lib="$out/libs/$name"
  mkdir -p "$lib"
  rm -f "$out/$name/results.json"
  config="$lib/config.toml"
  : > "$config"
  IFS='|' read -r -a docs <<< "$documents"
  python3 scripts/eval/folders.py eval/sets.toml "$name" >> "$config"
  # Exit 2 means some files could not be indexed (listed above): the set still runs.
  rc=0
  "$bin" --config "$config" --data-dir "$lib/data" "${embedder[@]}" index --quiet "${docs[@]}" || rc=$?
  if [ "$rc" -ne 0 ] && [ "$rc" -ne 2 ]; then
    echo "error: indexing $name failed (exit $rc); skipping it" >&2
    status=1
    continue
  fi
  if ! "$bin" --config "$config" --data-dir "$lib/data" "${embedder[@]}" eval "$questions" --mode "$set_modes" --half "$half" --report "$out/$name"; then
    status=1
  fi
  ran+=("$name")
done <<< "$selected"
if [ "${#ran[@]}" -gt 0 ]; then
  python3 scripts/eval/combine.py "$out" "$(IFS=,; echo "${ran[*]}")" "scripts/eval-all.sh" || status=1
fi
exit "$status"
