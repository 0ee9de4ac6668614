"""The TB around one reader DUT, built from its :class:`~dlaverif.platform.binding.DutBinding`, and the one job protocol
(:meth:`ReaderTB.run_job`) for every control style (registers, descriptor port, pins: :mod:`dlaverif.platform.control`).

A block subclasses :class:`ReaderTB`, sets :attr:`ReaderTB.binding` and fills the hooks where it differs
(:meth:`ReaderTB.regions`, :meth:`ReaderTB.pieces`, :meth:`ReaderTB.program`, :meth:`ReaderTB.read_status`,
:attr:`ReaderTB.desc_regs`, :meth:`ReaderTB.garbage`). Which memory and stream backend runs (the Python agents or
the HDL fast path) is chosen once, by :func:`dlaverif.platform.backends.backend_for`; how a job is handed over and ends,
once, by :func:`dlaverif.platform.control.control_for`. A descriptor-port or pin-controlled block fills
:meth:`ReaderTB.payload` instead of :meth:`ReaderTB.program`.

    sequence ─▶ sequencer ─▶ JobDriver ── ReaderTB.run_job(item) -> item.result ── ap ─▶ scoreboard ── ap ─▶ coverage
    backend.mem.ar_ap ──▶ AxiReadChecker (protocol + footprint over the job's regions) ─┐
    backend.mem.ar_ap / r_ap, backend.out.ap / violation_ap ────────────────────────────┴─▶ scoreboard's JobLog
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

import numpy as np
from cocotb.triggers import ClockCycles

from dlaverif.agents.analysis import AnalysisPort, JobLog
from dlaverif.agents.csr import CsrAgent
from dlaverif.checkers.axi_read import PAGE, AxiReadChecker
from dlaverif.footprint import Region
from dlaverif.platform.assertions import AssertionLog
from dlaverif.platform.backends import backend_for
from dlaverif.platform.binding import DutBinding
from dlaverif.platform.control import control_for
from dlaverif.platform.job import JobResult, ReaderItem
from dlaverif.platform.knobs import Knobs
from dlaverif.platform.reach import AxiReach
from dlaverif.regmap import JobStatus


class ReaderTB:
    """Clock, reset, the backend's agents, the register agent and the read checker around one reader DUT, all from
    :attr:`binding`, and the one job protocol (:meth:`run_job`)."""

    binding: DutBinding  # the block's binding (tb/<block>/env.py)
    registers: Any = None  # the block's tb.<block>.registers module (descriptor_values), if it has one
    csr: CsrAgent  # a register-controlled DUT's register agent (set by its control strategy)
    irq: Any = None  # a register-controlled DUT's DONE pin, if it has one

    def __init__(self, dut, rng: Optional[np.random.Generator] = None) -> None:
        b = self.binding
        self.dut = dut
        self.rng = rng if rng is not None else np.random.default_rng(0)
        self.clk = b.signal(dut, b.clock)
        self.rst = b.signal(dut, b.reset.name)
        self.rst.value = b.reset.asserted  # the agents stay idle until reset() releases it
        for port, value in b.ties:  # tie-offs (binding.ties): driven once, before the reset, never changed
            b.signal(dut, port).value = int(value)
        self.backend = backend_for(dut, b)
        self.mem, self.out = self.backend.mem, self.backend.out
        self.ready = self.backend.ready  # the TREADY knob (set(pattern))
        self.extra_violations: list[AnalysisPort] = []  # protocol checks of a backend's or a control's own agents
        for owner in (self.backend.mem, self.backend.out):
            if owner is not self.out and hasattr(owner, "violation_ap"):
                self.extra_violations.append(owner.violation_ap)
        self.control = control_for(self)  # the one choice of the control style (a register one sets csr, irq)
        self.bus_bytes = self.mem.bus_bytes
        self.addr_bits = self.mem.address_width
        # the burst boundary the bus forbids crossing (AXI's 4 KB; None: NVDLA's DMA, whose requests may cross it)
        self.reads = AxiReadChecker(self.bus_bytes, boundary=getattr(self.backend, "boundary", PAGE))
        self.mem.ar_ap.connect(self.reads)
        # address bit, reads in flight, pages reached; the plan's occupancy probes inside the DUT
        self.reach = AxiReach(self.addr_bits).connect(self.mem).watch(dut)
        self.assertions = AssertionLog()  # the design's assertions (blocks/rtl/props/) failed in this test
        self.assertion_ap = AnalysisPort("assertions")

    def observe(self) -> JobLog:
        """A new subscriber of every port of the TB: AR bursts, R beats, output transfers, protocol violations
        (the read checker's, the stream monitor's and the design's failed assertions)."""
        log = JobLog(ar=self.mem.ar_ap, r=self.mem.r_ap, out=self.out.ap)
        log.listen("violations", self.reads.violation_ap)
        log.listen("violations", self.out.violation_ap)
        log.listen("violations", self.assertion_ap)
        for port in self.extra_violations:
            log.listen("violations", port)
        return log

    def publish_assertions(self) -> None:
        """Publish the assertion failures logged since the last call (:mod:`dlaverif.platform.assertions`) as
        violations."""
        for failure in self.assertions.take():
            self.assertion_ap.write(failure.describe(self.binding.period_ns))

    async def reset(self, cycles: int = 4) -> None:
        polarity = self.binding.reset
        self.rst.value = polarity.asserted
        self.reach.restart()  # the reads in flight are dropped
        self.control.clear()
        await self.backend.before_reset()
        await ClockCycles(self.clk, cycles)
        self.rst.value = 1 - polarity.asserted
        await ClockCycles(self.clk, 2)

    def apply_knobs(self, knobs: Knobs) -> None:
        """Latency and the named stall profiles (``dlaverif.agents.stalls``) of a job's knobs."""
        self.backend.apply_knobs(knobs, self.rng)

    def prepare(
        self,
        item,
        pieces: Optional[Sequence[tuple[int, Any]]],
        faults: Sequence[tuple[int, int, str]],
        legal: bool,
        clear: bool = True,
    ) -> None:
        """Before START: knobs, a fresh memory holding ``pieces`` (None: keep the memory as it is; ``clear=False``:
        add them to it, for jobs in flight), the fault ranges, and the footprint the read checker enforces (no read
        at all for an illegal job)."""
        self.apply_knobs(item.knobs)
        if pieces is not None:
            if clear:
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
        """Hand one job to the DUT by the binding's control style (:attr:`control`, chosen once by
        :func:`dlaverif.platform.control.control_for`): a register-controlled job runs to its end; a pipelined one
        (descriptor port, pins) returns once the DUT took it and is over at :meth:`settle`. Returns the response,
        also linked as ``item.result``."""
        await self.control.run(item)
        return item.response()

    async def settle(self) -> None:
        """Wait until every job handed over is over (nothing to wait for one-at-a-time controls)."""
        await self.control.settle()

    def protocol_problems(self, item: ReaderItem) -> list[str]:
        """The job's output against what its completion means (:mod:`dlaverif.platform.completion`)."""
        return self.control.protocol_problems(item)

    def in_reset(self) -> bool:
        """The reset port holds the DUT in reset (or is unknown)."""
        v = self.rst.value
        return not v.is_resolvable or int(v) == self.binding.reset.asserted

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

    def payload(self, item) -> dict[str, int]:
        """A descriptor-port or pin-controlled job's payload: field name (the binding's ``fields``) -> value."""
        raise NotImplementedError

    def status(self, item) -> dict[str, int]:
        """What a descriptor-port job's completion payload (the binding's ``DescriptorControl.status``) must carry:
        each status field the payload has the same value as in the payload (a tag), every other 0 (an error flag);
        a block whose jobs may end in error overrides it."""
        control = self.binding.control
        sent = self.payload(item)
        return {name: int(sent.get(name, 0)) for name, _ in getattr(control, "status", ())}

    async def program(self, item) -> None:
        """Write the job's descriptor registers (the block's ``registers.descriptor_values(desc)``)."""
        await self.csr.write_many(self.registers.descriptor_values(item.desc))

    async def read_status(self, done: bool, waited: int) -> JobStatus:
        """The block's status registers after the job (``done``: DONE seen; ``waited``: cycles waited for it)."""
        return await self.csr.read_status(done, waited)

    def garbage(self, values: dict[str, int]) -> dict[str, int]:
        """The mid-job garbage descriptor writes (a block may keep some bits legal-looking)."""
        return values


class ContiguousReaderTB(ReaderTB):
    """A :class:`ReaderTB` whose every job reads one byte range, what a DMA or descriptor reader does: the job item
    has ``addr`` (its first byte), ``length`` (its bytes) and ``blob`` (those bytes, a uint8 array, which the memory
    holds there); the range is the job's only region, named after the job, and its payload (:meth:`payload`) the
    range and the item's attributes named by the binding's fields."""

    def regions(self, item) -> list[Region]:
        return [Region(item.get_name(), item.addr, item.addr + item.length)]

    def payload(self, item) -> dict[str, int]:
        """The job's byte range as the fields ``addr`` and ``len`` (its ``length``), every other field of the binding
        (``fields``: ``tag``, ``tid``) the item's attribute of that name; a block whose fields name other things
        overrides it."""
        own = {"addr": item.addr, "len": item.length}
        fields = getattr(self.binding.control, "fields", ())  # a descriptor port's or start pin's
        return {name: int(own[name] if name in own else getattr(item, name)) for name, _ in fields}

    def pieces(self, item) -> Optional[Sequence[tuple[int, Any]]]:
        return [(item.addr, item.blob.tobytes())]
