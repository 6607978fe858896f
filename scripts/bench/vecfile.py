"""Reader and writer for the benchmark's vector files.

Format (all little-endian):

    offset  size  field
    0       4     magic b"ALMV"
    4       4     u32 version = 1
    8       4     u32 rows
    12      4     u32 dims
    16      rows*dims*4   float32 values, row-major (row 0 first)

The Rust benchmark writes these files; the Python scripts read them. Nothing
else is stored (no ids: row i has id i).
"""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np

MAGIC = b"ALMV"
VERSION = 1
HEADER = struct.Struct("<4sIII")  # 16 bytes


class VecFileError(ValueError):
    """The file is not a valid ALMV vector file."""


def write(path: str | Path, vectors: np.ndarray) -> None:
    """Writes a 2-D array as an ALMV file (converted to little-endian float32)."""
    arr = np.ascontiguousarray(vectors, dtype="<f4")
    if arr.ndim != 2:
        raise VecFileError(f"expected a 2-D array, got shape {arr.shape}")
    rows, dims = arr.shape
    with open(path, "wb") as f:
        f.write(HEADER.pack(MAGIC, VERSION, rows, dims))
        f.write(arr.tobytes(order="C"))


def read(path: str | Path) -> np.ndarray:
    """Reads an ALMV file into a (rows, dims) float32 array."""
    data = Path(path).read_bytes()
    if len(data) < HEADER.size:
        raise VecFileError(f"{path}: {len(data)} bytes, shorter than the 16-byte header")
    magic, version, rows, dims = HEADER.unpack_from(data, 0)
    if magic != MAGIC:
        raise VecFileError(f"{path}: magic {magic!r}, expected {MAGIC!r}")
    if version != VERSION:
        raise VecFileError(f"{path}: version {version}, expected {VERSION}")
    expected = HEADER.size + rows * dims * 4
    if len(data) != expected:
        raise VecFileError(f"{path}: {len(data)} bytes, expected {expected} for {rows}x{dims}")
    arr = np.frombuffer(data, dtype="<f4", offset=HEADER.size, count=rows * dims)
    return arr.reshape(rows, dims).astype(np.float32, copy=True)


if __name__ == "__main__":  # self-check: python vecfile.py
    import tempfile

    rng = np.random.default_rng(0)
    x = rng.standard_normal((7, 5)).astype(np.float32)
    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / "x.almv"
        write(p, x)
        assert p.stat().st_size == 16 + 7 * 5 * 4
        assert p.read_bytes()[:16] == b"ALMV" + struct.pack("<III", 1, 7, 5)
        y = read(p)
        assert y.dtype == np.float32 and np.array_equal(x, y)
    print("vecfile ok")
