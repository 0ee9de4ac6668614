"""Sequence items of the weight reader: one job each (legal weights, an illegal descriptor, a run-time corruption,
a bus error, a reset in the middle of the job).

The item carries the stimulus only (the weight set from the models, what was corrupted, faults, stall knobs); the
driver answers it with the platform's :class:`~dlaverif.platform.JobResult` (``item.result``). Expected values are not
stored here: the scoreboard derives them from the models' surfaces when it checks the item.
"""

from __future__ import annotations

import enum
from dataclasses import replace
from typing import Optional

from dlaverif.models.weight_desc import WeightSurfaceDescriptor
from dlaverif.platform import ReaderItem

from .weights import WeightSet


class Kind(enum.Enum):
    WEIGHTS = "weights"  # legal weights: the whole dense stream
    ILLEGAL = "illegal"  # validator: exactly desc.errors(), DONE, no AXI read
    CORRUPT = "corrupt"  # run-time check: WGS mismatch or weight overrun at a known group
    BUS_ERROR = "bus_error"  # SLVERR/DECERR on one surface
    RESET = "reset"  # reset while the job runs


#: the run-time corruptions of the surfaces' contents, found only while the reader runs
CORRUPTIONS = ("wmb_bit_flip", "wgs_plus_one", "wgs_minus_one", "weight_truncated")


class WeightItem(ReaderItem):
    """One weight-reader job (the shared fields: :class:`~dlaverif.platform.ReaderItem`)."""

    def __init__(self, name: str = "weights") -> None:
        super().__init__(name)
        self.kind: Kind = Kind.WEIGHTS
        self.ws: Optional[WeightSet] = None  # the model's weight set (not for ILLEGAL)
        self.desc: Optional[WeightSurfaceDescriptor] = None  # what is programmed
        self.corrupt_group: int = -1  # CORRUPT: the group whose data was corrupted
        self.surface_override: dict = {}  # CORRUPT: {surface name: corrupted bytes}
        self.fault_surface: str = ""  # BUS_ERROR: weight | wmb | wgs

    def pieces_dict(self) -> dict:
        """{surface name: bytes in memory} (the model's surfaces, with any corruption applied)."""
        if self.ws is None:
            return {}
        return {s.name: self.surface_override.get(s.name, s.data) for s in self.ws.image.surfaces}

    def pieces(self) -> list:
        """(base, bytes) of every surface for the memory agent."""
        data = self.pieces_dict()
        return [(s.base, data[s.name]) for s in self.ws.image.surfaces] if self.ws is not None else []

    def label(self) -> str:
        what = self.ws.label() if self.ws is not None else ""
        if self.kind in (Kind.ILLEGAL, Kind.CORRUPT):
            what = f"{self.mutation} {what}".strip()
        if self.kind is Kind.BUS_ERROR:
            what = f"{'/'.join(sorted({f[2] for f in self.faults}))} on {self.fault_surface} {what}"
        return f"{self.get_name()} [{self.kind.value}] {what}".strip()

    def timeout_cycles(self, bus_bytes: int = 0) -> int:
        """Generous bound on the job's duration (hang detection only)."""
        d = self.desc
        if self.kind is Kind.ILLEGAL or d is None:
            return 2000
        beats = d.dense_bytes // 16 + d.weight_bytes // 16 + d.wmb_bytes // 16 + d.wgs_bytes // 16 + 4 * d.groups
        return 5000 + beats * 4 * self.knobs.stall_factor() + (beats // 4 + 1) * (self.knobs.latency + 8)


def truncated(desc: WeightSurfaceDescriptor, need: int) -> WeightSurfaceDescriptor:
    """The descriptor with a weight surface one 128-byte unit too short for ``need`` compressed bytes."""
    return replace(desc, weight_bytes=((need - 1) // 128) * 128)
