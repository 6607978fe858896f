#!/usr/bin/env bash
# End-to-end test of the desktop app in a real window under Xvfb, driven
# through WebDriver (tauri-driver + WebKitWebDriver; see DEPENDENCIES.md).
# It builds nothing: pass the built app (default target/debug/almirah-desktop).
# Installs what it needs: tauri-driver (crates registry, into target/tools),
# selenium (PyPI, into target/e2e-venv); xvfb and webkit2gtk-driver come from
# apt (scripts/desktop-deps.sh). Screenshots of every step go to
# $ALMIRAH_E2E_OUT (default target/e2e-screenshots).
# Usage: scripts/desktop-e2e.sh [APP]
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
app="${1:-target/debug/almirah-desktop}"
out="${ALMIRAH_E2E_OUT:-$root/target/e2e-screenshots}"
[ -x "$app" ] || { echo "error: no app at $app: run scripts/desktop-build.sh first" >&2; exit 1; }
app="$(realpath "$app")"
for tool in Xvfb WebKitWebDriver import; do
  command -v "$tool" >/dev/null || { echo "error: $tool is missing: run scripts/desktop-deps.sh" >&2; exit 1; }
done

tools="$root/target/tools"
if [ ! -x "$tools/bin/tauri-driver" ]; then
  echo "installing tauri-driver 2 into $tools"
  cargo install tauri-driver --locked --version '^2' --root "$tools" -q
fi
venv="$root/target/e2e-venv"
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import selenium' 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q 'selenium==4.48.0'
fi

# A temporary library: config, data and cache under one folder; a copy of
# sample-docs is the watched folder (the test drops a new circular into it).
tmp="$(mktemp -d)"
driver_pid="" xvfb_pid=""
cleanup() {
  # tauri-driver runs in its own process group (setsid): stop it, the app
  # and WebKitWebDriver, then the X server.
  [ -n "$driver_pid" ] && kill -- -"$driver_pid" 2>/dev/null || true
  [ -n "$xvfb_pid" ] && kill "$xvfb_pid" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT
export XDG_CONFIG_HOME="$tmp/config" XDG_DATA_HOME="$tmp/data" XDG_CACHE_HOME="$tmp/cache"
unset ALMIRAH_CONFIG ALMIRAH_DATA_DIR
mkdir -p "$XDG_CONFIG_HOME/almirah" "$tmp/watched"
cp -r sample-docs "$tmp/watched/policies"
printf '[[folders]]\npath = "%s"\n' "$tmp/watched/policies" > "$XDG_CONFIG_HOME/almirah/config.toml"
export ALMIRAH_MODEL_DIR="${ALMIRAH_MODEL_DIR:-$root/models/all-MiniLM-L6-v2}"

port="${ALMIRAH_E2E_PORT:-4444}"
if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
  echo "error: port $port is taken (an old tauri-driver?); set ALMIRAH_E2E_PORT" >&2
  exit 1
fi
# Our own X server (not xvfb-run), so the test can capture the screen
# itself: WebKitWebDriver's screenshot call was seen to hang in CI.
n=99
while [ -e "/tmp/.X11-unix/X$n" ] || [ -e "/tmp/.X$n-lock" ]; do n=$((n + 1)); done
export DISPLAY=":$n"
Xvfb "$DISPLAY" -screen 0 1280x900x24 -nolisten tcp >"$tmp/xvfb.log" 2>&1 &
xvfb_pid=$!
for _ in $(seq 1 50); do [ -e "/tmp/.X11-unix/X$n" ] && break; sleep 0.1; done
setsid "$tools/bin/tauri-driver" --port "$port" --native-port $((port + 1)) >"$tmp/driver.log" 2>&1 &
driver_pid=$!
# Wait for both ports: tauri-driver's own and WebKitWebDriver's behind it. A
# session asked for before WebKitWebDriver listens is dropped without a
# response (CI once failed so, with RemoteDisconnected).
for p in "$port" $((port + 1)); do
  up=no
  for _ in $(seq 1 150); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then up=yes; break; fi
    sleep 0.2
  done
  if [ "$up" = no ]; then
    echo "error: nothing listens on port $p after 30 s (tauri-driver or WebKitWebDriver did not start)" >&2
    tail -n 40 "$tmp/driver.log" >&2
    exit 1
  fi
done

set +e
timeout 900 "$venv/bin/python" -u scripts/desktop/e2e.py --display "$DISPLAY" --app "$app" --watched "$tmp/watched/policies" --out "$out" \
  --driver "http://127.0.0.1:$port"
status=$?
set -e
if [ "$status" -ne 0 ]; then
  echo "--- tauri-driver log" >&2
  tail -n 40 "$tmp/driver.log" >&2
fi
echo "screenshots: $out"
exit "$status"
