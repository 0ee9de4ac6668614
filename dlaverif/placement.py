"""Where a job lies in the address space: the one placement of every reader's stimulus, derived from the build.

A reader's memory is its whole address space, ``2**AXI_ADDR_W`` bytes (``dlaverif.agents.axi_mem.AxiMemAgent`` sizes its
sparse memory from the AXI address width), and the matrix builds the readers from 12 to 64 address bits
(docs/configurations.md). A placement written for the defaults (40 bits: "at 256 MB", "below one of the first 4095
page boundaries") falls outside a 4 KB or 2 MB space. The functions below take the build's address width and keep
every base they return inside it; at a width where the default placement fits, they draw exactly what it drew
(the same random numbers from ``rng``), so the seeds and exact cycle counts at the defaults are unchanged.

Pure integer arithmetic on Python ints (addresses up to 2**64; no numpy int64 that would wrap at 2**63), no
simulator: the sequences of every block import it (tests/flow/test_layout.py).
"""

from __future__ import annotations

import numpy as np

PAGE = 4096  # AXI: a burst never crosses a 4 KB boundary (AMBA AXI A3.4.1)
MAX_PAGE_BOUNDARIES = 4095  # the page boundaries a placement picks among: the first 16 MB at the defaults


class DoesNotFit(ValueError):
    """A job larger than the build's address space: the caller must draw a smaller one."""


def space(addr_bits: int) -> int:
    """Bytes of an ``addr_bits``-bit address space."""
    return 1 << addr_bits


def aligned_bases(span: int, addr_bits: int, align: int) -> int:
    """How many ``align``-aligned bases put ``span`` bytes inside the address space (raises :class:`DoesNotFit`
    when none does)."""
    room = (space(addr_bits) - span) // align + 1 if span <= space(addr_bits) else 0
    if room < 1:
        raise DoesNotFit(f"{span} bytes do not fit in a {addr_bits}-bit address space")
    return room


def fit_down(base: int, span: int, addr_bits: int, align: int) -> int:
    """``base`` (aligned down), moved down just enough that ``span`` bytes end inside the address space."""
    last = (aligned_bases(span, addr_bits, align) - 1) * align
    return max(0, min(base // align * align, last))


def at_top(span: int, addr_bits: int, align: int) -> int:
    """The highest aligned base: the job ends within ``align`` bytes of the top of the address space (exactly at
    it when ``span`` is a multiple of ``align``)."""
    return (aligned_bases(span, addr_bits, align) - 1) * align


def below_top(rng: np.random.Generator, span: int, addr_bits: int, align: int) -> int:
    """A uniformly drawn aligned base anywhere in the address space but the highest one (:func:`at_top` places
    there); 0 when the job fills the whole space."""
    room = aligned_bases(span, addr_bits, align)
    return int(rng.integers(0, room - 1)) * align if room > 1 else 0


def slots_that_fit(slots: int, span: int, addr_bits: int, align: int) -> int:
    """``slots`` cut to the ``align`` steps a gap may grow by while ``span`` bytes (the job without the gap) and
    the gap stay inside the address space."""
    return min(slots, aligned_bases(span, addr_bits, align))


def page_boundary(rng: np.random.Generator, addr_bits: int) -> int:
    """One of the first :data:`MAX_PAGE_BOUNDARIES` 4 KB boundaries strictly inside the address space (0 when it
    holds no boundary but its ends: a 12-bit space is one page)."""
    pages = min(MAX_PAGE_BOUNDARIES + 1, space(addr_bits) // PAGE)
    return int(rng.integers(1, pages)) * PAGE if pages > 1 else 0


def in_window(rng: np.random.Generator, home: int, slots: int, span: int, addr_bits: int, align: int) -> int:
    """A base ``home + align * k``, ``k`` drawn from ``slots`` positions; where the space is too small for that
    window, the window is cut to the bases that fit and ``home`` moved down so that it ends inside the space."""
    room = aligned_bases(span, addr_bits, align)
    slots = min(slots, room)
    first = min(home // align, room - slots)
    return (first + int(rng.integers(0, slots))) * align


def draw_below(rng: np.random.Generator, n: int) -> int:
    """A uniform draw from ``range(n)`` for any Python int ``n`` up to 2**64 (numpy's ``integers`` stops at
    2**63 - 1); the one numpy draw of ``integers(0, n)`` when ``n`` fits it."""
    if n <= 1 << 62:
        return int(rng.integers(0, n))
    while True:  # two 32-bit halves, rejected above n: uniform
        v = (int(rng.integers(0, 1 << 32)) << 32) | int(rng.integers(0, 1 << 32))
        if v < n:
            return v


def upper_half(rng: np.random.Generator, span: int, addr_bits: int, align: int) -> int:
    """A uniformly drawn aligned base with the highest address bit set (``2**(addr_bits-1)`` or above: at or above
    2**63 at 64 bits) that keeps ``span`` bytes inside the space; where the job does not fit in the upper half,
    the highest base (:func:`at_top`)."""
    half = -(-(space(addr_bits) // 2) // align) * align
    room = (space(addr_bits) - span - half) // align + 1
    return half + align * draw_below(rng, room) if room >= 1 else at_top(span, addr_bits, align)
