#!/usr/bin/env bash
# Fresh machine to first answers. Where a display exists (DISPLAY or
# WAYLAND_DISPLAY), build the desktop app and open it with sample-docs as a
# watched folder of a throw-away library; otherwise (or with --cli) fetch the
# model, build the CLI, index sample-docs into a throw-away library, and run
# a few searches and questions.
# Usage: scripts/run.sh [--cli] [data-dir]   (default: a temporary folder)
set -euo pipefail
cd "$(dirname "$0")/.."

cli=false
if [ "${1:-}" = "--cli" ]; then cli=true; shift; fi
if ! $cli && { [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; }; then
  scripts/desktop-build.sh
  home="${1:-$(mktemp -d)}"
  mkdir -p "$home/config/almirah"
  printf '[[folders]]\npath = "%s"\n' "$PWD/sample-docs" > "$home/config/almirah/config.toml"
  echo "desktop app; library and config under $home"
  XDG_CONFIG_HOME="$home/config" XDG_DATA_HOME="$home/data" exec target/debug/almirah-desktop
fi

scripts/fetch-models.sh
cargo build --release --locked -p almirah-cli
bin="${CARGO_TARGET_DIR:-target}/release/almirah"
data="${1:-$(mktemp -d)}"
echo "library: $data"

"$bin" --data-dir "$data" index sample-docs
"$bin" --data-dir "$data" status
for q in "how many days of earned leave per year" \
         "hotel cap in Hyderabad" \
         "personal days added to an official trip" \
         "how soon must a lost laptop be reported"; do
  echo
  echo "\$ almirah search \"$q\" -k 2"
  "$bin" --data-dir "$data" search "$q" -k 2
done

for q in "How many days of earned leave do I get per year?" \
         "What is the hostel fee for north-east scholarship holders?" \
         "What was the hostel fee for scholarship holders in 2024-25?" \
         "Who manages the person who leads Project Kestrel, and where is that manager's office?"; do
  echo
  echo "\$ almirah ask \"$q\""
  "$bin" --data-dir "$data" ask "$q"
done
