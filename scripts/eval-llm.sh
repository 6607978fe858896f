#!/usr/bin/env bash
# Run fixed subsets of answering evaluation sets (eval/sets.toml) against a
# real chat model and write one combined report (OUT/index.html, as
# scripts/eval-all.sh does). Resumable (issue #40): every question's result
# is appended to OUT/<set>/journal.jsonl as soon as it is scored, and a
# re-run with the same model and code skips the questions already done,
# so a run killed by a time limit, a logout or a crash goes on where it
# stopped. The table always covers what is done.
#
# Usage: scripts/eval-llm.sh [--model SPEC] [--modes auto] [--sets a,b]
#                            [--per-set N] [--subsets DIR] [--minutes M]
#                            [--out DIR] [--libs DIR] [--bin ALMIRAH]
#
# Defaults: sets sample-docs,versions,handbooks; mode auto; 10 questions a
# set, fixed in eval/llm-30/<set>.jsonl (drawn once by scripts/eval/subset.py:
# N questions evenly spaced over the set, answerable and abstain lines in
# proportion; sample-docs from its 20-question eval/llm-subset.jsonl). A set
# with no file under --subsets is drawn the same way at --per-set.
# --minutes M (default 40): no question starts after M minutes; a question
# still running then gets 5 more minutes before it is killed. Re-run the
# same command to do the rest.
# Run it in the background, never in the foreground of a long task:
#   nohup scripts/eval-llm.sh --minutes 30 > target/eval-llm.log 2>&1 &
# Run key (what makes a journal line reusable): the model spec and the tree
# of crates/ and Cargo.lock at HEAD (commits of eval files or docs keep it),
# with a hash of uncommitted changes there (untracked files too); a line is
# reused only for the same set line (question, as-of date, expectations).
# Libraries: the ones scripts/eval-all.sh indexed with the builtin embedder
# under --libs (default target/eval-all/libs) are reused (run it first, or
# this indexes each set itself: the same config, the same embedder).
# Paths are relative to the repository root.
# Default model: Qwen2.5-Coder-1.5B-Instruct Q4_K_M on a local llama.cpp
# server (scripts/llm-server.sh, port 8090; scripts/fetch-llm.sh 1.5b), in
# the JSON-schema action mode. --model SPEC uses any configured endpoint
# instead (ollama:NAME, openai:URL:NAME, gemini:NAME), with native tool calls.
# Not part of CI: on 2 cores each answer takes roughly 15-90 s with the 1.5B model.
set -euo pipefail
cd "$(dirname "$0")/.."

usage="usage: scripts/eval-llm.sh [--model SPEC] [--modes LIST] [--sets a,b] [--per-set N] [--subsets DIR] [--minutes M] [--out DIR] [--libs DIR] [--bin ALMIRAH]"
model="" modes="auto" sets="sample-docs,versions,handbooks" per_set=10 subsets="eval/llm-30" minutes=40
out="target/eval-llm" libs="target/eval-all/libs" bin=""
while [ $# -gt 0 ]; do
  case "$1" in
    --model) model="${2:?$usage}"; shift 2 ;;
    --modes) modes="${2:?$usage}"; shift 2 ;;
    --sets) sets="${2:?$usage}"; shift 2 ;;
    --per-set) per_set="${2:?$usage}"; shift 2 ;;
    --subsets) subsets="${2:?$usage}"; shift 2 ;;
    --minutes) minutes="${2:?$usage}"; shift 2 ;;
    --out) out="${2:?$usage}"; shift 2 ;;
    --libs) libs="${2:?$usage}"; shift 2 ;;
    --bin) bin="${2:?$usage}"; shift 2 ;;
    *) echo "$usage" >&2; exit 2 ;;
  esac
done
case "$minutes" in ''|*[!0-9]*) echo "error: --minutes takes a whole number of minutes, not '$minutes'" >&2; exit 2 ;; esac

selected="$(python3 scripts/eval/sets.py eval/sets.toml "$sets" "$modes")"
[ -n "$selected" ] || { echo "error: no set left to run" >&2; exit 2; }
if cut -f4 <<< "$selected" | grep -qx yes; then
  python3 scripts/eval/prepare.py >/dev/null
fi
if ! check="$(python3 eval/validate.py eval/sets.toml --sets "$(cut -f1 <<< "$selected" | paste -sd, -)")"; then
  echo "$check" >&2
  exit 1
