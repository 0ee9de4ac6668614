"""One job of desc_reader: a byte range to read and the bytes the memory holds there. Pure stimulus: it imports no
scoreboard or env."""

from __future__ import annotations

import enum

import numpy as np

from dlaverif.platform import ReaderItem

Kind = enum.Enum("Kind", "COPY")


class ReadJob(ReaderItem):
    """A job at any byte address: its length, its id, and the bytes it must deliver."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.kind = Kind.COPY
        self.addr = self.length = self.job_id = 0
        self.blob = np.zeros(0, np.uint8)

    def randomize(self, rng: np.random.Generator, addr: int, bus_bytes: int, job_id: int, id_bits: int) -> None:
        """Lengths at the packer's edges (1, a bus word less one, a word, a word and one) or up to 40 words. The
        ``job_id``-th job's id counts up from 16 below the top of the ``id_bits``-bit field (the port's width, the
        reader's ID_BITS): at the default 4 bits from 0, at a wider field through its top values and its wrap."""
        self.addr, self.job_id = addr, (job_id + (1 << id_bits) - 16) % (1 << id_bits)
        edges = [1, bus_bytes - 1, bus_bytes, bus_bytes + 1]
        self.length = int(rng.choice(edges + [int(rng.integers(2, 40 * bus_bytes))]))
        self.blob = rng.integers(0, 256, self.length, dtype=np.uint8)

    def label(self) -> str:
        return f"{self.get_name()} addr=0x{self.addr:x} len={self.length} id={self.job_id}"

    def timeout_cycles(self, bus_bytes: int) -> int:
        return 1000 + 8 * self.length
