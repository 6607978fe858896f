#!/usr/bin/env bash
# Writes the office-format fixtures of issue 20 (committed; the tests never
# run this): twelve real pages of the 18F handbook converted by pandoc to
# .docx, .odt and .html beside their .md originals, spreadsheets made from
# sample-docs/university/fees-2026-27.csv, a workbook with date cells, and a
# hand-made Word document (scripts/make-office-fixtures.py).
#
# Usage: scripts/make-office-fixtures.sh      (needs pandoc: apt-get install pandoc)
#
# The Markdown pandoc reads has the template tags the indexer removes
# already removed (the strip_templates example of almirah-extract), so both
# read the same Markdown; pandoc's gfm reader without the emoji extension
# (":bow:" stays text, as in pulldown-cmark) and with attributes (heading
# ids "{#id}", as pulldown-cmark reads them). SOURCE_DATE_EPOCH (the 18F
# snapshot's commit time) fixes the dates pandoc writes into the packages.
# Written with pandoc 2.17.1.1 (Debian 12).
set -euo pipefail
cd "$(dirname "$0")/.."
corpora="${ALMIRAH_CORPORA:-$(cd .. && pwd)/shared/corpora}"
src="$corpora/handbook_18f/pages"
out=crates/extract/tests/fixtures/office
pages=(
  travel-and-leave/paid-parental-leave.md
  travel-and-leave/voluntary-leave-transfer-program.md
  travel-and-leave/fmla.md
  travel-and-leave/going-out-of-office.md
  performance-management/dates.md
  performance-management/employee-resources.md
  tools/slack/guidelines.md
  tools/zoom.md
  getting-started/classes/meetings-and-meeting-tools.md
  updating-the-handbook/edit-locally.md
  general-information-and-resources/tech-policies/fitara.md
  general-information-and-resources/business-and-ops-policies/top-secret.md
)
command -v pandoc >/dev/null || { echo "pandoc is missing: apt-get install pandoc" >&2; exit 1; }
export SOURCE_DATE_EPOCH=1740696674
target="${CARGO_TARGET_DIR:-target}"
cargo build -q -p almirah-extract --example strip_templates
strip="$target/debug/examples/strip_templates"
from="gfm-emoji+attributes+yaml_metadata_block"
mkdir -p "$out/handbook"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
for rel in "${pages[@]}"; do
  name="$(basename "$rel" .md)"
  cp "$src/$rel" "$out/handbook/$name.md"
  chmod 644 "$out/handbook/$name.md"
  "$strip" "$src/$rel" > "$tmp/$name.md"
  pandoc -f "$from" "$tmp/$name.md" -o "$out/handbook/$name.docx"
  pandoc -f "$from" "$tmp/$name.md" -o "$out/handbook/$name.odt"
  pandoc -f "$from" -s "$tmp/$name.md" -o "$out/handbook/$name.html"
done
echo "wrote ${#pages[@]} pages x 3 formats to $out/handbook"

venv="$target/office-fixtures-venv"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install -q openpyxl==3.1.5 odfpy==1.4.1 python-docx==1.2.0 msoffcrypto-tool==6.1.0
"$venv/bin/python" scripts/make-office-fixtures.py
