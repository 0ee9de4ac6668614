"""What every reader testbench shares: the TB wrapper around a reader DUT, the job driver, the scoreboard's job
pairing and reporting, and the pyuvm env that wires them.

A reader DUT (cube reader, weight reader, pixel reader) has the same ports: ``clk``, ``rst`` (synchronous, active
high), an AXI4 read master ``m_axi_*``, an AXI4-Lite register slave ``s_axil_*`` with the common CTRL/STATUS/ERROR
pattern, an ``irq`` (DONE) line and an AXI4-Stream output ``m_axis_*``. A block's testbench subclasses:

* :class:`ReaderTB`: implements :meth:`ReaderTB.run_job` (program its descriptor, START, wait for DONE, read its
  status registers into the item) and :meth:`ReaderTB.regions` (the named byte ranges a job may read);
* :class:`JobScoreboard`: implements :meth:`JobScoreboard.observed` (what the monitors published, shaped for the
  block) and :meth:`JobScoreboard.problems` (the comparison with the models);
* :class:`ReaderEnv`: names its scoreboard and coverage classes.

    sequence ─▶ sequencer ─▶ JobDriver ── ReaderTB.run_job(item) ── ap ─▶ scoreboard ── ap ─▶ coverage
    AxiMemAgent.ar_ap ──▶ AxiReadChecker (protocol + footprint over the job's regions) ─┐
    AxiMemAgent.ar_ap / r_ap, AxiStreamMonitor.ap / violation_ap ───────────────────────┴─▶ scoreboard's JobLog
"""
from __future__ import annotations

import os
import time
from typing import Any, Optional, Sequence

import numpy as np
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles
from pyuvm import ConfigDB, uvm_analysis_port, uvm_driver, uvm_env, uvm_sequencer, uvm_subscriber

from tb.agents import stalls
from tb.agents.analysis import JobLog
from tb.agents.axi_mem import AxiMemAgent
from tb.agents.csr import CsrAgent
from tb.agents.stream import AxiStreamMonitor, StreamReadyDriver
from tb.checkers.axi_read import AxiReadChecker, Region
from tb.hdl_mem import HdlHarness, is_hdl_top

PERIOD_NS = 10
JOBLOG = os.getenv("JOBLOG", "0") not in ("", "0")   # JOBLOG=1: one INFO line per job
MAX_REPORTS = 20  # detailed mismatch reports per run; later ones are counted and summarised


class ReaderTB:
    """Clock, reset, the shared agents and the read checker around one reader DUT."""

    def __init__(self, dut, regs, rng: Optional[np.random.Generator] = None) -> None:
        self.dut = dut
        self.rng = rng if rng is not None else np.random.default_rng(0)
        # the fast path (a tb/hdl/ wrapper as HDL top): memory, capture and the clock in HDL, exchanged per job
        self.hdl = HdlHarness(dut, dut.clk) if is_hdl_top(dut) else None
        if self.hdl is None:
            Clock(dut.clk, PERIOD_NS, unit="ns").start(start_high=False)
        dut.rst.value = 1
        if self.hdl is not None:
            self.mem, self.out, self.ready = self.hdl.mem, self.hdl.out, self.hdl.out
        else:
            self.mem = AxiMemAgent(dut, dut.clk, dut.rst, "m_axi", period_ns=PERIOD_NS)
            self.out = AxiStreamMonitor(dut, dut.clk, dut.rst, "m_axis", period_ns=PERIOD_NS)
            self.ready = StreamReadyDriver(dut, dut.clk, "m_axis")
        self.csr = CsrAgent(dut, dut.clk, dut.rst, regs, "s_axil", irq=dut.irq, period_ns=PERIOD_NS)
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

    def apply_knobs(self, knobs) -> None:
        """Latency and the named stall profiles (``tb.agents.stalls``) of a job's knobs."""
        pattern = self.hdl.stall if self.hdl is not None else stalls.profile
        self.mem.set_latency(knobs.latency)
        self.mem.set_ar_stalls(pattern(knobs.ar_stall, self.rng))
        self.mem.set_r_gaps(pattern(knobs.r_gap, self.rng))
        self.ready.set(pattern(knobs.backpressure, self.rng))

    def prepare(self, item, pieces: Optional[Sequence[tuple[int, Any]]], faults: Sequence[tuple[int, int, str]],
                legal: bool) -> None:
        """Before START: knobs, a fresh memory holding ``pieces`` (None: keep the memory as it is), the fault ranges,
        and the footprint the read checker enforces (no read at all for an illegal job)."""
        self.apply_knobs(item.knobs)
        if pieces is not None:
            self.mem.mem.clear()
            for addr, blob in pieces:
                self.mem.load(addr, blob)
        self.mem.clear_faults()
        for lo, hi, resp in faults:
            self.mem.inject(lo, hi, resp)
        if legal:
            self.reads.expect(self.regions(item))
        else:
            self.reads.expect_none()
        if self.hdl is not None:
            self.hdl.commit()

    async def flush(self) -> None:
        """After a job (and at the end of a test): on the fast path, publish what the HDL logged since the last
        flush on the agents' ports; the default agents publish as it happens, so this is a no-op there."""
        if self.hdl is not None:
            await self.hdl.flush()

    # ------------------------------------------------------------------ per block
    def regions(self, item) -> list[Region]:
        raise NotImplementedError

    async def run_job(self, item) -> None:
        raise NotImplementedError


