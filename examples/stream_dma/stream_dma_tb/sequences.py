"""stream_dma's stimulus: the platform's bursts of random jobs (back to back or with gaps, several in flight, COUNT
in all) at any byte address, tags counting up in job order."""

from __future__ import annotations

from dlaverif.platform import BurstSeqBase

from .items import DmaJob


class RandomJobsSeq(BurstSeqBase):
    """Each burst in its own 256 KiB window (a job crosses 4 KB pages); each job 0..2 words after the previous."""

    def __init__(self, name: str = "job", count: int | None = None) -> None:
        super().__init__(name, count)
        self.addr, self.burst = 0, -1

    def random_item(self, name: str, burst: int) -> DmaJob:
        if burst != self.burst:
            self.addr, self.burst = 0x10000 + burst * 0x40000 + 0xFC0, burst
        self.addr += int(self.rng.integers(0, 2 * self.bus_bytes))
        job = DmaJob(name)
        job.randomize(self.rng, self.addr, self.bus_bytes, self.n - 1, self.field_bits)  # n counted this job
        self.addr += job.length + 64  # the memory agent's guard bands stay outside the next job
        return job
