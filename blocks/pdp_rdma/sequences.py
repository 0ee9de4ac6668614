"""The PDP read DMA's stimulus: random layers across the block's limits, in bursts of back-to-back layers (two in
flight through its two register groups), under the platform's timing knobs.

Limits drawn (NVIDIA's registers, ``D_DATA_CUBE_IN_*`` 13 bits; the model's ``feature.max_dim``): widths 1 to 8192
(mostly short: simulation time grows with the cube), heights and surfaces; channels on and off the atom's multiple;
line and surface strides packed or with gaps of whole atoms; bases anywhere 32-byte aligned in a 40-bit space, some
just below a 4 GB boundary (the base's high word carries); int8, int16, fp16; MC or CV memory; posted or non-posted
register writes, some read back.
"""

from __future__ import annotations

from typing import Optional

import numpy as np

from dlaverif.models.nvdla import feature
from dlaverif.platform import BurstSeqBase, Knobs, random_knobs

from .items import FORMATS, PdpItem, random_tensor

ATOM = feature.ATOM_BYTES
GUARD = 128  # bytes kept free around a cube (the memory's guard bands are 64)
#: the knob sets of the bursts: quiet, then memory latency with response gaps, backpressure, request stalls
KNOBS = (
    Knobs(),
    Knobs(latency=20, r_gap="random"),
    Knobs(latency=3, backpressure="bursty"),
    Knobs(latency=8, ar_stall="every4", r_gap="every4", backpressure="random"),
)


def draw_shape(rng: np.random.Generator, dtype: str, big: bool) -> tuple[int, int, int]:
    """(C, H, W): channels around the atom's multiple, short lines mostly, a long one when ``big``."""
    epa = ATOM // np.dtype(dtype).itemsize
    c = int(rng.choice([1, epa - 1, epa, epa + 1, int(rng.integers(1, 4 * epa + 1))]))
    h = int(rng.choice([1, 2, int(rng.integers(1, 7))]))
    w = int(rng.integers(128, 320)) if big else int(rng.choice([1, 2, 3, int(rng.integers(4, 40))]))
    return c, h, w


class LayerSeq(BurstSeqBase):
    """Bursts of random layers (:meth:`random_item`); the layers of a burst are handed over back to back, so two
    are in flight (one per register group); each burst under one knob set of :data:`KNOBS`."""

    knobs: tuple[Knobs, ...] = KNOBS
    big_every: Optional[int] = None  # every n-th layer a long line (hundreds of atoms); None: never

    def __init__(self, name: str = "layer", count: Optional[int] = None) -> None:
        super().__init__(name, count)
        self.per_burst = max(2, self.count // 4)  # four bursts (fewer for a COUNT below 8), COUNT layers in all
        self.next_base = 0x1000
        self.taken: list[tuple[int, int]] = []  # byte ranges of the cubes placed (with room for guard bands)

    def random_item(self, name: str, burst: int) -> PdpItem:
        rng = self.rng
        item = PdpItem(name)
        dtype = str(rng.choice(list(FORMATS)))
        big = self.big_every is not None and self.n % self.big_every == 0
        c, h, w = draw_shape(rng, dtype, big)
        item.tensor = random_tensor(rng, dtype, (c, h, w))
        ls = w * ATOM + ATOM * int(rng.choice([0, 0, 1, int(rng.integers(2, 9))]))
        ss = h * ls + ATOM * int(rng.choice([0, 0, 1, int(rng.integers(2, 9))]))
        item.line_stride, item.surface_stride = ls, ss
        item.ram = str(rng.choice(["MC", "CV"]))
        item.nposted = bool(rng.random() < 0.3)
        item.readback = bool(rng.random() < 0.2)
        item.base = self.place(item)
        return item

    def place(self, item: PdpItem) -> int:
        """A base for the cube that shares no byte (nor guard band) with any cube placed before: after the previous
        one, or just below a 4 GB boundary (the high address word carries inside the cube), or high in the 40-bit
        space."""
        size = item.descriptor().extent
        while True:
            pick = self.rng.random()
            if pick < 0.15:
                base = (int(self.rng.integers(1, 200)) << 32) - ATOM * int(self.rng.integers(1, 64))
            elif pick < 0.3:
                base = int(self.rng.integers(1 << 33, 1 << 39)) // ATOM * ATOM
            else:
                base = self.next_base + ATOM * int(self.rng.integers(0, 64))
            lo, hi = base - GUARD, base + size + GUARD
            if all(hi <= a or b <= lo for a, b in self.taken):
                break
        self.taken.append((lo, hi))
        self.next_base = max(self.next_base, hi + GUARD)
        return base


class StressSeq(LayerSeq):
    """Every burst under heavy random knobs (latency up to 40, every stall profile on every handshake)."""

    def __init__(self, name: str = "stress", count: Optional[int] = None) -> None:
        super().__init__(name, count)
        self.knobs = tuple(random_knobs(self.rng, heavy=True) for _ in range(self.bursts))


class LongLineSeq(LayerSeq):
    """Layers with lines of hundreds of atoms (the width's 4-bit position wraps many times)."""

    big_every = 2
