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
- ``occupancy``: per occupancy probe, the deepest value its signal took. A queue is inside the DUT, so its plan
  declares it as data (``configs.tops.<top>.occupancy``: a name, the hierarchical path of an occupancy count below
  the HDL top, and the parameter expression of its depth, :class:`Probe`); the flow hands the paths to the
  simulation (:data:`PROBES_VAR`) and makes them visible on Verilator (:func:`verilator_config`), and
  :meth:`AxiReach.watch` follows each signal on its value changes (no clocked polling) while the test runs.
- ``lanes``: per beat-lanes probe, the narrowest and the widest beat in byte lanes (``hi - lo + 1`` of each beat a
  read client took). The AR side does not show which lanes of a beat a reader uses (bursts are whole bus words), so
  the plan declares the client's beat handshake and lanes (``configs.tops.<top>.beat_lanes``: a name, the paths of
  the handshake, of the first and of the last lane, and the lane count expression, :class:`Probe` with ``lo`` and
  ``hi``); the limits: one lane, and every lane of the bus.

:func:`write_record` writes them as ``reach_<test>.json`` in the run folder (the regression report's
configuration axis merges them per configuration, :mod:`dlaverif.flow.regression.configaxis`).
"""

from __future__ import annotations

import json
import re
from bisect import bisect_left
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping, Optional

PAGE = 4096  # AXI: a burst never crosses a 4 KB boundary (AMBA AXI A3.4.1)
OPEN_RUNS = 64  # contiguous runs followed at once (one per stream of the readers; the oldest is dropped)
RECORD_GLOB = "reach_*.json"
PROBES_VAR = "DLAVERIF_PROBES"  # the simulation's probes: ``name=path`` joined by ``;`` (:func:`encode`)
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_PATH = re.compile(r"[A-Za-z_][A-Za-z0-9_$]*(\.[A-Za-z_][A-Za-z0-9_$]*)*")


@dataclass(frozen=True)
class Probe:
    """An occupancy probe of a top (``configs.tops.<top>.occupancy.<name>``): ``path``, the hierarchical name of an
    occupancy count below the HDL top (``u_fetch.u_q_dat.count``); ``depth``, the expression of parameters that is
    its capacity (``DATA_DEPTH``, ``MAX_OUTSTANDING``; :func:`dlaverif.flow.contracts.evaluate`)."""

    name: str
    path: str
    depth: str
    lo: str = ""  # a beat-lanes probe (``beat_lanes``): path is the beat handshake, lo/hi its first and last lane,
    hi: str = ""  # depth the lane count (``AXI_DATA_W // 8``)

    @property
    def paths(self) -> tuple[str, ...]:
        """Every signal the probe follows."""
        return (self.path, self.lo, self.hi) if self.lo and self.hi else (self.path,)

    def check(self, where: str) -> "Probe":
        """ValueError (one line) on a name or path the simulation could not carry or resolve."""
        if not _NAME.fullmatch(self.name):
            raise ValueError(f"{where}: probe name {self.name!r} is not an identifier")
        if bool(self.lo) != bool(self.hi):
            raise ValueError(f"{where}.{self.name}: a beat-lanes probe names both lo and hi")
        for path in self.paths:
            if not _PATH.fullmatch(path):
                raise ValueError(f"{where}.{self.name}: {path!r} is not a dotted hierarchical name")
        return self


def encode(probes: tuple[Probe, ...]) -> str:
    """The value of :data:`PROBES_VAR` for ``probes`` (empty: none; a beat-lanes probe's three paths joined by
    ``,``)."""
    return ";".join(f"{p.name}={','.join(p.paths)}" for p in probes)


def decode(text: str) -> dict[str, str]:
    """Probe name -> path (``fire,lo,hi`` for a beat-lanes probe), from :data:`PROBES_VAR`'s value."""
    return dict(item.split("=", 1) for item in text.split(";") if item)


def verilator_config(probes: tuple[Probe, ...]) -> str:
    """A Verilator configuration file that keeps the probed signals readable from VPI (the lean build makes only the
    top's ports visible): ``public_flat_rd`` of each probe's last name in any module (Verilator 5's ``-module``
    takes a wildcard; a handful of same-named counters become readable too, at no measurable cost)."""
    leaves = sorted({path.rsplit(".", 1)[-1] for p in probes for path in p.paths})
    return "`verilator_config\n" + "".join(f'public_flat_rd -module "*" -var "{v}"\n' for v in leaves)


