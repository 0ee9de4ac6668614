"""What every reader testbench shares: the TB wrapper around a reader DUT, the job driver, the scoreboard's job
pairing and reporting, and the pyuvm env that wires them.

A reader DUT (cube reader, weight reader, pixel reader) has the same ports: ``clk``, ``rst`` (synchronous, active
high), an AXI4 read master ``m_axi_*``, an AXI4-Lite register slave ``s_axil_*`` with the common CTRL/STATUS/ERROR
pattern, an ``irq`` (DONE) line and an AXI4-Stream output ``m_axis_*``. A block's testbench subclasses:

* :class:`ReaderItem`: the request of one job (stimulus only); the driver answers it with one :class:`JobResult`;
* :class:`ReaderTB`: owns the ONE job protocol (:meth:`ReaderTB.run_job`: prepare, program, START, mid-job
  activity, reset-or-wait, settle, status, CSR violations, reset if hung); a block fills its hooks
  (:meth:`ReaderTB.regions`, :meth:`ReaderTB.pieces`, :meth:`ReaderTB.program`, :meth:`ReaderTB.read_status`,
  :attr:`ReaderTB.desc_regs`, :meth:`ReaderTB.garbage`);
* :class:`JobScoreboard`: implements :meth:`JobScoreboard.observed` (what the monitors published, shaped for the
  block) and :meth:`JobScoreboard.problems` (the comparison with the models);
* :class:`ReaderEnv`: names its scoreboard and coverage classes;
* :class:`ReaderTestBase`: names its TB and env classes (seeding, ConfigDB, reset, end of test are shared);
  :class:`ScoreboardSelfTestBase` and :class:`CorruptModelBase` give every block the two tests that prove its
  scoreboard able to fail, from the block's list of corruptions;
* :class:`CoverageSubscriber`: samples each checked job into the block's covergroups and exports them.

    sequence ─▶ sequencer ─▶ JobDriver ── ReaderTB.run_job(item) -> item.result ── ap ─▶ scoreboard ── ap ─▶ coverage
    AxiMemAgent.ar_ap ──▶ AxiReadChecker (protocol + footprint over the job's regions) ─┐
    AxiMemAgent.ar_ap / r_ap, AxiStreamMonitor.ap / violation_ap ───────────────────────┴─▶ scoreboard's JobLog
"""

from __future__ import annotations

import gc
import hashlib
import os
import time
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any, Callable, Optional, Sequence, TypeVar, Union

import cocotb
import numpy as np
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, First, RisingEdge
from pyuvm import (
    ConfigDB,
    uvm_analysis_port,
    uvm_driver,
    uvm_env,
    uvm_sequence,
    uvm_sequence_item,
    uvm_sequencer,
    uvm_subscriber,
    uvm_test,
)

from tb.agents import stalls
from tb.agents.analysis import AnalysisPort, JobLog
from tb.agents.axi_mem import AxiMemAgent
from tb.agents.clocked import ClockLoop
from tb.agents.csr import CsrAgent
from tb.agents.stream import AxiStreamMonitor, StreamReadyDriver
from tb.assertions import AssertionLog
from tb.checkers.axi_read import AxiReadChecker
from tb.fastpath.harness import HdlHarness, HdlMemAgent, HdlStreamCapture, is_hdl_top
from tb.footprint import Region
from tb.mismatch_map import DiffRows, write_map
from tb.register_check import check_register_map
from tb.regmap import JobStatus

PERIOD_NS = 10
JOBLOG = os.getenv("JOBLOG", "0") not in ("", "0")  # JOBLOG=1: one INFO line per job
MAX_REPORTS = 20  # detailed mismatch reports per run; later ones are counted and summarised
MAX_MAPS = int(os.getenv("MISMATCH_MAPS", "").strip() or 3)  # mismatch maps (SVG) per test; 0: none


@dataclass
class Knobs:
    """Timing knobs of one job (names end up in coverage and in mismatch reports)."""

    latency: int = 0  # memory read latency, cycles
    ar_stall: str = "none"  # ARREADY withheld: a profile of tb.agents.stalls
    r_gap: str = "none"  # RVALID gaps: a profile of tb.agents.stalls
    backpressure: str = "none"  # TREADY withheld: a profile of tb.agents.stalls

    def __str__(self) -> str:
        return f"latency={self.latency} ar={self.ar_stall} r={self.r_gap} tready={self.backpressure}"

    def stall_factor(self) -> int:
        """How much slower than a quiet job a job may run under these stalls (the hang bounds' factor)."""
        return 1 + 4 * sum(k != "none" for k in (self.ar_stall, self.r_gap, self.backpressure))


