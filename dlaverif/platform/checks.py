"""Checks every reader's scoreboard shares: TUSER/TLAST sideband against the model, the bus side of a job, the state
after a reset in the middle of a job."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Optional

import numpy as np

from dlaverif.agents.stream import BeatBatch, payload, sidebands
from dlaverif.platform.mismatch_map import DiffRows


def sideband_problems(
    unit: str, axes: str, got: np.ndarray, want: np.ndarray, last: np.ndarray, complete: bool
) -> list[str]:
    """The TUSER coordinates and TLAST of the first ``k`` transfers against the model: ``got``/``want`` are (k, n)
    coordinates named ``axes`` (e.g. "n,c,h,w"), ``last`` the TLAST column; TLAST belongs on the last transfer of a
    complete job only. ``unit`` names a transfer in the report ("atom", "pixel")."""
    out = []
    k = len(last)
    bad = np.flatnonzero((got != want[:k]).any(axis=1))
    if bad.size:
        i = int(bad[0])
        out.append(
            f"{unit} #{i}: TUSER ({axes})={tuple(int(v) for v in got[i])}, expected "
            f"{tuple(int(v) for v in want[i])} ({bad.size} {unit}(s) with wrong coordinates)"
        )
    want_last = np.zeros(k, bool)
    if complete and k:
        want_last[-1] = True
    if (last != want_last).any():
        i = int(np.flatnonzero(last != want_last)[0])
        out.append(
            f"{unit} #{i} {tuple(int(v) for v in want[i])}: TLAST={int(last[i])}, expected "
            f"{int(want_last[i])} (TLAST only on the last {unit} of a complete job)"
        )
    return out


def stream_field_problems(job: str, beats: Any, names: tuple[str, ...], want: tuple[int, ...]) -> list[str]:
    """The further sidebands of a job's transfers (:attr:`dlaverif.agents.stream.Beat.ids`: ``names``, e.g. tid and
    tdest) against the job's values ``want`` (its payload's fields: DescriptorControl.stream_fields): one line naming
    the first transfer that differs and how many do; [] when every transfer carries them."""
    if isinstance(beats, BeatBatch) and beats.ids is not None:  # the fast path's columns, compared at once
        bad = np.flatnonzero((beats.ids != np.asarray(want, np.int64)).any(axis=1)).tolist()
    else:
        bad = [i for i, b in enumerate(beats) if tuple(b.ids) != want]
    if not bad:
        return []
    b = beats[bad[0]]
    got = ", ".join(f"{n.upper()}={'X' if v is None else v}" for n, v in zip(names, b.ids))
    exp = ", ".join(f"{n.upper()}={v}" for n, v in zip(names, want))
    return [
        f"transfer #{bad[0]} of {job} at cycle {b.cycle}: {got}, expected {exp} (its descriptor's); "
        f"{len(bad)} of its {len(beats)} transfer(s) differ"
    ]


def hang_problems(res: Any, unit: str) -> list[str]:
    """A register-controlled job whose DONE never came (``res.status.done`` low): one line with the status registers,
    the ``unit`` s ("atom", "pixel", "transfer") and bursts seen, then the job's violations; [] when DONE came."""
    st = res.status
    if st.done:
        return []
    seen = f"{len(res.beats)} {unit}s seen, {len(res.bursts)} bursts"
    return [f"no DONE within the timeout (hang): {st}; {seen}"] + res.violations


def status_problems(st: Any, regs: Any, error: int) -> list[str]:
    """A finished job's ERROR register against the model's ``error`` bits and its STATUS: DONE, ERROR exactly when an
    error bit is expected, not BUSY (``regs``: the block's register map, for the field masks and error names)."""
    out = []
    if st.error != error:
        out.append(
            f"ERROR register 0x{st.error:x} {regs.decode_errors(st.error)}, expected 0x{error:x} "
            f"{regs.decode_errors(error)}"
        )
    want_status = regs.status_done | (regs.status_error if error else 0)
    if st.status & (regs.status_done | regs.status_error | regs.status_busy) != want_status:
        out.append(f"STATUS 0x{st.status:x}, expected DONE{'+ERROR' if error else ''} and not BUSY")
    return out


