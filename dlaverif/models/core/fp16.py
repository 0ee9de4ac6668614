"""IEEE half-precision classes from raw bit patterns (NVDLA clarifications 9: NaN = exponent 31 with a
non-zero mantissa, INF = exponent 31 with a zero mantissa, either sign)."""

from __future__ import annotations

import numpy as np

EXP_MASK = 0x7C00
MANT_MASK = 0x03FF


def fp16_classes(halves: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Boolean ``(nan, inf)`` masks of an array of fp16 bit patterns (``uint16``; ``float16`` is viewed as bits)."""
    b = np.asarray(halves)
    b = b.view(np.uint16) if b.dtype == np.float16 else b.astype(np.uint16, copy=False)
    top = (b & EXP_MASK) == EXP_MASK
    mant = (b & MANT_MASK) != 0
    return top & mant, top & ~mant