#: stall profiles the random knobs draw from (tb.agents.stalls)
STALLS = ("none", "every4", "random", "bursty")


def random_knobs(rng: np.random.Generator, quiet: float = 0.4, heavy: bool = False) -> Knobs:
    """Timing knobs: all quiet with probability ``quiet``, else random stalls and latency."""
    if not heavy and rng.random() < quiet:
        return Knobs()

    def pick() -> str:
        return str(rng.choice(STALLS, p=[0.1, 0.3, 0.3, 0.3] if heavy else [0.4, 0.2, 0.2, 0.2]))

    lat = int(rng.choice([0, 1, 3, 8, 20, 40], p=[0.3, 0.2, 0.2, 0.1, 0.1, 0.1]))
    return Knobs(latency=lat, ar_stall=pick(), r_gap=pick(), backpressure=pick())


def regression_seed() -> int:
    """The run's COCOTB_RANDOM_SEED (cocotb 2 gives each test ``RANDOM_SEED = run seed + sha1(test name)``)."""
    env = os.getenv("COCOTB_RANDOM_SEED", "").strip()
    if env:
        return int(env)
    test = ConfigDB().get(None, "", "TEST_FULLNAME", "")
    return cocotb.RANDOM_SEED - int(hashlib.sha1(test.encode()).hexdigest(), 16) if test else cocotb.RANDOM_SEED


def reproduce_command() -> str:
    """The command line that reruns this test with the same seed (hence the same stimulus)."""
    sim = (cocotb.SIM_NAME or "").lower()
    sim = "icarus" if "icarus" in sim else "verilator" if "verilator" in sim else sim
    test = ConfigDB().get(None, "", "TEST_NAME", "<test>")
    extra = ""
    for var in ("COUNT", "COUNT_SCALE", "LARGE"):
        if os.getenv(var, "").strip():
            extra += f" {var}={os.environ[var]}"
    width = os.getenv("PARAM_AXI_DATA_W")
    suite = f"  (the AXI_DATA_W={width} suite)" if width and width != "256" else ""
    return f"make sim SIM={sim} TESTCASE={test} SEED={regression_seed()}{extra}{suite}"


def hex_bytes(b: bytes | np.ndarray, mark: Optional[int] = None) -> str:
    """Bytes in address order, 4 per group; byte ``mark`` (the first difference) in brackets."""
    cells = [f"[{v:02x}]" if i == mark else f"{v:02x}" for i, v in enumerate(bytes(b))]
    return " ".join("".join(cells[i : i + 4]) for i in range(0, len(cells), 4))


@dataclass
class JobResult:
    """The response to one job item, the same for every block: what the driver read back (filled by
    :meth:`ReaderTB.run_job`) and, once the scoreboard paired it with the monitors (:meth:`observe`), what crossed
    the buses during the job. The driver links it to its request as ``item.result`` (as a UVM response carries its
    request's id), so the sequence that sent the item can read the outcome."""

    status: Any  # tb.regmap.JobStatus: every status register of the block's map (None until read)
    inflight_at_done: int = 0  # R beats still owed by the memory when DONE rose (0 after a reset)
    irq_after: Optional[int] = None  # RESET jobs: the irq level after the reset
    csr_violations: list[str] = field(default_factory=list)  # bad responses of the job's register accesses
    midjob_writes: dict[str, int] = field(default_factory=dict)  # the garbage the mid-job activity wrote
    # what the monitors published during the job (JobScoreboard.write)
    beats: Any = ()  # output transfers: tb.agents.stream.Beat, or a Batch of them
    bursts: list = field(default_factory=list)  # tb.agents.axi_mem.Burst, one per AR
    violations: list[str] = field(default_factory=list)  # protocol violations (AR checker, stream, CSR)
    beats_served: int = 0  # R beats the memory returned during the job

    def observe(self, seen: dict[str, list]) -> "JobResult":
        """Attach what a :class:`~tb.agents.analysis.JobLog` collected during the job."""
        self.beats, self.bursts, self.beats_served = seen["out"], seen["ar"], len(seen["r"])
        self.violations = list(seen["violations"]) + self.csr_violations
        return self


