"""The TB around one reader DUT, built from its :class:`~tb.platform.binding.DutBinding`, and the one job protocol
(:meth:`ReaderTB.run_job`) of a register-controlled reader.

A block subclasses :class:`ReaderTB`, sets :attr:`ReaderTB.binding` and fills the hooks where it differs
(:meth:`ReaderTB.regions`, :meth:`ReaderTB.pieces`, :meth:`ReaderTB.program`, :meth:`ReaderTB.read_status`,
:attr:`ReaderTB.desc_regs`, :meth:`ReaderTB.garbage`). Which memory and stream backend runs (the Python agents or
the HDL fast path) is chosen once, by :func:`tb.platform.backends.backend_for`.

    sequence ─▶ sequencer ─▶ JobDriver ── ReaderTB.run_job(item) -> item.result ── ap ─▶ scoreboard ── ap ─▶ coverage
    backend.mem.ar_ap ──▶ AxiReadChecker (protocol + footprint over the job's regions) ─┐
    backend.mem.ar_ap / r_ap, backend.out.ap / violation_ap ────────────────────────────┴─▶ scoreboard's JobLog
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

import cocotb
import numpy as np
from cocotb.simtime import get_sim_time
from cocotb.triggers import ClockCycles, First, RisingEdge

from tb.agents.analysis import AnalysisPort, JobLog
from tb.agents.csr import CsrAgent
from tb.assertions import AssertionLog
from tb.checkers.axi_read import AxiReadChecker
from tb.footprint import Region
from tb.platform.backends import backend_for
from tb.platform.binding import Completion, DutBinding, RegisterControl
from tb.platform.completion import late_transfers
from tb.platform.job import JobResult, ReaderItem
from tb.platform.knobs import Knobs
from tb.regmap import JobStatus


class ReaderTB:
    """Clock, reset, the backend's agents, the register agent and the read checker around one reader DUT, all from
    :attr:`binding`, and the one job protocol (:meth:`run_job`)."""

    binding: DutBinding  # the block's binding (tb/<block>/env.py)
    registers: Any = None  # the block's tb.<block>.registers module (program, DESC_REGS), if it has one

    def __init__(self, dut, rng: Optional[np.random.Generator] = None) -> None:
        b = self.binding
        if not isinstance(b.control, RegisterControl):
            raise TypeError(f"{type(self).__name__}: the job protocol of ReaderTB needs a RegisterControl binding")
        self.dut = dut
        self.rng = rng if rng is not None else np.random.default_rng(0)
        self.clk = b.signal(dut, b.clock)
        self.rst = b.signal(dut, b.reset.name)
        self.irq = b.signal(dut, b.control.irq) if b.control.irq is not None else None
        self.rst.value = b.reset.asserted  # the agents stay idle until reset() releases it
        self.backend = backend_for(dut, b)
        self.mem, self.out = self.backend.mem, self.backend.out
        self.ready = self.backend.ready  # the TREADY knob (set(pattern))
        self.csr = CsrAgent(
            dut, self.clk, self.rst, b.control.regs, b.control.prefix, irq=self.irq, period_ns=b.period_ns
        )
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
            self.assertion_ap.write(failure.describe(self.binding.period_ns))

    async def reset(self, cycles: int = 4) -> None:
        polarity = self.binding.reset
        self.rst.value = polarity.asserted
        self.csr.clear()
        await self.backend.before_reset()
        await ClockCycles(self.clk, cycles)
        self.rst.value = 1 - polarity.asserted
        await ClockCycles(self.clk, 2)

    def apply_knobs(self, knobs: Knobs) -> None:
        """Latency and the named stall profiles (``tb.agents.stalls``) of a job's knobs."""
        self.backend.apply_knobs(knobs, self.rng)

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
        self.backend.commit()

    async def flush(self) -> None:
        """After a job (and at the end of a test): publish what the backend logged since the last flush on the
        agents' ports (the default agents publish as it happens)."""
        await self.backend.flush()

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
            assert self.irq is not None, "a RESET job waits for DONE on the irq pin"
            await First(ClockCycles(self.clk, item.reset_after), RisingEdge(self.irq))
            await self.reset()
            self.reads.expect_none()  # nothing may be read after the reset
            await ClockCycles(self.clk, 8)
            res.irq_after = int(self.irq.value)
            done, waited = True, 0
        else:
            done, waited = await self.csr.wait_done(item.timeout_cycles(self.bus_bytes))
            res.inflight_at_done = self.mem.inflight_beats
            res.done_cycle = int(get_sim_time("ns") // self.binding.period_ns) if done else None
        if midjob is not None:
            await midjob
        if not item.resets:
            await ClockCycles(self.clk, 2)
        res.status = await self.read_status(done, waited)
        res.csr_violations, self.csr.violations = self.csr.violations, []
        self.publish_assertions()
        item.result = res
        if not res.status.done:
            await self.reset()  # leave the DUT idle and clean for the next item
        return res

    def protocol_problems(self, item: ReaderItem) -> list[str]:
        """The job's output against what its completion means (:mod:`tb.platform.completion`): with DRAINED, no
        transfer after the cycle DONE rose. One job at a time, so the job owns every transfer seen during it."""
        res = item.response()
        if res.done_cycle is None or self.binding.completion is not Completion.DRAINED:
            return []
        errors = late_transfers(item.get_name(), res.beats, res.done_cycle, Completion.DRAINED)
        return [str(e) for e in errors]

    async def mid_job(self, item: ReaderItem, res: JobResult) -> None:
        """START again while the job runs (ignored while busy), then overwrite every descriptor register with
        garbage (:meth:`garbage`, kept in ``res.midjob_writes``) ``item.midjob`` cycles later: the running job
        latched its descriptor at START."""
        assert item.midjob is not None, "run_job starts the mid-job activity only for items with midjob"
        await self.csr.start()
        await ClockCycles(self.clk, item.midjob)
        names = self.desc_regs
        values = self.rng.integers(0, 1 << 32, len(names), dtype=np.uint64)
        res.midjob_writes = self.garbage({k: int(v) for k, v in zip(names, values)})
        await self.csr.write_many(res.midjob_writes)

    # ------------------------------------------------------------------ per block
    @property
    def desc_regs(self) -> tuple[str, ...]:
        """The descriptor registers (read-write), in offset order."""
        return tuple(self.csr.regs.descriptor_regs())

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