def _resolve(dut: Any, name: str, path: str) -> Any:
    handle = dut
    for part in path.split("."):
        try:
            handle = getattr(handle, part)
        except AttributeError:
            raise AttributeError(
                f"probe {name}: {path} is not visible in the simulation (no {part!r} below "
                f"{handle._path}); the plan's path is wrong or the build did not make it readable"
            ) from None
    return handle


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
        self.occupancy: dict[str, int] = {}  # probe name -> the deepest value seen (watch)
        self.lanes: dict[str, list[int]] = {}  # beat-lanes probe name -> [narrowest, widest] beat (0: none yet)

    def connect(self, mem: Any) -> "AxiReach":
        mem.ar_ap.connect(_Port(self.write_ar))
        mem.r_ap.connect(_Port(self.write_r))
        return self

    def watch(self, dut: Any, probes: Optional[Mapping[str, str]] = None) -> "AxiReach":
        """Follow the occupancy probes (name -> path below ``dut``; default: :data:`PROBES_VAR` of the environment)
        on their value changes and keep each one's deepest value. A path the simulator does not show raises
        AttributeError naming it."""
        import os

        import cocotb

        wanted = decode(os.environ.get(PROBES_VAR, "")) if probes is None else dict(probes)
        for name, paths in wanted.items():
            handles = [_resolve(dut, name, path) for path in paths.split(",")]
            if len(handles) == 3:
                self.lanes[name] = [0, 0]
                cocotb.start_soon(self._follow_lanes(name, *handles))
            else:
                self.occupancy[name] = 0
                cocotb.start_soon(self._follow(name, handles[0]))
        return self

    async def _follow_lanes(self, name: str, fire: Any, lo: Any, hi: Any) -> None:
        """The beats taken (``fire`` 1) in the settled values after each change of any of the three signals: a
        beat that a change did not start repeats the lanes of the one before it, so the narrowest and the widest
        are exact without sampling every clock."""
        from cocotb.triggers import First, ReadOnly

        seen = self.lanes[name]
        while True:
            await ReadOnly()
            f, a, b = fire.value, lo.value, hi.value
            if f.is_resolvable and int(f) and a.is_resolvable and b.is_resolvable:
                width = int(b) - int(a) + 1
                seen[0] = width if not seen[0] else min(seen[0], width)
                seen[1] = max(seen[1], width)
            await First(fire.value_change, lo.value_change, hi.value_change)

    async def _follow(self, name: str, handle: Any) -> None:
        deepest = self.occupancy
        value = handle.value
        if value.is_resolvable:
            deepest[name] = max(deepest[name], int(value))
        change = handle.value_change
        while True:
            await change
            value = handle.value
            if value.is_resolvable and int(value) > deepest[name]:
                deepest[name] = int(value)

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
            "occupancy": dict(self.occupancy),
            "lanes": {n: list(v) for n, v in self.lanes.items()},
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
        "occupancy": {
            name: max(r.get("occupancy", {}).get(name, 0) for r in records)
            for name in sorted({n for r in records for n in r.get("occupancy", {})})
        },
        "lanes": {
            name: [
                min((r["lanes"][name][0] for r in records if r.get("lanes", {}).get(name, [0])[0]), default=0),
                max(r.get("lanes", {}).get(name, [0, 0])[1] for r in records),
            ]
            for name in sorted({n for r in records for n in r.get("lanes", {})})
        },
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


def depths(
    probes: tuple[Probe, ...],
    parameters: Mapping[str, int],
    evaluate: Callable[[str, Mapping], int],
    lanes: bool = False,
) -> dict:
    """Probe name -> its depth at the configuration's resolved ``parameters`` (``evaluate``: the contracts'
    expression evaluator, :func:`dlaverif.flow.contracts.evaluate`): the occupancy probes, or with ``lanes`` the
    beat-lanes probes (their lane counts)."""
    return {p.name: int(evaluate(p.depth, parameters)) for p in probes if bool(p.lo) == lanes}


def holes(
    reached: dict, limit: dict, depth: Optional[Mapping[str, int]] = None, lanes: Optional[Mapping[str, int]] = None
) -> list[str]:
    """The limits not reached (a configuration whose stimulus did not go where its parameters matter), each
    probed queue whose deepest occupancy is below its depth, and each beat-lanes probe (``lanes``: its lane
    count) that saw no one-lane beat or no beat of every lane."""
    depth, lanes = depth or {}, lanes or {}
    if not reached:
        return (
            [f"{k}: no record" for k in sorted(limit)]
            + [f"occupancy {n}: no record" for n in sorted(depth)]
            + [f"lanes {n}: no record" for n in sorted(lanes)]
        )
    out = [f"{k} {reached[k]} of {v}" for k, v in sorted(limit.items()) if reached.get(k, -1) < v]
    seen = reached.get("occupancy", {})
    for name, d in sorted(depth.items()):
        if name not in seen:
            out.append(f"occupancy {name}: no record")
        elif seen[name] < d:
            out.append(f"occupancy {name} {seen[name]} of {d}")
    beats = reached.get("lanes", {})
    for name, n in sorted(lanes.items()):
        narrowest, widest = beats.get(name, [0, 0])
        if not widest:
            out.append(f"lanes {name}: no record")
            continue
        if narrowest != 1:
            out.append(f"lanes {name}: narrowest beat {narrowest} lanes, not 1")
        if widest < n:
            out.append(f"lanes {name}: widest beat {widest} of {n} lanes")
    return out
