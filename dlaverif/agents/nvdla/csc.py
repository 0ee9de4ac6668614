"""A stand-in for NVDLA's convolution sequence controller (CSC) on the convolution DMA's status interface: it answers
the pending handshakes and gives back the buffer entries the DMA reports as stored, after random delays, as a
sequencer that consumed them would.

The interface (nvdla/hw nvdlav1, ``vmod/nvdla/cdma/``: the convolution DMA's top, lines 97-163; its status unit,
``*_status.v:448-579``; its direct-convolution unit, ``*_dc.v:2970``):

* pending, per side (data, weight): the DMA raises ``cdma2sc_<side>_pending_ack`` when a layer's bank split
  differs from the previous layer's (always so after reset); while ack and ``sc2cdma_<side>_pending_req`` are both
  high its buffer state restarts (valid entries and slices 0, write index 0), and it goes on once req falls. The
  stand-in raises req a random delay after ack rises, holds it a random number of cycles (at least two, so both
  are seen high together), drops it, and answers again only after ack has fallen;
* updates: ``cdma2sc_dat_updt`` with ``cdma2sc_dat_entries`` / ``cdma2sc_dat_slices`` reports stored data;
  ``cdma2sc_wt_updt`` with ``cdma2sc_wt_kernels`` / ``cdma2sc_wt_entries`` / ``cdma2sc_wmb_entries`` stored
  weights. The stand-in releases each report, unchanged, with a one-cycle ``sc2cdma_<side>_updt`` pulse carrying
  the same counts, a random delay (``delays``) after it arrived, in arrival order. Releases can be held
  (``hold``: nothing is given back until :meth:`release_all`), so that a test fills the buffer.

Everything it saw and did is counted in :attr:`CscStandIn.stats`.
"""

from __future__ import annotations

from collections import deque
from typing import Any, Callable, Optional

import numpy as np

from dlaverif.agents.signals import in_reset, level_reader, uint_reader

#: side -> (the DMA's report fields, the stand-in's release fields), in the same order
FIELDS = {
    "dat": (("cdma2sc_dat_entries", "cdma2sc_dat_slices"), ("sc2cdma_dat_entries", "sc2cdma_dat_slices")),
    "wt": (
        ("cdma2sc_wt_kernels", "cdma2sc_wt_entries", "cdma2sc_wmb_entries"),
        ("sc2cdma_wt_kernels", "sc2cdma_wt_entries", "sc2cdma_wmb_entries"),
    ),
}


class _Side:
    def __init__(self, owner: "CscStandIn", side: str, dut: Any, signal: Callable[[Any, str], Any]) -> None:
        self.owner, self.side = owner, side
        reports, releases = FIELDS[side]
        self.ack = level_reader(signal(dut, f"cdma2sc_{side}_pending_ack"))
        self.req = signal(dut, f"sc2cdma_{side}_pending_req")
        self.updt_in = level_reader(signal(dut, f"cdma2sc_{side}_updt"))
        self.reports = [uint_reader(signal(dut, n)) for n in reports]
        self.updt_out = signal(dut, f"sc2cdma_{side}_updt")
        self.releases = [signal(dut, n) for n in releases]
        self.queue: deque[tuple[int, tuple[int, ...]]] = deque()  # (due cycle, counts)
        self.pending = "idle"  # idle -> wait (req due) -> high (req up until due) -> done (ack must fall)
        self.due = 0
        self.pulsing = False
        self.idle()

    def idle(self) -> None:
        self.req.value = 0
        self.updt_out.value = 0
        for s in self.releases:
            s.value = 0
        self.queue.clear()
        self.pending, self.pulsing = "idle", False

    def tick(self, cycle: int) -> None:
        o = self.owner
        ack = self.ack() == 1
        if self.pending == "idle" and ack:
            self.pending, self.due = "wait", cycle + o.delay()
            o.stats[f"{self.side}_pending"] += 1
        elif self.pending == "wait" and cycle >= self.due:
            self.req.value = 1
            self.pending, self.due = "high", cycle + 2 + o.delay()
        elif self.pending == "high" and cycle >= self.due:
            self.req.value = 0
            self.pending = "done"
        elif self.pending == "done" and not ack:
            self.pending = "idle"
        if self.updt_in() == 1:
            counts = tuple(int(r() or 0) for r in self.reports)
            self.queue.append((cycle + o.delay(), counts))
            o.stats[f"{self.side}_reports"] += 1
            o.reported[self.side].append(counts)
        if self.pulsing:
            self.updt_out.value = 0
            self.pulsing = False
        elif self.queue and self.queue[0][0] <= cycle and not o.hold:
            _, counts = self.queue.popleft()
            for s, v in zip(self.releases, counts):
                s.value = v
            self.updt_out.value = 1
            self.pulsing = True
            o.stats[f"{self.side}_releases"] += 1


class CscStandIn:
    """The sequencer's side of the convolution DMA's status interface (module docstring), on a clock loop.
    ``delays``: a function giving each random delay in cycles (default: 1 to 32 from ``rng``)."""

    def __init__(
        self,
        dut: Any,
        reset: Any,
        loop: Any,
        signal: Callable[[Any, str], Any],
        rng: Optional[np.random.Generator] = None,
        delays: Optional[Callable[[], int]] = None,
        reset_active_high: bool = False,
    ) -> None:
        rng = rng if rng is not None else np.random.default_rng()
        self.delay = delays if delays is not None else (lambda: int(rng.integers(1, 33)))
        self.hold = False
        self.stats = {f"{s}_{k}": 0 for s in FIELDS for k in ("pending", "reports", "releases")}
        self.reported: dict[str, list[tuple[int, ...]]] = {s: [] for s in FIELDS}
        self._reset, self._high = reset, reset_active_high
        self.sides = [_Side(self, s, dut, signal) for s in FIELDS]
        loop.add(self._tick)

    def release_all(self) -> None:
        """Stop holding: what was reported is released from now on (each after its own delay)."""
        self.hold = False

    def _tick(self, cycle: int) -> None:
        if in_reset(self._reset, self._high):
            for s in self.sides:
                if s.pending != "idle" or s.queue or s.pulsing:
                    s.idle()
            return None
        for s in self.sides:
            s.tick(cycle)
        return None
