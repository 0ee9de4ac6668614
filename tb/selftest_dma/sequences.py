"""byte_dma's stimulus: the platform's bursts of random jobs (:class:`tb.platform.BurstSeqBase`) over disjoint,
unaligned byte ranges, tagged in job order."""

from __future__ import annotations

from tb.platform import BurstSeqBase

from .items import DmaItem


class DescriptorBurstSeq(BurstSeqBase):
    """Random jobs at any byte address, each burst from its own 64 KiB window, tags counting up from 0."""

    def __init__(self, name: str = "job", count: int | None = None) -> None:
        super().__init__(name, count)
        self.addr, self.burst = 0, -1

    def random_item(self, name: str, burst: int) -> DmaItem:
        if burst != self.burst:  # the first job of a burst
            self.addr, self.burst = 0x1000 + burst * 0x10000, burst
        self.addr += int(self.rng.integers(0, 3 * self.bus_bytes))  # any byte address
        item = DmaItem(name)
        item.randomize(self.rng, self.addr, self.bus_bytes, self.n - 1)  # next_name counted this job
        self.addr += item.length + 128  # room for the memory agent's guard bands
        return item
