"""Sequence items of the cube reader: one job each (a legal cube, an illegal descriptor, a bus error, a reset).

The item carries the stimulus (cube or descriptor, fault knobs, stall knobs) and, after the driver ran it,
what the driver saw of the job (status registers, R beats still owed at DONE, CSR response errors). The scoreboard
adds what the monitors published during the job as a :class:`JobResult`. Expected values are NOT stored here: the
scoreboard computes them from the models when it checks the item.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Optional

import numpy as np
from pyuvm import uvm_sequence_item

from models.blocked import BlockedCubeDescriptor
from models.core.arith import ceil_div

from tb.platform import Knobs  # noqa: F401  (the items' timing knobs; shared by every block)

from .families import Cube


class Kind(enum.Enum):
    CUBE = "cube"            # legal cube, full stream expected
    ILLEGAL = "illegal"      # validator must set exactly desc.error_bits(), DONE, no AXI traffic
    BUS_ERROR = "bus_error"  # SLVERR/DECERR injected inside the cube: stop, error bit, DONE
    RESET = "reset"          # reset asserted while the job runs: reader idle afterwards


@dataclass
class JobResult:
    """What happened in one job: the monitors' transactions and the driver's status read-back."""

    beats: list                 # tb.agents.stream.Beat, in arrival order
    status: object              # tb.cube_reader.registers.JobStatus
    bursts: list                # tb.agents.axi_mem.Burst
    violations: list[str]       # protocol violations (AR monitor, stream, CSR)
    beats_served: int           # R beats the memory returned during the job
    inflight_at_done: int       # R beats still owed by the memory when DONE rose
    irq_after: Optional[int] = None   # RESET jobs: irq level after reset


class CubeItem(uvm_sequence_item):
    """One cube-reader job."""

    def __init__(self, name: str = "cube") -> None:
        super().__init__(name)
        self.kind: Kind = Kind.CUBE
        self.cube: Optional[Cube] = None                 # legal cube (CUBE, BUS_ERROR, RESET)
        self.desc: Optional[BlockedCubeDescriptor] = None  # what is programmed (ILLEGAL: the mutated one)
        self.mutation: str = ""                          # ILLEGAL: what was broken
        self.nan_to_zero: bool = False
        self.fp16: Optional[bool] = None                 # override CFG.FP16 (None: desc.fp16)
        self.knobs = Knobs()
        self.faults: list[tuple[int, int, str]] = []     # (lo, hi, "SLVERR"|"DECERR")
        self.fault_atom: Optional[int] = None            # BUS_ERROR: index of the first atom touched by a fault
        self.fault_where: str = ""                       # BUS_ERROR: first | middle | last atom poisoned
        self.reset_after: Optional[int] = None           # RESET: cycles after START
        self.midjob: Optional[int] = None                # CUBE: a 2nd START at once, garbage descriptor writes
                                                         # this many cycles into the job (both must be ignored)
        # filled by the driver (CubeReaderTB.run_job)
        self.status = None                               # tb.cube_reader.registers.JobStatus
        self.inflight_at_done: int = 0                   # R beats still owed by the memory when DONE rose
        self.irq_after: Optional[int] = None             # RESET: irq level after the reset
        self.csr_violations: list[str] = []
        # filled by the scoreboard: the driver's view plus what the monitors published during the job
        self.result: Optional[JobResult] = None

    # ------------------------------------------------------------------ convenience
    @property
    def family(self) -> str:
        return self.cube.family if self.cube is not None else "illegal"

    def use_fp16(self) -> bool:
        d = self.desc
        return bool(d.fp16 if self.fp16 is None else self.fp16)

    def label(self) -> str:
        what = self.cube.label() if self.cube is not None else ""
        if self.kind is Kind.ILLEGAL:
            what = f"illegal descriptor ({self.mutation})"
        return f"{self.get_name()} [{self.kind.value}] {what}".strip()

    def __str__(self) -> str:
        return f"{self.label()} desc={self.desc} nan_to_zero={self.nan_to_zero} {self.knobs} midjob={self.midjob}"

    def timeout_cycles(self, bus_bytes: int) -> int:
        """Generous bound on the job's duration (hang detection only)."""
        d = self.desc
        if self.kind is Kind.ILLEGAL or d is None:
            return 2000
        atoms = d.num_atoms
        beats = atoms * max(1, ceil_div(d.atom_bytes, bus_bytes)) + atoms
        stall = 1 + sum(k != "none" for k in (self.knobs.ar_stall, self.knobs.r_gap, self.knobs.backpressure)) * 4
        return 5000 + beats * 4 * stall + atoms * (self.knobs.latency + 8)


def atom_fault_range(desc: BlockedCubeDescriptor, atom_index: int, bus_bytes: int,
                     rng: Optional[np.random.Generator] = None) -> tuple[int, int]:
    """A bus word inside atom ``atom_index`` (canonical order): the range to poison."""
    start = int(desc.atom_addresses().reshape(-1)[atom_index])
    off = 0
    if rng is not None and desc.atom_bytes > bus_bytes:
        off = int(rng.integers(0, desc.atom_bytes // bus_bytes)) * bus_bytes
    word = (start + off) - (start + off) % bus_bytes
    return word, word + bus_bytes
