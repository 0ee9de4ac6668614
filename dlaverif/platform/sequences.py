"""The sequence bases every reader shares (whatever its control style), and the ConfigDB values they read."""

from __future__ import annotations

from typing import Any, Optional

import numpy as np
from pyuvm import ConfigDB, uvm_sequence

from dlaverif.platform.job import ReaderItem
from dlaverif.platform.knobs import Knobs


def config_value(name: str) -> Any:
    """A value the test base put into the ConfigDB (RNG, TB, COUNT, ADDR_BITS, BUS_BYTES, ...)."""
    return ConfigDB().get(None, "", name)


class ReaderSeqBase(uvm_sequence):
    """What every block's sequences take from the test: the RNG, COUNT, the address and bus widths, the widths of the
    payload's fields (``field_bits``: field name -> bits of its port, ``JobControl.field_bits``; empty for a
    register-controlled DUT) and a counter ``n`` for item names; :meth:`new_item` makes the block's item
    (:attr:`item_cls`) for a job's data."""

    #: the block's item class
    item_cls: type = ReaderItem
    #: the item's attribute that holds a job's data (its cube, picture, weight set: whatever carries its ``desc``)
    data_attr = ""

    def __init__(self, name: str = "seq", count: Optional[int] = None) -> None:
        super().__init__(name)
        self.rng: np.random.Generator = config_value("RNG")
        self.count: int = count if count is not None else config_value("COUNT")
        self.addr_bits: int = config_value("ADDR_BITS")
        self.bus_bytes: int = config_value("BUS_BYTES")
        self.n = 0

    @property
    def field_bits(self) -> dict[str, int]:
        """The payload's field name -> the bits of its port (the test's TB's ``control.field_bits``)."""
        return dict(getattr(getattr(config_value("TB"), "control", None), "field_bits", {}))

    def next_name(self) -> str:
        """A fresh item name: the sequence's name and a counter."""
        name = f"{self.get_name()}{self.n}"
        self.n += 1
        return name

    def new_item(self, kind: Any, data: Any) -> Any:
        """A fresh item (:attr:`item_cls`, named by :meth:`next_name`) of ``kind`` for the job's ``data`` (kept in
        :attr:`data_attr`; None for a job without data) and its descriptor ``data.desc``."""
        item = self.item_cls(self.next_name())
        item.kind = kind
        if self.data_attr:
            setattr(item, self.data_attr, data)
        item.desc = data.desc if data is not None else None
        return item

    async def send(self, item: ReaderItem) -> None:
        """Run one item on the DUT (its response is ``item.result`` afterwards)."""
        await self.start_item(item)
        await self.finish_item(item)


class BurstSeqBase(ReaderSeqBase):
    """COUNT random jobs (:meth:`random_item`; ``count`` of the constructor, else the test's COUNT) in bursts of
    :attr:`per_burst` (the last one shorter), each burst under one knob set of :attr:`knobs` in turn, each job after
    a gap of 0 (back to back), 1 or a few idle cycles; the sequence waits for each burst to be over (the TB settles)
    before the next. On a DUT that takes several jobs in flight the jobs of a burst overlap; on one that takes one
    at a time they simply follow each other. When the bench fills the DUT's queues (the run's ``IN_FLIGHT`` is
    ``capacity``: ``JobControl.fill`` jobs in flight) a burst brings at least twice that many and the sequence at
    least one such burst per knob set (COUNT raised to it), so that each knob set sees the queues fill and drain;
    otherwise :attr:`per_burst` and COUNT are the sequence's, whatever the DUT's depths."""

    per_burst = 6
    knobs: tuple[Knobs, ...] = (
        Knobs(),
        Knobs(latency=3, backpressure="random"),
        Knobs(latency=8, r_gap="every4"),
        Knobs(backpressure="bursty"),
    )

    @property
    def bursts(self) -> int:
        """The bursts :meth:`body` sends: COUNT jobs, :attr:`per_burst` a burst."""
        return -(-self.count // self.per_burst)

    def random_item(self, name: str, burst: int) -> ReaderItem:
        """A random legal job of the block, first of the burst ``burst`` or not (the block's hook)."""
        raise NotImplementedError

    async def body(self) -> None:
        tb = config_value("TB")
        fill = getattr(getattr(tb, "control", None), "fill", 0)
        if fill:
            self.per_burst = max(self.per_burst, 2 * fill)
            self.count = max(self.count, self.per_burst * len(self.knobs))
        for burst in range(self.bursts):
            for _ in range(min(self.per_burst, self.count - burst * self.per_burst)):
                item = self.random_item(self.next_name(), burst)
                item.knobs = self.knobs[burst % len(self.knobs)]
                item.gap = int(self.rng.choice([0, 0, 0, 1, int(self.rng.integers(2, 20))]))
                await self.send(item)
            await tb.settle()