def bus_problems(res: Any, beats_reg: int, illegal: bool, complete: bool, bus_error: bool) -> list[str]:
    """The bus-side checks of every reader's job (``res``: the block's job result with ``bursts``,
    ``inflight_at_done`` and ``beats_served``; ``beats_reg``: its BEATS register): an illegal descriptor reads
    nothing; a complete job owes no R beat when DONE rises and counts in BEATS exactly the beats the memory
    returned; a bus-error job did read."""
    out = []
    if illegal and res.bursts:
        out.append(f"illegal descriptor issued {len(res.bursts)} AXI read(s), first: {res.bursts[0]}")
    if complete:
        if res.inflight_at_done:
            out.append(f"DONE rose with {res.inflight_at_done} R beat(s) still owed by the memory")
        if beats_reg != res.beats_served:
            out.append(f"BEATS={beats_reg} but the memory returned {res.beats_served} beats")
    if bus_error and not res.bursts:
        out.append("bus-error job issued no AXI read at all")
    return out


@dataclass
class UnitCut:
    """A job's output cut into fixed-size units (atoms, pixels) by :func:`cut_units`: the count and size
    problems found, and when every unit has its size, the first ``k`` units as rows (``got``) with the indices of
    the rows that differ from the model (``bad``)."""

    problems: list[str]
    k: int = 0
    got: Optional[np.ndarray] = None  # (k, unit bytes) uint8
    bad: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))


def cut_units(
    beats: Any, unit: str, want: int, exact: bool, unit_bytes: int, expected: np.ndarray, label: Callable[[int], str]
) -> UnitCut:
    """The stream check every reader of fixed-size units shares: ``beats`` (a list of ``Beat`` or a
    ``BeatBatch``) must hold ``want`` transfers (at most ``want`` when not ``exact``: a job that stops before the
    first faulty unit) of ``unit_bytes`` bytes each; the first ``k`` are compared row by row with ``expected``
    (the model's units). ``unit`` names a transfer in the report ("atom"); ``label(i)`` adds to unit #i's name."""
    n = len(beats)
    out: list[str] = []
    if exact and n != want:
        out.append(f"{n} {unit}s on the stream, expected {want}")
    elif not exact and n > want:
        out.append(f"{n} {unit}s on the stream, at most {want} allowed before the first faulty {unit}")
    k = min(n, want)
    if k == 0:
        return UnitCut(out)
    data, sizes = payload(beats[:k])  # columns: no object per unit on the fast path's batches
    if (sizes != unit_bytes).any():
        i = int(np.flatnonzero(sizes != unit_bytes)[0])
        size = f"TKEEP 0x{beats[i].keep:x} ({sizes[i]} bytes), expected {unit_bytes} bytes"
        return UnitCut([f"{unit} #{i}{label(i)} has {size}"] + out, k)
    got = data.reshape(k, unit_bytes)
    return UnitCut(out, k, got, np.flatnonzero((got != expected[:k]).any(axis=1)))


def reset_problems(res: Any, regs: Any, cleared: tuple[str, ...] = ()) -> list[str]:
    """A job reset in its middle: afterwards STATUS idle (not BUSY, not DONE), the status registers ``cleared``
    (e.g. ``("error", "pixels")``) at 0 and the irq low (``res``: its result with the status read after the reset;
    ``regs``: the block's register map). What crossed the stream before the reset is
    the block's to check (a correct prefix of the model's answer)."""
    st = res.status
    out = []
    dirty = [name.upper() for name in cleared if getattr(st, name)]
    if st.status & (regs.status_busy | regs.status_done) or dirty:
        also = f", {' '.join(cleared).upper()} cleared" if cleared else ""
        out.append(f"after a reset during the job: {st}, expected idle (not BUSY, not DONE{also})")
    if res.irq_after:
        out.append("irq high after reset")
    return out


