"""Sequence items of the pixel reader: one job each (a legal picture, an illegal descriptor, a bus error).

The item carries the stimulus (picture or descriptor, fault ranges, timing knobs: the cube reader's
:class:`~tb.cube_reader.items.Knobs`) and, after the driver ran it, the status registers. The scoreboard adds what
the monitors published during the job. Expected values are NOT stored here: the scoreboard computes them from the
models when it checks the item.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Optional

from pyuvm import uvm_sequence_item

from models.pixel_desc import PixelDescriptor
from tb.platform import Knobs

from .pictures import Picture

__all__ = ["Kind", "Knobs", "PixelItem", "JobResult"]


class Kind(enum.Enum):
    PICTURE = "picture"      # legal picture, every pixel expected
    ILLEGAL = "illegal"      # validator must set exactly desc.errors(), DONE, no AXI traffic
    BUS_ERROR = "bus_error"  # SLVERR/DECERR injected inside a plane: stop, error bit, DONE
    RESET = "reset"          # reset asserted while the job runs: reader idle afterwards, nothing more read


@dataclass
class JobResult:
    """What happened in one job: the monitors' transactions and the driver's status read-back."""

    beats: list                 # tb.agents.stream.Beat, in arrival order
    status: object              # tb.pixel_reader.registers.JobStatus
    bursts: list                # tb.agents.axi_mem.Burst
    violations: list[str]       # protocol violations (AR checker, stream, CSR)
    beats_served: int           # R beats the memory returned during the job
    inflight_at_done: int       # R beats still owed by the memory when DONE rose


class PixelItem(uvm_sequence_item):
    """One pixel-reader job."""

    def __init__(self, name: str = "pixel") -> None:
        super().__init__(name)
        self.kind: Kind = Kind.PICTURE
        self.picture: Optional[Picture] = None           # PICTURE, BUS_ERROR (ILLEGAL: the legal origin)
        self.desc: Optional[PixelDescriptor] = None      # what is programmed (ILLEGAL: the mutated one)
        self.mutation: str = ""                          # ILLEGAL: the rule broken on purpose
        self.knobs = Knobs()
        self.faults: list[tuple[int, int, str]] = []     # (lo, hi, "SLVERR"|"DECERR")
        self.fault_where: str = ""                       # BUS_ERROR: plane and position of the poisoned word
        self.reset_after: int = 0                        # RESET: cycles after START
        self.midjob: Optional[int] = None                # PICTURE: a 2nd START at once, garbage descriptor writes
                                                         # this many cycles into the job (both must be ignored)
        self.irq_after: Optional[int] = None             # RESET: irq level after the reset
        # filled by the driver, then by the scoreboard
        self.status = None
        self.inflight_at_done: int = 0
        self.csr_violations: list[str] = []
        self.result: Optional[JobResult] = None

    @property
    def format_name(self) -> str:
        name = self.desc.format_name if self.desc is not None else None
        return name or f"code {self.desc.format_code if self.desc is not None else '?'}"

    def label(self) -> str:
        if self.kind is Kind.ILLEGAL:
            return f"{self.get_name()} [illegal: {self.mutation}] {self.format_name}"
        what = self.picture.label() if self.picture is not None else ""
        extra = f" fault {self.fault_where}" if self.kind is Kind.BUS_ERROR else ""
        return f"{self.get_name()} [{self.kind.value}] {what}{extra}"

    def __str__(self) -> str:
        return f"{self.label()} desc={self.desc} {self.knobs}"

    def timeout_cycles(self) -> int:
        """Generous bound on the job's duration (hang detection only)."""
        d = self.desc
        if self.kind is Kind.ILLEGAL or d is None:
            return 2000
        px = d.width * d.height
        beats = d.height * (d.line_stride0 + d.line_stride1) // 32 + 2 * d.height
        stall = 1 + sum(k != "none" for k in (self.knobs.ar_stall, self.knobs.r_gap, self.knobs.backpressure)) * 4
        return 5000 + (px + beats) * 4 * stall + d.height * 2 * (self.knobs.latency + 8)
