"""Run a regression's jobs: each plan build compiled once, then each job in its own run folder.

Layout of a regression folder (``sim_build/regress/<name>/``)::

    manifest.json                       suite, simulators, seeds, shard, coverage switch, the job list
    builds/<sim>/<build>/               one compiled model per plan build (Verilator: with --coverage);
                                        builds/status.json: the builds that failed. Under Slurm one build job
                                        compiles them for all shards, whose builds/ links to it
    runs/<sim>/<run>/<test>/seed<N>/    one job: sim.log, results.xml, job.json, fcov_*.xml, coverage.dat

A job runs as its own process (``python -m tb.flow.regression.execute JOB_JSON``) so that its environment, its log and
a simulator crash stay inside its folder; the local launcher keeps ``JOBS`` of them running (a thread pool of
subprocesses). :func:`run_shard` is what both launchers call on a machine: the local launcher once, Slurm once
per array task.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Callable, Optional

from tb.flow import runner, testplan

from .jobs import Job

ROOT = runner.ROOT
REGRESS = runner.SIM_BUILD / "regress"
_ERROR_LINE = re.compile(r"(\bERROR\b|\bFAIL\b|Error:|Exception|Traceback|%Error|assert)")


def build_dir(regdir: Path, sim: str, build: str) -> Path:
    return regdir / "builds" / sim / build


def compile_builds(
    regdir: Path, plan: testplan.Plan, jobs: list[Job], coverage: bool, rtl: Optional[Path] = None
) -> dict[tuple[str, str], str]:
    """Compile every build the jobs need, once (from ``rtl``, default rtl_stubs/); returns (sim, build) -> error
    text for the builds that failed."""
    failed: dict[tuple[str, str], str] = {}
    for sim, name in sorted({(j.sim, plan.runs[j.run].build.name) for j in jobs}):
        b = plan.builds[name]
        log = build_dir(regdir, sim, name).with_suffix(".log")
        log.parent.mkdir(parents=True, exist_ok=True)
        cmd = [
            sys.executable,
            "-m",
            "tb.flow.regression.execute",
            "--build",
            sim,
            name,
            str(regdir),
            "--coverage" if coverage else "--no-coverage",
            str(rtl or runner.RTL),
        ]
        t0 = time.monotonic()
        with log.open("w") as fh:
            rc = subprocess.run(cmd, stdout=fh, stderr=subprocess.STDOUT, cwd=ROOT).returncode
        print(f"build {sim}/{name}: {'ok' if rc == 0 else 'FAILED'} ({time.monotonic() - t0:.0f}s, {log})", flush=True)
        if rc != 0:
            failed[(sim, name)] = f"build {sim}/{b.name} failed: {first_error(log)} (see {log})"
    status = regdir / "builds" / "status.json"
    old = json.loads(status.read_text()) if status.is_file() else {}
    status.write_text(
        json.dumps(
            {
                **old,
                **{f"{s}/{n}": failed.get((s, n), "") for s, n in {(j.sim, plan.runs[j.run].build.name) for j in jobs}},
            },
            indent=1,
            sort_keys=True,
        )
    )
    return failed


def prebuilt(regdir: Path, builds: Path, plan: testplan.Plan, jobs: list[Job]) -> dict[tuple[str, str], str]:
    """Use builds compiled by an earlier step (the Slurm build job): ``regdir/builds`` links to ``builds``;
    returns the build errors it recorded (a build it did not record is an error too)."""
    link = regdir / "builds"
    if not link.exists():
        link.symlink_to(builds.resolve(), target_is_directory=True)
    status = builds / "status.json"
    known = json.loads(status.read_text()) if status.is_file() else {}
    out = {}
    for sim, name in {(j.sim, plan.runs[j.run].build.name) for j in jobs}:
        err = known.get(f"{sim}/{name}")
        if err is None:
            out[(sim, name)] = f"build {sim}/{name} missing from {builds}"
        elif err:
            out[(sim, name)] = err
    return out


def first_error(log: Path) -> str:
    """The first line of a log that looks like an error (the one a reader wants first)."""
    if not log.is_file():
        return "no log"
    for line in log.read_text(errors="replace").splitlines():
        if _ERROR_LINE.search(line):
            return line.strip()[:300]
    return "no error line in the log"


def rerun_command(job: Job, suite: str, count_overridden: bool, rtl: Optional[Path] = None) -> str:
    """The ``make sim`` command that reruns one job alone with waves (see tb/flow/sim.py)."""
    extra = (f" COUNT={job.count}" if count_overridden else "") + (f" RTL={rtl}" if rtl else "")
    return f"make sim SIM={job.sim} SUITE={suite} RUN={job.run} TESTCASE={job.test} SEED={job.seed}{extra} WAVES=1"


def run_job(
    regdir: Path,
    job: Job,
    suite: str,
    count_overridden: bool,
    build_error: Optional[str] = None,
    rtl: Optional[Path] = None,
) -> dict:
    """Run one job in its folder (a child process) and write/return its record (``job.json``)."""
    folder = regdir / job.folder()
    folder.mkdir(parents=True, exist_ok=True)
    log = folder / "sim.log"
    t0 = time.monotonic()
    if build_error is None:
        with log.open("w") as fh:
            subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "tb.flow.regression.execute",
                    "--job",
                    json.dumps(job.to_dict()),
                    str(regdir),
                    suite,
                ],
                stdout=fh,
                stderr=subprocess.STDOUT,
                cwd=ROOT,
            )
    else:
        log.write_text(build_error + "\n")
    wall = time.monotonic() - t0
    xml = folder / "results.xml"
    rows = runner.read_results(xml) if xml.is_file() else []
    passed = bool(rows) and all(r.passed for r in rows)
    error = ""
    if not passed:
        msg = next((r.message for r in rows if not r.passed and r.message), "")
        error = (msg.strip().splitlines() or [""])[0][:300] or first_error(log)
        if not rows and build_error is None:
            error = f"no test ran: {first_error(log)}"
    record = {
        **job.to_dict(),
        "key": job.key,
        "status": "pass" if passed else "fail",
        "first_error": error,
        "log": str(log.relative_to(regdir)),
        "wall_s": round(wall, 2),
        "sim_time_ns": round(sum(r.sim_time_ns for r in rows), 1),
        "tests": [{"name": r.name, "passed": r.passed} for r in rows],
        "rerun": rerun_command(job, suite, count_overridden, rtl),
    }
    (folder / "job.json").write_text(json.dumps(record, indent=1, sort_keys=True))
    return record


def run_shard(
    regdir: Path,
    plan: testplan.Plan,
    suite: str,
    jobs: list[Job],
    workers: int,
    coverage: bool,
    count_overridden: bool,
    on_done: Callable[[dict], None] = lambda r: None,
    rtl: Optional[Path] = None,
    builds: Optional[Path] = None,
) -> list[dict]:
    """Compile the builds (from ``rtl``, default rtl_stubs/; or use the ``builds`` folder already compiled), then
    run the jobs ``workers`` at a time; the records in job order."""
    build_errors = prebuilt(regdir, builds, plan, jobs) if builds else compile_builds(regdir, plan, jobs, coverage, rtl)

    def one(job: Job) -> dict:
        rec = run_job(
            regdir, job, suite, count_overridden, build_errors.get((job.sim, plan.runs[job.run].build.name)), rtl
        )
        on_done(rec)
        return rec

    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        return list(pool.map(one, jobs))


# ---------------------------------------------------------------------------- child processes
def _child_build(sim: str, name: str, regdir: Path, coverage: bool, rtl: Path) -> None:
    plan = testplan.load()
    b = plan.builds[name]
    runner.build(
        sim,
        b.toplevel,
        name,
        b.parameters,
        build_dir=build_dir(regdir, sim, name),
        coverage=coverage and sim == "verilator",
        rtl_dir=rtl,
    )


def _child_job(job: Job, regdir: Path, suite: str) -> None:
    from cocotb_tools.runner import get_runner

    plan = testplan.load()
    run = plan.runs[job.run]
    runner.check_simulator(job.sim)
    entry = next(e for e in plan.suite(suite).runs if e.run.name == job.run)
    env = entry.environment(job.count)
    b = runner.Build(
        job.sim,
        run.build.toplevel,
        build_dir(regdir, job.sim, run.build.name),
        run.build.parameters,
        get_runner(job.sim),
    )
    runner.run(b, run.module, job.seed, [job.test], env, test_dir=regdir / job.folder())


def main(argv: list[str]) -> int:
    if argv[:1] == ["--build"]:
        _child_build(argv[1], argv[2], Path(argv[3]), argv[4] == "--coverage", Path(argv[5]))
        return 0
    if argv[:1] == ["--job"]:
        _child_job(Job(**json.loads(argv[1])), Path(argv[2]), argv[3])
        return 0
    print(
        "usage: python -m tb.flow.regression.execute --build SIM BUILD REGDIR --coverage|--no-coverage RTL_DIR | "
        "--job JOB_JSON REGDIR SUITE",
        file=sys.stderr,
    )
    return 2


if __name__ == "__main__":
    os.environ.setdefault("PYTHONPATH", str(ROOT))
    sys.exit(main(sys.argv[1:]))
