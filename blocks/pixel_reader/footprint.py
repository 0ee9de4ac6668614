"""What a pixel job may read, and where each pixel lies: pure functions of the descriptor (no simulator).

Shared by the sequences (fault ranges on a pixel's bytes), the TB (the footprint the read checker enforces) and
the scoreboard (the first pixel a fault poisons, the addresses in a mismatch report).
"""

from __future__ import annotations

from typing import Optional, Sequence

import numpy as np

from dlaverif.footprint import Region, runs_hit, words_of_runs
from dlaverif.models.core.address import grid_addresses
from dlaverif.models.nvdla.pixel import PixelFormat
from dlaverif.models.pixel_desc import PixelDescriptor


def line_starts(d: PixelDescriptor, fmt: PixelFormat) -> list[np.ndarray]:
    """Per plane, the byte address of each line's first ROI pixel (clarifications 2.2: plane 1 of a semi-planar
    format starts at the x offset's position inside its 32-byte chunk). Unsigned 64-bit: at ``AXI_ADDR_W`` 64 a
    picture may lie at or above 2**63; a line whose ROI ends above ``2**64 - 1`` is refused
    (``models.FormatError`` ``image.address_overflow``), never wrapped."""
    out = []
    for i, (base, stride) in enumerate(((d.base0, d.line_stride0), (d.base1, d.line_stride1))[: len(fmt.planes)]):
        bpp = fmt.planes[i].bpp
        first = d.x_offset * bpp if i == 0 else (d.x_offset * bpp) % 32
        out.append(grid_addresses(base + first, (d.height,), (stride,), d.width * bpp, f"plane {i}"))
    return out


def pixel_addresses(d: PixelDescriptor, fmt: PixelFormat) -> list[np.ndarray]:
    """Per plane, the (H, W) byte address of each pixel (clarifications 2.2)."""
    w = np.arange(d.width, dtype=np.uint64)[None, :]
    return [starts[:, None] + w * fmt.planes[i].bpp for i, starts in enumerate(line_starts(d, fmt))]


def first_fault_pixel(d: PixelDescriptor, fmt: PixelFormat, faults: Sequence[tuple[int, int, str]]) -> Optional[int]:
    """Index (w, h order) of the first pixel with a byte in a poisoned range, any plane."""
    hit = np.zeros((d.height, d.width), bool)
    for i, addr in enumerate(pixel_addresses(d, fmt)):
        bpp = fmt.planes[i].bpp
        for lo, hi, _ in faults:
            hit |= runs_hit(addr, bpp, lo, hi)
    idx = np.flatnonzero(hit.reshape(-1))
    return int(idx[0]) if idx.size else None


def plane_regions(desc: PixelDescriptor, bus_bytes: int) -> list[Region]:
    """The bytes a legal job may read: per plane, the bus words holding a byte of a line's ROI (from the
    first ROI pixel to the last; the x-offset pixels before it share the first word)."""
    fmt = desc.format
    assert fmt is not None, "a legal job's descriptor has a known format"
    starts = line_starts(desc, fmt)
    return [
        Region(name, base, base + size, words_of_runs(starts[i], desc.width * fmt.planes[i].bpp, bus_bytes))
        for i, (name, (base, size)) in enumerate(desc.ranges().items())
    ]
