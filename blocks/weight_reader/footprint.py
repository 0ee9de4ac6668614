"""What a weight job may read, and where its faults land: pure functions of the weight set and the descriptor
(no simulator).

Shared by the sequences (a fault inside the bytes a surface must give), the TB (the footprint the read checker
enforces) and the tests of the footprint.
"""

from __future__ import annotations

from typing import Optional

import numpy as np

from dlaverif.footprint import Region, words_of_runs
from dlaverif.models.core.arith import ceil_div
from dlaverif.models.weight_desc import WeightSurfaceDescriptor

from .weights import WeightSet


def needed_bytes(ws: Optional[WeightSet], desc: WeightSurfaceDescriptor) -> dict[str, int]:
    """Bytes from each surface base that a correct reader must read: the compressed data (sum of the WGS entries)
    or the dense bytes, one WMB bit per element, one WGS entry per group."""
    if not desc.compressed:
        return {"weight": desc.dense_bytes}
    assert ws is not None, "a compressed job's needed bytes come from its weight set"
    return {"weight": int(ws.wgs_values().sum()), "wmb": ceil_div(int(sum(ws.group_elems)), 8), "wgs": 4 * desc.groups}


def weight_regions(
    ws: Optional[WeightSet], desc: WeightSurfaceDescriptor, bus_bytes: int, strict: bool
) -> list[Region]:
    """The surfaces a job may read, as programmed; with ``strict`` (a legal, uncorrupted job) only the bus words
    that hold bytes it needs (so an over-read inside a surface is caught too)."""
    need = needed_bytes(ws, desc) if strict else {}
    out = []
    for name, (base, size) in desc.ranges().items():
        words = None
        if strict:
            words = words_of_runs(np.array([base]), need[name], bus_bytes) if need[name] else np.zeros(0, np.int64)
        out.append(Region(name, base, base + max(size, 1), words))
    return out


def word_in(base: int, nbytes: int, bus_bytes: int, rng: np.random.Generator) -> tuple[int, int]:
    """A random bus word holding one of the ``nbytes`` bytes from ``base``: the range to poison."""
    a = base + int(rng.integers(0, nbytes))
    w = a - a % bus_bytes
    return w, w + bus_bytes
