"""byte_dma's stimulus: the platform's bursts of random jobs (:class:`dlaverif.platform.BurstSeqBase`) over disjoint,
unaligned byte ranges, tagged in job order."""

from __future__ import annotations

from dlaverif.platform import BurstSeqBase, config_value

from .items import DmaItem, Kind


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


class ResetInFlightSeq(DescriptorBurstSeq):
    """The bursts of :class:`DescriptorBurstSeq`, then bursts whose jobs go back to back until a RESET job, handed
    over behind 1 to 4 jobs still in flight, is reset 1 to 40 cycles after its handshake: the platform drops every
    job in flight; the DUT must come back clean, and the rest of the burst (after the reset) must be exact."""

    resets = 4

    async def body(self) -> None:
        await super().body()
        tb = config_value("TB")
        for k in range(self.resets):
            burst = self.bursts + k
            before = int(self.rng.integers(1, 5))
            for i in range(before + 1 + 3):
                item = self.random_item(self.next_name(), burst)
                item.knobs = self.knobs[k % len(self.knobs)]
                if i == before:
                    item.kind, item.reset_after = Kind.RESET, int(self.rng.integers(1, 41))
                await self.send(item)
            await tb.settle()
