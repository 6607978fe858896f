#!/usr/bin/env bash
# Build the desktop app's frontend (ui/ → ui/dist) from the lock file; the
# Rust build embeds ui/dist, so this runs before any build of src-tauri.
set -euo pipefail
cd "$(dirname "$0")/../ui"
# `npm install --no-save` rather than `npm ci`: it installs the versions in
# package-lock.json too, but tolerates an optional dependency the registry
# does not have (vite 8's Windows-only napi-windows-process-start-time is
# missing from the mirror here, and `npm ci` refuses the lock file for it).
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm install --no-save --no-audit --no-fund --loglevel=error
fi
npm run --silent build