def sent_problems(st: Any, counter: str, n: int, unit: str, complete: bool) -> list[str]:
    """A job's status counter of the units it sent (``counter``, e.g. "ATOMS_SENT") against the ``n`` ``unit`` s
    that crossed the stream, and for a ``complete`` job at least one cycle per unit (CYCLES counts the job's
    cycles; the output moves at most one unit a cycle)."""
    out = []
    sent = getattr(st, counter.lower())
    if sent != n:
        out.append(f"{counter}={sent} but {n} {unit}s crossed the stream")
    if complete and st.cycles < n:
        out.append(f"CYCLES={st.cycles} is less than the {n} {unit}s sent (at most one {unit} per cycle)")
    return out


def job_problems(
    item: Any,
    exp: Any,
    unit: str,
    regs: Any,
    done: Callable[[Any, Any], list[str]],
    prefix: Callable[[Any, Any], list[str]],
    cleared: tuple[str, ...] = (),
) -> list[str]:
    """A register-controlled reader's finished job against the model's answer ``exp``, in the order every block
    checks it: a hang (DONE never came, :func:`hang_problems`) is reported alone; a job reset in its middle must
    leave the DUT idle (:func:`reset_problems`) after a correct prefix of the answer on the stream (the block's
    ``prefix(item, exp)``), with no violation; any other job is the block's ``done(item, exp)``."""
    res = item.response()
    hang = hang_problems(res, unit)
    if hang:
        return hang
    if item.resets:
        return reset_problems(res, regs, cleared) + prefix(item, exp) + res.violations
    return done(item, exp)


def unit_stream_problems(
    beats: Any,
    unit: str,
    axes: str,
    shifts: tuple[int, ...],
    exp: Any,
    units: np.ndarray,
    want: int,
    unit_bytes: int,
    label: Callable[[int], str],
    report: Callable[[int, int, np.ndarray, int], tuple[list[str], list[str]]],
) -> list[str]:
    """The stream check of a reader of fixed-size units (atoms, pixels) whose TUSER carries their coordinates, 16
    bits each at ``shifts`` (named ``axes``, e.g. "n,c,h,w"): :func:`cut_units` against the model's ``units``
    (``want`` of them, exactly when ``exp.exact``), the first differing unit ``i`` at byte ``j`` put into words by
    the block (``report(i, j, got, differing units)`` -> (lines before, lines after the count problems)), then the
    coordinates and TLAST (:func:`sideband_problems`) against ``exp.coords``."""
    cut = cut_units(beats, unit, want, exp.exact, unit_bytes, units, label)
    out, k, got, bad = cut.problems, cut.k, cut.got, cut.bad
    if got is None:
        return out
    if bad.size:
        i = int(bad[0])
        j = int(np.flatnonzero(got[i] != units[i])[0])
        lead, trail = report(i, j, got, int(bad.size))
        out = lead + out + trail
    user, last = sidebands(beats[:k])
    coords = np.stack([(user >> np.uint64(s)) & np.uint64(0xFFFF) for s in shifts], axis=1).astype(np.int64)
    return out + sideband_problems(unit, axes, coords, exp.coords, last, exp.exact and k == want)


def unit_rows(
    item: Any,
    unit: str,
    units: np.ndarray,
    want: int,
    unit_bytes: int,
    row: Callable[[int], str],
    byte: Callable[[int, int], str],
) -> Optional[DiffRows]:
    """The mismatch map's rows (:mod:`dlaverif.platform.mismatch_map`) of a reader of fixed-size units: the first
    ``want`` units of the job's stream against the model's ``units``, one row a unit, labelled ``row(i)``, a byte
    ``byte(i, j)``. None when no unit is comparable (nothing sent, or a transfer of the wrong size)."""
    beats = item.response().beats
    k = min(len(beats), want)
    if item.desc is None or k == 0:
        return None
    data, sizes = payload(beats[:k])
    if (sizes != unit_bytes).any():
        return None
    got = data.reshape(k, unit_bytes).astype(np.int16)
    return DiffRows(unit, units[:k].astype(np.int16), got, row, byte, item.label())
