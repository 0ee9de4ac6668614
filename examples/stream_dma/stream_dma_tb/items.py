"""One job of stream_dma: a byte range, its tag, stream id and destination, and the bytes the memory holds there.
Pure stimulus: it imports no scoreboard or env."""

from __future__ import annotations

import enum

import numpy as np

from dlaverif.platform import ReaderItem

Kind = enum.Enum("Kind", "COPY")


class DmaJob(ReaderItem):
    """A job at any byte address: its length, tag, TID and TDEST, and the bytes it must deliver."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.kind = Kind.COPY
        self.addr = self.length = self.tag = self.tid = self.tdest = 0
        self.blob = np.zeros(0, np.uint8)

    def randomize(self, rng: np.random.Generator, addr: int, bus_bytes: int, index: int, bits: dict[str, int]) -> None:
        """Lengths at the realigner's edges (1, a word less one, a word, a word and one) or up to 48 words, so a
        job's bursts (8 beats at most) run ahead of its data. ``bits``: each field's width (its port's: TAG_W,
        SID_W); the ``index``-th job's tag counts up from 256 below the top of its field (from 0 at the default 8
        bits, through the top values at a wider one), its TID is drawn over the whole field."""
        tags, sids = 1 << bits["tag"], 1 << bits["tid"]
        self.addr, self.tag, self.tid = addr, (index + tags - 256) % tags, int(rng.integers(0, sids))
        # a destination other than its TID, not drawn: the generator's job stream stays as it was
        self.tdest = (self.tid + 1 + index % 15) % sids
        edges = [1, bus_bytes - 1, bus_bytes, bus_bytes + 1]
        self.length = int(rng.choice(edges) if rng.random() < 0.4 else rng.integers(2, 48 * bus_bytes))
        self.blob = rng.integers(0, 256, self.length, dtype=np.uint8)

    def label(self) -> str:
        return f"{self.get_name()} addr=0x{self.addr:x} len={self.length} tag={self.tag}"

    def timeout_cycles(self, bus_bytes: int) -> int:
        return 1000 + 8 * self.length
