#!/usr/bin/env bash
# Runs Almirah's benchmark: ingest throughput (18F + Sourcegraph handbooks, built-in vs hash
# embedder, and the Python reference pipeline on the same files), hybrid/BM25/vector query latency at 10k and 100k chunks, vector
# recall vs exact cosine (every plan of the vector search and arroy) at 10k, 100k and 1M vectors next
# to Chroma measured in the same run on the same vectors, multi-hop retrieval recall (HotpotQA,
# MuSiQue), and watch (issue 6): save-to-searchable latency p50/p95 of a
# one-page Markdown document under a running watcher in a ~10k-chunk library
# whose stored embedder is the built-in one (goal p95 < 1 s), and the
# reconcile time of that unchanged 1,000-file library (goal < 1 s). Goals are
# printed as ratios. Prints a readable report; writes JSON to
# bench-out/bench.json.
# Then the agent cost (scripts/bench/agent_cost.py): model calls, tool
# calls and tokens per question for classic, agent and auto, from the
# sample-docs and hindi evaluation sets run here with the builtin models
# (bench-out/eval), plus target/eval-all (scripts/eval-all.sh) and
# target/eval-llm (scripts/eval-llm.sh: tokens of a real model) when present.
# Usage: scripts/bench.sh [--quick] [other almirah-bench flags, see --help]
#   one part only: scripts/bench.sh --parts watch --out bench-out/bench-watch.json
# The full run takes roughly 50 minutes on 2 cores (ingest 12, vectors 11-16 with 1M vectors,
# latency 8, multihop 7, watch 5, agent cost 1); --quick a few minutes.
set -euo pipefail
cd "$(dirname "$0")/.."

export CARGO_TERM_COLOR=never
export ALMIRAH_CORPORA="${ALMIRAH_CORPORA:-$(cd .. && pwd)/shared/corpora}"
if [ ! -d "$ALMIRAH_CORPORA" ]; then
  echo "error: the corpora are missing at $ALMIRAH_CORPORA (set ALMIRAH_CORPORA)" >&2
  exit 1
fi

export ALMIRAH_MODEL_DIR="${ALMIRAH_MODEL_DIR:-$PWD/models/all-MiniLM-L6-v2}"

scripts/fetch-models.sh
# The Python + Chroma side (a venv from PyPI: chromadb, onnxruntime, numpy;
# the same MiniLM weights as an ONNX graph built locally), measured in the
# same run on the same data. ALMIRAH_BENCH_PYTHON= (empty) skips it.
if [ -z "${ALMIRAH_BENCH_PYTHON+set}" ]; then
  ALMIRAH_BENCH_PYTHON="$(scripts/bench/setup.sh | tail -n 1)"
fi
export ALMIRAH_BENCH_PYTHON
cargo build --release --locked -p almirah-bench
mkdir -p bench-out
"${CARGO_TARGET_DIR:-target}/release/almirah-bench" --out bench-out/bench.json "$@"

echo
echo "== agent cost (calls and tokens per question: classic, agent, auto)"
cargo build --release --locked -q -p almirah-cli
scripts/eval-all.sh --sets sample-docs,hindi --modes classic,agent,auto --out bench-out/eval \
  --bin "${CARGO_TARGET_DIR:-target}/release/almirah" > bench-out/eval.log 2>&1 || echo "note: the evaluation reported a problem (bench-out/eval.log)"
cost=(builtin=bench-out/eval)
[ -d target/eval-all ] && cost+=(builtin-all-sets=target/eval-all)
[ -d target/eval-llm ] && cost+=(llm=target/eval-llm)
python3 scripts/bench/agent_cost.py "${cost[@]}" | tee bench-out/agent-cost.txt
