#!/usr/bin/env bash
# Build the desktop app and its .deb, once: the UI (ui/dist, Vite), then
# `tauri build --debug --bundles deb` with the npm @tauri-apps/cli. The same
# binary (target/debug/almirah-desktop) is what scripts/desktop-e2e.sh
# drives, and the .deb bundles it with the built-in embedder's weights so
# the installed app works offline with zero set-up.
# Usage: scripts/desktop-build.sh [--release]
set -euo pipefail
cd "$(dirname "$0")/.."
cargo_args=() bundle_args=(--debug) dir=debug
if [ "${1:-}" = "--release" ]; then cargo_args=(--release) bundle_args=() dir=release; fi

scripts/desktop-deps.sh
scripts/fetch-models.sh >/dev/null
scripts/desktop-ui.sh
# Build with cargo over the whole workspace, then only bundle: `tauri build`
# would compile the app package alone, whose feature set differs from the
# workspace's, and so rebuild candle, the core and more (~7 min in CI).
# scripts/test.sh sets ALMIRAH_PREBUILT_BINS=1: `cargo test --workspace` has
# just built every binary (cargo builds a package's binaries for its
# integration tests), and building them again here with the feature set of a
# plain build recompiles candle, tauri and more (6-7 min on 2 cores).
if [ "${ALMIRAH_PREBUILT_BINS:-0}" = 1 ] && [ -x "target/$dir/almirah-desktop" ]; then
  echo "using target/$dir/almirah-desktop as the tests built it"
else
  cargo build --locked --workspace --bins "${cargo_args[@]}"
fi
ui/node_modules/.bin/tauri bundle "${bundle_args[@]}" --bundles deb --ci
deb="$(ls -t target/$dir/bundle/deb/*.deb | head -n 1)"
echo "app: target/$dir/almirah-desktop"
echo "deb: $deb ($(du -h "$deb" | cut -f1))"
