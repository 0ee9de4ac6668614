"""Sequence items of the cube reader: one job each (a legal cube, an illegal descriptor, a bus error, a reset).

The item carries the stimulus only (cube or descriptor, fault knobs, stall knobs); the driver answers it with the
platform's :class:`~dlaverif.platform.JobResult` (``item.result``). Expected values are NOT stored here: the scoreboard
computes them from the models when it checks the item.
"""

from __future__ import annotations

import enum
from typing import Optional

from dlaverif.models.blocked import BlockedCubeDescriptor
from dlaverif.models.core.arith import ceil_div
from dlaverif.platform import ReaderItem

from .families import Cube


class Kind(enum.Enum):
    CUBE = "cube"  # legal cube, full stream expected
    ILLEGAL = "illegal"  # validator must set exactly desc.error_bits(), DONE, no AXI traffic
    BUS_ERROR = "bus_error"  # SLVERR/DECERR injected inside the cube: stop, error bit, DONE
    RESET = "reset"  # reset asserted while the job runs: reader idle afterwards


class CubeItem(ReaderItem):
    """One cube-reader job (the shared fields: :class:`~dlaverif.platform.ReaderItem`)."""

    def __init__(self, name: str = "cube") -> None:
        super().__init__(name)
        self.kind: Kind = Kind.CUBE
        self.cube: Optional[Cube] = None  # legal cube (CUBE, BUS_ERROR, RESET)
        self.desc: Optional[BlockedCubeDescriptor] = None  # what is programmed (ILLEGAL: the mutated one)
        self.nan_to_zero: bool = False
        self.fp16: Optional[bool] = None  # override CFG.FP16 (None: desc.fp16)
        self.fault_atom: Optional[int] = None  # BUS_ERROR: index of the first atom touched by a fault
        self.fault_where: str = ""  # BUS_ERROR: first | middle | last atom poisoned

    # ------------------------------------------------------------------ convenience
    @property
    def family(self) -> str:
        return self.cube.family if self.cube is not None else "illegal"

    def use_fp16(self) -> bool:
        if self.fp16 is not None:
            return bool(self.fp16)
        assert self.desc is not None, "every cube job programs a descriptor"
        return bool(self.desc.fp16)

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
        return 5000 + beats * 4 * self.knobs.stall_factor() + atoms * (self.knobs.latency + 8)
