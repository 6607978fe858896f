#!/usr/bin/env bash
# The builtin's ablation table: the classic builtin on the policy sets and
# the first-sight sets, once with every feature of
# crates/answer/src/builtin/features.rs and once with each switched off
# (ALMIRAH_ABLATE=<feature>), and once without the background names
# (crates/answer/src/builtin/background.rs) and without the IDF weights of
# the question terms (idf) and without the fitted confidence clause of
# the answer gate (confidence), every question (--half all), then accuracy
# per set and half (scripts/eval/halves.py). Libraries are indexed once
# under OUT/libs and shared by the runs.
# Usage: scripts/eval/ablate.sh [--bin ALMIRAH] [--out DIR] [--sets a,b]
set -euo pipefail
cd "$(dirname "$0")/../.."
bin="target/release/almirah" out="target/ablate"
sets="sample-docs,versions,handbooks,hindi,fs-handbooks,fs-versions,fs-pdfs"
while [ $# -gt 0 ]; do
  case "$1" in
    --bin) bin="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --sets) sets="$2"; shift 2 ;;
    *) echo "usage: $0 [--bin ALMIRAH] [--out DIR] [--sets a,b]" >&2; exit 2 ;;
  esac
done
features="$(grep -o 'Feature::[A-Za-z]* => "[a-z-]*"' crates/answer/src/builtin/features.rs | sed 's/.*"\(.*\)"/\1/')"
mkdir -p "$out/libs"
for off in none $features background idf confidence; do
  run="$out/$off"
  if [ -f "$run/done" ]; then echo "== $off: done already"; continue; fi
  mkdir -p "$run"
  ln -sfn "$(realpath "$out/libs")" "$run/libs"
  echo "== without: $off"
  # A failed run is not marked done, so a re-run tries it again.
  if ALMIRAH_ABLATE="$([ "$off" = none ] || echo "$off")" \
    scripts/eval-all.sh --sets "$sets" --modes classic --half all --out "$run" --bin "$bin" > "$run/log" 2>&1; then
    touch "$run/done"
  else
    echo "   failed: see $run/log" >&2
  fi
done
for off in none $features background idf confidence; do
  echo "## without $off"
  python3 scripts/eval/halves.py "$out/$off"
done