class ReaderItem(uvm_sequence_item):
    """The request of one job, stimulus only (the outcome is the :class:`JobResult` in :attr:`result`).

    Every block's item has a ``kind`` (the block's enum, whose members include ``ILLEGAL`` and ``RESET``), the
    programmed ``desc``, timing ``knobs``, poisoned ``faults``, and for a RESET job the cycles ``reset_after``
    START; ``midjob`` (any legal job): START again at once and garbage descriptor writes this many cycles into the
    job, all of which the running job must ignore."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.kind: Any = None
        self.desc: Any = None
        self.mutation: str = ""  # ILLEGAL (and CORRUPT): what was broken on purpose
        self.knobs = Knobs()
        self.faults: list[tuple[int, int, str]] = []  # (lo, hi, "SLVERR"|"DECERR")
        self.reset_after: Optional[int] = None  # RESET: cycles after START
        self.midjob: Optional[int] = None
        self.result: Optional[JobResult] = None  # the response, once the driver ran the job

    def response(self) -> JobResult:
        """:attr:`result` of a job the driver ran (the scoreboard, coverage and the sequences after ``send``)."""
        assert self.result is not None, f"{self.get_name()}: the driver has not run this job (no result yet)"
        return self.result

    @property
    def legal(self) -> bool:
        """False for an illegal descriptor: the reader must read nothing."""
        return self.kind.name != "ILLEGAL"

    @property
    def resets(self) -> bool:
        """A RESET job: the DUT is reset in the middle of it."""
        return self.kind.name == "RESET"

    def timeout_cycles(self, bus_bytes: int) -> int:
        """A generous bound on the job's duration (hang detection only)."""
        raise NotImplementedError

    def label(self) -> str:
        raise NotImplementedError


class Expectation:
    """Base of every block's expected answer (a dataclass): :meth:`copy` copies its arrays, so that a scoreboard
    self-test may corrupt the copy and never the model's answer."""

    def copy(self: _E) -> _E:
        arrays = {
            f.name: getattr(self, f.name).copy()
            for f in fields(self)  # type: ignore[arg-type]  # a dataclass
            if isinstance(getattr(self, f.name), np.ndarray)
        }
        return replace(self, **arrays)  # type: ignore[type-var]  # subclasses are dataclasses


_E = TypeVar("_E", bound=Expectation)


def sideband_problems(
    unit: str, axes: str, got: np.ndarray, want: np.ndarray, last: np.ndarray, complete: bool
) -> list[str]:
    """The TUSER coordinates and TLAST of the first ``k`` transfers against the model: ``got``/``want`` are (k, n)
    coordinates named ``axes`` (e.g. "n,c,h,w"), ``last`` the TLAST column; TLAST belongs on the last transfer of a
    complete job only. ``unit`` names a transfer in the report ("atom", "pixel")."""
    out = []
    k = len(last)
    bad = np.flatnonzero((got != want[:k]).any(axis=1))
    if bad.size:
        i = int(bad[0])
        out.append(
            f"{unit} #{i}: TUSER ({axes})={tuple(int(v) for v in got[i])}, expected "
            f"{tuple(int(v) for v in want[i])} ({bad.size} {unit}(s) with wrong coordinates)"
        )
    want_last = np.zeros(k, bool)
    if complete and k:
        want_last[-1] = True
    if (last != want_last).any():
        i = int(np.flatnonzero(last != want_last)[0])
        out.append(
            f"{unit} #{i} {tuple(int(v) for v in want[i])}: TLAST={int(last[i])}, expected "
            f"{int(want_last[i])} (TLAST only on the last {unit} of a complete job)"
        )
    return out


def bus_problems(res: Any, beats_reg: int, illegal: bool, complete: bool, bus_error: bool) -> list[str]:
    """The bus-side checks of every reader's job (``res``: the block's job result with ``bursts``,
    ``inflight_at_done`` and ``beats_served``; ``beats_reg``: its BEATS register): an illegal descriptor reads
    nothing; a complete job owes no R beat when DONE rises and counts in BEATS exactly the beats the memory
    returned; a bus-error job did read."""
    out = []
    if illegal and res.bursts:
        out.append(f"illegal descriptor issued {len(res.bursts)} AXI read(s), first: {res.bursts[0]}")
    if complete:
        if res.inflight_at_done:
            out.append(f"DONE rose with {res.inflight_at_done} R beat(s) still owed by the memory")
        if beats_reg != res.beats_served:
            out.append(f"BEATS={beats_reg} but the memory returned {res.beats_served} beats")
    if bus_error and not res.bursts:
        out.append("bus-error job issued no AXI read at all")
    return out


