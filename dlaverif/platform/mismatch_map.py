"""Mismatch maps: a small SVG of the expected and actual bytes of a job whose data differs, written next to the
test's results by the scoreboard (:meth:`dlaverif.platform.JobScoreboard.report`) and linked from the regression report.

A block gives only its rows (:class:`DiffRows`: the expected and actual bytes of the stream cut in the block's
units: the cube reader's atoms in stream order, the pixel reader's pixels, the weight reader's transfers of dense
bytes) and how to name a row and a byte by logical coordinate. This module picks a window of at most
:data:`WINDOW_ROWS` rows from just before the first differing row, lists the first differing bytes with their
coordinates (the first byte of each of the first :data:`LISTED` differing rows) and says how many
more differ, and draws it with the model's renderer
(:func:`models.draw.render.render_byte_diff`, matplotlib Agg, imported on the first map only: a clean job pays
nothing).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional

import numpy as np

#: rows drawn around the first differing row, and differing bytes listed under the grid
WINDOW_ROWS = 16
LISTED = 4


@dataclass
class DiffRows:
    """Expected and actual bytes of one job, one row per unit of the stream (-1: no byte at that column)."""

    unit: str  # what a row is: "atom", "pixel", "transfer"
    expected: np.ndarray  # (rows, width) int, -1 where the row is shorter
    actual: np.ndarray  # (rows, width) int
    row_label: Callable[[int], str]  # row -> its logical coordinate ("atom #3 (n,c,h,w)=(0,16,1,2) @0x1a0")
    byte_label: Callable[[int, int], str]  # (row, column) -> the byte's logical coordinate
    title: str = ""  # the job (item label)


@dataclass
class MapInfo:
    """What a written map shows: the first differing byte's coordinate and the counts."""

    path: Path
    first: str  # byte_label of the first differing byte
    rows_differ: int
    bytes_differ: int
    window: tuple[int, int]  # rows drawn [lo, hi)

    def note(self) -> str:
        """The line of a MISMATCH report that names the file."""
        return (
            f"mismatch map: {self.path} (rows {self.window[0]}..{self.window[1] - 1}; first difference "
            f"{self.first}; {self.bytes_differ} byte(s) in {self.rows_differ} row(s) differ)"
        )


def as_rows(values: np.ndarray, starts: np.ndarray, lengths: np.ndarray, width: int) -> np.ndarray:
    """(rows, width) int16 of ``values[starts[i] : starts[i] + lengths[i]]`` per row, -1 after each row's end
    (the weight reader's transfers: a kernel group's last transfer is short)."""
    out = np.full((len(starts), width), -1, np.int16)
    col = np.arange(width)[None, :]
    keep = col < np.asarray(lengths)[:, None]
    idx = np.asarray(starts)[:, None] + col
    out[keep] = np.asarray(values)[idx[keep]]
    return out


def differing(rows: DiffRows) -> np.ndarray:
    """(rows, width) bool: the bytes that differ (a byte present on one side only differs too)."""
    e, a = np.asarray(rows.expected, np.int16), np.asarray(rows.actual, np.int16)
    return (e != a) & ((e >= 0) | (a >= 0))


def window(bad_rows: np.ndarray, total: int, size: int = WINDOW_ROWS) -> tuple[int, int]:
    """Rows [lo, hi) drawn: from two rows before the first differing row, at most ``size`` rows."""
    first = int(bad_rows[0]) if bad_rows.size else 0
    lo = max(0, min(first - 2, total - size))
    return lo, min(total, lo + size)


def write_map(rows: DiffRows, path: Path, size: int = WINDOW_ROWS) -> Optional[MapInfo]:
    """Draw ``rows`` into ``path`` (.svg or .png); None, and nothing written, when no byte differs."""
    diff = differing(rows)
    bad = np.flatnonzero(diff.any(axis=1))
    if not bad.size:
        return None
    lo, hi = window(bad, diff.shape[0], size)
    r0 = int(bad[0])
    c0 = int(np.flatnonzero(diff[r0])[0])
    outside = bad[(bad < lo) | (bad >= hi)]
    after = bad[bad >= hi]
    more = f"; {outside.size} more differing {rows.unit}(s) outside this window" if outside.size else ""
    more += f" (next: #{int(after[0])})" if after.size else ""
    notes = [
        f"{int(diff.sum())} byte(s) differ in {bad.size} of {diff.shape[0]} {rows.unit}s; "
        f"drawn: {rows.unit}s {lo}..{hi - 1}{more}"
    ]
    firsts = [(int(r), int(np.flatnonzero(diff[r])[0])) for r in bad[:LISTED]]  # per differing row, its first
    notes += [
        f"{'first' if i == 0 else 'then'}: {rows.byte_label(r, c)}: expected {_hex(rows.expected[r, c])}, "
        f"actual {_hex(rows.actual[r, c])}"
        for i, (r, c) in enumerate(firsts)
    ]
    from dlaverif.models.draw.render import render_byte_diff  # matplotlib: only when a map is drawn

    path.parent.mkdir(parents=True, exist_ok=True)
    render_byte_diff(
        np.asarray(rows.expected[lo:hi], np.int16),
        np.asarray(rows.actual[lo:hi], np.int16),
        [rows.row_label(i) for i in range(lo, hi)],
        path,
        title=f"mismatch: {rows.title}" if rows.title else "mismatch",
        subtitle=f"each {rows.unit}: expected bytes (exp) over actual bytes (act), hex; differing bytes filled, "
        f"the first one outlined",
        notes=notes,
        first=(r0 - lo, c0),
    )
    return MapInfo(path, rows.byte_label(r0, c0), int(bad.size), int(diff.sum()), (lo, hi))


def _hex(v: int) -> str:
    return "none" if v < 0 else f"0x{int(v):02x}"
