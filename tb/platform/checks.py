"""Checks every reader's scoreboard shares: TUSER/TLAST sideband against the model, the bus side of a job."""

from __future__ import annotations

from typing import Any

import numpy as np


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
