"""Small exact integer helpers shared by the models and the testbench (placeholder until the models branch lands)."""
from __future__ import annotations

import numpy as np


def ceil_div(a: int, b: int) -> int:
    return -(-int(a) // int(b))


def round_up(a: int, b: int) -> int:
    return ceil_div(a, b) * int(b)


def as_bytes(obj) -> bytes:
    if isinstance(obj, np.ndarray):
        return np.ascontiguousarray(obj).tobytes()
    return bytes(obj)