class ReaderTB:
    """Clock, reset, the shared agents and the read checker around one reader DUT, and the one job protocol
    (:meth:`run_job`). A block sets :attr:`registers` (its ``registers`` module: ``REGS``, ``DESC_REGS``,
    ``program``, ``read_status``) and :meth:`regions`, and overrides the other hooks where it differs."""

    registers: Any = None  # the block's tb.<block>.registers module

    def __init__(self, dut, rng: Optional[np.random.Generator] = None) -> None:
        regs = self.registers.REGS
        self.dut = dut
        self.rng = rng if rng is not None else np.random.default_rng(0)
        # the fast path (a tb/fastpath/hdl/ wrapper as HDL top): memory, capture and the clock in HDL, exchanged per job
        self.hdl = HdlHarness(dut, dut.clk) if is_hdl_top(dut) else None
        if self.hdl is None:
            Clock(dut.clk, PERIOD_NS, unit="ns").start(start_high=False)
        dut.rst.value = 1
        self.mem: Union[HdlMemAgent, AxiMemAgent]
        self.out: Union[HdlStreamCapture, AxiStreamMonitor]
        self.ready: Union[HdlStreamCapture, StreamReadyDriver]
        if self.hdl is not None:
            self.mem, self.out, self.ready = self.hdl.mem, self.hdl.out, self.hdl.out
        else:
            loop = ClockLoop(dut.clk, PERIOD_NS)  # one per-edge callback for the memory and the monitor
            self.mem = AxiMemAgent(dut, dut.clk, dut.rst, "m_axi", period_ns=PERIOD_NS, loop=loop)
            self.out = AxiStreamMonitor(dut, dut.clk, dut.rst, "m_axis", period_ns=PERIOD_NS, loop=loop)
            self.ready = StreamReadyDriver(dut, dut.clk, "m_axis")
        self.csr = CsrAgent(dut, dut.clk, dut.rst, regs, "s_axil", irq=dut.irq, period_ns=PERIOD_NS)
        self.bus_bytes = self.mem.bus_bytes
        self.addr_bits = self.mem.address_width
        self.reads = AxiReadChecker(self.bus_bytes)
        self.mem.ar_ap.connect(self.reads)
        self.assertions = AssertionLog()  # the design's assertions (rtl_stubs/props/) failed in this test
        self.assertion_ap = AnalysisPort("assertions")

    def observe(self) -> JobLog:
        """A new subscriber of every port of the TB: AR bursts, R beats, output transfers, protocol violations
        (the read checker's, the stream monitor's and the design's failed assertions)."""
        log = JobLog(ar=self.mem.ar_ap, r=self.mem.r_ap, out=self.out.ap)
        log.listen("violations", self.reads.violation_ap)
        log.listen("violations", self.out.violation_ap)
        log.listen("violations", self.assertion_ap)
        return log

    def publish_assertions(self) -> None:
        """Publish the assertion failures logged since the last call (:mod:`tb.assertions`) as violations."""
        for failure in self.assertions.take():
            self.assertion_ap.write(failure.describe(PERIOD_NS))

    async def reset(self, cycles: int = 4) -> None:
        self.dut.rst.value = 1
        self.csr.clear()
        if self.hdl is not None and self.hdl.in_job:
            # the fast path in the middle of a job: its logs so far are published now, in reset (nothing more is
            # accepted), so that the read checker judges them against the job's footprint and not against the
            # "nothing after the reset" the env announces next (the default agents publish as it happens)
            await self.hdl.flush()
        await ClockCycles(self.dut.clk, cycles)
        self.dut.rst.value = 0
        await ClockCycles(self.dut.clk, 2)

    def apply_knobs(self, knobs: Knobs) -> None:
        """Latency and the named stall profiles (``tb.agents.stalls``) of a job's knobs."""
        self.mem.set_latency(knobs.latency)
        if self.hdl is not None:  # the fast path: the HDL's stall patterns (self.mem, self.ready: the harness's)
            hdl = self.hdl
            hdl.mem.set_ar_stalls(hdl.stall(knobs.ar_stall, self.rng))
            hdl.mem.set_r_gaps(hdl.stall(knobs.r_gap, self.rng))
            hdl.out.set(hdl.stall(knobs.backpressure, self.rng))
        else:
            mem, ready = self.mem, self.ready
            assert isinstance(mem, AxiMemAgent) and isinstance(ready, StreamReadyDriver), "the default agents"
            mem.set_ar_stalls(stalls.profile(knobs.ar_stall, self.rng))
            mem.set_r_gaps(stalls.profile(knobs.r_gap, self.rng))
            ready.set(stalls.profile(knobs.backpressure, self.rng))

    def prepare(
        self, item, pieces: Optional[Sequence[tuple[int, Any]]], faults: Sequence[tuple[int, int, str]], legal: bool
    ) -> None:
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

    # ------------------------------------------------------------------ the job protocol
    async def run_job(self, item: ReaderItem) -> JobResult:
        """One job, the same steps for every block: knobs, memory, faults and footprint (:meth:`prepare`); the
        descriptor (:meth:`program`); START; the mid-job activity (:meth:`mid_job`) beside the job; then either a
        reset in the middle (RESET jobs: after ``reset_after`` cycles or at DONE, whichever comes first; nothing
        may be read after it) or the wait for DONE with the R beats still owed at that moment; the mid-job
        activity is over before the status registers are read (so they show the job after every disturbance);
        two settling cycles; the status registers; the CSR violations of the whole job; and a reset if DONE never
        came, to leave the DUT idle for the next job. Returns the response, also linked as ``item.result``."""
        self.prepare(item, self.pieces(item), item.faults, legal=item.legal)
        await self.program(item)
        await self.csr.start()
        res = JobResult(status=None)
        midjob = cocotb.start_soon(self.mid_job(item, res)) if item.midjob is not None else None
        if item.resets:
            assert item.reset_after is not None, "a RESET job says when to reset"
            await First(ClockCycles(self.dut.clk, item.reset_after), RisingEdge(self.dut.irq))
            await self.reset()
            self.reads.expect_none()  # nothing may be read after the reset
            await ClockCycles(self.dut.clk, 8)
            res.irq_after = int(self.dut.irq.value)
            done, waited = True, 0
        else:
            done, waited = await self.csr.wait_done(item.timeout_cycles(self.bus_bytes))
            res.inflight_at_done = self.mem.inflight_beats
        if midjob is not None:
            await midjob
        if not item.resets:
            await ClockCycles(self.dut.clk, 2)
        res.status = await self.read_status(done, waited)
        res.csr_violations, self.csr.violations = self.csr.violations, []
        self.publish_assertions()
        item.result = res
        if not res.status.done:
            await self.reset()  # leave the DUT idle and clean for the next item
        return res

    async def mid_job(self, item: ReaderItem, res: JobResult) -> None:
        """START again while the job runs (ignored while busy), then overwrite every descriptor register with
        garbage (:meth:`garbage`, kept in ``res.midjob_writes``) ``item.midjob`` cycles later: the running job
        latched its descriptor at START."""
        assert item.midjob is not None, "run_job starts the mid-job activity only for items with midjob"
        await self.csr.start()
        await ClockCycles(self.dut.clk, item.midjob)
        names = self.desc_regs
        values = self.rng.integers(0, 1 << 32, len(names), dtype=np.uint64)
        res.midjob_writes = self.garbage({k: int(v) for k, v in zip(names, values)})
        await self.csr.write_many(res.midjob_writes)

    # ------------------------------------------------------------------ per block
    @property
    def desc_regs(self) -> tuple[str, ...]:
        """The descriptor registers (read-write), in offset order."""
        return tuple(self.registers.DESC_REGS)

    def regions(self, item) -> list[Region]:
        """The named byte ranges a legal job may read (the footprint the read checker enforces)."""
        raise NotImplementedError

    def pieces(self, item) -> Optional[Sequence[tuple[int, Any]]]:
        """(address, bytes) the memory holds for the job; None keeps the memory as it is."""
        raise NotImplementedError

    async def program(self, item) -> None:
        """Write the job's descriptor registers."""
        await self.registers.program(self.csr, item.desc)

    async def read_status(self, done: bool, waited: int) -> JobStatus:
        """The block's status registers after the job (``done``: DONE seen; ``waited``: cycles waited for it)."""
        return await self.csr.read_status(done, waited)

    def garbage(self, values: dict[str, int]) -> dict[str, int]:
        """The mid-job garbage descriptor writes (a block may keep some bits legal-looking)."""
        return values


