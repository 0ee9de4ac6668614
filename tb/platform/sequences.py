"""The sequence base every reader shares, and the ConfigDB values it reads."""

from __future__ import annotations

from typing import Any, Optional

import numpy as np
from pyuvm import ConfigDB, uvm_sequence

from tb.platform.job import ReaderItem


def config_value(name: str) -> Any:
    """A value the test base put into the ConfigDB (RNG, TB, COUNT, ADDR_BITS, BUS_BYTES, ...)."""
    return ConfigDB().get(None, "", name)


class ReaderSeqBase(uvm_sequence):
    """What every block's sequences take from the test: the RNG, COUNT, the address and bus widths, and a counter
    ``n`` for item names."""

    def __init__(self, name: str = "seq", count: Optional[int] = None) -> None:
        super().__init__(name)
        self.rng: np.random.Generator = config_value("RNG")
        self.count: int = count if count is not None else config_value("COUNT")
        self.addr_bits: int = config_value("ADDR_BITS")
        self.bus_bytes: int = config_value("BUS_BYTES")
        self.n = 0

    def next_name(self) -> str:
        """A fresh item name: the sequence's name and a counter."""
        name = f"{self.get_name()}{self.n}"
        self.n += 1
        return name

    async def send(self, item: ReaderItem) -> None:
        """Run one item on the DUT (its response is ``item.result`` afterwards)."""
        await self.start_item(item)
        await self.finish_item(item)
