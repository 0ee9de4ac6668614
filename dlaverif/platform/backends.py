"""The memory and stream backends of a reader bench, behind one interface, chosen once (:func:`backend_for`).

* :class:`AgentBackend`: the default path, cocotbext-axi based agents driven from Python every cycle
  (:class:`dlaverif.agents.axi_mem.AxiMemAgent`, :class:`dlaverif.agents.stream.AxiStreamMonitor`,
  :class:`dlaverif.agents.stream.StreamReadyDriver`), with the clock started by cocotb;
* :class:`FastPathBackend`: the HDL fast path (:mod:`dlaverif.fastpath.harness`): memory, capture and clock in the HDL
  wrapper, exchanged with Python once per job.

Both publish on the same analysis ports (``mem.ar_ap``, ``mem.r_ap``, ``out.ap``, ``out.violation_ap``) with the
same cycle numbers, so the checkers and scoreboards above them do not know which one runs.
"""

from __future__ import annotations

import os
from typing import Any, Optional, Protocol, Union

import numpy as np
from cocotb.clock import Clock

from dlaverif.agents import stalls
from dlaverif.agents.axi_mem import AxiMemAgent
from dlaverif.agents.clocked import ClockLoop
from dlaverif.agents.stream import AxiStreamMonitor, StreamReadyDriver
from dlaverif.fastpath.harness import HdlHarness, HdlMemAgent, HdlStreamCapture, is_hdl_top
from dlaverif.platform.binding import DutBinding
from dlaverif.platform.knobs import Knobs


class Backend(Protocol):
    """What the job protocol needs from a memory + stream backend."""

    mem: Union[AxiMemAgent, HdlMemAgent]  # ar_ap, r_ap, load, inject, clear_faults, inflight_beats, bus widths
    out: Union[AxiStreamMonitor, HdlStreamCapture]  # ap, violation_ap

    def apply_knobs(self, knobs: Knobs, rng: np.random.Generator) -> None:
        """Latency and the named stall profiles of a job (drawing from ``rng`` the same way on every backend)."""

    def commit(self) -> None:
        """The job's memory, faults and knobs are complete (before START)."""

    async def flush(self) -> None:
        """Publish what was logged since the last flush (after a job, at the end of a test)."""

    async def before_reset(self) -> None:
        """About to reset the DUT (in the middle of a job, possibly)."""

    def exchange_seconds(self) -> Optional[dict[str, float]]:
        """Wall time of the per-job exchange with the HDL (None: no such exchange)."""


class PythonAgents:
    """What every backend of Python agents on the bench's clock loop does the same way (the default AXI agents,
    :class:`dlaverif.agents.nvdla.dma_read.NvdlaBackend`): the knobs go to ``mem`` and ``ready``; the agents serve and
    publish as it happens, so commit, flush and reset have nothing to do."""

    mem: Any
    ready: Any

    def apply_knobs(self, knobs: Knobs, rng: np.random.Generator) -> None:
        self.mem.set_latency(knobs.latency)
        self.mem.set_ar_stalls(stalls.profile(knobs.ar_stall, rng))
        self.mem.set_r_gaps(stalls.profile(knobs.r_gap, rng))
        self.ready.set(stalls.profile(knobs.backpressure, rng))

    def commit(self) -> None:
        """Nothing to hand over: the agents serve the memory as it is."""

    async def flush(self) -> None:
        """Nothing to publish: the agents publish as it happens."""

    async def before_reset(self) -> None:
        """Nothing to do: the agents follow the reset wire themselves."""

    def exchange_seconds(self) -> Optional[dict[str, float]]:
        return None


