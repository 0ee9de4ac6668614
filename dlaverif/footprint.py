"""Read footprints: the named byte ranges a job may read, and the bus words inside them that hold bytes it needs.

Pure numpy (no simulator, no checker): the stimulus (fault addresses inside a footprint), the read checker
(``dlaverif.checkers.axi_read``) and the scoreboards all derive from the same functions here and in each block's
``footprint`` module, so a sequence never imports a checker, a scoreboard or an env.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import numpy as np

from dlaverif.models.core.address import offset_addresses


@dataclass(frozen=True)
class Region:
    """A named byte range ``[lo, hi)`` a job may read; ``words``: if given, the only bus-word indices
    (address // bus bytes) of the range that hold needed bytes (sorted int64 array)."""

    name: str
    lo: int
    hi: int
    words: Optional[np.ndarray] = None

    def __str__(self) -> str:
        return f"{self.name} 0x{self.lo:x}..0x{self.hi - 1:x}"


def words_of_runs(starts: np.ndarray, nbytes: int, bus_bytes: int) -> np.ndarray:
    """Sorted unique bus-word indices touched by byte runs ``[s, s + nbytes)`` for each start ``s``.

    Addresses are unsigned AXI addresses of up to 64 bits (``AXI_ADDR_W`` 64 puts surfaces at or above 2**63), so
    they are divided as ``uint64``; the word indices (below 2**62 for bus words of 4 bytes or more) are ``int64``.
    A start given as a negative ``int64`` is an address that already wrapped: refused rather than reinterpreted; a
    run whose last byte lies above ``2**64 - 1`` is refused too (``models.FormatError`` ``image.address_overflow``)
    rather than wrapped to the bottom of the space."""
    starts = np.asarray(starts).reshape(-1)
    if starts.size == 0:
        return np.zeros(0, np.int64)
    if starts.dtype.kind == "i" and bool((starts < 0).any()):
        raise ValueError(f"byte runs at negative addresses (a wrapped address?): {int(starts.min())}")
    ustarts, bus = offset_addresses(0, starts, nbytes, "byte runs"), np.uint64(bus_bytes)
    first = (ustarts // bus).astype(np.int64)
    last = ((ustarts + np.uint64(nbytes - 1)) // bus).astype(np.int64)
    span = int((last - first).max()) + 1
    words = first[:, None] + np.arange(span)[None, :]
    words = words[words <= last[:, None]]
    # sort only when needed (runs usually ascend) and drop repeats: np.unique (hashing) cost 85 ms per 4 MiB cube
    if words.size > 1 and (np.diff(words) < 0).any():
        words = np.sort(words)
    keep = np.ones(words.size, bool)
    np.not_equal(words[1:], words[:-1], out=keep[1:])
    return words[keep]


def runs_hit(starts: np.ndarray, nbytes: int, lo: int, hi: int) -> np.ndarray:
    """Which byte runs ``[s, s + nbytes)`` (``s``: addresses, any integer dtype) share a byte with ``[lo, hi)``:
    compared on each run's last byte as ``uint64``, so a run that ends on the last byte of the address space
    (``s + nbytes == 2**64``, which wraps to 0 in ``uint64``) is seen; ``hi`` may be ``2**64``. Runs outside the
    address space are refused as by :func:`words_of_runs`."""
    ustarts = offset_addresses(0, np.asarray(starts), nbytes, "byte runs")
    return (ustarts < hi) & (ustarts + np.uint64(nbytes - 1) >= lo)
