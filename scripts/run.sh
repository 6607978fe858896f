#!/usr/bin/env bash
# Fresh machine to first answers: fetch the model, build, index sample-docs
# into a throw-away library, and run a few searches.
# Usage: scripts/run.sh [data-dir]   (default: a temporary folder)
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/fetch-models.sh
cargo build --release --locked -p almirah-cli
bin=target/release/almirah
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