class AgentBackend(PythonAgents):
    """The default path: Python agents on the binding's ports, one per-edge callback for all of them."""

    def __init__(self, dut, binding: DutBinding) -> None:
        clk, rst = binding.signal(dut, binding.clock), binding.signal(dut, binding.reset.name)
        Clock(clk, binding.period_ns, unit="ns").start(start_high=False)
        self.loop = loop = ClockLoop(clk, binding.period_ns)  # one per-edge callback for every agent on the clock
        high = binding.reset.active_high
        self.mem = AxiMemAgent(
            dut, clk, rst, binding.axi_master, period_ns=binding.period_ns, loop=loop, reset_active_high=high
        )
        ids = tuple(signal for signal, _ in getattr(binding.control, "stream_fields", ()))  # TID, TDEST, ...
        self.out = AxiStreamMonitor(
            dut, clk, rst, binding.stream, period_ns=binding.period_ns, loop=loop, reset_active_high=high, sidebands=ids
        )
        self.ready = StreamReadyDriver(dut, clk, binding.stream)


def check_wrapper_names(binding: DutBinding, names: str) -> None:
    """RuntimeError (one line) when the fast-path wrapper took the reader's clock, reset, reset polarity or port
    prefixes (``names``: the flow's ``FASTPATH_PORTS``, ``key=value,...``; :func:`dlaverif.flow.fastpath.environment`)
    to be other than ``binding`` says: the build's ``fastpath:`` entry should declare them as the binding does."""
    got = dict(item.split("=", 1) for item in names.split(",") if "=" in item)
    want = {
        "clock": binding.clock,
        "reset": binding.reset.name,
        "reset_active_low": str(int(not binding.reset.active_high)),
        "axi": f"{binding.axi_master}_",
        "stream": f"{binding.stream}_",
    }
    wrong = [f"{k} {got[k]} (the binding: {v})" for k, v in want.items() if k in got and got[k] != v]
    if wrong:
        raise RuntimeError(
            f"the fast-path wrapper took the reader's {'; '.join(wrong)}: declare them in the build's fastpath: entry"
        )


class FastPathBackend:
    """The fast path (:mod:`dlaverif.fastpath.harness`): the HDL wrapper generates the clock; memory and capture are the
    harness's, with the TREADY knob on the capture."""

    def __init__(self, dut, binding: DutBinding) -> None:
        check_wrapper_names(binding, os.environ.get("FASTPATH_PORTS", ""))
        clk = binding.signal(dut, binding.clock)
        ids = tuple(signal for signal, _ in getattr(binding.control, "stream_fields", ()))  # TID, TDEST, ...
        self.harness = HdlHarness(dut, clk, sidebands=ids)
        self.mem, self.out, self.ready = self.harness.mem, self.harness.out, self.harness.out
        # the completions of a descriptor port or pins (dlaverif.platform.control_pipelined) are watched per edge;
        # nothing runs on it until a control adds its work
        self.loop = ClockLoop(clk, binding.period_ns)

    def apply_knobs(self, knobs: Knobs, rng: np.random.Generator) -> None:
        h = self.harness
        self.mem.set_latency(knobs.latency)
        self.mem.set_ar_stalls(h.stall(knobs.ar_stall, rng))
        self.mem.set_r_gaps(h.stall(knobs.r_gap, rng))
        self.out.set(h.stall(knobs.backpressure, rng))

    def commit(self) -> None:
        self.harness.commit()

    async def flush(self) -> None:
        await self.harness.flush()

    async def before_reset(self) -> None:
        """In the middle of a job, publish its logs so far now (nothing more is accepted in reset), so that the read
        checker judges them against the job's footprint and not against the "nothing after the reset" that follows
        (the default agents publish as it happens)."""
        if self.harness.in_job:
            await self.harness.flush()

    def exchange_seconds(self) -> Optional[dict[str, float]]:
        return self.harness.seconds


def backend_for(dut, binding: DutBinding) -> Any:
    """The backend for this HDL top, chosen once: the binding's own (``binding.backend``: a DUT whose ports are not
    AXI, e.g. :class:`dlaverif.agents.nvdla.dma_read.NvdlaBackend`), the fast path when the top is a
    fast-path wrapper (:mod:`dlaverif.flow.fastpath`: it has ``tb_load``), the default agents otherwise."""
    if binding.backend is not None:
        return binding.backend(dut, binding)
    return FastPathBackend(dut, binding) if is_hdl_top(dut) else AgentBackend(dut, binding)
