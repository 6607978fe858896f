#!/usr/bin/env bash
# The Debian 12 packages Almirah runs for OCR of scanned PDFs, as child
# processes: poppler-utils (pdfimages, pdftoppm, pdfinfo) and tesseract 5.3
# with English and Hindi. About 20 s and 60 MB. Needs root (or sudo).
# Other languages: add tesseract-ocr-<lang> and list it in `[ocr] languages`.
set -euo pipefail
pkgs=(poppler-utils tesseract-ocr tesseract-ocr-eng tesseract-ocr-hin)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && { echo "OCR programs: all installed"; exit 0; }
if ! command -v apt-get >/dev/null; then
  echo "error: install ${pkgs[*]} with your package manager (macOS: brew install poppler tesseract tesseract-lang)" >&2
  exit 1
fi
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
echo "installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
