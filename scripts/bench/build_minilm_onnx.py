#!/usr/bin/env python3
"""Builds all-MiniLM-L6-v2 as an ONNX graph from models/all-MiniLM-L6-v2/
model.safetensors with the `onnx` helper API (no torch, no download), then
verifies it against the plain-numpy forward pass in minilm.py.

    python build_minilm_onnx.py [--out target/bench-models/all-MiniLM-L6-v2.onnx] [--force]

Graph (opset 17), inputs int64 [batch, seq]: input_ids, attention_mask,
token_type_ids; output float32 last_hidden_state [batch, seq, 384].

    embeddings = LayerNorm(word[input_ids] + position[0..seq) + token_type[token_type_ids])
    6 x { a = softmax(Q K^T / sqrt(32) + (1 - mask) * float32.min) V   (12 heads of 32)
          x = LayerNorm(x + a Wo + bo)
          x = LayerNorm(x + GELU_erf(x W1 + b1) W2 + b2) }

Mean pooling and L2 normalisation are done outside the graph (minilm.py).
The pooler weights are not used. Idempotent: a JSON file beside the model
records the sha256 of model.safetensors, of the .onnx file and the builder
version; when they match, nothing is rebuilt. Every build is verified (cosine
>= 0.99999 against the numpy reference on 10 sentences) before it is kept.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import minilm  # noqa: E402

BUILDER_VERSION = 1
OPSET = 17
IR_VERSION = 8  # loadable by any recent onnxruntime
MIN_COSINE = 0.99999

SENTENCES = [
    "How many days of earned leave per year?",
    "Employees get 18 days of earned leave a year.",
    "Hotels are capped at INR 6,000 a night.",
    "The officer shall submit the claim with receipts within thirty days of return.",
    "18F is a digital services agency within the General Services Administration.",
    "Pull requests need one approving review before they are merged into main.",
    "A",
    "",
    "Ünïcödé, émojis 🎉 and punctuation!!! — do they survive tokenisation?",
    "The travel policy applies to all staff. " * 40,  # longer than 256 word pieces: truncated
]


def build(weights: dict[str, np.ndarray], cfg: dict):
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    hid = cfg["hidden_size"]
    heads = cfg["num_attention_heads"]
    hd = hid // heads
    eps = float(cfg["layer_norm_eps"])
    if cfg.get("hidden_act") != "gelu" or cfg.get("position_embedding_type", "absolute") != "absolute":
        raise SystemExit(f"unsupported config: {cfg}")

    inits: list = []
    nodes: list = []

    def const(name: str, arr: np.ndarray) -> str:
        inits.append(numpy_helper.from_array(np.ascontiguousarray(arr), name))
        return name

    counter = [0]

    def node(op: str, inputs: list[str], **attrs) -> str:
        counter[0] += 1
        out = f"{op.lower()}_{counter[0]}"
        nodes.append(helper.make_node(op, inputs, [out], name=f"{op}_{counter[0]}", **attrs))
        return out

    def w(name: str) -> np.ndarray:
        return weights[name].astype(np.float32)

    def linear(x: str, prefix: str) -> str:
        # torch Linear stores [out, in]; MatMul wants [in, out].
        wt = const(prefix + ".weight_t", w(prefix + ".weight").T)
        b = const(prefix + ".bias", w(prefix + ".bias"))
        return node("Add", [node("MatMul", [x, wt]), b])

    def layer_norm(x: str, prefix: str) -> str:
        g = const(prefix + ".weight", w(prefix + ".weight"))
        b = const(prefix + ".bias", w(prefix + ".bias"))
        return node("LayerNormalization", [x, g, b], axis=-1, epsilon=eps)

    # Embeddings.
    word = node("Gather", [const("embeddings.word_embeddings.weight", w("embeddings.word_embeddings.weight")),
                           "input_ids"], axis=0)
    # Positions 0..seq: the first seq rows of the position table (seq as a 1-D tensor).
    shape = node("Shape", ["input_ids"])
    seq = node("Slice", [shape, const("one_i64", np.array([1], dtype=np.int64)),
                         const("two_i64", np.array([2], dtype=np.int64))])
    pos = node("Slice", [const("embeddings.position_embeddings.weight", w("embeddings.position_embeddings.weight")),
                         const("zero_i64", np.array([0], dtype=np.int64)), seq,
                         const("zero_i64_axis", np.array([0], dtype=np.int64))])
    types = node("Gather", [const("embeddings.token_type_embeddings.weight",
                                  w("embeddings.token_type_embeddings.weight")), "token_type_ids"], axis=0)
    x = layer_norm(node("Add", [node("Add", [word, pos]), types]), "embeddings.LayerNorm")

    # Additive attention mask [batch, 1, 1, seq]: 0 where attended, float32.min where padding.
    maskf = node("Cast", ["attention_mask"], to=TensorProto.FLOAT)
    inv = node("Sub", [const("one_f32", np.array(1.0, dtype=np.float32)), maskf])
    neg = node("Mul", [inv, const("mask_min_f32", np.array(np.finfo(np.float32).min, dtype=np.float32))])
    mask_bias = node("Unsqueeze", [neg, const("mask_axes", np.array([1, 2], dtype=np.int64))])

    split_shape = const("split_heads_shape", np.array([0, 0, heads, hd], dtype=np.int64))
    merge_shape = const("merge_heads_shape", np.array([0, 0, hid], dtype=np.int64))
    scale = const("attn_scale", np.array(1.0 / math.sqrt(hd), dtype=np.float32))
    half = const("half_f32", np.array(0.5, dtype=np.float32))
    one = "one_f32"
    inv_sqrt2 = const("inv_sqrt2_f32", np.array(1.0 / math.sqrt(2.0), dtype=np.float32))

    for i in range(cfg["num_hidden_layers"]):
        p = f"encoder.layer.{i}."
        q = node("Transpose", [node("Reshape", [linear(x, p + "attention.self.query"), split_shape])],
                 perm=[0, 2, 1, 3])
        kt = node("Transpose", [node("Reshape", [linear(x, p + "attention.self.key"), split_shape])],
                  perm=[0, 2, 3, 1])
        v = node("Transpose", [node("Reshape", [linear(x, p + "attention.self.value"), split_shape])],
                 perm=[0, 2, 1, 3])
        scores = node("Add", [node("Mul", [node("MatMul", [q, kt]), scale]), mask_bias])
        probs = node("Softmax", [scores], axis=-1)
        ctx = node("Reshape", [node("Transpose", [node("MatMul", [probs, v])], perm=[0, 2, 1, 3]), merge_shape])
        x = layer_norm(node("Add", [linear(ctx, p + "attention.output.dense"), x]),
                       p + "attention.output.LayerNorm")
        h = linear(x, p + "intermediate.dense")
        gelu = node("Mul", [node("Mul", [h, half]),
                            node("Add", [node("Erf", [node("Mul", [h, inv_sqrt2])]), one])])
        x = layer_norm(node("Add", [linear(gelu, p + "output.dense"), x]), p + "output.LayerNorm")

    nodes.append(helper.make_node("Identity", [x], ["last_hidden_state"], name="output"))
    dims = ["batch", "sequence"]
    graph = helper.make_graph(
        nodes,
        "all-MiniLM-L6-v2",
        [helper.make_tensor_value_info(n, TensorProto.INT64, dims)
         for n in ("input_ids", "attention_mask", "token_type_ids")],
        [helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, dims + [hid])],
        initializer=inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)],
                              producer_name="almirah scripts/bench/build_minilm_onnx.py",
                              producer_version=str(BUILDER_VERSION))
    model.ir_version = IR_VERSION
    model.doc_string = ("sentence-transformers/all-MiniLM-L6-v2 BERT encoder (last hidden state); "
                        "mean pooling + L2 normalisation are applied outside the graph")
    onnx.checker.check_model(model)
    return model


def verify(onnx_path: Path, model_dir: Path) -> dict:
    """ONNX (one at a time and all in one padded batch) vs the numpy reference."""
    ref = minilm.numpy_embed(SENTENCES, model_dir)
    emb = minilm.OnnxEmbedder(onnx_path, model_dir)
    single = np.stack([emb._run([s])[0] for s in SENTENCES])
    batched = emb._run(SENTENCES)  # padded to the longest (256 pieces)
    cos_single = (ref * single).sum(axis=1)
    cos_batched = (ref * batched).sum(axis=1)
    leave, hotel = float(batched[0] @ batched[1]), float(batched[0] @ batched[2])
    if not leave > hotel + 0.2:
        raise SystemExit(f"semantic check failed: leave {leave:.3f}, hotel {hotel:.3f}")
    return {
        "sentences": len(SENTENCES),
        "max_one_minus_cosine": float(max((1.0 - cos_single).max(), (1.0 - cos_batched).max())),
        "semantic_check": {"query_vs_leave": leave, "query_vs_hotel": hotel},
        "min_cosine_single": float(cos_single.min()),
        "min_cosine_batched": float(cos_batched.min()),
        "max_abs_diff": float(max(np.abs(ref - single).max(), np.abs(ref - batched).max())),
        "norms_min": float(np.linalg.norm(batched, axis=1).min()),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model-dir", type=Path, default=minilm.MODEL_DIR)
    ap.add_argument("--out", type=Path, default=minilm.ONNX_PATH)
    ap.add_argument("--force", action="store_true", help="rebuild even when up to date")
    ap.add_argument("--verify-only", action="store_true", help="verify the existing file and exit")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    say = (lambda *a: None) if args.quiet else (lambda *a: print(*a, file=sys.stderr))

    out: Path = args.out
    record_path = out.with_name(out.name + ".json")
    weights_sha = minilm.sha256_file(args.model_dir / "model.safetensors")

    if args.verify_only:
        v = verify(out, args.model_dir)
        print(json.dumps(v, indent=2))
        return 0 if min(v["min_cosine_single"], v["min_cosine_batched"]) >= MIN_COSINE else 1

    if out.exists() and record_path.exists() and not args.force:
        try:
            rec = json.loads(record_path.read_text())
        except ValueError:
            rec = {}
        if (rec.get("weights_sha256") == weights_sha and rec.get("builder_version") == BUILDER_VERSION
                and rec.get("onnx_sha256") == minilm.sha256_file(out)):
            say(f"{out} is up to date (weights sha256 {weights_sha[:12]}…)")
            return 0

    import onnx

    t0 = time.perf_counter()
    model = build(minilm.load_weights(args.model_dir), minilm.load_config(args.model_dir))
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + f".tmp{os.getpid()}")
    onnx.save_model(model, str(tmp))
    build_s = time.perf_counter() - t0
    try:
        v = verify(tmp, args.model_dir)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    ok = min(v["min_cosine_single"], v["min_cosine_batched"]) >= MIN_COSINE
    say(f"verification vs numpy reference: {json.dumps(v)}")
    if not ok:
        tmp.unlink(missing_ok=True)
        say(f"error: cosine below {MIN_COSINE}; the ONNX model was not kept")
        return 1
    os.replace(tmp, out)
    record = {
        "model": "sentence-transformers/all-MiniLM-L6-v2",
        "source": str(args.model_dir / "model.safetensors"),
        "weights_sha256": weights_sha,
        "onnx_sha256": minilm.sha256_file(out),
        "onnx_bytes": out.stat().st_size,
        "builder_version": BUILDER_VERSION,
        "opset": OPSET,
        "ir_version": IR_VERSION,
        "onnx_version": onnx.__version__,
        "build_s": build_s,
        "verification": v,
    }
    record_path.write_text(json.dumps(record, indent=2) + "\n")
    say(f"built {out} ({record['onnx_bytes']:,} bytes) in {build_s:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
