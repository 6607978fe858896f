#!/usr/bin/env python3
"""Chroma's side of the vector-index benchmark.

    python chroma_vectors.py --vectors items.almv --queries queries.almv \
        --k 10 --filter-every 2 --workdir DIR --out result.json

Reads precomputed vectors (ALMV files, see vecfile.py), loads them into a
fresh chromadb.PersistentClient collection in DIR (cosine HNSW, no embedding
function, so Chroma never embeds or downloads anything), and measures:

- insert_s: wall time of all `collection.add` calls (Chroma's local HNSW index
  is updated inside `add`, so this includes the index build);
- query_p50_ms / query_p95_ms: wall time of each `collection.query` call
  (one query vector, n_results=k, include=["distances"]);
- recall_at_10: mean |Chroma top-k ∩ exact top-k| / k, exact = numpy cosine
  over all items;
- filtered_*: the same with where={"half": True}, where item i carries
  {"half": True} iff i % filter_every == 0 (others carry no metadata), and
  recall against the exact top-k among those items only;
- disk_bytes: apparent size of every file under DIR after the insert;
- exact_numpy_p50_ms: for reference, one query's exact brute-force top-k in
  numpy (matrix-vector product + argpartition) over all items.

DIR must not already hold a Chroma database (it is created; pass --force to
wipe an existing one). Writes one JSON object to --out and prints it.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import sys
import time
from pathlib import Path

os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
import vecfile  # noqa: E402

COLLECTION = "almirah_bench"


def percentile_ms(seconds: list[float], p: float) -> float:
    return float(np.percentile(np.asarray(seconds) * 1000.0, p))


def dir_bytes(path: Path) -> tuple[int, int]:
    """(apparent bytes, allocated bytes) of every regular file under path."""
    apparent = allocated = 0
    for root, _dirs, files in os.walk(path):
        for name in files:
            st = os.lstat(os.path.join(root, name))
            apparent += st.st_size
            allocated += getattr(st, "st_blocks", 0) * 512
    return apparent, allocated


def normalise(x: np.ndarray) -> np.ndarray:
    n = np.linalg.norm(x, axis=1, keepdims=True)
    return x / np.maximum(n, 1e-12)


def exact_topk(items_n: np.ndarray, queries_n: np.ndarray, k: int, block: int = 128) -> np.ndarray:
    """Exact cosine top-k row indices (best first) for each query; inputs L2-normalised."""
    k = min(k, items_n.shape[0])
    out = np.empty((queries_n.shape[0], k), dtype=np.int64)
    for start in range(0, queries_n.shape[0], block):
        sims = queries_n[start : start + block] @ items_n.T
        part = np.argpartition(-sims, k - 1, axis=1)[:, :k]
        order = np.take_along_axis(sims, part, axis=1).argsort(axis=1)[:, ::-1]
        out[start : start + block] = np.take_along_axis(part, order, axis=1)
    return out


def recall(found: list[list[int]], truth: np.ndarray) -> float:
    scores = []
    for got, want in zip(found, truth):
        want_set = set(int(w) for w in want)
        scores.append(len(want_set.intersection(got)) / max(len(want_set), 1))
    return float(np.mean(scores)) if scores else float("nan")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--vectors", required=True, help="ALMV file of items (row i gets id str(i))")
    ap.add_argument("--queries", required=True, help="ALMV file of query vectors")
    ap.add_argument("--k", type=int, default=10)
    ap.add_argument("--out", required=True, help="result JSON path")
    ap.add_argument("--workdir", required=True, help="folder for the Chroma PersistentClient (created)")
    ap.add_argument("--filter-every", type=int, default=0,
                    help="item i carries {'half': true} iff i %% N == 0; 0 = no filtered run")
    ap.add_argument("--batch-size", type=int, default=0, help="add() batch; 0 = client.get_max_batch_size()")
    ap.add_argument("--ef-construction", type=int, default=None, help="override Chroma's default (100)")
    ap.add_argument("--ef-search", type=int, default=None, help="override Chroma's default (100)")
    ap.add_argument("--max-neighbors", type=int, default=None, help="HNSW M; override Chroma's default (16)")
    ap.add_argument("--force", action="store_true", help="wipe --workdir first if it is not empty")
    args = ap.parse_args(argv)

    import chromadb

    workdir = Path(args.workdir)
    if workdir.exists() and any(workdir.iterdir()):
        if not args.force:
            ap.error(f"--workdir {workdir} is not empty (use --force to wipe it)")
        shutil.rmtree(workdir)
    workdir.mkdir(parents=True, exist_ok=True)

    items = vecfile.read(args.vectors)
    queries = vecfile.read(args.queries)
    if items.shape[1] != queries.shape[1]:
        ap.error(f"items have {items.shape[1]} dims, queries {queries.shape[1]}")
    n, dims = items.shape
    k = args.k

    client = chromadb.PersistentClient(
        path=str(workdir), settings=chromadb.Settings(anonymized_telemetry=False, allow_reset=False)
    )
    metadata: dict = {"hnsw:space": "cosine"}
    if args.ef_construction is not None:
        metadata["hnsw:construction_ef"] = args.ef_construction
    if args.ef_search is not None:
        metadata["hnsw:search_ef"] = args.ef_search
    if args.max_neighbors is not None:
        metadata["hnsw:M"] = args.max_neighbors
    collection = client.create_collection(COLLECTION, metadata=metadata, embedding_function=None)

    max_batch = int(client.get_max_batch_size())
    batch = args.batch_size or max_batch
    if batch > max_batch:
        ap.error(f"--batch-size {batch} exceeds Chroma's maximum {max_batch}")

    every = args.filter_every
    ids = [str(i) for i in range(n)]
    metadatas = [({"half": True} if every and i % every == 0 else None) for i in range(n)]

    # Insert (Chroma's local HNSW index is built inside add()).
    t0 = time.perf_counter()
    for start in range(0, n, batch):
        end = min(start + batch, n)
        kwargs = {"ids": ids[start:end], "embeddings": items[start:end]}
        if every:
            kwargs["metadatas"] = metadatas[start:end]
        collection.add(**kwargs)
    insert_s = time.perf_counter() - t0
    if collection.count() != n:
        raise SystemExit(f"Chroma holds {collection.count()} items, expected {n}")
    disk_bytes, disk_alloc_bytes = dir_bytes(workdir)

    # Ground truth.
    items_n = normalise(items)
    queries_n = normalise(queries)
    truth = exact_topk(items_n, queries_n, k)

    exact_times = []
    for q in queries_n[: min(len(queries_n), 200)]:
        t = time.perf_counter()
        sims = items_n @ q
        top = np.argpartition(-sims, min(k, n) - 1)[:k]
        top[np.argsort(-sims[top])]
        exact_times.append(time.perf_counter() - t)

    include = ["distances"]

    def run(where: dict | None) -> tuple[list[float], list[list[int]], float]:
        # One untimed warm-up query so a lazily loaded index is not charged to query 1.
        t = time.perf_counter()
        collection.query(query_embeddings=[queries[0]], n_results=k, include=include, where=where)
        first_ms = (time.perf_counter() - t) * 1000.0
        times, found = [], []
        for q in queries:
            t = time.perf_counter()
            res = collection.query(query_embeddings=[q], n_results=k, include=include, where=where)
            times.append(time.perf_counter() - t)
            found.append([int(x) for x in res["ids"][0]])
        return times, found, first_ms

    times, found, first_ms = run(None)
    result = {
        "chroma_version": chromadb.__version__,
        "items": n,
        "dims": dims,
        "queries": int(queries.shape[0]),
        "k": k,
        "insert_s": insert_s,
        "items_per_s": n / insert_s if insert_s > 0 else None,
        "query_p50_ms": percentile_ms(times, 50),
        "query_p95_ms": percentile_ms(times, 95),
        "query_mean_ms": float(np.mean(times) * 1000.0),
        "first_query_ms": first_ms,
        "recall_at_10": recall(found, truth),
        "filtered_items": None,
        "filtered_p50_ms": None,
        "filtered_p95_ms": None,
        "filtered_recall_at_10": None,
        "disk_bytes": disk_bytes,
        "disk_alloc_bytes": disk_alloc_bytes,
        "exact_numpy_p50_ms": percentile_ms(exact_times, 50),
    }

    if every:
        keep = np.arange(0, n, every)
        sub_truth = keep[exact_topk(items_n[keep], queries_n, k)]
        ftimes, ffound, ffirst = run({"half": True})
        result.update(
            filtered_items=int(len(keep)),
            filtered_p50_ms=percentile_ms(ftimes, 50),
            filtered_p95_ms=percentile_ms(ftimes, 95),
            filtered_first_query_ms=ffirst,
            filtered_recall_at_10=recall(ffound, sub_truth),
        )

    config = collection.configuration
    result["settings"] = {
        "client": "chromadb.PersistentClient (local, embedded)",
        "collection_metadata": metadata,
        "collection_configuration": json.loads(json.dumps(config, default=str)),
        "embedding_function": None,
        "distance": "cosine",
        "add_batch_size": batch,
        "max_batch_size": max_batch,
        "ids": "str(row index)",
        "filter": (f"item i has metadata {{'half': True}} iff i % {every} == 0, others none; "
                   "query where={'half': True}") if every else None,
        "query_include": include,
        "query_vectors_per_call": 1,
        "warmup_queries": 1,
        "ground_truth": "numpy exact cosine top-k (float32, L2-normalised)",
        "recall": "mean over queries of |returned ids ∩ exact top-k ids| / k",
        "disk": "sum of st_size of all files under workdir after insert",
        "anonymized_telemetry": False,
    }
    result["versions"] = {
        "python": platform.python_version(),
        "numpy": np.__version__,
        "chromadb": chromadb.__version__,
        "cpu_count": os.cpu_count(),
        "platform": platform.platform(),
    }

    Path(args.out).write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
