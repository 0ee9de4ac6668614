"""What a cube job may read, and where its faults land: pure functions of the descriptor (no simulator).

Shared by the sequences (fault ranges inside an atom), the TB (the footprint the read checker enforces) and the
scoreboard (the first atom a fault poisons).
"""

from __future__ import annotations

from typing import Optional, Sequence

import numpy as np

from dlaverif.footprint import Region, runs_hit, words_of_runs
from dlaverif.models.blocked import BlockedCubeDescriptor

Fault = tuple[int, int, str]  # (lo, hi, "SLVERR"|"DECERR"): a poisoned byte range [lo, hi)


def cube_regions(desc: BlockedCubeDescriptor, bus_bytes: int, strict: bool = True) -> list[Region]:
    """The one region a cube job may read: its extent, and with ``strict`` only the bus words holding an atom."""
    words = words_of_runs(desc.atom_addresses(), desc.atom_bytes, bus_bytes) if strict else None
    return [Region("cube", desc.base, desc.base + desc.extent, words)]


def first_fault_atom(desc: BlockedCubeDescriptor, faults: Sequence[Fault]) -> Optional[int]:
    """Index (canonical order) of the first atom that overlaps a poisoned address range."""
    starts = desc.atom_addresses().reshape(-1)
    hit = np.zeros(starts.size, bool)
    for lo, hi, _ in faults:
        hit |= runs_hit(starts, desc.atom_bytes, lo, hi)
    idx = np.flatnonzero(hit)
    return int(idx[0]) if idx.size else None


def atom_fault_range(
    desc: BlockedCubeDescriptor, atom_index: int, bus_bytes: int, rng: Optional[np.random.Generator] = None
) -> tuple[int, int]:
    """A bus word inside atom ``atom_index`` (canonical order): the range to poison."""
    start = int(desc.atom_addresses().reshape(-1)[atom_index])
    off = 0
    if rng is not None and desc.atom_bytes > bus_bytes:
        off = int(rng.integers(0, desc.atom_bytes // bus_bytes)) * bus_bytes
    word = (start + off) - (start + off) % bus_bytes
    return word, word + bus_bytes