class JobDriver(uvm_driver):
    """Runs each item as one job on the DUT (``ReaderTB.run_job``) and publishes the finished job on ``ap``."""

    def build_phase(self) -> None:
        self.ap = uvm_analysis_port("ap", self)
        self.tb: ReaderTB = ConfigDB().get(self, "", "TB")

    async def run_phase(self) -> None:
        while True:
            item = await self.seq_item_port.get_next_item()
            res = await self.tb.run_job(item)
            await self.tb.flush()
            if JOBLOG:
                self.logger.info("job %s: %s", item.label(), res.status)
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
        self.tb: Optional[ReaderTB] = None
        self.checked = 0
        self.check_seconds = 0.0  # wall time spent comparing with the models (make bench reports it)
        self.errors = 0
        self.reports: list[tuple[str, str]] = []  # (item name, the report in one line)
        self.corrupt: Optional[Callable[[Any, Any], object]] = None
        self.expect_reports: dict[str, str] = {}
        self.maps: list[Path] = []  # mismatch maps written by this test (at most MAX_MAPS)
        self._expected: Any = None  # the answer the last job was compared with (drawn on a mismatch)

    def observe(self, tb: ReaderTB) -> None:
        """Subscribe to the TB's monitors and checkers (connect phase)."""
        self.tb = tb
        self.log = tb.observe()

    def write(self, item) -> None:
        assert self.log is not None, "observe() subscribed the scoreboard in the connect phase"
        t0 = time.perf_counter()
        item.response().observe(self.log.take())
        problems = self.problems(item)
        self.check_seconds += time.perf_counter() - t0
        self.checked += 1
        if problems:
            self.report(item, problems)
        self._expected = None
        self.ap.write(item)

    def report(self, item, problems: list[str]) -> None:
        self.errors += 1
        note = self.draw(item)
        if note:
            problems = problems + [note]
        head = f"{item.label()}: {problems[0]}"
        self.reports.append((item.get_name(), head + " | " + " | ".join(problems[1:])))
        if len(self.reports) <= MAX_REPORTS:
            body = "\n    ".join(problems[1:] + self.details(item))
            self.logger.error("MISMATCH %s\n    %s\n    reproduce: %s", head, body, self.reproduce())

    def draw(self, item) -> str:
        """On a mismatch: the mismatch map of the job's data (:mod:`tb.mismatch_map`) written into the run folder
        (the simulation's working directory) as ``mismatch_<test>_<item>.svg``, at most :data:`MAX_MAPS` per test;
        returns the report line naming the file, or "" (the data matched, the cap is reached, no rows)."""
        if len(self.maps) >= MAX_MAPS or self._expected is None:
            return ""
        try:
            rows = self.diff_rows(item, self._expected)
            if rows is None:
                return ""
            test = ConfigDB().get(None, "", "TEST_NAME", "test")
            name = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in f"{test}_{item.get_name()}")
            info = write_map(rows, Path.cwd() / f"mismatch_{name}.svg")
        except Exception as exc:  # a picture must never hide the mismatch it illustrates
            self.logger.warning("mismatch map of %s not drawn: %s: %s", item.get_name(), type(exc).__name__, exc)
            return ""
        if info is None:
            return ""
        self.maps.append(info.path)
        return info.note()

    # ------------------------------------------------------------------ per block
    def problems(self, item) -> list[str]:
        """The model's answer (:meth:`expected`), corrupted by the self-test hook if set, compared with the job."""
        exp = self.expected(item)
        if self.corrupt is not None:
            exp = exp.copy()
            self.corrupt(item, exp)
        self._expected = exp
        return self.compare(item, exp)

    def diff_rows(self, item, exp) -> Optional[DiffRows]:
        """The job's data against ``exp`` cut in the block's rows, for its mismatch map (called on a mismatch
        only); None when the block has no data to draw (the default)."""
        return None

    def expected(self, item) -> Any:
        """What the models say the job must give (an object with ``copy()``)."""
        raise NotImplementedError

    def compare(self, item, exp) -> list[str]:
        """The job's problems against ``exp`` (empty when it matches)."""
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
        assert self.log is not None, "observe() subscribed the scoreboard in the connect phase"
        if self.tb is not None:
            self.tb.publish_assertions()  # what failed after the last job
        after = self.log.take()
        if any(after.values()):
            self.errors += 1
            self.reports.append(
                (
                    "<after the last job>",
                    f"{len(after['out'])} transfer(s), {len(after['ar'])} "
                    f"AR(s) after the last job; violations: {after['violations'][:3]}",
                )
            )
        self.logger.info("scoreboard: %s", self.summary())
        assert self.checked > 0, "scoreboard checked nothing"
        if self.expect_reports:
            got = dict(self.reports)
            missed = sorted(set(self.expect_reports) - set(got))
            assert not missed, f"scoreboard did not report the corrupted job(s) {missed}"
            for name, needle in self.expect_reports.items():
                assert needle in got[name], f"{name}: report {got[name]!r} does not mention {needle!r}"
            self.logger.info(
                "scoreboard self-test: all %d corruptions reported where they were made", len(self.expect_reports)
            )
        unexpected = [(n, t) for n, t in self.reports if n not in self.expect_reports]
        assert not unexpected, (
            f"{len(unexpected)} of {self.checked} jobs mismatched; first: {unexpected[0][1]}; "
            f"reproduce: {self.reproduce()}"
        )


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


