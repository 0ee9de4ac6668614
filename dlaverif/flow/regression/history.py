"""Regressions over time: each ``make regress`` keeps its ``results.json`` in a history folder
(``sim_build/history/<YYYYmmdd-HHMMSS>-<suite>-<sim>/results.json``, ``HISTORY=`` for another folder); the report
draws pass rate and coverage across the kept runs and lists the coverage holes (uncovered bins) that opened or
closed since the previous one.

Pure data (no drawing): :func:`record`, :func:`load`, :func:`trend`, :func:`holes_diff`; the charts are
:mod:`.charts`.
"""

from __future__ import annotations

import json
import os
import shutil
import tarfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from dlaverif.flow import records


@dataclass
class Entry:
    """One kept regression: its folder name (timestamp first, so names sort by time) and its results."""

    name: str
    results: dict


def entry_name(results: dict, when: Optional[float] = None) -> str:
    """``<YYYYmmdd-HHMMSS>-<suite>-<sim>`` of a regression's results (local time of ``when``, default now)."""
    g = results["regression"]
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(when))
    return f"{stamp}-{'+'.join(g['suites']) or 'none'}-{'+'.join(g['sims']) or 'none'}"


def record(results: dict, history: Path, when: Optional[float] = None) -> Path:
    """Keep ``results`` in ``history`` (a new folder per call; a second one in the same second gets a suffix)."""
    base = history / entry_name(results, when)
    folder, n = base, 1
    while folder.exists():
        n += 1
        folder = base.with_name(f"{base.name}.{n}")
    history.mkdir(parents=True, exist_ok=True)
    tmp = history / f".{folder.name}.tmp-{os.getpid()}"  # whole or not at all: written aside, then renamed
    try:
        tmp.mkdir()
        records.write_json(tmp / "results.json", results, indent=1, sort_keys=True)
        os.rename(tmp, folder)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return folder


def load(history: Optional[Path], scratch: Optional[Path] = None) -> list[Entry]:
    """The kept regressions of ``history`` (a folder, or a ``.tar.gz`` of one unpacked into ``scratch``), oldest
    first; none when it does not exist."""
    if history is None:
        return []
    history = Path(history)
    if history.is_file() and history.name.endswith((".tar.gz", ".tgz")):
        dest = (scratch or history.parent) / ("history-" + history.name.removesuffix(".tar.gz").removesuffix(".tgz"))
        if not dest.is_dir():
            dest.mkdir(parents=True)
            with tarfile.open(history) as tar:
                tar.extractall(dest, filter="data")
        history = dest
    if not history.is_dir():
        return []
    out = []
    for f in history.rglob("results.json"):
        if f.parent.name.startswith("."):
            continue  # an entry being written by another run
        try:
            out.append(Entry(f.parent.name, json.loads(f.read_text())))
        except (OSError, ValueError):
            continue  # a half-copied entry: skipped, the others still draw
    return sorted(out, key=lambda e: e.name)


def point(e: Entry) -> dict:
    """What the trend chart plots of one regression."""
    g, r = e.results["regression"], e.results
    lines = r.get("code", {}).get("totals", {}).get("lines", [0, 0, 0.0])
    return {
        "name": e.name,
        "jobs": g["jobs"],
        "passed": g["passed"],
        "pass_rate": round(100.0 * g["passed"] / ran, 2) if (ran := g["jobs"] - g.get("skipped", 0)) else 0.0,
        "functional": r["functional"]["percent"],
        "line": lines[2] if lines[1] else None,
    }


def holes(results: dict) -> dict[str, set[str]]:
    """Covergroup -> its uncovered bins (exclusions removed)."""
    return {name: set(g["holes"]) for name, g in results["signature"]["functional"].items()}


def holes_diff(previous: dict, current: dict) -> dict[str, list]:
    """The holes that ``opened`` (uncovered now, covered before) and ``closed`` (covered now, a hole before) in the
    covergroups both runs sampled, as ``"covergroup/bin"`` strings, and the covergroups sampled by one run only
    (``only_now``, ``only_before``: their bins are not compared)."""
    before, now = holes(previous), holes(current)
    both = sorted(set(before) & set(now))
    return {
        "opened": [f"{g}/{b}" for g in both for b in sorted(now[g] - before[g])],
        "closed": [f"{g}/{b}" for g in both for b in sorted(before[g] - now[g])],
        "only_now": sorted(set(now) - set(before)),
        "only_before": sorted(set(before) - set(now)),
    }


def trend(entries: list[Entry], current: Optional[Entry] = None) -> dict:
    """The report's trend: one point per kept regression (plus ``current`` when it is not the last kept one: the
    same signature counts once) and the holes diff of the last two (None with fewer than two)."""
    runs = list(entries)
    if current is not None and not (runs and runs[-1].results.get("signature") == current.results.get("signature")):
        runs.append(current)
    diff = None
    if len(runs) >= 2:
        diff = {"previous": runs[-2].name, "current": runs[-1].name, **holes_diff(runs[-2].results, runs[-1].results)}
    return {"points": [point(e) for e in runs], "holes": diff}
