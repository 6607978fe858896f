#!/usr/bin/env bash
# Install the built .deb on this machine and check that the installed app
# starts under Xvfb with nothing but the package: the bundled embedder
# weights, a throw-away config watching sample-docs, no repository paths.
# It passes when the app is still running after 40 s and its library holds
# the indexed sample-docs (read with the CLI, if built). Needs root or sudo.
# Usage: scripts/desktop-deb-check.sh [DEB]
set -euo pipefail
cd "$(dirname "$0")/.."
deb="${1:-$(ls -t target/*/bundle/deb/*.deb 2>/dev/null | head -n 1)}"
[ -f "$deb" ] || { echo "error: no .deb: run scripts/desktop-build.sh" >&2; exit 1; }
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
echo "installing $deb ($(du -h "$deb" | cut -f1))"
$sudo apt-get install -y -qq "./$deb" >/dev/null
command -v almirah-desktop
ls -l /usr/lib/Almirah/models/all-MiniLM-L6-v2/

tmp="$(mktemp -d)"
pid=""
trap '[ -n "$pid" ] && kill -- -"$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
mkdir -p "$tmp/config/almirah"
cp -r sample-docs "$tmp/docs"
printf '[[folders]]\npath = "%s"\n' "$tmp/docs" > "$tmp/config/almirah/config.toml"
# Its own session (setsid), so the app, xvfb-run and Xvfb stop together.
setsid env -u ALMIRAH_MODEL_DIR XDG_CONFIG_HOME="$tmp/config" XDG_DATA_HOME="$tmp/data" \
  xvfb-run -a almirah-desktop >"$tmp/app.log" 2>&1 &
pid=$!
sleep 40
if ! kill -0 "$pid" 2>/dev/null; then
  echo "error: the installed app exited:" >&2
  cat "$tmp/app.log" >&2
  exit 1
fi
echo "the installed app is running after 40 s (pid $pid)"
ls -l "$tmp/data/almirah/"
cli="target/release/almirah"
if [ -x "$cli" ]; then
  "$cli" --data-dir "$tmp/data/almirah" --config "$tmp/config/almirah/config.toml" status | head -n 8
fi
