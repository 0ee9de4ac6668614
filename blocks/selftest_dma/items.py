"""byte_dma's stimulus: one copy job (address, length, tag and the bytes memory holds there). Pure stimulus: it
imports no scoreboard, env or coverage (tests/flow/test_layout.py)."""

from __future__ import annotations

import enum

import numpy as np

from dlaverif.platform import ReaderItem

Kind = enum.Enum("Kind", "COPY RESET")


class DmaItem(ReaderItem):
    """One copy job: the byte address, the length, the tag, and the bytes the memory holds there."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.kind = Kind.COPY
        self.addr = self.length = self.tag = 0
        self.blob = np.zeros(0, np.uint8)

    def randomize(self, rng: np.random.Generator, addr: int, bus_bytes: int, tag: int) -> None:
        """A job at ``addr``: lengths around the bus width (1, bus-1, bus, bus+1, random up to 6 words)."""
        self.addr, self.tag = addr, tag & 0xFF
        self.length = int(rng.choice([1, bus_bytes - 1, bus_bytes, bus_bytes + 1, int(rng.integers(2, 6 * bus_bytes))]))
        self.blob = rng.integers(0, 256, self.length, dtype=np.uint8)

    def label(self) -> str:
        return f"{self.get_name()} addr=0x{self.addr:x} len={self.length} tag={self.tag}"

    def timeout_cycles(self, bus_bytes: int) -> int:
        return 1000 + 16 * self.length
