"""nvdla_reader's stimulus: the platform's bursts of random cubes (one job at a time: the reader has one register
group), each burst under one knob set (memory latency, response gaps, request stalls, output backpressure); cubes
placed apart in a 40-bit space, some across a 4 GB boundary (the base's high word carries)."""

from __future__ import annotations

from typing import Optional

from dlaverif.platform import BurstSeqBase

from .items import ATOM, CubeJob


class CubeSeq(BurstSeqBase):
    def __init__(self, name: str = "cube", count: Optional[int] = None) -> None:
        super().__init__(name, count)
        self.per_burst = max(1, self.count // 4)  # four bursts (fewer for a COUNT below 4), COUNT cubes in all
        self.taken: list[tuple[int, int]] = []  # byte ranges of the cubes placed, with room for guard bands

    def random_item(self, name: str, burst: int) -> CubeJob:
        job = CubeJob(name)
        job.randomize(self.rng)
        size = job.descriptor().extent
        while True:
            if self.rng.random() < 0.2:  # just below a 4 GB boundary
                base = (int(self.rng.integers(1, 256)) << 32) - ATOM * int(self.rng.integers(1, 64))
            else:
                base = int(self.rng.integers(1, 1 << 35)) * ATOM
            lo, hi = base - 128, base + size + 128
            if all(hi <= a or b <= lo for a, b in self.taken):
                break
        self.taken.append((lo, hi))
        job.base = base
        return job
