#!/usr/bin/env bash
# Creates or updates the benchmark venv at target/bench-venv from
# scripts/bench/requirements.txt, makes sure the all-MiniLM-L6-v2 weights are
# present (scripts/fetch-models.sh) and builds the ONNX model at
# target/bench-models/all-MiniLM-L6-v2.onnx if needed. Idempotent and quiet:
# progress goes to stderr, and the last line on stdout is the venv's python.
#   PY="$(scripts/bench/setup.sh | tail -n1)"
# Environment: PYTHON (interpreter that creates the venv, default python3),
# ALMIRAH_MODEL_DIR (model folder, as for the Rust side).
set -euo pipefail

BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_DIR="$(cd "$BENCH_DIR/../.." && pwd)"
VENV="$REPO_DIR/target/bench-venv"
REQS="$BENCH_DIR/requirements.txt"
STAMP="$VENV/.almirah-requirements.sha256"
PY="$VENV/bin/python"

log() { echo "bench setup: $*" >&2; }

want="$(sha256sum "$REQS" | awk '{ print $1 }')"
if [[ ! -x "$PY" ]] || ! "$PY" -c 'import sys' >/dev/null 2>&1; then
    log "creating $VENV"
    rm -rf "$VENV"
    "${PYTHON:-python3}" -m venv "$VENV"
fi
if [[ "$(cat "$STAMP" 2>/dev/null)" != "$want" ]] \
    || ! "$PY" -c 'import chromadb, numpy, onnxruntime, tokenizers, safetensors, onnx' >/dev/null 2>&1; then
    log "installing $REQS"
    "$PY" -m pip install -q --disable-pip-version-check -r "$REQS" >&2
    echo "$want" > "$STAMP"
fi

"$REPO_DIR/scripts/fetch-models.sh" >&2
"$PY" "$BENCH_DIR/build_minilm_onnx.py" --quiet >&2

echo "$PY"
