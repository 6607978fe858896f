#!/usr/bin/env bash
# Run the fixed 20-question subset (eval/llm-subset.jsonl) in classic, agent
# and auto modes against a real chat model, and write a report.
#
# Usage: scripts/eval-llm.sh [--model SPEC] [--modes classic,agent,auto] [--report DIR]
#
# Default: Qwen2.5-Coder-1.5B-Instruct Q4_K_M on a local llama.cpp server
# (scripts/llm-server.sh, port 8090), in the JSON-schema action mode.
# --model SPEC uses any configured endpoint instead (ollama:NAME,
# openai:URL:NAME, gemini:NAME), with native tool calls.
# Not part of CI: on 2 cores it takes about 20-40 minutes with the 1.5B model.
set -euo pipefail
cd "$(dirname "$0")/.."

model=""
modes="classic,agent,auto"
report="eval-llm-report"
while [ $# -gt 0 ]; do
  case "$1" in
    --model) model="$2"; shift 2 ;;
    --modes) modes="$2"; shift 2 ;;
    --report) report="$2"; shift 2 ;;
    *) echo "usage: scripts/eval-llm.sh [--model SPEC] [--modes LIST] [--report DIR]" >&2; exit 2 ;;
  esac
done

scripts/fetch-models.sh
cargo build --release --locked -p almirah-cli
bin="${CARGO_TARGET_DIR:-target}/release/almirah"
data="$(mktemp -d)"
config="$(mktemp)"
port="${ALMIRAH_EVAL_LLM_PORT:-8090}"
started=""
cleanup() { rm -rf "$data" "$config"; if [ -n "$started" ]; then scripts/llm-server.sh stop --port "$port" >/dev/null 2>&1 || true; fi; }
trap cleanup EXIT

if [ -z "$model" ]; then
  url="$(scripts/llm-server.sh start 1.5b --port "$port" | tail -n 1)"
  started=1
  model="openai:$url:qwen2.5-coder-1.5b"
  printf '[agent]\naction_mode = true\n[agent.budgets]\nmax_wall_ms = 300000\n' > "$config"
else
  : > "$config"
fi

"$bin" --data-dir "$data" index sample-docs --quiet
echo "model: $model"
"$bin" --config "$config" --data-dir "$data" eval eval/llm-subset.jsonl \
  --mode "$modes" --model "$model" --report "$report"
