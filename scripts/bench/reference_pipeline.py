#!/usr/bin/env python3
"""The whole-pipeline reference: what a Python + Chroma stack does to index a
folder of Markdown and answer queries, honestly and with the same model as
Almirah's built-in embedder.

    python reference_pipeline.py --docs DIR [--docs DIR2 ...] --queries queries.txt \
        --workdir DIR --out result.json [--limit-files N] [--threads 0]

1. Walk each --docs folder (sorted, recursively) for *.md and *.markdown files.
2. Chunk: strip YAML (---) or TOML (+++) front matter; split on ATX headings
   (# .. ######, outside fenced code blocks), one chunk per heading section
   (heading line included, text before the first heading is a section too);
   a section longer than 1,200 characters is split on paragraph boundaries
   (blank lines), packing whole paragraphs up to 1,200 characters; a paragraph
   longer than that is split on lines, then cut every 1,200 characters. No
   overlap, no minimum size; sections with nothing besides the heading are
   dropped. Template tags ({% %}, {{ }}) are kept (a generic stack does not
   know them); Almirah strips them.
3. Embed every chunk with all-MiniLM-L6-v2 (fp32 ONNX built from the same
   model.safetensors as Almirah's, see build_minilm_onnx.py) on onnxruntime's
   CPU provider: tokenizer.json truncated at 256 word pieces, chunks sorted by
   length and run in batches of 32 each padded to its longest, mean pooling,
   L2 normalisation.
4. Upsert into a chromadb.PersistentClient collection (cosine HNSW, Chroma's
   defaults otherwise, embedding_function=None) with the precomputed vectors,
   the chunk text as the document and {path, heading, ordinal} metadata, in
   batches of Chroma's maximum batch size.
5. For each query line: embed it (same embedder) and query k=10 with
   include=["documents", "metadatas", "distances"]; the end-to-end wall time
   of embed + query is the latency (one untimed warm-up query first).

index_s is the wall time of steps 1-4 (model loading excluded, as in
Almirah's bench, and reported as model_load_s). Writes JSON to --out.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import sys
import time
from pathlib import Path

os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
import minilm  # noqa: E402

MAX_CHARS = 1200
K = 10
COLLECTION = "almirah_reference"
EXTENSIONS = (".md", ".markdown")

HEADING = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*#*[ \t]*$")
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


def strip_front_matter(text: str) -> str:
    for mark in ("---", "+++"):
        if text.startswith(mark + "\n") or text.startswith(mark + "\r\n"):
            lines = text.splitlines(keepends=True)
            for i in range(1, len(lines)):
                if lines[i].strip() in (mark, "...") and (mark == "---" or lines[i].strip() == mark):
                    return "".join(lines[i + 1 :])
            return text
    return text


def split_sections(text: str) -> list[tuple[str, str, bool]]:
    """(heading text, section text, has body) per heading section, in order."""
    sections: list[tuple[str, list[str]]] = [("", [])]
    fence: str | None = None
    for line in text.splitlines():
        m = FENCE.match(line)
        if m:
            marker = m.group(1)
            if fence is None:
                fence = marker[0] * 3
            elif marker.startswith(fence):
                fence = None
        elif fence is None:
            h = HEADING.match(line)
            if h:
                sections.append(((h.group(2) or "").strip(), [line]))
                continue
        sections[-1][1].append(line)
    out = []
    for i, (heading, lines) in enumerate(sections):
        body_lines = lines[1:] if (i > 0) else lines
        has_body = any(x.strip() for x in body_lines)
        out.append((heading, "\n".join(lines).strip(), has_body))
    return out


def split_long(section: str, max_chars: int = MAX_CHARS) -> list[str]:
    if len(section) <= max_chars:
        return [section]
    pieces: list[str] = []
    for para in re.split(r"\n[ \t]*\n", section):
        para = para.strip("\n")
        if not para.strip():
            continue
        if len(para) <= max_chars:
            pieces.append(para)
            continue
        for line in para.split("\n"):  # over-long paragraph: lines, then hard cuts
            for start in range(0, max(len(line), 1), max_chars):
                if line[start : start + max_chars].strip():
                    pieces.append(line[start : start + max_chars])
    chunks: list[str] = []
    current = ""
    for piece in pieces:
        joined = f"{current}\n\n{piece}" if current else piece
        if len(joined) <= max_chars:
            current = joined
        else:
            if current:
                chunks.append(current)
            current = piece
    if current:
        chunks.append(current)
    return chunks


def chunk_markdown(text: str, max_chars: int = MAX_CHARS) -> list[tuple[str, str]]:
    """(heading, chunk text) pairs for one Markdown file."""
    out = []
    for heading, section, has_body in split_sections(strip_front_matter(text)):
        if not has_body:
            continue
        for chunk in split_long(section, max_chars):
            if chunk.strip():
                out.append((heading, chunk))
    return out


def walk(docs: list[Path], limit: int | None) -> list[tuple[int, Path, Path]]:
    files = []
    for d_index, root in enumerate(docs):
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames.sort()
            for name in sorted(filenames):
                if name.lower().endswith(EXTENSIONS):
                    p = Path(dirpath) / name
                    files.append((d_index, root, p))
    return files[:limit] if limit else files


def pct(seconds: list[float], p: float) -> float:
    return float(np.percentile(np.asarray(seconds) * 1000.0, p))


def dir_bytes(path: Path) -> int:
    return sum(os.lstat(os.path.join(r, f)).st_size for r, _, fs in os.walk(path) for f in fs)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--docs", action="append", required=True, type=Path, help="folder of Markdown (repeatable)")
    ap.add_argument("--queries", required=True, type=Path, help="text file, one query per non-empty line")
    ap.add_argument("--workdir", required=True, type=Path, help="folder for the Chroma PersistentClient (created)")
    ap.add_argument("--out", required=True, type=Path)
    ap.add_argument("--limit-files", type=int, default=None, help="index only the first N files (sorted walk)")
    ap.add_argument("--threads", type=int, default=0, help="onnxruntime intra-op threads; 0 = its default")
    ap.add_argument("--onnx", type=Path, default=minilm.ONNX_PATH)
    ap.add_argument("--model-dir", type=Path, default=minilm.MODEL_DIR)
    ap.add_argument("--force", action="store_true", help="wipe --workdir first if it is not empty")
    args = ap.parse_args(argv)

    import chromadb
    import onnxruntime
    import tokenizers

    workdir: Path = args.workdir
    if workdir.exists() and any(workdir.iterdir()):
        if not args.force:
            ap.error(f"--workdir {workdir} is not empty (use --force to wipe it)")
        shutil.rmtree(workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    queries = [q.strip() for q in args.queries.read_text(encoding="utf-8").splitlines() if q.strip()]
    if not queries:
        ap.error(f"{args.queries} has no queries")

    t = time.perf_counter()
    embedder = minilm.OnnxEmbedder(args.onnx, args.model_dir, batch=minilm.BATCH, threads=args.threads)
    client = chromadb.PersistentClient(path=str(workdir), settings=chromadb.Settings(anonymized_telemetry=False))
    collection = client.create_collection(COLLECTION, metadata={"hnsw:space": "cosine"}, embedding_function=None)
    max_batch = int(client.get_max_batch_size())
    model_load_s = time.perf_counter() - t

    # 1-2: walk, read, chunk.
    t0 = time.perf_counter()
    files = walk(args.docs, args.limit_files)
    ids: list[str] = []
    texts: list[str] = []
    metas: list[dict] = []
    total_bytes = 0
    failures = []
    for d_index, root, path in files:
        try:
            raw = path.read_bytes()
            text = raw.decode("utf-8", errors="replace")
        except OSError as e:
            failures.append(f"{path}: {e}")
            continue
        total_bytes += len(raw)
        rel = path.relative_to(root).as_posix()
        for ordinal, (heading, chunk) in enumerate(chunk_markdown(text)):
            ids.append(f"{d_index}:{rel}#{ordinal}")
            texts.append(chunk)
            metas.append({"path": rel, "heading": heading, "ordinal": ordinal})
    t1 = time.perf_counter()

    # 3: embed.
    vectors = embedder.embed(texts) if texts else np.zeros((0, minilm.DIMS), dtype=np.float32)
    t2 = time.perf_counter()

    # 4: upsert.
    for start in range(0, len(ids), max_batch):
        end = start + max_batch
        collection.upsert(ids=ids[start:end], embeddings=vectors[start:end],
                          documents=texts[start:end], metadatas=metas[start:end])
    t3 = time.perf_counter()
    if collection.count() != len(ids):
        raise SystemExit(f"Chroma holds {collection.count()} chunks, expected {len(ids)}")
    index_s = t3 - t0
    disk_bytes = dir_bytes(workdir)

    # 5: queries.
    include = ["documents", "metadatas", "distances"]

    def ask(q: str):
        a = time.perf_counter()
        qv = embedder.embed([q])
        b = time.perf_counter()
        res = collection.query(query_embeddings=qv, n_results=K, include=include)
        c = time.perf_counter()
        return res, c - a, b - a, c - b

    ask(queries[0])  # warm-up, untimed
    total, embed_only, search_only, top = [], [], [], []
    for q in queries:
        res, e2e, emb, srch = ask(q)
        total.append(e2e)
        embed_only.append(emb)
        search_only.append(srch)
        top.append({"query": q, "top3": [m["path"] + " § " + m["heading"] for m in res["metadatas"][0][:3]]})

    lengths = np.array([len(x) for x in texts]) if texts else np.zeros(1)
    tok = minilm.load_tokenizer(args.model_dir)
    pieces = np.array([sum(e.attention_mask) for e in tok.encode_batch(texts)]) if texts else np.zeros(1)
    n_files = len(files) - len(failures)
    result = {
        "files": n_files,
        "failures": failures,
        "chunks": len(ids),
        "bytes": total_bytes,
        "model_load_s": model_load_s,
        "index_s": index_s,
        "files_per_s": n_files / index_s if index_s else None,
        "chunks_per_s": len(ids) / index_s if index_s else None,
        "mb_per_s": total_bytes / 1e6 / index_s if index_s else None,
        "read_chunk_s": t1 - t0,
        "embed_s": t2 - t1,
        "embed_chunks_per_s": len(ids) / (t2 - t1) if t2 > t1 else None,
        "upsert_s": t3 - t2,
        "disk_bytes": disk_bytes,
        "queries": len(queries),
        "query_p50_ms": pct(total, 50),
        "query_p95_ms": pct(total, 95),
        "query_embed_p50_ms": pct(embed_only, 50),
        "query_search_p50_ms": pct(search_only, 50),
        "chunk_chars": {"mean": float(lengths.mean()), "median": float(np.median(lengths)),
                        "max": int(lengths.max())},
        "chunks_truncated_at_256_pieces": int((pieces >= minilm.MAX_TOKENS).sum()) if texts else 0,
        "sample_results": top[:5],
    }
    record = args.onnx.with_name(args.onnx.name + ".json")
    result["settings"] = {
        "docs": [str(d) for d in args.docs],
        "limit_files": args.limit_files,
        "file_types": list(EXTENSIONS),
        "chunking": {
            "front_matter": "YAML (---) and TOML (+++) stripped",
            "split": "ATX headings # to ###### outside fenced code; one chunk per section, heading line included",
            "max_chars": MAX_CHARS,
            "long_sections": "paragraphs (blank lines) packed up to max_chars; longer paragraphs by lines, "
                             "then hard cuts at max_chars",
            "min_chars": None,
            "overlap": 0,
            "heading_only_sections": "dropped",
            "template_tags": "kept",
        },
        "embedder": embedder.settings(),
        "onnx_model": json.loads(record.read_text()) if record.exists() else str(args.onnx),
        "chroma": {
            "client": "chromadb.PersistentClient (local, embedded)",
            "collection_metadata": {"hnsw:space": "cosine"},
            "collection_configuration": json.loads(json.dumps(collection.configuration, default=str)),
            "embedding_function": None,
            "write": "upsert with precomputed embeddings, documents and metadatas",
            "batch_size": max_batch,
        },
        "query": {"k": K, "include": include, "latency": "embed + collection.query wall time",
                  "warmup_queries": 1},
        "index_s": "wall time of walk + read + chunk + embed + upsert (model load excluded)",
    }
    result["versions"] = {
        "python": platform.python_version(),
        "numpy": np.__version__,
        "chromadb": chromadb.__version__,
        "onnxruntime": onnxruntime.__version__,
        "tokenizers": tokenizers.__version__,
        "cpu_count": os.cpu_count(),
        "platform": platform.platform(),
    }
    args.out.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps({k: v for k, v in result.items() if k not in ("settings", "sample_results")}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
