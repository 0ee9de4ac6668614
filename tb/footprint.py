"""Read footprints: the named byte ranges a job may read, and the bus words inside them that hold bytes it needs.

Pure numpy (no simulator, no checker): the stimulus (fault addresses inside a footprint), the read checker
(``tb.checkers.axi_read``) and the scoreboards all derive from the same functions here and in each block's
``footprint`` module, so a sequence never imports a checker, a scoreboard or an env.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import numpy as np


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
    """Sorted unique bus-word indices touched by byte runs ``[s, s + nbytes)`` for each start ``s``."""
    starts = np.asarray(starts, np.int64).reshape(-1)
    if starts.size == 0:
        return np.zeros(0, np.int64)
    first, last = starts // bus_bytes, (starts + nbytes - 1) // bus_bytes
    span = int((last - first).max()) + 1
    words = first[:, None] + np.arange(span)[None, :]
    words = words[words <= last[:, None]]
    # sort only when needed (runs usually ascend) and drop repeats: np.unique (hashing) cost 85 ms per 4 MiB cube
    if words.size > 1 and (np.diff(words) < 0).any():
        words = np.sort(words)
    keep = np.ones(words.size, bool)
    np.not_equal(words[1:], words[:-1], out=keep[1:])
    return words[keep]
