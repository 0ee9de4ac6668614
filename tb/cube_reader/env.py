"""Cube-reader environment: the one TB wrapper (clock, reset, shared agents and checkers), the job driver and the
pyuvm env. Directed tests (``test_directed.py``) and pyuvm tests (``tests.py``) both run on :class:`CubeReaderTB`.

    sequence ─▶ sequencer ─▶ CubeDriver ── drives one job: knobs, memory image, registers, START, DONE, status
                                  │
                                  └─ ap (job done) ─▶ CubeScoreboard ─ ap ─▶ CubeCoverage
    AxiMemAgent.ar_ap / r_ap ─┬─▶ AxiReadChecker (4 KB, ARSIZE, INCR, footprint over the job's regions)
    AxiStreamMonitor.ap ──────┴─▶ CubeScoreboard's JobLog (what the DUT did, per job)

The driver never looks at what the DUT sent: the monitors publish it, and the scoreboard pairs each finished job
with the transactions published since the previous one.
"""
from __future__ import annotations

import os
from typing import Optional

import cocotb
import numpy as np
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, First, RisingEdge
from pyuvm import ConfigDB, uvm_analysis_port, uvm_driver, uvm_env, uvm_sequencer

from models.blocked import BlockedCubeDescriptor
from tb.agents import stalls
from tb.agents.analysis import JobLog
from tb.agents.axi_mem import AxiMemAgent
from tb.agents.csr import CsrAgent
from tb.agents.stream import AxiStreamMonitor, StreamReadyDriver
from tb.checkers.axi_read import AxiReadChecker, Region, words_of_runs

from . import registers
from .coverage import CubeCoverage
from .items import CubeItem, Kind, Knobs
from .scoreboard import CubeScoreboard

PERIOD_NS = 10
JOBLOG = os.getenv("JOBLOG", "0") not in ("", "0")   # JOBLOG=1: one INFO line per job


def cube_regions(desc: BlockedCubeDescriptor, bus_bytes: int, strict: bool = True) -> list[Region]:
    """The one region a cube job may read: its extent, and with ``strict`` only the bus words holding an atom."""
    words = words_of_runs(desc.atom_addresses(), desc.atom_bytes, bus_bytes) if strict else None
    return [Region("cube", desc.base, desc.base + desc.extent, words)]