class JobDriver(uvm_driver):
    """Runs each item as one job on the DUT (``ReaderTB.run_job``) and publishes the finished job on ``ap``."""

    def build_phase(self) -> None:
        self.ap = uvm_analysis_port("ap", self)
        self.tb: ReaderTB = ConfigDB().get(self, "", "TB")

    async def run_phase(self) -> None:
        while True:
            item = await self.seq_item_port.get_next_item()
            await self.tb.run_job(item)
            await self.tb.flush()
            if JOBLOG:
                self.logger.info("job %s: %s", item.label(), item.status)
            self.ap.write(item)
            self.seq_item_port.item_done()


class JobScoreboard(uvm_subscriber):
    """Pairs each finished job with what the TB's monitors published since the previous one, checks it, reports a
    mismatch with the block's details and the reproducing command, and forwards the checked job on ``ap``.

    Self-test hooks: ``corrupt(item, expected)`` corrupts the model's answer; ``expect_reports`` maps item names to
    a text their report must contain (and only those items may be reported)."""

    def build_phase(self) -> None:
        self.ap = uvm_analysis_port("ap", self)
        self.log: Optional[JobLog] = None
        self.checked = 0
        self.check_seconds = 0.0     # wall time spent comparing with the models (make bench reports it)
        self.errors = 0
        self.reports: list[tuple[str, str]] = []   # (item name, the report in one line)
        self.corrupt = None
        self.expect_reports: dict[str, str] = {}

    def observe(self, tb: ReaderTB) -> None:
        """Subscribe to the TB's monitors and checkers (connect phase)."""
        self.log = tb.observe()

    def write(self, item) -> None:
        t0 = time.perf_counter()
        item.result = self.observed(item, self.log.take())
        problems = self.problems(item)
        self.check_seconds += time.perf_counter() - t0
        self.checked += 1
        if problems:
            self.report(item, problems)
        self.ap.write(item)

    def report(self, item, problems: list[str]) -> None:
        self.errors += 1
        head = f"{item.label()}: {problems[0]}"
        self.reports.append((item.get_name(), head + " | " + " | ".join(problems[1:])))
        if len(self.reports) <= MAX_REPORTS:
            body = "\n    ".join(problems[1:] + self.details(item))
            self.logger.error("MISMATCH %s\n    %s\n    reproduce: %s", head, body, self.reproduce())

    # ------------------------------------------------------------------ per block
    def observed(self, item, seen: dict[str, list]):
        raise NotImplementedError

    def problems(self, item) -> list[str]:
        raise NotImplementedError

    def details(self, item) -> list[str]:
        """Extra lines of a mismatch report (descriptor, knobs)."""
        return []

    def reproduce(self) -> str:
        raise NotImplementedError

    def summary(self) -> str:
        return f"{self.checked} jobs, {self.errors} mismatching"

    # ------------------------------------------------------------------ end of test
    def check_phase(self) -> None:
        after = self.log.take()
        if any(after.values()):
            self.errors += 1
            self.reports.append(("<after the last job>", f"{len(after['out'])} transfer(s), {len(after['ar'])} "
                                 f"AR(s) after the last job; violations: {after['violations'][:3]}"))
        self.logger.info("scoreboard: %s", self.summary())
        assert self.checked > 0, "scoreboard checked nothing"
        if self.expect_reports:
            got = dict(self.reports)
            missed = sorted(set(self.expect_reports) - set(got))
            assert not missed, f"scoreboard did not report the corrupted job(s) {missed}"
            for name, needle in self.expect_reports.items():
                assert needle in got[name], f"{name}: report {got[name]!r} does not mention {needle!r}"
            self.logger.info("scoreboard self-test: all %d corruptions reported where they were made",
                             len(self.expect_reports))
        unexpected = [(n, t) for n, t in self.reports if n not in self.expect_reports]
        assert not unexpected, (f"{len(unexpected)} of {self.checked} jobs mismatched; first: {unexpected[0][1]}; "
                                f"reproduce: {self.reproduce()}")


class ReaderEnv(uvm_env):
    """Sequencer, driver, scoreboard and coverage of one reader; subclasses set the two classes."""

    scoreboard_cls: type = JobScoreboard
    coverage_cls: Optional[type] = None

    def build_phase(self) -> None:
        self.seqr = uvm_sequencer("seqr", self)
        self.driver = JobDriver("driver", self)
        self.scoreboard = self.scoreboard_cls("scoreboard", self)
        self.coverage = self.coverage_cls("coverage", self) if self.coverage_cls else None
        ConfigDB().set(None, "*", "SEQR", self.seqr)

    def connect_phase(self) -> None:
        self.driver.seq_item_port.connect(self.seqr.seq_item_export)
        self.driver.ap.connect(self.scoreboard.analysis_export)
        self.scoreboard.observe(self.tb)
        if self.coverage is not None:
            self.scoreboard.ap.connect(self.coverage.analysis_export)

    @property
    def tb(self) -> ReaderTB:
        return self.driver.tb
