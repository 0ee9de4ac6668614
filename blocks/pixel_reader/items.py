"""Sequence items of the pixel reader: one job each (a legal picture, an illegal descriptor, a bus error).

The item carries the stimulus only (picture or descriptor, fault ranges, timing knobs); the driver answers it with
the platform's :class:`~dlaverif.platform.JobResult` (``item.result``). Expected values are NOT stored here: the
scoreboard computes them from the models when it checks the item.
"""

from __future__ import annotations

import enum
from typing import Optional

from dlaverif.models.pixel_desc import PixelDescriptor
from dlaverif.platform import ReaderItem

from .pictures import Picture


class Kind(enum.Enum):
    PICTURE = "picture"  # legal picture, every pixel expected
    ILLEGAL = "illegal"  # validator must set exactly desc.errors(), DONE, no AXI traffic
    BUS_ERROR = "bus_error"  # SLVERR/DECERR injected inside a plane: stop, error bit, DONE
    RESET = "reset"  # reset asserted while the job runs: reader idle afterwards, nothing more read


class PixelItem(ReaderItem):
    """One pixel-reader job (the shared fields: :class:`~dlaverif.platform.ReaderItem`)."""

    def __init__(self, name: str = "pixel") -> None:
        super().__init__(name)
        self.kind: Kind = Kind.PICTURE
        self.picture: Optional[Picture] = None  # PICTURE, BUS_ERROR (ILLEGAL: the legal origin)
        self.desc: Optional[PixelDescriptor] = None  # what is programmed (ILLEGAL: the mutated one)
        self.fault_where: str = ""  # BUS_ERROR: plane and position of the poisoned word

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

    def timeout_cycles(self, bus_bytes: int = 0) -> int:
        """Generous bound on the job's duration (hang detection only)."""
        d = self.desc
        if self.kind is Kind.ILLEGAL or d is None:
            return 2000
        px = d.width * d.height
        beats = d.height * (d.line_stride0 + d.line_stride1) // 32 + 2 * d.height
        return 5000 + (px + beats) * 4 * self.knobs.stall_factor() + d.height * 2 * (self.knobs.latency + 8)
