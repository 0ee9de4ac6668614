"""desc_reader's stimulus: the platform's bursts of random jobs (back to back or with gaps, several in flight) at
unaligned byte addresses, ids counting up in job order."""

from __future__ import annotations

from dlaverif.platform import BurstSeqBase

from .items import ReadJob


class RandomJobsSeq(BurstSeqBase):
    """Each burst in its own 64 KiB window; each job 0..2 bus words after the previous one, at any byte."""

    def __init__(self, name: str = "job", count: int | None = None) -> None:
        super().__init__(name, count)
        self.addr, self.burst = 0, -1

    def random_item(self, name: str, burst: int) -> ReadJob:
        if burst != self.burst:
            self.addr, self.burst = 0x4000 + burst * 0x10000, burst
        self.addr += int(self.rng.integers(0, 2 * self.bus_bytes))
        job = ReadJob(name)
        job.randomize(self.rng, self.addr, self.bus_bytes, self.n - 1, self.field_bits["job_id"])  # n counted it
        self.addr += job.length + 64  # the memory agent's guard bands stay outside the next job
        return job