def count_from_env(default: int) -> int:
    """``COUNT`` (random items per family of the block's sequences; ``default`` when unset), scaled by
    ``COUNT_SCALE`` (the 512-bit suites use 0.25)."""
    count = int(os.getenv("COUNT", "").strip() or default)
    scale = float(os.getenv("COUNT_SCALE", "").strip() or 1.0)
    return max(1, int(round(count * scale)))


class ReaderTestBase(uvm_test):
    """Seeds the RNG from ``cocotb.RANDOM_SEED`` (logged with the run seed, so that the reproduce command works),
    builds the block's TB and env, resets, runs :meth:`body`, then closes the read checker (nothing may be read
    after the last job) and flushes the fast path's logs.

    A block sets ``tb_cls``, ``env_cls``, ``default_count`` and may add ConfigDB entries (:meth:`config`) and
    words to the first log line (:meth:`describe`)."""

    tb_cls: type = ReaderTB
    env_cls: type = ReaderEnv
    default_count = 8

    def config(self, tb: ReaderTB) -> dict[str, Any]:
        return {}

    def describe(self, tb: ReaderTB) -> str:
        return ""

    def build_phase(self) -> None:
        seed = cocotb.RANDOM_SEED
        self.rng = np.random.default_rng(seed)
        self.count = count_from_env(self.default_count)
        tb = self.tb_cls(cocotb.top, np.random.default_rng([seed, 1]))
        entries = {
            "RNG": self.rng,
            "TB": tb,
            "ADDR_BITS": tb.addr_bits,
            "BUS_BYTES": tb.bus_bytes,
            "COUNT": self.count,
            "TEST_NAME": type(self).__name__,
            "TEST_FULLNAME": f"{type(self).__module__}.{type(self).__name__}",
            **self.config(tb),
        }
        db = ConfigDB()
        for key, value in entries.items():
            db.set(None, "*", key, value)
        self.tb = tb
        self.env = self.env_cls("env", self)
        extra = self.describe(tb)
        self.logger.info(
            "%s: run seed %d, test seed %d (cocotb.RANDOM_SEED, seeds numpy), COUNT=%d, AXI_DATA_W=%d, AXI_ADDR_W=%d%s",
            type(self).__name__,
            regression_seed(),
            seed,
            self.count,
            tb.bus_bytes * 8,
            tb.addr_bits,
            f", {extra}" if extra else "",
        )

    async def run_phase(self) -> None:
        self.raise_objection()
        # What exists before the run (the env, cocotb and pyuvm, the models' tables) lives as long as the test:
        # frozen, the cyclic collector's full passes skip it (6 % of the default path's time, issue 12). Unfrozen
        # when the test ends, so that the next test in this simulator process can collect it.
        gc.freeze()
        try:
            await self.tb.reset()
            await self.body()
            self.tb.reads.close()  # nothing may be read after the last job
            await ClockCycles(self.tb.dut.clk, 10)  # the TB's DUT is cocotb.top
            await self.tb.flush()
        finally:
            gc.unfreeze()
        self.drop_objection()

    async def body(self) -> None:
        raise NotImplementedError

    async def run_seq(self, seq) -> None:
        await seq.start(self.env.seqr)


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


