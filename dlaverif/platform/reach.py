"""What the stimulus reached on an AXI4 read port, against the configuration's limits: a subscriber of the memory
agent's monitor (``AxiMemAgent.ar_ap`` / ``r_ap``, or the fast path's, which publishes R beats in batches), shared by
every block and the read engine's own tests.

A parameter is only tested where the stimulus goes where it matters. Per test this records:

- ``top_bit``: the highest address bit any read drove (of the last byte of each AR burst); the limit is
  ``AXI_ADDR_W - 1`` (a cube above 2**63 at 64 bits drives bit 63).
- ``most_in_flight``: the most AR bursts accepted and not yet answered by their RLAST beat, counted at each AR
  acceptance from the monitor's cycle stamps; the limit is ``MAX_OUTSTANDING``. A reset closes an epoch (the
  bursts it dropped never return their RLAST).
- ``most_beats_in_flight``: the most beats of accepted AR bursts not yet returned on R, counted the same way. No
  limit: a reader's queues are not visible on the bus (the weight reader's three streams share one AR channel
  without IDs of their own, so beats in flight may exceed its DATA_DEPTH while the data queue itself is not full).
- ``most_jobs_in_flight``: on a descriptor port, the most jobs handed over and not yet completed at once (this
  one included), counted by the bench at each hand-over (``PipelinedJobs.most_in_flight``); with ``IN_FLIGHT=capacity``
  it reaches the binding's ``capacity`` when the DUT took that many jobs before completing one (its ``ready`` is
  the handshake: the queues full, give or take the job whose completion is a cycle away; a probe of the queue's
  occupancy inside the DUT says it exactly).
- ``longest_pages``: the longest run of address-contiguous bursts (bursts continuing where an earlier one ended,
  interleaved with others or not) in 4 KB pages: how far one command or job streamed.

:func:`write_record` writes them as ``reach_<test>.json`` in the run folder (the regression report's
configuration axis merges them per configuration, :mod:`dlaverif.flow.regression.configaxis`).
"""

from __future__ import annotations

import json
from bisect import bisect_left
from pathlib import Path
from typing import Any, Optional

PAGE = 4096  # AXI: a burst never crosses a 4 KB boundary (AMBA AXI A3.4.1)
OPEN_RUNS = 64  # contiguous runs followed at once (one per stream of the readers; the oldest is dropped)
RECORD_GLOB = "reach_*.json"


class _Port:
    def __init__(self, write) -> None:
        self.write = write


