#!/usr/bin/env python3
"""Run llama.cpp's HTTP server (OpenAI-compatible) from the PyPI `xllamacpp`
wheel, and block until SIGTERM/SIGINT.

Run with the venv python that scripts/fetch-llm.sh creates:

    models/llm/venv/bin/python scripts/llm/serve.py --model M.gguf --port 8089

Endpoints: /health, /v1/models, /v1/chat/completions (tools,
response_format), /v1/completions, /v1/embeddings (with --embeddings), ...
Usually started in the background by scripts/llm-server.sh.
"""
import argparse
import os
import signal
import sys
import threading


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", required=True, help="path of the GGUF file")
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=8089)
    ap.add_argument("--ctx-size", type=int, default=8192, help="total context (tokens)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--parallel", type=int, default=1,
                    help="slots; each gets ctx-size/parallel tokens")
    ap.add_argument("--alias", default=None, help="model name reported by /v1/models")
    ap.add_argument("--embeddings", action="store_true", help="enable /v1/embeddings")
    ap.add_argument("--cache-ram-mib", type=int, default=1024,
                    help="RAM for llama.cpp's prompt cache (its default is 8192)")
    ap.add_argument("--pid-file", default=None, help="write our pid here; removed on exit")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()

    if not os.path.isfile(args.model):
        print(f"serve.py: no such model file: {args.model}", file=sys.stderr)
        return 2

    # The wheel's ggml uses OpenMP, whose threads spin-wait by default. With
    # 2 threads on 2 cores, any other CPU load (cargo, tests) then slows
    # generation ~10x (1.5B: ~1.3 instead of ~16 tokens/s); PASSIVE keeps it
    # at ~7. Must be set before the library loads; export it to override.
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    import xllamacpp as xlc

    p = xlc.CommonParams()
    p.model.path = args.model
    p.hostnames = [args.host]
    p.port = args.port
    p.n_ctx = args.ctx_size
    p.n_parallel = args.parallel
    p.cpuparams.n_threads = args.threads
    p.cpuparams_batch.n_threads = args.threads
    p.use_jinja = True  # the GGUF's chat template, needed for `tools`
    p.ui = False
    p.cache_ram_mib = args.cache_ram_mib
    p.n_gpu_layers = 0  # CPU-only wheel; avoids probing for devices
    if args.alias:
        p.model_alias = {args.alias}
    if args.embeddings:
        p.embedding = True
    if args.verbose:
        p.verbosity = 4  # llama.cpp's debug level (default 3: info)

    stop = threading.Event()

    def on_signal(signum, _frame):
        stop.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGHUP, on_signal)

    if args.pid_file:
        with open(args.pid_file, "w") as f:
            f.write(f"{os.getpid()}\n")

    print(f"serve.py: xllamacpp {xlc.__version__}, model {args.model}, "
          f"http://{args.host}:{args.port}, ctx {args.ctx_size}, threads {args.threads}, "
          f"parallel {args.parallel}", file=sys.stderr, flush=True)
    code = 0
    try:
        # Loads the model and starts the HTTP threads; raises RuntimeError when
        # the model does not load or the port cannot be bound (see the log).
        server = xlc.Server(p)
        print(f"serve.py: listening on {server.listening_address}", file=sys.stderr, flush=True)
        while not stop.wait(1.0):
            pass
        print("serve.py: stopping", file=sys.stderr, flush=True)
    except BaseException as e:  # noqa: BLE001 - report, clean up, exit non-zero
        print(f"serve.py: error: {e!r}", file=sys.stderr, flush=True)
        code = 1
    finally:
        if args.pid_file:
            try:
                os.unlink(args.pid_file)
            except FileNotFoundError:
                pass
        sys.stdout.flush()
        sys.stderr.flush()
    # The native server threads do not join cleanly from Python; leave now.
    os._exit(code)


if __name__ == "__main__":
    sys.exit(main())
