"""Shared helpers of the NVDLA weight/sparse tests: random weights and bit-exact comparison.

Nothing here computes an expected layout; the oracles live in each test file.
"""

from __future__ import annotations

import numpy as np
from hypothesis import settings, strategies as st

import dlaverif.models.nvdla.weights  # noqa: F401  (registers the weight formats)

DTYPES = ("int8", "int16", "float16")
FAST = settings(max_examples=40, deadline=None)

dtypes = st.sampled_from(DTYPES)
densities = st.sampled_from([0.0, 0.5, 1.0])
seeds = st.integers(0, 2**32 - 1)


def round_up(n: int, a: int) -> int:
    return (n + a - 1) // a * a


def random_weights(
    seed: int, shape: tuple[int, ...], dtype: str, density: float = 1.0, finite: bool = False
) -> np.ndarray:
    """Weights over the full range of ``dtype`` (extremes included), a fraction ``1-density`` set to 0.

    fp16 values are random bit patterns (so -0, denormals, INF and NaN occur) unless ``finite``.
    """
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape))
    if dtype == "float16":
        raw = rng.integers(0, 1 << 16, n, dtype=np.uint32).astype(np.uint16)
        if finite:
            raw[(raw & 0x7C00) == 0x7C00] &= 0xBFFF  # exponent 31 -> 15: finite
        vals = raw.view(np.float16)
    else:
        info = np.iinfo(dtype)
        vals = rng.integers(int(info.min), int(info.max) + 1, n).astype(dtype)
        vals[rng.random(n) < 0.05] = info.max
        vals[rng.random(n) < 0.05] = info.min
    vals = vals.copy()
    vals[rng.random(n) >= density] = 0
    return vals.reshape(shape)


def bits(a: np.ndarray) -> np.ndarray:
    """The raw bits of an element array (so fp16 NaN and -0 compare exactly)."""
    a = np.ascontiguousarray(a)
    return a.view({1: np.uint8, 2: np.uint16}[a.dtype.itemsize])


def le_bytes(value: np.generic) -> bytes:
    """Little-endian bytes of one element."""
    return np.asarray(value).astype(np.asarray(value).dtype.newbyteorder("<")).tobytes()
