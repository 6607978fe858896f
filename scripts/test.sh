#!/usr/bin/env bash
# Installs what the tests need and runs them all: formatting, clippy, the test
# suite (unit, integration, real corpora in ../shared/corpora) and the docs.
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

step "models"
scripts/fetch-models.sh

step "format"
cargo fmt --all --check

step "clippy"
cargo clippy --workspace --all-targets --locked -- -D warnings

step "tests"
cargo test --workspace --locked --no-fail-fast

step "docs"
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --locked

step "done"