fi
if [ -z "$bin" ]; then
  scripts/fetch-models.sh >/dev/null
  cargo build --release --locked -q -p almirah-cli
  bin="${CARGO_TARGET_DIR:-target}/release/almirah"
fi
port="${ALMIRAH_EVAL_LLM_PORT:-8090}"
agent_config="$(mktemp)"
started=""
cleanup() { rm -f "$agent_config"; if [ -n "$started" ]; then scripts/llm-server.sh stop --port "$port" >/dev/null 2>&1 || true; fi; }
trap cleanup EXIT

if [ -z "$model" ]; then
  url="$(scripts/llm-server.sh start 1.5b --port "$port" | tail -n 1)"
  started=1
  model="openai:$url:qwen2.5-coder-1.5b"
  printf '[agent]\naction_mode = true\n[agent.budgets]\nmax_wall_ms = 300000\n' > "$agent_config"
fi
# The code the answers come from: the tree of crates/ and Cargo.lock at HEAD
# (a commit of eval files or docs keeps it), plus a hash of any uncommitted
# change there.
code="crates-$(git rev-parse --short HEAD:crates 2>/dev/null || echo unknown)-lock-$(git rev-parse --short HEAD:Cargo.lock 2>/dev/null || echo unknown)"
if [ -n "$(git status --porcelain --untracked-files=all -- crates Cargo.lock 2>/dev/null)" ]; then
  dirty="$( { git diff HEAD -- crates Cargo.lock; git ls-files --others --exclude-standard -z -- crates | xargs -0 -r cat; } | sha256sum | cut -c1-8)"
  code="$code-dirty-$dirty"
fi
run_key="$model@$code"
deadline=$(( $(date +%s) + minutes * 60 ))
echo "model: $model; modes: $modes; run key: $run_key; time limit: $minutes min"
mkdir -p "$out"
status=0
ran=()
while IFS=$'\t' read -r name questions versioning generated set_modes documents exclude; do
  mkdir -p "$out/$name" "$libs/$name"
  rm -f "$out/$name/results.json"
  if [ -f "$subsets/$name.jsonl" ]; then
    cp "$subsets/$name.jsonl" "$out/$name/subset.jsonl"
  elif [ "$name" = "sample-docs" ]; then
    python3 scripts/eval/subset.py eval/llm-subset.jsonl "$per_set" "$out/$name/subset.jsonl"
  else
    python3 scripts/eval/subset.py "$questions" "$per_set" "$out/$name/subset.jsonl"
  fi
  # The set's folders (as eval-all.sh writes them) plus the agent settings.
  config="$out/$name/config.toml"
  cp "$agent_config" "$config"
  IFS='|' read -r -a docs <<< "$documents"
  python3 scripts/eval/folders.py eval/sets.toml "$name" >> "$config"
  echo "== $name"
  rc=0
  "$bin" --config "$config" --data-dir "$libs/$name/data" index --quiet "${docs[@]}" > "$out/$name/index.log" || rc=$?
  if [ "$rc" -ne 0 ] && [ "$rc" -ne 2 ]; then
    echo "error: indexing $name failed (exit $rc; see $out/$name/index.log); skipping it" >&2
    status=1
    continue
  fi
  left=$(( deadline - $(date +%s) ))
  [ "$left" -gt 0 ] || left=0
  # $1: the time limit in seconds; the rest: a command to run it under (timeout).
  eval_set() {
    local limit="$1"
    shift
    "$@" "$bin" --config "$config" --data-dir "$libs/$name/data" \
      eval "$out/$name/subset.jsonl" --mode "$set_modes" --model "$model" --report "$out/$name" \
      --journal "$out/$name/journal.jsonl" --run-key "$run_key" --time-limit "$limit"
  }
  if ! eval_set "$left" timeout --signal=KILL $(( left + 300 )); then
    status=1
    # Killed in the middle of a question: the table of what the journal holds.
    echo "note: $name did not finish; the table covers the questions done" >&2
    eval_set 0 || true
  fi
  ran+=("$name")
done <<< "$selected"
if [ "${#ran[@]}" -gt 0 ]; then
  python3 scripts/eval/combine.py "$out" "$(IFS=,; echo "${ran[*]}")" "scripts/eval-llm.sh ($model)" || status=1
fi
exit "$status"
