"""One job of any reader: its request (:class:`ReaderItem`, stimulus only), its response (:class:`JobResult`) and the
base of every block's expected answer (:class:`Expectation`)."""

from __future__ import annotations

from dataclasses import MISSING, dataclass, field, fields, replace
from typing import Any, Optional, TypeVar

import numpy as np
from pyuvm import uvm_sequence_item

from dlaverif.platform.knobs import Knobs


@dataclass
class JobResult:
    """The response to one job item, the same for every block: what the driver read back (filled by
    :meth:`ReaderTB.run_job`) and, once the scoreboard paired it with the monitors (:meth:`observe`), what crossed
    the buses during the job. The driver links it to its request as ``item.result`` (as a UVM response carries its
    request's id), so the sequence that sent the item can read the outcome."""

    status: Any  # blocks.regmap.JobStatus: every status register of the block's map (None until read)
    inflight_at_done: int = 0  # R beats still owed by the memory when DONE rose (0 after a reset)
    done_cycle: Optional[int] = None  # the cycle DONE rose (None: not seen, or a RESET job)
    irq_after: Optional[int] = None  # RESET jobs: the irq level after the reset
    csr_violations: list[str] = field(default_factory=list)  # bad responses of the job's register accesses
    midjob_writes: dict[str, int] = field(default_factory=dict)  # the garbage the mid-job activity wrote
    # what the monitors published during the job (JobScoreboard.write)
    beats: Any = ()  # output transfers: dlaverif.agents.stream.Beat, or a Batch of them
    bursts: list = field(default_factory=list)  # dlaverif.agents.axi_mem.Burst, one per AR
    violations: list[str] = field(default_factory=list)  # protocol violations (AR checker, stream, CSR)
    beats_served: int = 0  # R beats the memory returned during the job
    # pipelined controls (dlaverif.platform.control_pipelined): the handshake's cycle, the jobs in flight then (with it)
    accepted: Optional[int] = None
    in_flight: int = 1
    dropped: Optional[int] = None  # pipelined controls: the cycle a reset dropped the job while in flight

    def observe(self, seen: dict[str, list]) -> "JobResult":
        """Attach what a :class:`~dlaverif.agents.analysis.JobLog` collected during the job."""
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
        self.gap = 0  # idle cycles before the job is handed over (pipelined controls)
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

    @classmethod
    def nothing(cls: type[_E], error: int, **arrays: np.ndarray) -> _E:
        """The answer for a job that must send nothing and read nothing (an illegal descriptor): ERROR = ``error``
        (the validator's bits), every array empty (``arrays``: the ones whose dtype or row width matters, e.g.
        ``atoms=np.zeros((0, 32), np.uint8)``; the others int64), every bool field True (exactly that: nothing),
        every other field its default or 0."""
        values: dict[str, Any] = {}
        for f in fields(cls):  # type: ignore[arg-type]  # a dataclass
            if f.name in arrays:
                values[f.name] = arrays[f.name]
            elif f.name == "error":
                values[f.name] = error
            elif f.type in ("np.ndarray", "numpy.ndarray"):
                values[f.name] = np.zeros(0, np.int64)
            elif f.type == "bool":
                values[f.name] = True
            elif f.default is MISSING:
                values[f.name] = 0
        return cls(**values)


_E = TypeVar("_E", bound=Expectation)
