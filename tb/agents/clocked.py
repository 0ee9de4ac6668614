"""One coroutine per clock for the per-cycle work of every agent on that clock (issue 12: "one coroutine per
channel group instead of many").

Each cocotb task woken at a rising edge costs a resume of its own, and on the default path the memory agent and
the stream monitor both work on every cycle while data flows. A :class:`ClockLoop` wakes once per rising edge and
calls each agent's work function in turn:

* ``work(cycle) -> None``: called again at the next rising edge;
* ``work(cycle) -> trigger``: the agent has nothing to do until ``trigger`` fires (ARVALID or TVALID rising, reset
  released); it is called again at the first rising edge after that. With no work left the loop itself sleeps,
  so an idle bus costs nothing.

``cycle`` is the number of the rising edge (``sim time // period``, the numbering every analysis port uses); the
loop counts edges while awake and reads the simulator's time only when it wakes up. Work functions only read
wires and schedule writes (cocotb applies writes after the edge), so their order within a cycle does not matter.
"""
from __future__ import annotations

from typing import Any, Callable, Optional

import cocotb
from cocotb.simtime import get_sim_time
from cocotb.triggers import RisingEdge

#: an agent's per-cycle work: None to run again next cycle, or a trigger to sleep on
Work = Callable[[int], Optional[Any]]


class ClockLoop:
    """Calls the registered work functions at every rising edge of ``clock`` while any of them is awake."""

    def __init__(self, clock, period_ns: float) -> None:
        self.clock = clock
        self.period_ns = period_ns
        self._works: list[Work] = []
        self._task = None

    def add(self, work: Work) -> None:
        """Call ``work`` from the next rising edge on."""
        self._works.append(work)
        if self._task is None:
            self._task = cocotb.start_soon(self._run())

    def now(self) -> int:
        """The cycle number of the current (or last) rising edge."""
        return int(get_sim_time("ns") // self.period_ns)

    async def _wake(self, work: Work, trigger: Any) -> None:
        await trigger
        self.add(work)

    async def _run(self) -> None:
        edge = RisingEdge(self.clock)
        cycle = None
        try:
            while self._works:
                await edge
                cycle = self.now() if cycle is None else cycle + 1
                works, self._works = self._works, []
                for work in works:
                    trigger = work(cycle)
                    if trigger is None:
                        self._works.append(work)
                    else:
                        cocotb.start_soon(self._wake(work, trigger))
        finally:
            self._task = None
