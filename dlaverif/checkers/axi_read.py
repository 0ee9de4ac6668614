"""AXI4 read-channel checker: protocol rules and the read footprint of each job, over named byte ranges.

Subscribes to :attr:`dlaverif.agents.axi_mem.AxiMemAgent.ar_ap` (one :class:`~dlaverif.agents.axi_mem.Burst` per
accepted AR). Rules checked on every burst:

* ARSIZE is the bus width, ARBURST is INCR, and an INCR burst does not cross a 4 KB boundary (AMBA AXI4, A3.4.1);
* footprint: every bus word the burst reads lies inside one of the :class:`Region` s the current job names
  (rounded out to whole bus words), and, for a region that lists its ``words``, is one of them (a word holding no
  byte the job needs is a stray read). A cube names one region (its atoms); a sparse weight job names three
  (weights, WMB, WGS); a semi-planar picture two (its planes);
* a job announced with :meth:`AxiReadChecker.expect_none` (an illegal descriptor) reads nothing at all, and after
  :meth:`AxiReadChecker.close` (the end of the test) nothing is read any more.

Violations are published as text on ``violation_ap`` (the scoreboard reports them with the job that caused them)
and kept in :attr:`violations` for directed tests.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import Optional, Sequence

import numpy as np
from cocotbext.axi import AxiBurstType

from dlaverif.agents.analysis import AnalysisPort
from dlaverif.footprint import Region

PAGE = 4096


def _members(words: np.ndarray, sorted_words: np.ndarray) -> np.ndarray:
    """``np.isin(words, sorted_words)`` for a sorted ``sorted_words``, by binary search (a burst's few words
    against a cube's many: no sort per burst)."""
    if sorted_words.size == 0:
        return np.zeros(words.size, bool)
    at = np.minimum(np.searchsorted(sorted_words, words), sorted_words.size - 1)
    return sorted_words[at] == words


class AxiReadChecker:
    """Subscriber of an AXI memory agent's AR port (``write(burst)``)."""

    def __init__(self, bus_bytes: int, name: str = "axi_read", boundary: Optional[int] = PAGE) -> None:
        self.bus_bytes = bus_bytes
        self.boundary = boundary  # a burst may not cross a multiple of it (None: no such rule)
        self.size = (bus_bytes - 1).bit_length()
        self.name = name
        self.violation_ap = AnalysisPort(f"{name}.violation_ap")
        self.violations: list[str] = []
        self.regions: Optional[tuple[Region, ...]] = None  # None: no footprint announced (protocol rules only)
        self._bounds: list[tuple[int, int, Optional[list[int]]]] = []
        self.closed = False

    # ------------------------------------------------------------------ job boundaries
    def expect(self, regions: Sequence[Region]) -> None:
        """The next job may read the bus words of these regions only."""
        self.regions = tuple(regions)
        self.closed = False
        bw = self.bus_bytes
        # per region: its first and last bus word and its needed words as a sorted list (for bisect), so that a
        # burst inside one region is cleared without numpy (a few small numpy calls cost ~10 us per burst)
        # (a region whose words are not strictly increasing, against its contract, always takes the numpy path)
        self._bounds = [
            (r.lo // bw, (r.hi - 1) // bw, None if r.words is None else r.words.tolist())
            for r in self.regions
            if r.words is None or r.words.size < 2 or bool((np.diff(r.words) > 0).all())
        ]

    def expect_none(self) -> None:
        """The next job must issue no read at all."""
        self.regions = ()

    def close(self) -> None:
        """The test is over: any read from now on is a violation."""
        self.closed = True

    def take(self) -> list[str]:
        out, self.violations = self.violations, []
        return out

    # ------------------------------------------------------------------ the checks
    def _bad(self, text: str) -> None:
        self.violations.append(text)
        self.violation_ap.write(text)

    def write(self, b) -> None:
        if self.closed:
            self._bad(f"{b}: read after the last job")
            return
        if self.regions == ():
            self._bad(f"{b}: read issued by a job that must not touch memory")
            return
        bw = self.bus_bytes
        if b.size != self.size:
            self._bad(f"{b}: ARSIZE {b.size} is not the bus width ({bw} bytes -> {self.size})")
        if b.burst != AxiBurstType.INCR:
            self._bad(f"{b}: ARBURST {b.burst} is not INCR")
        nb = 1 << b.size
        start = b.addr - b.addr % nb
        page = self.boundary
        if page is not None and b.burst == AxiBurstType.INCR and (start % page) + b.beats * nb > page:
            self._bad(f"{b}: burst crosses a {page // 1024} KB boundary (0x{start:x} + {b.beats * nb} bytes)")
        if self.regions is not None:
            lo_word, hi_word = start // bw, (start + b.beats * nb - 1) // bw
            if not self._inside_one(lo_word, hi_word):
                self._footprint(b, lo_word, hi_word)

    def _inside_one(self, lo_word: int, hi_word: int) -> bool:
        """Bus words ``lo_word..hi_word`` all lie in one region and are all needed words of it (a cheap sufficient
        test; anything else goes through :meth:`_footprint`, which gives the verdict and the message)."""
        for lo, hi, words in self._bounds:
            if lo <= lo_word and hi_word <= hi:
                if words is None:
                    return True
                i = bisect_left(words, lo_word)
                j = i + hi_word - lo_word  # sorted and unique: all present iff both ends are where expected
                if j < len(words) and words[i] == lo_word and words[j] == hi_word:
                    return True
        return False

    def _footprint(self, b, lo_word: int, hi_word: int) -> None:
        regions = self.regions
        assert regions is not None, "called only with a footprint to enforce"
        bw = self.bus_bytes
        words = np.arange(lo_word, hi_word + 1, dtype=np.int64)
        inside = np.zeros(words.size, bool)
        needed = np.zeros(words.size, bool)
        for r in regions:
            in_r = (words >= r.lo // bw) & (words <= (r.hi - 1) // bw)
            inside |= in_r
            needed |= in_r if r.words is None else in_r & _members(words, r.words)
        names = ", ".join(str(r) for r in regions)
        if not inside.all():
            w = int(words[~inside][0])
            self._bad(
                f"{b}: reads 0x{lo_word * bw:x}..0x{(hi_word + 1) * bw - 1:x}, outside the job's surfaces "
                f"[{names}] first at 0x{w * bw:x}"
            )
        elif not needed.all():
            stray = words[~needed]
            self._bad(
                f"{b}: {stray.size} beat(s) hold no byte the job needs, first at 0x{int(stray[0]) * bw:x} [{names}]"
            )
