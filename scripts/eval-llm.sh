#!/usr/bin/env bash
# Run fixed subsets of every answering evaluation set (eval/sets.toml) against
# a real chat model in classic, agent and auto modes, and write one combined
# report (OUT/index.html, as scripts/eval-all.sh does).
#
# Usage: scripts/eval-llm.sh [--model SPEC] [--modes classic,agent,auto]
#                            [--sets a,b] [--per-set N] [--out DIR]
#                            [--libs DIR] [--bin ALMIRAH]
#
# Subsets (scripts/eval/subset.py, default N = 4): N questions evenly spaced
# over each set's file, answerable and abstain lines in proportion; for
# sample-docs drawn from its fixed 20-question eval/llm-subset.jsonl
# (--per-set 20 runs all of it). Written to OUT/<set>/subset.jsonl.
# Libraries: the ones scripts/eval-all.sh indexed with the builtin embedder
# under --libs (default target/eval-all/libs) are reused (run it first, or
# this indexes each set itself: the same config, the same embedder).
# Paths are relative to the repository root.
# Default model: Qwen2.5-Coder-1.5B-Instruct Q4_K_M on a local llama.cpp
# server (scripts/llm-server.sh, port 8090), in the JSON-schema action mode.
# --model SPEC uses any configured endpoint instead (ollama:NAME,
# openai:URL:NAME, gemini:NAME), with native tool calls.
# Not part of CI: on 2 cores each answer takes roughly 15-90 s with the 1.5B model.
set -euo pipefail
cd "$(dirname "$0")/.."

usage="usage: scripts/eval-llm.sh [--model SPEC] [--modes LIST] [--sets a,b] [--per-set N] [--out DIR] [--libs DIR] [--bin ALMIRAH]"
model="" modes="classic,agent,auto" sets="" per_set=4 out="target/eval-llm" libs="target/eval-all/libs" bin=""
while [ $# -gt 0 ]; do
  case "$1" in
    --model) model="${2:?$usage}"; shift 2 ;;
    --modes) modes="${2:?$usage}"; shift 2 ;;
    --sets) sets="${2:?$usage}"; shift 2 ;;
    --per-set) per_set="${2:?$usage}"; shift 2 ;;
    --out) out="${2:?$usage}"; shift 2 ;;
    --libs) libs="${2:?$usage}"; shift 2 ;;
    --bin) bin="${2:?$usage}"; shift 2 ;;
    *) echo "$usage" >&2; exit 2 ;;
  esac
done

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
echo "model: $model; modes: $modes; $per_set questions per set"
mkdir -p "$out"
status=0
ran=()
while IFS=$'\t' read -r name questions versioning generated set_modes documents exclude; do
  mkdir -p "$out/$name" "$libs/$name"
  rm -f "$out/$name/results.json"
  if [ "$name" = "sample-docs" ]; then
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
  if ! "$bin" --config "$config" --data-dir "$libs/$name/data" eval "$out/$name/subset.jsonl" \
      --mode "$set_modes" --model "$model" --report "$out/$name"; then
    status=1
  fi
  ran+=("$name")
done <<< "$selected"
if [ "${#ran[@]}" -gt 0 ]; then
  python3 scripts/eval/combine.py "$out" "$(IFS=,; echo "${ran[*]}")" "scripts/eval-llm.sh ($model)" || status=1
fi
exit "$status"
