#!/usr/bin/env bash
# Issue 19, acceptance 1: the Python `mcp` SDK from PyPI (pinned, in a venv
# this script creates under target/mcp-venv) starts `almirah mcp` over stdio
# on sample-docs plus an hr-only page (builtin embedder), lists the tools,
# asks the hostel question (Circular-14 cited, Circular-09 withheld) and
# reads a withheld and a hidden key. Part of scripts/test.sh.
# Usage: scripts/mcp-python.sh [ALMIRAH_BINARY]   (default target/debug/almirah)
set -euo pipefail
cd "$(dirname "$0")/.."
target="${CARGO_TARGET_DIR:-target}"
bin="$(realpath "${1:-$target/debug/almirah}")"
venv="$target/mcp-venv"
if ! "$venv/bin/python" -c "import mcp" 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "mcp==2.3.0"
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/docs/hr"
cp -r sample-docs/. "$work/docs/"
printf -- '---\ntitle: Salary bands\naudience: [hr-only]\n---\n# Salary bands\n\nBand A pays Rs 9,40,000 a year CANARYHRSALARYA.\n' \
  > "$work/docs/hr/z-salary-bands.md"
printf '[sessions]\ncurrent = "2026-27"\n' > "$work/config.toml"
printf '[profile]\naudience = ["hr-only"]\n' > "$work/hr.toml"
"$bin" --data-dir "$work/data" --config "$work/config.toml" index --quiet "$work/docs" >/dev/null
"$venv/bin/python" scripts/mcp/check.py "$bin" "$work"