class CubeReaderTB:
    """Clock, reset, the shared agents and the read checker around one ``cube_reader`` instance."""

    def __init__(self, dut, rng: Optional[np.random.Generator] = None) -> None:
        self.dut = dut
        self.rng = rng if rng is not None else np.random.default_rng(0)
        self.clock = Clock(dut.clk, PERIOD_NS, unit="ns")
        self.clock.start(start_high=False)
        dut.rst.value = 1
        self.mem = AxiMemAgent(dut, dut.clk, dut.rst, "m_axi", period_ns=PERIOD_NS)
        self.csr = CsrAgent(dut, dut.clk, dut.rst, registers.REGS, "s_axil", irq=dut.irq, period_ns=PERIOD_NS)
        self.out = AxiStreamMonitor(dut, dut.clk, dut.rst, "m_axis", period_ns=PERIOD_NS)
        self.ready = StreamReadyDriver(dut, dut.clk, "m_axis")
        self.bus_bytes = self.mem.bus_bytes
        self.addr_bits = self.mem.address_width
        self.reads = AxiReadChecker(self.bus_bytes)
        self.mem.ar_ap.connect(self.reads)

    def observe(self) -> JobLog:
        """A new subscriber of every port of the TB: AR bursts, R beats, output transfers, protocol violations."""
        log = JobLog(ar=self.mem.ar_ap, r=self.mem.r_ap, out=self.out.ap)
        log.listen("violations", self.reads.violation_ap)
        log.listen("violations", self.out.violation_ap)
        return log

    async def reset(self, cycles: int = 4) -> None:
        self.dut.rst.value = 1
        self.csr.clear()
        await ClockCycles(self.dut.clk, cycles)
        self.dut.rst.value = 0
        await ClockCycles(self.dut.clk, 2)

    def apply_knobs(self, knobs: Knobs) -> None:
        self.mem.set_latency(knobs.latency)
        self.mem.set_ar_stalls(stalls.profile(knobs.ar_stall, self.rng))
        self.mem.set_r_gaps(stalls.profile(knobs.r_gap, self.rng))
        self.ready.set(stalls.profile(knobs.backpressure, self.rng))

    def regions(self, desc: BlockedCubeDescriptor, strict: bool = True) -> list[Region]:
        return cube_regions(desc, self.bus_bytes, strict)

    # ------------------------------------------------------------------ one job
    async def run_job(self, item: CubeItem) -> None:
        """Drive one job: knobs, memory, faults, the footprint the checker enforces, registers, START; wait for
        DONE (or reset the DUT in the middle for a RESET job) and read the status registers into ``item``."""
        self.apply_knobs(item.knobs)
        if item.cube is not None:
            self.mem.mem.clear()
            for addr, blob in item.cube.memory():
                self.mem.load(addr, blob)
        self.mem.clear_faults()
        for lo, hi, resp in item.faults:
            self.mem.inject(lo, hi, resp)
        if item.kind is Kind.ILLEGAL:
            self.reads.expect_none()
        else:
            self.reads.expect(self.regions(item.desc))
        await registers.program(self.csr, item.desc, item.nan_to_zero, item.fp16)
        await self.csr.start()
        midjob = cocotb.start_soon(self._midjob(item)) if item.midjob is not None else None
        item.irq_after = None
        if item.kind is Kind.RESET:
            await First(ClockCycles(self.dut.clk, item.reset_after), RisingEdge(self.dut.irq))
            await self.reset()
            self.reads.expect_none()           # nothing may be read after the reset
            await ClockCycles(self.dut.clk, 8)
            item.irq_after = int(self.dut.irq.value)
            item.status = await registers.read_status(self.csr, True, 0)
            item.inflight_at_done = 0
        else:
            done, waited = await self.csr.wait_done(item.timeout_cycles(self.bus_bytes))
            item.inflight_at_done = self.mem.inflight_beats
            await ClockCycles(self.dut.clk, 2)
            item.status = await registers.read_status(self.csr, done, waited)
        if midjob is not None:
            await midjob
        item.csr_violations, self.csr.violations = self.csr.violations, []
        if not item.status.done:
            await self.reset()           # leave the DUT idle and clean for the next item

    async def _midjob(self, item: CubeItem) -> None:
        """START again while the job validates (ignored while busy), then overwrite every descriptor register
        with garbage ``item.midjob`` cycles later: the running job latched its descriptor at START."""
        await self.csr.start()
        await ClockCycles(self.dut.clk, item.midjob)
        names = registers.DESC_REGS
        garbage = {k: int(v) for k, v in zip(names, self.rng.integers(0, 1 << 32, len(names), dtype=np.uint64))}
        garbage["CFG"] &= ~0xF  # keep a legal-looking word; the value does not matter to the running job
        await self.csr.write_many(garbage)


class CubeDriver(uvm_driver):
    """Runs each item as one job on the DUT and publishes the finished job on ``ap``."""

    def build_phase(self) -> None:
        self.ap = uvm_analysis_port("ap", self)
        self.tb: CubeReaderTB = ConfigDB().get(self, "", "TB")

    async def run_phase(self) -> None:
        while True:
            item = await self.seq_item_port.get_next_item()
            await self.tb.run_job(item)
            if JOBLOG:
                self.logger.info("job %s: %s | faults=%s", item.label(), item.status,
                                 [(hex(lo), hex(hi), r) for lo, hi, r in item.faults])
            self.ap.write(item)
            self.seq_item_port.item_done()


class CubeReaderEnv(uvm_env):
    def build_phase(self) -> None:
        self.seqr = uvm_sequencer("seqr", self)
        self.driver = CubeDriver("driver", self)
        self.scoreboard = CubeScoreboard("scoreboard", self)
        self.coverage = CubeCoverage("coverage", self)
        ConfigDB().set(None, "*", "SEQR", self.seqr)

    def connect_phase(self) -> None:
        self.driver.seq_item_port.connect(self.seqr.seq_item_export)
        self.driver.ap.connect(self.scoreboard.analysis_export)
        self.scoreboard.observe(self.tb)
        self.scoreboard.ap.connect(self.coverage.analysis_export)

    @property
    def tb(self) -> CubeReaderTB:
        return self.driver.tb