Corruption = Callable[[Any, Any], str]  # (item, expected) -> the text its report must contain


def error_bit_corruption(bit_mask: int) -> Corruption:
    """A corruption flipping ``bit_mask`` in the model's expected ERROR register (every block's expected answer has
    ``error``); its report names the ERROR register."""

    def corrupt(item, exp) -> str:
        exp.error ^= bit_mask
        return "ERROR register"

    return corrupt


class RegisterTestBase(ReaderTestBase):
    """The register tests of any block, from its register model (:func:`tb.register_check.check_register_map`:
    reset values, access types, write masks, byte strobes, unmapped offsets), then one legal job with a second
    START at once and garbage in every descriptor register (:meth:`ReaderTB.mid_job`): the scoreboard must find the
    job exact (START ignored while busy, the descriptor latched at START) and the garbage must have been written.

    A block sets :meth:`job` (a sequence that sends one legal item with ``midjob`` set and keeps it as ``item``)."""

    def job(self) -> Any:
        raise NotImplementedError

    async def body(self) -> None:
        problems = await check_register_map(
            self.tb.csr, self.tb.csr.regs, self.tb.bus_bytes * 8, self.tb.addr_bits, self.rng
        )
        seq = self.job()
        await self.run_seq(seq)
        if not seq.item.response().midjob_writes:
            problems.append("the job had no mid-job START and writes")
        for p in problems:
            self.logger.error("register check: %s", p)
        assert not problems, f"{len(problems)} register check(s) failed, the first: {problems[0]}"


