"""fp16 classes (placeholder until the models branch lands)."""
from __future__ import annotations

import numpy as np


def fp16_classes(halves: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    h = np.asarray(halves).astype(np.uint16, copy=False)
    e = (h & 0x7C00) == 0x7C00
    m = (h & 0x03FF) != 0
    return e & m, e & ~m