class AxiReach:
    """Subscribe with :meth:`connect` (a memory agent with ``ar_ap`` and ``r_ap``); read :meth:`record`."""

    def __init__(self, addr_bits: int) -> None:
        self.addr_bits = addr_bits
        self.top_bit = -1
        self.most_in_flight = 0
        self.longest_pages = 0
        self.bursts = 0
        self.most_beats_in_flight = 0
        self.most_jobs_in_flight = 0  # set by the test base from the job control's count (0: not a descriptor port)
        self._ar_cycles: list[int] = []
        self._ar_beats: list[int] = []
        self._last_cycles: list[int] = []
        self._beat_cycles: list[int] = []
        self._open: dict[int, int] = {}  # end address (exclusive) of a contiguous run -> its first address

    def connect(self, mem: Any) -> "AxiReach":
        mem.ar_ap.connect(_Port(self.write_ar))
        mem.r_ap.connect(_Port(self.write_r))
        return self

    def write_ar(self, b: Any) -> None:
        """One accepted AR burst (``dlaverif.agents.axi_mem.Burst``: addr, nbytes, cycle)."""
        start, end = int(b.addr), int(b.addr) + int(b.nbytes)
        self.bursts += 1
        self.top_bit = max(self.top_bit, (end - 1).bit_length() - 1)
        self._ar_cycles.append(int(b.cycle))
        self._ar_beats.append(int(b.beats))
        first = self._open.pop(start, start)
        self._open[end] = first
        if len(self._open) > OPEN_RUNS:
            del self._open[next(iter(self._open))]
        self.longest_pages = max(self.longest_pages, (end - 1) // PAGE - first // PAGE + 1)

    def write_r(self, t: Any) -> None:
        """One R beat (``RBeat``: last, cycle) or a batch of them (columns ``last``, ``cycle``)."""
        if hasattr(t, "cycle") and hasattr(t.cycle, "__len__"):
            self._last_cycles.extend(int(c) for c, last in zip(t.cycle, t.last) if last)
            self._beat_cycles.extend(int(c) for c in t.cycle)
        else:
            self._beat_cycles.append(int(t.cycle))
            if t.last:
                self._last_cycles.append(int(t.cycle))

    def restart(self) -> None:
        """A reset: the bursts in flight are dropped; count the epoch so far and start a new one."""
        self._close()
        self._open.clear()

    def _close(self) -> None:
        ends, beats = sorted(self._last_cycles), sorted(self._beat_cycles)
        asked = 0
        for i, (cycle, n) in enumerate(sorted(zip(self._ar_cycles, self._ar_beats))):
            # bursts (beats) accepted up to this one, minus those returned (their RLAST, their beats) before it
            asked += n
            self.most_in_flight = max(self.most_in_flight, i + 1 - bisect_left(ends, cycle))
            self.most_beats_in_flight = max(self.most_beats_in_flight, asked - bisect_left(beats, cycle))
        self._ar_cycles, self._ar_beats, self._last_cycles, self._beat_cycles = [], [], [], []

    def record(self) -> dict:
        """What was reached so far (closes the current epoch's count)."""
        self._close()
        return {
            "addr_bits": self.addr_bits,
            "top_bit": self.top_bit,
            "most_in_flight": self.most_in_flight,
            "most_beats_in_flight": self.most_beats_in_flight,
            "most_jobs_in_flight": self.most_jobs_in_flight,
            "longest_pages": self.longest_pages,
            "bursts": self.bursts,
        }


def write_record(reach: AxiReach, test: str, directory: Optional[Path] = None) -> Path:
    """``reach_<test>.json`` in ``directory`` (default: the run folder, the current directory of a cocotb run)."""
    path = (directory or Path.cwd()) / f"reach_{test.replace('/', '_').replace('=', '_')}.json"
    path.write_text(json.dumps(reach.record(), indent=1) + "\n")
    return path


def merge(records: list[dict]) -> dict:
    """Per configuration: the most any of its tests reached (``{}`` when none was recorded)."""
    if not records:
        return {}
    return {
        "top_bit": max(r["top_bit"] for r in records),
        "most_in_flight": max(r["most_in_flight"] for r in records),
        "most_beats_in_flight": max(r.get("most_beats_in_flight", 0) for r in records),
        "most_jobs_in_flight": max(r.get("most_jobs_in_flight", 0) for r in records),
        "longest_pages": max(r["longest_pages"] for r in records),
        "bursts": sum(r["bursts"] for r in records),
    }


def read_records(folders: list[Path]) -> list[dict]:
    return [json.loads(p.read_text()) for d in folders for p in sorted(d.glob(RECORD_GLOB))]


def limits(parameters: dict) -> dict:
    """The limits a configuration's resolved parameters set: the highest address bit (``AXI_ADDR_W`` of the
    readers, ``ADDR_W`` of the engine) and ``MAX_OUTSTANDING``, where the top has them."""
    out = {}
    for name in ("AXI_ADDR_W", "ADDR_W"):
        if name in parameters:
            out["top_bit"] = int(parameters[name]) - 1
            break
    if "MAX_OUTSTANDING" in parameters:
        out["most_in_flight"] = int(parameters["MAX_OUTSTANDING"])
    return out


def holes(reached: dict, limit: dict) -> list[str]:
    """The limits not reached (a configuration whose stimulus did not go where its parameters matter)."""
    if not reached:
        return [f"{k}: no record" for k in sorted(limit)]
    return [f"{k} {reached[k]} of {v}" for k, v in sorted(limit.items()) if reached.get(k, -1) < v]
