"""One callback per clock edge for the per-cycle work of every agent on that clock ("one coroutine per
channel group instead of many").

Each cocotb task woken at a rising edge costs a resume of its own, and on the default path the memory agent and
the stream monitor both work on every cycle while data flows. A :class:`ClockLoop` runs once per rising edge and
calls each agent's work function in turn:

* ``work(cycle) -> None``: called again at the next rising edge;
* ``work(cycle) -> trigger``: the agent has nothing to do until ``trigger`` fires (ARVALID or TVALID rising, reset
  released); it is called again at the first rising edge after that. With no work left the loop itself sleeps,
  so an idle bus costs nothing.

``cycle`` is the number of the rising edge (``sim time // period``, the numbering every analysis port uses); the
loop counts edges while awake and reads the simulator's time only when it wakes up. Work functions only read
wires and write them (cocotb applies writes after the edge), so their order within a cycle does not matter.

How it waits (measured on Verilator, cocotb 2.1, per clock cycle beyond the simulation's own 2.5 us): a task
awaiting ``RisingEdge`` costs 3.1 us (the trigger wakes the task, the event loop resumes its coroutine, which
registers the trigger again); a function registered on the trigger itself costs 1.8 us. So the loop registers
:meth:`_on_edge` on the clock's ``RisingEdge`` and re-registers it from there while work remains, through
cocotb's ``Trigger._register`` (the call its tasks use to wait on a trigger). The callback runs inside cocotb's
trigger handling, so writes, ``cocotb.start_soon`` and events behave as in a task. A registration is not a
task, so cocotb would not cancel it at the end of a test: a small keeper task, which cocotb does cancel,
withdraws the pending registrations then (the pattern of cocotb's own C++ clock). Where ``Trigger._register``
is missing (another cocotb), the loop falls back to a task awaiting the edge.
"""

from __future__ import annotations

from typing import Any, Callable, Optional

import cocotb
from cocotb.simtime import get_sim_time
from cocotb.task import Task
from cocotb.triggers import Event, RisingEdge

#: an agent's per-cycle work: None to run again next cycle, or a trigger to sleep on
Work = Callable[[int], Optional[Any]]


class ClockLoop:
    """Calls the registered work functions at every rising edge of ``clock`` while any of them is awake."""

    def __init__(self, clock, period_ns: float) -> None:
        self.clock = clock
        self.period_ns = period_ns
        self._works: list[Work] = []
        self._edge = RisingEdge(clock)
        self._direct = callable(getattr(self._edge, "_register", None))
        self._armed = False  # a callback (or the fallback task) waits for the next edge
        self._cycle: Optional[int] = None
        self._edge_handle: Any = None  # the pending registration on the clock edge
        self._sleepers: dict[Any, Any] = {}  # pending registrations of sleeping works -> their triggers
        self._keeper: Optional[Task[None]] = None
        self._stop = Event()
        self._error: Optional[BaseException] = None

    def add(self, work: Work) -> None:
        """Call ``work`` from the next rising edge on."""
        self._works.append(work)
        if not self._armed:
            self._armed = True
            self._cycle = None
            if self._direct:
                if self._keeper is None:
                    self._keeper = cocotb.start_soon(self._keep())
                self._edge_handle = self._edge._register(self._on_edge)
            else:
                cocotb.start_soon(self._run())

    def now(self) -> int:
        """The cycle number of the current (or last) rising edge."""
        return int(get_sim_time("ns") // self.period_ns)

    # ------------------------------------------------------------------ per edge
    def _step(self) -> bool:
        """The work of one rising edge; True while some work remains awake."""
        cycle = self._cycle = self.now() if self._cycle is None else self._cycle + 1
        works = self._works
        for work in tuple(works):  # a copy: a work function may wake another agent (add)
            trigger = work(cycle)
            if trigger is not None:
                works.remove(work)
                self._sleep(work, trigger)
        return bool(works)

    def _on_edge(self) -> None:
        try:
            awake = self._step()
        except BaseException as e:  # not inside a task: hand it to the keeper, which fails the test
            self._error, awake = e, False
            self._stop.set()
        if awake:
            self._edge_handle = self._edge._register(self._on_edge)
        else:
            self._edge_handle = None
            self._armed = False

    async def _run(self) -> None:
        """The fallback: a task awaiting every edge."""
        try:
            while True:
                await self._edge
                if not self._step():
                    break
        finally:
            self._armed = False

    # ------------------------------------------------------------------ sleeping and waking
    def _sleep(self, work: Work, trigger: Any) -> None:
        if not (self._direct and callable(getattr(trigger, "_register", None))):
            cocotb.start_soon(self._wake(work, trigger))
            return
        handle = None

        def wake() -> None:
            self._sleepers.pop(handle, None)
            self.add(work)

        handle = trigger._register(wake)
        self._sleepers[handle] = trigger

    async def _wake(self, work: Work, trigger: Any) -> None:
        await trigger
        self.add(work)

    async def _keep(self) -> None:
        """The keeper task (one per loop, started with the first registration). cocotb cancels it at the end of
        the test: it then withdraws the registrations still pending, so no work of this test runs in the next one.
        An exception raised by a work function is re-raised here, so that it fails the test like a task's."""
        try:
            await self._stop.wait()
            if self._error is not None:
                raise self._error
        finally:
            pending = dict(self._sleepers)
            if self._edge_handle is not None:
                pending[self._edge_handle] = self._edge
            for handle, trigger in pending.items():
                try:
                    trigger._deregister(handle)
                except (KeyError, ValueError):  # fired or withdrawn already
                    pass
            self._sleepers.clear()
            self._edge_handle = None
            self._works.clear()
            self._armed = False
