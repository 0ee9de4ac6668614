"""The bench of a DUT whose jobs are descriptors on a valid/ready port (a
:class:`~tb.platform.binding.DescriptorControl` binding): several jobs in flight, completion pulses, and the
framing of the output into jobs by what the binding says the completion means (:mod:`tb.platform.completion`).

Built from the binding alone: clock, reset (either polarity), the memory and stream backend
(:func:`tb.platform.backends.backend_for`), the AXI read checker, and

* :class:`DescriptorDriver`: drives ``valid`` and the payload's field ports, keeps at most ``queue_depth`` jobs in
  flight (accepted, completion not yet seen), records the cycle of each handshake and the jobs in flight then;
* a completion monitor: the cycle of every pulse of the binding's ``done`` port.

:meth:`DescriptorTB.run_jobs` sends a burst of descriptors (with the gaps the caller draws), waits until every job
completed and the stream has been idle, and returns the :class:`~tb.platform.completion.Framing` of the output.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional, Sequence

import numpy as np
from cocotb.simtime import get_sim_time
from cocotb.triggers import ClockCycles, Event, FallingEdge, RisingEdge

from tb.agents.analysis import JobLog
from tb.checkers.axi_read import AxiReadChecker
from tb.footprint import Region
from tb.platform.backends import backend_for
from tb.platform.binding import DescriptorControl, DutBinding
from tb.platform.completion import Framing, frame


@dataclass
class DescriptorJob:
    """One job on a descriptor port: its name, the payload (field name -> value), the byte ranges it may read, and
    the gap (idle cycles) before its descriptor is offered. The bench fills the handshake's cycle and the number of
    jobs in flight including this one."""

    name: str
    fields: dict[str, int]
    regions: Sequence[Region]
    gap: int = 0
    accepted: Optional[int] = None
    in_flight: int = 0


class DescriptorDriver:
    """Drives a descriptor port (valid, payload) on falling edges and samples ready on rising edges."""

    def __init__(self, dut, clock, control: DescriptorControl, period_ns: int) -> None:
        self.clock, self.period_ns = clock, period_ns
        self.valid = getattr(dut, control.valid)
        self.ready = getattr(dut, control.ready)
        self.ports = {name: getattr(dut, port) for name, port in control.fields}
        self.depth = control.queue_depth
        self.valid.value = 0
        self.accepted = 0  # descriptors the DUT took
        self.completed = 0  # completions seen (the monitor counts them)
        self.room = Event()  # set when a completion frees a slot

    def in_flight(self) -> int:
        return self.accepted - self.completed

    async def send(self, job: DescriptorJob) -> None:
        """Offer ``job`` after its gap once fewer than ``queue_depth`` jobs are in flight; return at the handshake."""
        if job.gap:
            await ClockCycles(self.clock, job.gap, rising=False)
        while self.in_flight() >= self.depth:
            self.room.clear()
            await self.room.wait()
            await FallingEdge(self.clock)
        for name, port in self.ports.items():
            port.value = int(job.fields[name])
        self.valid.value = 1
        while True:
            await RisingEdge(self.clock)
            if self.ready.value.is_resolvable and int(self.ready.value) == 1:
                break
        job.accepted = int(get_sim_time("ns") // self.period_ns)
        self.accepted += 1
        job.in_flight = self.in_flight()
        await FallingEdge(self.clock)
        self.valid.value = 0


class DescriptorTB:
    """Clock, reset, backend, read checker, descriptor driver and completion monitor of one DUT, from its binding."""

    def __init__(self, dut, binding: DutBinding, rng: Optional[np.random.Generator] = None) -> None:
        if not isinstance(binding.control, DescriptorControl):
            raise TypeError("DescriptorTB needs a DescriptorControl binding")
        self.dut, self.binding, self.control = dut, binding, binding.control
        self.rng = rng if rng is not None else np.random.default_rng(0)
        self.clk = binding.signal(dut, binding.clock)
        self.rst = binding.signal(dut, binding.reset.name)
        self.rst.value = binding.reset.asserted
        self.backend = backend_for(dut, binding)
        self.mem, self.out = self.backend.mem, self.backend.out
        self.bus_bytes = self.mem.bus_bytes
        self.reads = AxiReadChecker(self.bus_bytes)
        self.mem.ar_ap.connect(self.reads)
        self.driver = DescriptorDriver(dut, self.clk, binding.control, binding.period_ns)
        self.done = binding.signal(dut, binding.control.done)
        self.completions: list[int] = []
        self._done_rise = RisingEdge(self.done)
        self.log = JobLog(out=self.out.ap)
        self.log.listen("violations", self.reads.violation_ap)
        self.log.listen("violations", self.out.violation_ap)
        self.backend.loop.add(self._watch_done)  # the Python agents' loop (no fast path for these DUTs yet)

    def _watch_done(self, cycle: int) -> Any:
        """Per rising edge (on the backend's clock loop, so with the stream's cycle numbers): a completion pulse.
        While the done port is low the loop sleeps until it rises; while high it looks again at the next edge (a
        pulse per cycle for jobs completing back to back)."""
        v = self.done.value
        if not (v.is_resolvable and int(v) == 1):
            return self._done_rise
        if not self._in_reset():
            self.completions.append(cycle)
            self.driver.completed += 1
            self.driver.room.set()
        return None

    def _in_reset(self) -> bool:
        v = self.rst.value
        return not v.is_resolvable or int(v) == self.binding.reset.asserted

    async def reset(self, cycles: int = 4) -> None:
        asserted = self.binding.reset.asserted
        self.rst.value = asserted
        await ClockCycles(self.clk, cycles)
        self.rst.value = 1 - asserted
        await ClockCycles(self.clk, 2)

    async def run_jobs(self, jobs: Sequence[DescriptorJob], idle: int = 32, timeout: int = 100_000) -> Framing:
        """Send ``jobs`` in order, wait for all their completions and ``idle`` quiet cycles of the stream, and frame
        the output (transfers and completions since the last call) into them."""
        self.reads.expect([r for job in jobs for r in job.regions])
        first = len(self.completions)
        self.log.take()
        for job in jobs:
            await self.driver.send(job)
        waited = 0
        while len(self.completions) - first < len(jobs) and waited < timeout:
            await ClockCycles(self.clk, 16)
            waited += 16
        seen = -1
        while seen != len(self.log["out"]):  # until the stream has been quiet for ``idle`` cycles
            seen = len(self.log["out"])
            await ClockCycles(self.clk, idle)
        got = self.log.take()
        key = self.control.stream_tag
        tags = [j.fields[key] for j in jobs] if key is not None else None
        framing = frame(
            [j.name for j in jobs], list(got["out"]), self.completions[first:], self.binding.completion, tags
        )
        self.violations = list(got["violations"])
        return framing