class ScoreboardSelfTestBase(ReaderTestBase):
    """The scoreboard is able to fail: each corruption of :meth:`corruptions` is applied to the model's answer for
    one job (even jobs; odd ones stay clean) and must be reported for exactly that job, with its text."""

    def corruptions(self) -> list[Corruption]:
        raise NotImplementedError

    def small_jobs(self, name: str, n: int):
        """A sequence of ``n`` small legal jobs."""
        raise NotImplementedError

    async def body(self) -> None:
        sb = self.env.scoreboard
        kinds = self.corruptions()
        self.expected: dict[str, str] = {}
        plan = {f"sbtest{2 * i}": i for i in range(len(kinds))}

        def corrupt(item, exp):
            k = plan.get(item.get_name())
            if k is not None:
                self.expected[item.get_name()] = kinds[k](item, exp)

        sb.corrupt = corrupt
        sb.expect_reports = self.expected
        await self.run_seq(self.small_jobs("sbtest", 2 * len(kinds)))
        sb.corrupt = None
        assert len(self.expected) == len(kinds), "not every corruption was applied"


class CorruptModelBase(ScoreboardSelfTestBase):
    """The expect_fail twin: the first corruption applied to one job; the scoreboard must fail the test."""

    async def body(self) -> None:
        first = self.corruptions()[0]
        self.env.scoreboard.corrupt = lambda item, exp: first(item, exp)
        await self.run_seq(self.small_jobs("corrupt", 1))


class CoverageSubscriber(uvm_subscriber):
    """Samples each checked job into the block's covergroups (:meth:`sample`); in the extract phase (also when a
    check failed) writes the coverage XML into the run folder and logs every top-level covergroup of the block."""

    prefix = ""  # the block's covergroups are named <prefix>.<name>
    xml_name = ""  # e.g. fcov_cube_reader.xml (a run artifact of the testplan)

    def write(self, item) -> None:
        self.sample(item)

    def sample(self, item) -> None:
        raise NotImplementedError

    def export(self, directory: Optional[Path] = None) -> Path:
        from cocotb_coverage.coverage import coverage_db

        path = (directory or Path.cwd()) / self.xml_name
        coverage_db.export_to_xml(filename=str(path))
        return path

    def summary(self) -> list[tuple[str, float, int, int]]:
        """(name, percent, covered bins, bins) of every top-level covergroup of the block."""
        from cocotb_coverage.coverage import coverage_db

        return [
            (name, float(item.cover_percentage), int(item.coverage), int(item.size))
            for name, item in sorted(coverage_db.items())
            if name.startswith(self.prefix + ".") and name.count(".") == 1
        ]

    def extract_phase(self) -> None:
        path = self.export()
        for name, pct, cov, size in self.summary():
            self.logger.info("coverage %-40s %6.1f%% (%d/%d)", name, pct, cov, size)
        self.logger.info("functional coverage written to %s", path)
