"""Addresses up to 2**64 - 1: the one place where a base plus offsets becomes an array of addresses.

AXI addresses are unsigned and up to 64 bits wide (the readers' ``AXI_ADDR_W`` goes to 64), so an image may lie
at or above 2**63, where numpy's default ``int64`` overflows (``OverflowError`` for a base, or a silent wrap to a
negative address for a base plus an offset). The rules here:

* an address array is ``np.uint64``; the range of every address, and of the last byte of every run that starts
  there, is checked first with Python integers (exact for any magnitude), so the ``uint64`` arithmetic that follows
  is modular arithmetic whose true result is known to lie in ``[0, 2**64)``: it is exact, whatever the sign of a
  stride or of an intermediate sum;
* a run whose last byte would lie at or above 2**64 raises :class:`~models.core.errors.FormatError`
  ``image.address_overflow`` ("the image ends above 2^64"), and one that would start below 0 raises
  ``image.address_negative``: an address never wraps silently.

Callers: :class:`~models.core.memimage.Surface` (placed images), :meth:`models.blocked.BlockedCubeDescriptor.
atom_addresses` and the descriptor builders of the NVDLA layouts, the testbench's footprints
(``dlaverif/footprint.py`` and each block's ``footprint`` module).
"""

from __future__ import annotations

from typing import Mapping, Sequence

import numpy as np

from .errors import FormatError
from .validate import ADDRESS_LIMIT

#: rule of a run that ends above the top of the 64-bit address space
OVERFLOW_RULE = "image.address_overflow"
#: rule of a run that starts below address 0
NEGATIVE_RULE = "image.address_negative"


def check_span(lo: int, hi: int, what: str = "image") -> None:
    """Refuse bytes ``[lo, hi)`` that do not lie inside the 64-bit address space (Python ints, exact).

    FormatError ``image.address_negative`` when ``lo < 0``, ``image.address_overflow`` when ``hi > 2**64`` (the
    last byte, ``hi - 1``, above ``2**64 - 1``) or when ``lo >= 2**64`` (an empty range there starts at no
    address)."""
    lo, hi = int(lo), int(hi)
    if lo < 0:
        raise FormatError(NEGATIVE_RULE, f"the image starts below address 0: {what} starts at {lo}")
    if hi > ADDRESS_LIMIT or lo >= ADDRESS_LIMIT:
        raise FormatError(
            OVERFLOW_RULE,
            f"the image ends above 2^64: {what} at 0x{lo:x} ends at 0x{max(hi, lo):x} (one past its last byte), "
            f"above 0x{ADDRESS_LIMIT:x}",
        )


def check_end(base: int, nbytes: int, what: str = "image") -> int:
    """``base + nbytes`` (one past the last byte) after :func:`check_span` of ``[base, base + nbytes)``."""
    end = int(base) + max(int(nbytes), 0)
    check_span(base, end, what)
    return end


def as_u64(value: int) -> np.uint64:
    """An integer as ``np.uint64`` modulo 2**64 (two's complement for a negative stride): the form in which
    :func:`grid_addresses` and :func:`offset_addresses` add, once the true results are known to fit."""
    return np.uint64(int(value) % ADDRESS_LIMIT)


def grid_span(base: int, counts: Sequence[int], strides: Sequence[int], nbytes: int = 1) -> tuple[int, int]:
    """``(lowest start, one past the highest last byte)`` of the runs of ``nbytes`` bytes at
    ``base + sum(i_k * strides[k])`` for ``0 <= i_k < counts[k]``, as Python ints (``(base, base)`` when a count is
    0: no run)."""
    if any(int(c) <= 0 for c in counts):
        return int(base), int(base)
    lo = int(base) + sum(min(0, (int(c) - 1) * int(s)) for c, s in zip(counts, strides))
    hi = int(base) + sum(max(0, (int(c) - 1) * int(s)) for c, s in zip(counts, strides)) + int(nbytes)
    return lo, hi


def grid_addresses(
    base: int, counts: Sequence[int], strides: Sequence[int], nbytes: int = 1, what: str = "image"
) -> np.ndarray:
    """The ``uint64`` array of shape ``counts`` of the addresses ``base + sum(i_k * strides[k])`` (the runs of
    ``nbytes`` bytes that start there all checked by :func:`check_span` first, so the sum never wraps)."""
    lo, hi = grid_span(base, counts, strides, nbytes)
    check_span(lo, hi, what)
    shape = tuple(max(int(c), 0) for c in counts)
    out = np.full(shape, as_u64(base), np.uint64)
    for k, (c, s) in enumerate(zip(shape, strides)):
        axis = np.arange(c, dtype=np.uint64) * as_u64(s)
        out += axis.reshape((1,) * k + (c,) + (1,) * (len(shape) - k - 1))
    return out


def offset_addresses(base: int, offsets: np.ndarray, nbytes: int = 1, what: str = "image") -> np.ndarray:
    """``base + offsets`` as ``uint64`` (``offsets``: any integer array, of any sign, int or uint), after
    :func:`check_span` of the runs of ``nbytes`` bytes that start at the lowest and at the highest address."""
    off = np.asarray(offsets)
    if off.dtype.kind not in "iu":
        raise TypeError(f"address offsets must be integers, got {off.dtype}")
    if off.size:
        check_span(int(base) + int(off.min()), int(base) + int(off.max()) + int(nbytes), what)
    else:
        check_span(base, base, what)
    return as_u64(base) + off.astype(np.uint64)


def check_ranges(ranges: Mapping[str, tuple[int, int]]) -> None:
    """:func:`check_end` of every ``{name: (base, bytes)}`` of a descriptor's ``ranges()``: what a descriptor builder
    checks before its validator, so that a job placed past the top of the address space is refused by the same rule
    (``image.address_overflow``) whatever the format."""
    for name, (base, nbytes) in ranges.items():
        check_end(base, nbytes, name)
