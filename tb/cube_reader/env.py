"""Cube-reader environment: the TB wrapper (clock, reset, agents), the job driver, and the pyuvm env.

    sequence ──▶ sequencer ──▶ CubeDriver ── loads memory, programs CSRs, START, waits for irq
                                   │          (AxiMemAgent, CsrAgent, StreamMonitor from tb.agents)
                                   └── ap ──▶ CubeScoreboard (models) and CubeCoverage
"""
from __future__ import annotations

import os
from typing import Optional

import cocotb
import numpy as np
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, First, RisingEdge
from pyuvm import ConfigDB, uvm_analysis_port, uvm_driver, uvm_env, uvm_sequencer

from tb.agents import axi_mem
from tb.agents.axi_mem import AxiMemAgent
from tb.agents.csr import CsrAgent
from tb.agents.stream import StreamMonitor

from .coverage import CubeCoverage
from .items import CubeItem, JobResult, Kind
from .scoreboard import CubeScoreboard

PERIOD_NS = 10
JOBLOG = os.getenv("JOBLOG", "0") not in ("", "0")   # JOBLOG=1: one INFO line per job


class CubeReaderTB:
    """Clock, reset and the three agents around one ``cube_reader`` instance."""

    def __init__(self, dut, rng: Optional[np.random.Generator] = None) -> None:
        self.dut = dut
        self.rng = rng if rng is not None else np.random.default_rng(0)
        self.clock = Clock(dut.clk, PERIOD_NS, unit="ns")
        self.clock.start(start_high=False)
        dut.rst.value = 1
        self.mem = AxiMemAgent(dut, dut.clk, dut.rst, "m_axi", period_ns=PERIOD_NS)
        self.csr = CsrAgent(dut, dut.clk, dut.rst, "s_axil", irq=dut.irq, period_ns=PERIOD_NS)
        self.out = StreamMonitor(dut, dut.clk, dut.rst, "m_axis", period_ns=PERIOD_NS)
        self.bus_bytes = self.mem.bus_bytes
        self.addr_bits = self.mem.address_width

    async def reset(self, cycles: int = 4) -> None:
        self.dut.rst.value = 1
        self.csr.clear()
        await ClockCycles(self.dut.clk, cycles)
        self.dut.rst.value = 0
        await ClockCycles(self.dut.clk, 2)

    def stall_gen(self, name: str):
        """Pause generator for a knob name (none | every4 | random | bursty)."""
        if name == "none":
            return None
        if name == "every4":
            return axi_mem.every_nth(4, 1)()
        if name == "random":
            return axi_mem.random_stalls(np.random.default_rng(self.rng.integers(1 << 32)), 0.3)
        if name == "bursty":
            return axi_mem.bursty(np.random.default_rng(self.rng.integers(1 << 32)), 12, 6)
        raise ValueError(f"unknown stall profile {name!r}")

    def apply_knobs(self, knobs) -> None:
        self.mem.set_latency(knobs.latency)
        self.mem.set_ar_stalls(self.stall_gen(knobs.ar_stall))
        self.mem.set_r_gaps(self.stall_gen(knobs.r_gap))
        self.out.set_backpressure(self.stall_gen(knobs.backpressure))


class CubeDriver(uvm_driver):
    """Runs each item as one job on the DUT and publishes it (with its result) on ``ap``."""

    def build_phase(self) -> None:
        self.ap = uvm_analysis_port("ap", self)
        self.tb: CubeReaderTB = ConfigDB().get(self, "", "TB")

    async def run_phase(self) -> None:
        while True:
            item = await self.seq_item_port.get_next_item()
            await self.execute(item)
            self.ap.write(item)
            self.seq_item_port.item_done()

    async def execute(self, item: CubeItem) -> None:
        tb = self.tb
        tb.apply_knobs(item.knobs)
        tb.mem.take()
        left, bad = tb.out.take()
        pre = [f"{len(left)} atom(s) arrived between jobs"] if left else []
        pre += bad
        if item.cube is not None:
            tb.mem.mem.clear()
            for addr, blob in item.cube.memory():
                tb.mem.load(addr, blob)
        tb.mem.clear_faults()
        for lo, hi, resp in item.faults:
            tb.mem.inject(lo, hi, resp)
        tb.mem.expect(None if item.kind is Kind.ILLEGAL else item.desc)
        served0 = tb.mem.beats_served
        await tb.csr.program(item.desc, item.nan_to_zero, item.fp16)
        await tb.csr.start()
        midjob = cocotb.start_soon(self._midjob(item)) if item.midjob is not None else None
        irq_after = None
        if item.kind is Kind.RESET:
            await First(ClockCycles(tb.dut.clk, item.reset_after), RisingEdge(tb.dut.irq))
            await tb.reset()
            tb.mem.expect(None)           # nothing may be read after the reset
            await ClockCycles(tb.dut.clk, 8)
            irq_after = int(tb.dut.irq.value)
            status = await tb.csr.job_status(True, 0)
            inflight = 0
        else:
            done, waited = await tb.csr.wait_done(item.timeout_cycles(tb.bus_bytes))
            inflight = tb.mem.inflight_beats
            await ClockCycles(tb.dut.clk, 2)
            status = await tb.csr.job_status(done, waited)
            if not done:
                self.logger.error("job %s timed out after %d cycles: %s", item.get_name(), waited, status)
        if midjob is not None:
            await midjob
        beats, stream_bad = tb.out.take()
        bursts, mem_bad = tb.mem.take()
        item.result = JobResult(beats, status, bursts, pre + mem_bad + stream_bad + tb.csr.violations,
                                tb.mem.beats_served - served0, inflight, irq_after)
        tb.csr.violations = []
        if JOBLOG:
            self.logger.info("job %s: %d atoms, %d bursts, %d beats served, %s | fault_atom=%s faults=%s",
                             item.label(), len(beats), len(bursts), item.result.beats_served, status,
                             item.fault_atom, [(hex(lo), hex(hi), r) for lo, hi, r in item.faults])
        if item.kind is Kind.RESET or not status.done:
            # leave the DUT idle and clean for the next item
            if not status.done:
                await tb.reset()
            tb.mem.take()
            tb.out.take()

    async def _midjob(self, item: CubeItem) -> None:
        """START again while the job validates (ignored while busy), then overwrite every descriptor register
        with garbage ``item.midjob`` cycles later: the running job latched its descriptor at START."""
        tb = self.tb
        await tb.csr.start()
        await ClockCycles(tb.dut.clk, item.midjob)
        values = CsrAgent.descriptor_values(item.desc)
        garbage = {k: int(v) for k, v in zip(values, tb.rng.integers(0, 1 << 32, len(values), dtype=np.uint64))}
        garbage["CFG"] &= ~0xF  # keep a legal-looking word; the value does not matter to the running job
        await tb.csr.write_many(garbage)


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
        self.driver.ap.connect(self.coverage.analysis_export)

    @property
    def tb(self) -> CubeReaderTB:
        return self.driver.tb
