"""``BurstSeqBase`` (dlaverif/platform/sequences.py) sends COUNT jobs, ``per_burst`` a burst (the last one shorter),
settling after each burst: the plan's ``count`` and ``COUNT=`` are what a run gets, not a fixed 24. Run outside a
simulator (the sequence's ``send`` is recorded, the TB's ``settle`` counted)."""

from __future__ import annotations

import asyncio
import types

import numpy as np
import pytest
from pyuvm import ConfigDB

from dlaverif.platform import BurstSeqBase, ReaderItem


class _TB:
    def __init__(self, fill: int = 0) -> None:
        self.settled = 0
        self.control = types.SimpleNamespace(fill=fill)  # JobControl.fill: jobs in flight with IN_FLIGHT=capacity

    async def settle(self) -> None:
        self.settled += 1


class _Seq(BurstSeqBase):
    def random_item(self, name: str, burst: int) -> ReaderItem:
        item = ReaderItem(name)
        item.burst = burst
        return item

    async def send(self, item: ReaderItem) -> None:
        self.sent.append((item.get_name(), item.burst))


@pytest.mark.parametrize("count, bursts", [(1, [1]), (6, [6]), (7, [6, 1]), (24, [6, 6, 6, 6]), (40, [6] * 6 + [4])])
def test_a_burst_sequence_sends_count_jobs(count: int, bursts: list[int]) -> None:
    tb = _TB()
    for key, value in {
        "RNG": np.random.default_rng(1),
        "TB": tb,
        "COUNT": count,
        "ADDR_BITS": 32,
        "BUS_BYTES": 8,
    }.items():
        ConfigDB().set(None, "*", key, value)
    seq = _Seq("job")
    seq.sent = []
    asyncio.run(seq.body())
    sent = seq.sent
    assert [name for name, _ in sent] == [f"job{i}" for i in range(count)]
    assert [sum(1 for _, b in sent if b == k) for k in range(len(bursts))] == bursts and seq.bursts == len(bursts)
    assert tb.settled == len(bursts)


def test_a_count_given_to_the_constructor_wins() -> None:
    ConfigDB().set(None, "*", "COUNT", 24)
    assert _Seq("job", count=3).count == 3 and _Seq("job", count=3).bursts == 1


def test_a_bench_that_fills_the_duts_queues_sends_bursts_of_twice_its_jobs_in_flight() -> None:
    """IN_FLIGHT=capacity (``control.fill`` 9): bursts of 18, one per knob set at least (COUNT 1 raised to 72)."""
    tb = _TB(fill=9)
    for key, value in {"RNG": np.random.default_rng(1), "TB": tb, "COUNT": 1, "ADDR_BITS": 32, "BUS_BYTES": 8}.items():
        ConfigDB().set(None, "*", key, value)
    seq = _Seq("job")
    seq.sent = []
    asyncio.run(seq.body())
    assert (seq.per_burst, seq.count, len(seq.sent), tb.settled) == (18, 72, 72, 4)
    assert [sum(1 for _, b in seq.sent if b == k) for k in range(4)] == [18] * 4
