#!/usr/bin/env bash
# Writes a committed library fixture of the on-disk format the given
# `almirah` binary writes (STYLE convention 7: a fixture of each released
# format, opened by the compatibility test crates/core/tests/format.rs).
#
# Usage: scripts/make-format-fixture.sh ALMIRAH_BINARY VERSION
#   e.g. scripts/make-format-fixture.sh /tmp/almirah-v1 1   (a build of the commit before format v2)
#        scripts/make-format-fixture.sh target/debug/almirah 2
#
# The sources are crates/core/tests/fixtures/format-sources (an override
# target, an hr-only document, a newer version that fails to parse and a
# CSV table; since format v6 also web/: an HTML page and a workbook of
# two sheets, after every older file so ids stay comparable). They are copied to /tmp/almirah-format-sources first (file
# times set to 2026-01-15), the
# path the fixture records and the test copies them back to. The hash
# embedder (64 dims) keeps the fixture small and free of model weights.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="$1"
version="$2"
src=/tmp/almirah-format-sources
out="crates/core/tests/fixtures/format-v$version"
rm -rf "$src" "$out"
cp -r crates/core/tests/fixtures/format-sources "$src"
# A fixed file time: undated documents take their issue date from it.
find "$src" -type f -exec touch -d 2026-01-15T00:00:00Z {} +
mkdir -p "$out"
cfg="$(mktemp)"
printf '[embedder]\nprovider = "hash"\ndimensions = 64\n' > "$cfg"
"$bin" --config "$cfg" --data-dir "$out" index "$src" || [ $? -eq 2 ]   # exit 2: the broken PDF
"$bin" --config "$cfg" --data-dir "$out" docs set travel-circular --session 2026-27
"$bin" --config "$cfg" --data-dir "$out" status
rm -f "$out/lock.mdb" "$cfg"
echo "wrote $out (format v$version)"
