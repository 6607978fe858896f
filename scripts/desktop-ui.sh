#!/usr/bin/env bash
# Build the desktop app's frontend (ui/ → ui/dist) from the lock file; the
# Rust build embeds ui/dist, so this runs before any build of src-tauri.
set -euo pipefail
cd "$(dirname "$0")/../ui"
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund --loglevel=error
fi
npm run --silent build
