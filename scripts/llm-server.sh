#!/usr/bin/env bash
# Run a local llama.cpp server (OpenAI-compatible) on 127.0.0.1 in the
# background, with a model from scripts/fetch-llm.sh.
#
# Usage: scripts/llm-server.sh start  [0.5b|1.5b] [--port N]
#        scripts/llm-server.sh stop   [--port N]
#        scripts/llm-server.sh status [--port N]
#
# Defaults: model 0.5b, port 8089 (or ALMIRAH_LLM_PORT). `start` fetches the
# model if needed, starts scripts/llm/serve.py, waits for /health to say ok
# and prints the base URL (http://127.0.0.1:PORT/v1) as its last stdout line.
# Starting a server that is already up with the same model just prints the URL.
#
# Files (under ALMIRAH_LLM_DIR, default <repo>/models/llm):
#   run/server-PORT.pid, .log, .model (which model), .lock
#
# Tuning: ALMIRAH_LLM_CTX (8192), ALMIRAH_LLM_THREADS (2),
#         ALMIRAH_LLM_PARALLEL (1), ALMIRAH_LLM_START_TIMEOUT (120 s).
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_DIR="$(dirname "$SCRIPT_DIR")"
LLM_DIR="${ALMIRAH_LLM_DIR:-$REPO_DIR/models/llm}"
RUN_DIR="$LLM_DIR/run"
PY="$LLM_DIR/venv/bin/python"
CTX="${ALMIRAH_LLM_CTX:-8192}"
THREADS="${ALMIRAH_LLM_THREADS:-2}"
PARALLEL="${ALMIRAH_LLM_PARALLEL:-1}"
TIMEOUT="${ALMIRAH_LLM_START_TIMEOUT:-120}"

log() { echo "llm-server: $*" >&2; }
die() { log "error: $*"; exit 1; }
usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0" >&2; exit "${1:-2}"; }

CMD="${1:-}"
[[ -n "$CMD" ]] || usage
shift
MODEL="0.5b"
PORT="${ALMIRAH_LLM_PORT:-8089}"
while [[ $# -gt 0 ]]; do
    case "$1" in
        0.5b|0.5B|1.5b|1.5B) MODEL="${1,,}" ;;
        --port) [[ $# -ge 2 ]] || die "--port needs a value"; PORT="$2"; shift ;;
        --port=*) PORT="${1#--port=}" ;;
        -h|--help) usage 0 ;;
        *) die "unknown argument '$1'" ;;
    esac
    shift
done
[[ "$PORT" =~ ^[0-9]+$ ]] && (( PORT > 0 && PORT < 65536 )) || die "bad port '$PORT'"

PID_FILE="$RUN_DIR/server-$PORT.pid"
LOG_FILE="$RUN_DIR/server-$PORT.log"
MODEL_FILE="$RUN_DIR/server-$PORT.model"
BASE="http://127.0.0.1:$PORT"

# Pid of our server on $PORT, if it is alive (and really is serve.py).
running_pid() {
    local pid
    pid="$(cat "$PID_FILE" 2>/dev/null || true)"
    [[ "$pid" =~ ^[0-9]+$ ]] || return 1
    kill -0 "$pid" 2>/dev/null || return 1
    grep -q 'serve\.py' "/proc/$pid/cmdline" 2>/dev/null || return 1
    echo "$pid"
}

healthy() {
    curl -sf --max-time 2 "$BASE/health" 2>/dev/null | grep -q '"ok"'
}

do_status() {
    local pid
    if pid="$(running_pid)"; then
        if healthy; then
            echo "running: pid $pid, model $(cat "$MODEL_FILE" 2>/dev/null || echo '?'), $BASE/v1"
            return 0
        fi
        echo "starting or unhealthy: pid $pid, log $LOG_FILE"
        return 1
    fi
    echo "not running on port $PORT"
    return 3
}

do_stop() {
    local pid i
    if ! pid="$(running_pid)"; then
        log "not running on port $PORT"
        rm -f "$PID_FILE" "$MODEL_FILE"
        return 0
    fi
    kill -TERM "$pid" 2>/dev/null || true
    for i in $(seq 1 50); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.2
    done
    if kill -0 "$pid" 2>/dev/null; then
        log "pid $pid ignored SIGTERM for 10 s, sending SIGKILL"
        kill -KILL "$pid" 2>/dev/null || true
    fi
    rm -f "$PID_FILE" "$MODEL_FILE"
    log "stopped pid $pid (port $PORT)"
}

do_start() {
    local pid gguf t0 waited
    mkdir -p "$RUN_DIR"
    # Concurrent `start`s on one port: the later ones wait, then find it up.
    exec 8>"$RUN_DIR/server-$PORT.lock"
    flock 8
    if pid="$(running_pid)"; then
        local have
        have="$(cat "$MODEL_FILE" 2>/dev/null || true)"
        if [[ "$have" != "$MODEL" ]]; then
            die "port $PORT already serves model '$have' (pid $pid); run: $0 stop --port $PORT"
        fi
        log "already running: pid $pid, model $MODEL"
    else
        if healthy; then
            die "something else already answers on $BASE (not started by this script)"
        fi
        gguf="$("$SCRIPT_DIR/fetch-llm.sh" "$MODEL" | tail -n 1)"
        [[ -f "$gguf" ]] || die "fetch-llm.sh gave no model file"
        [[ -x "$PY" ]] || die "no venv python at $PY (fetch-llm.sh should have made it)"
        rm -f "$PID_FILE"
        echo "$MODEL" >"$MODEL_FILE"
        log "starting $MODEL on $BASE (ctx $CTX, threads $THREADS, log $LOG_FILE)"
        # setsid: own session, so a Ctrl-C in the calling terminal leaves it be;
        # -w: if setsid has to fork, it waits, so $! lives as long as the server.
        # serve.py writes the pid file itself (its own pid, used by `stop`).
        # 8>&-: the server must not hold the start lock.
        setsid -w "$PY" "$SCRIPT_DIR/llm/serve.py" \
            --model "$gguf" --host 127.0.0.1 --port "$PORT" \
            --ctx-size "$CTX" --threads "$THREADS" --parallel "$PARALLEL" \
            --alias "qwen2.5-coder-$MODEL" --pid-file "$PID_FILE" \
            </dev/null >"$LOG_FILE" 2>&1 8>&- &
        pid=$!
    fi

    t0=$SECONDS
    local t0_ms=${EPOCHREALTIME/./}
    until healthy; do
        if ! kill -0 "$pid" 2>/dev/null; then
            log "error: the server exited during start-up; last lines of $LOG_FILE:"
            tail -n 30 "$LOG_FILE" >&2 || true
            rm -f "$PID_FILE" "$MODEL_FILE"
            exit 1
        fi
        waited=$(( SECONDS - t0 ))
        if (( waited >= TIMEOUT )); then
            log "error: $BASE/health not ok after ${TIMEOUT}s; last lines of $LOG_FILE:"
            tail -n 30 "$LOG_FILE" >&2 || true
            do_stop
            exit 1
        fi
        sleep 0.25
    done
    local ms=$(( (${EPOCHREALTIME/./} - t0_ms) / 1000 ))
    log "healthy after $(( ms / 1000 )).$(printf '%03d' $(( ms % 1000 )))s: pid $pid"
    echo "$BASE/v1"
}

case "$CMD" in
    start) do_start ;;
    stop) do_stop ;;
    status) do_status ;;
    -h|--help|help) usage 0 ;;
    *) log "unknown command '$CMD'"; usage ;;
esac
