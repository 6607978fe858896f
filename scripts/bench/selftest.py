#!/usr/bin/env python3
"""Small self-test of the bench scripts (run by hand with the bench venv):

    target/bench-venv/bin/python scripts/bench/selftest.py [--items 5000 --queries 200]

Writes embedding-like synthetic vectors (DEPENDENCIES.md's model: rank-48
Gaussian times a fixed 48x384 matrix plus 0.1 noise, rows L2-normalised) to a
temporary folder in the ALMV format, runs chroma_vectors.py on them with a 50%
filter, checks the JSON, prints the headline figures and deletes everything.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import vecfile  # noqa: E402


def embedding_like(rows: int, dims: int, seed: int, w: np.ndarray) -> np.ndarray:
    rng = np.random.default_rng(seed)
    z = rng.standard_normal((rows, w.shape[0])).astype(np.float32)
    x = z @ w + 0.1 * rng.standard_normal((rows, dims)).astype(np.float32)
    return (x / np.linalg.norm(x, axis=1, keepdims=True)).astype(np.float32)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--items", type=int, default=5000)
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--dims", type=int, default=384)
    args = ap.parse_args()

    w = np.random.default_rng(0).standard_normal((48, args.dims)).astype(np.float32)
    with tempfile.TemporaryDirectory(prefix="almirah-bench-selftest-") as tmp:
        tmp = Path(tmp)
        vecfile.write(tmp / "items.almv", embedding_like(args.items, args.dims, 42, w))
        vecfile.write(tmp / "queries.almv", embedding_like(args.queries, args.dims, 7, w))
        assert vecfile.read(tmp / "items.almv").shape == (args.items, args.dims)
        out = tmp / "result.json"
        subprocess.run(
            [sys.executable, str(HERE / "chroma_vectors.py"), "--vectors", str(tmp / "items.almv"),
             "--queries", str(tmp / "queries.almv"), "--k", "10", "--filter-every", "2",
             "--workdir", str(tmp / "chroma"), "--out", str(out)],
            check=True, stdout=subprocess.DEVNULL,
        )
        r = json.loads(out.read_text())
        assert r["items"] == args.items and r["dims"] == args.dims, r
        assert r["filtered_items"] == (args.items + 1) // 2, r
        assert 0.5 <= r["recall_at_10"] <= 1.0, r
        assert 0.5 <= r["filtered_recall_at_10"] <= 1.0, r
        assert r["disk_bytes"] > args.items * args.dims * 4, r
        assert r["settings"]["collection_configuration"]["hnsw"]["space"] == "cosine", r
        keys = ["chroma_version", "items", "insert_s", "query_p50_ms", "query_p95_ms", "recall_at_10",
                "filtered_p50_ms", "filtered_p95_ms", "filtered_recall_at_10", "disk_bytes",
                "exact_numpy_p50_ms"]
        print(json.dumps({key: r[key] for key in keys}, indent=2))
        print("settings:", json.dumps(r["settings"]["collection_configuration"]))
    print("selftest ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
