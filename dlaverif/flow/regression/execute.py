"""Run a regression's jobs: each plan build compiled once, then each job in its own run folder.

Layout of a regression folder (``sim_build/regress/<time>-<suite>-<sim>/``, :mod:`.runfolder`)::

    .lock                               held (flock) by the run while it runs; names its pid, host and start
    manifest.json                       suite, simulators, seeds, shard, selection, coverage switch, the job list
    report/                             only after an interrupt: the report marked incomplete
    builds/<sim>/<build>/               one compiled model per plan build (Verilator: with --coverage);
                                        builds/status.json: the builds that failed. Under Slurm one build job
                                        compiles them for all shards, whose builds/ links to it
    runs/<sim>/<run>/<test>/seed<N>/    one job: sim.log, results.xml, job.json, fcov_*.xml, coverage.dat

A job runs as its own process (``python -m dlaverif.flow.regression.execute JOB_JSON``) so that its environment, its log
and a simulator crash stay inside its folder; the local launcher keeps ``JOBS`` of them running. Jobs and builds are
steps of :mod:`dlaverif.executor`: each in its own session, ended with its whole process group (simulator
included) on a timeout (:func:`default_timeout`, ``BUILD_TIMEOUT``), on an interrupt (:meth:`.Executor.stop`) and
when the orchestrator dies; each group is listed in the run's ``processes.jsonl`` (:data:`PROCESSES`). A job's status
is one of :data:`STATUSES`. The jobs of a run whose third-party RTL is not found here (``NVDLA_HW``,
:mod:`dlaverif.thirdparty`) are ``skipped``: never built nor run, recorded with the one line saying how to get the
files (:func:`dlaverif.thirdparty.skipped`).
:func:`run_shard` is what both launchers call on a machine: the local launcher once, Slurm once per array task.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import re
import shutil
import signal
import sys
import time
from pathlib import Path
from typing import Callable, Optional

from dlaverif import thirdparty
from dlaverif.executor import KILLED, NOT_STARTED, TIMEOUT as STEP_TIMEOUT, Executor, Record, Step
from dlaverif.flow import records, runner, testplan
from dlaverif.platform import reach

from .jobs import (
    Duration,
    Job,
    default_limit,
    expected_seconds,
    load_durations,
    load_step_durations,
)

ROOT = runner.ROOT
REGRESS = runner.SIM_BUILD / "regress"
# a job's status (job.json "status"); "not run" is never written by a job: a job of the manifest without a record;
# "skipped": its run's third-party RTL is not found here (neither a pass nor a failure)
PASS, FAIL, ERROR, TIMEOUT, CRASHED, NOT_RUN = "pass", "fail", "error", "timeout", "crashed", "not run"
SKIPPED = "skipped"
STATUSES = (PASS, FAIL, ERROR, TIMEOUT, CRASHED, NOT_RUN, SKIPPED)
BUILD_WALLS = Path("builds") / "walls.json"  # in a run folder: each compiled build's wall seconds
PROCESSES = "processes.jsonl"  # in a run folder: every process group its executor started (executor.stop_leftovers)
TAIL_LINES = 10
SIGNAL_FILE = "signal.txt"  # written by the job process when its simulator was killed by a signal
_KILLED = re.compile(r"return code: -(\d+)")
_ERROR_LINE = re.compile(r"(\bERROR\b|\bFAIL\b|Error:|Exception|Traceback|%Error|assert)")


def build_dir(regdir: Path, sim: str, build: str) -> Path:
    return regdir / "builds" / sim / build


def build_inputs(sim: str, b: testplan.PlannedBuild, coverage: bool, rtl: Path) -> str:
    """A digest of what a compiled build depends on: simulator, top, parameters, build options, the coverage switch
    and every file of the RTL folder it is compiled from."""
    h = hashlib.sha256(repr((sim, b.toplevel, sorted(b.parameters.items()), repr(b.options), coverage)).encode())
    for f in sorted(p for p in rtl.rglob("*") if p.is_file()):
        h.update(f"\0{f.relative_to(rtl)}\0".encode())
        h.update(f.read_bytes())
    return h.hexdigest()


def compile_builds(
    regdir: Path,
    plan: testplan.Plan,
    jobs: list[Job],
    coverage: bool,
    rtl: Optional[Path] = None,
    executor: Optional[Executor] = None,
    reuse: bool = False,
    limit_s: Optional[float] = None,
) -> dict[tuple[str, str], str]:
    """Compile every build the jobs need, once (from ``rtl``, default blocks/rtl/), each a step of ``executor``
    (which ends it on an interrupt; then nothing is recorded for it) ended after ``limit_s`` seconds (default: from
    its measured duration, :func:`dlaverif.flow.runner.build_limit`; a stuck build is a failed one, one line names it
    and the limit); returns (sim, build) -> error text for the builds that failed. Each build's result and
    :func:`build_inputs` are recorded in ``builds/status.json`` and ``builds/inputs.json`` as soon as it ends, and the
    wall time of each one that compiled in ``builds/walls.json`` (:data:`BUILD_WALLS`, for the report's durations
    file); ``reuse`` (a resume) keeps a build that compiled before from the same inputs instead of compiling it
    again. A build that failed because the disk is full raises :class:`dlaverif.flow.records.WriteError`
    (:func:`check_space`) instead."""
    executor = executor or Executor()
    steps = load_step_durations()
    failed: dict[tuple[str, str], str] = {}
    status, inputs = regdir / "builds" / "status.json", regdir / "builds" / "inputs.json"
    done, digests, walls = read_build_record(status), read_build_record(inputs), read_build_walls(regdir)
    for sim, name in sorted({(j.sim, plan.runs[j.run].build.name) for j in available(plan, jobs)}):
        b = plan.builds[name]
        log = build_dir(regdir, sim, name).with_suffix(".log")
        log.parent.mkdir(parents=True, exist_ok=True)
        digest = build_inputs(sim, b, coverage, rtl or runner.RTL)
        key = f"{sim}/{name}"
        if reuse and done.get(key) == "" and digests.get(key) == digest and build_dir(regdir, sim, name).is_dir():
            print(f"build {key}: reused (compiled by this run before, from the same inputs)", flush=True)
            continue
        cmd = build_command(regdir, sim, name, coverage, rtl or runner.RTL)
        limit = limit_s if limit_s is not None else runner.build_limit(sim, name, steps)
        rec = executor.run(Step(f"build {key}", cmd, limit, "BUILD_TIMEOUT", ROOT, log))
        if rec.status in (KILLED, NOT_STARTED) or executor.stopping:
            print(f"build {key}: interrupted", flush=True)
            return {}  # nothing recorded: an interrupted build is not a broken one
        if rec.status == STEP_TIMEOUT:
            print(rec.line(), flush=True)
            failed[(sim, name)] = f"{rec.line()} (see {log})"
        else:
            if rec.returncode != 0:
                check_space(log, build_dir(regdir, sim, name))
            print(f"build {key}: {'ok' if rec.returncode == 0 else 'FAILED'} ({rec.wall_s:.0f}s, {log})", flush=True)
        if rec.returncode != 0 and (sim, name) not in failed:
            failed[(sim, name)] = f"build {sim}/{b.name} failed: {first_error(log)} (see {log})"
        done[key], digests[key] = failed.get((sim, name), ""), digest
        records.write_json(status, done, indent=1, sort_keys=True)
        records.write_json(inputs, digests, indent=1, sort_keys=True)
        if rec.returncode == 0:
            walls[key] = round(rec.wall_s, 1)
            records.write_json(regdir / BUILD_WALLS, walls, indent=1, sort_keys=True)
    return failed


def read_build_walls(regdir: Path) -> dict[str, float]:
    """``builds/walls.json`` of a run (build key ``sim/build`` -> seconds its compile took); one that cannot be read
    is empty (it only feeds the durations file)."""
    path = regdir / BUILD_WALLS
    if not path.is_file():
        return {}
    try:
        return records.read_json(
            path, lambda v: isinstance(v, dict) and all(isinstance(x, (int, float)) for x in v.values()), "build walls"
        )
    except records.BadRecord:
        return {}


def build_command(regdir: Path, sim: str, name: str, coverage: bool, rtl: Path) -> list[str]:
    """The process that compiles one build (:func:`_child_build`)."""
    return [
        sys.executable,
        "-m",
        "dlaverif.flow.regression.execute",
        "--build",
        sim,
        name,
        str(regdir),
        "--coverage" if coverage else "--no-coverage",
        str(rtl),
    ]


def read_build_record(path: Path) -> dict[str, str]:
    """``builds/status.json`` or ``builds/inputs.json`` (build key -> text); one that cannot be read (a write cut short
    by a full disk or a crash, an edit) is empty, said in one line: its builds are compiled again."""
    if not path.is_file():
        return {}
    try:
        return records.read_json(
            path, lambda v: isinstance(v, dict) and all(isinstance(x, str) for x in v.values()), "build record"
        )
    except records.BadRecord as exc:
        print(f"regress: {exc}; its builds are compiled again", file=sys.stderr, flush=True)
        return {}


def check_space(log: Path, folder: Path) -> None:
    """Raise :class:`dlaverif.flow.records.WriteError` when a build or job that failed says in its ``log`` that the disk
    was full: that is no fault of the design, and the run stops with one line instead of recording it."""
    space = [os.strerror(e) for e in records.SPACE_ERRNOS]
    if any(s in line for line in log_tail(log, 200) for s in space):
        raise records.WriteError(OSError(errno.ENOSPC, os.strerror(errno.ENOSPC)), folder)


def prebuilt(regdir: Path, builds: Path, plan: testplan.Plan, jobs: list[Job]) -> dict[tuple[str, str], str]:
    """Use builds compiled by an earlier step (the Slurm build job): ``regdir/builds`` links to ``builds``;
    returns the build errors it recorded (a build it did not record is an error too)."""
    link = regdir / "builds"
    if not link.exists():
        link.symlink_to(builds.resolve(), target_is_directory=True)
    known = read_build_record(builds / "status.json")
    out = {}
    for sim, name in {(j.sim, plan.runs[j.run].build.name) for j in available(plan, jobs)}:
        err = known.get(f"{sim}/{name}")
        if err is None:
            out[(sim, name)] = f"build {sim}/{name} missing from {builds}"
        elif err:
            out[(sim, name)] = err
    return out


def available(plan: testplan.Plan, jobs: list[Job]) -> list[Job]:
    """The jobs whose build can be compiled here (the others' third-party RTL is not found: they are skipped)."""
    return [j for j in jobs if plan.runs[j.run].build.missing is None]


def first_error(log: Path) -> str:
    """The first line of a log that looks like an error (the one a reader wants first)."""
    if not log.is_file():
        return "no log"
    for line in log.read_text(errors="replace").splitlines():
        if _ERROR_LINE.search(line):
            return line.strip()[:300]
    return "no error line in the log"


def rerun_command(
    job: Job, suite: str, count_overridden: bool, rtl: Optional[Path] = None, whole_run: bool = False
) -> str:
    """The ``make sim`` command that reruns one job alone with waves (see dlaverif/flow/sim.py); ``whole_run``: the one
    that rebuilds the job's build and reruns its whole run at that seed (for a configuration of the matrix: that
    configuration). A random draw of the configuration matrix gets its ``CONFIG_SEED``."""
    extra = (f" COUNT={job.count}" if count_overridden else "") + (f" RTL={rtl}" if rtl else "")
    if job.config_seed is not None:
        extra += f" {testplan.CONFIG_SEED_VAR}={job.config_seed}"
    if whole_run:
        return f"make sim SIM={job.sim} SUITE={suite} RUN={job.run} SEED={job.seed}{extra}"
    return f"make sim SIM={job.sim} SUITE={suite} RUN={job.run} TESTCASE={job.test} SEED={job.seed}{extra} WAVES=1"


def default_timeout(job: Job, durations: dict[str, Duration]) -> float:
    """A job's wall-clock limit when ``JOB_TIMEOUT`` is not given: :func:`.jobs.default_limit` of its expected length
    (:func:`.jobs.expected_seconds`: the recorded duration scaled to the job's COUNT), so a slow or busy machine or a
    large ``COUNT=`` does not trip it but a hung job ends."""
    return default_limit(expected_seconds(job, durations))


def log_tail(log: Path, lines: int = TAIL_LINES) -> list[str]:
    """The last lines of a log (what a crashed or hung job printed last)."""
    if not log.is_file():
        return []
    return [ln.rstrip()[:300] for ln in log.read_text(errors="replace").splitlines()[-lines:]]


def signal_name(n: int) -> str:
    try:
        return signal.Signals(n).name
    except ValueError:
        return f"signal {n}"


def job_command(regdir: Path, job: Job, suite: str) -> list[str]:
    """The process that runs one job (:func:`_child_job`)."""
    return [
        sys.executable,
        "-m",
        "dlaverif.flow.regression.execute",
        "--job",
        json.dumps(job.to_dict()),
        str(regdir),
        suite,
    ]


def _job_base(job: Job, suite: str, count_overridden: bool, rtl: Optional[Path]) -> dict:
    """What every record of ``job`` says whatever happened to it: the job, its key and its rerun commands."""
    return {
        **job.to_dict(),
        "key": job.key,
        "rerun": rerun_command(job, suite, count_overridden, rtl),
        "rerun_run": rerun_command(job, suite, count_overridden, rtl, whole_run=True),
    }


def job_step(regdir: Path, job: Job, suite: str, timeout_s: Optional[float], command: Optional[list[str]]) -> Step:
    """A job as a step of the executor, in a folder made fresh as it starts (a resumed job starts clean: no
    coverage of an interrupted try); ``command``: the job's process (default :func:`job_command`)."""
    folder = regdir / job.folder()

    def fresh() -> None:
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)

    cmd = command or job_command(regdir, job, suite)
    return Step(f"job {job.key}", cmd, timeout_s, "JOB_TIMEOUT", ROOT, folder / "sim.log", prepare=fresh)


def gone_line(build: Optional[Path]) -> str:
    """A job's error when its build folder ``build`` is gone (deleted before or while the job ran)."""
    return f"no test ran: its build folder {build} is gone (deleted while the run ran)"


def run_job(
    regdir: Path,
    job: Job,
    suite: str,
    count_overridden: bool,
    build_error: Optional[str] = None,
    rtl: Optional[Path] = None,
    timeout_s: Optional[float] = None,
    executor: Optional[Executor] = None,
    command: Optional[list[str]] = None,
    skip_reason: Optional[str] = None,
    build: Optional[Path] = None,
) -> dict:
    """Run one job in a fresh folder (a step of ``executor``: a child process in its own session, ended with its
    whole process group after ``timeout_s``) and write/return its record (``job.json``, :func:`job_record`). A job
    stopped by the executor (an interrupt) leaves nothing and is returned as ``not run``. ``command``: the job's
    process (default :func:`job_command`). ``build_error`` (its build failed: ``error``) or ``skip_reason`` (its build
    cannot be made here: ``skipped``): nothing runs, the record says why. ``build``: its compiled model's folder; a
    job that finds it gone (deleted while the run ran) is an error that says so. A full disk (the record cannot be
    written, or the job's log says so) leaves nothing of the job and raises :class:`dlaverif.flow.records.WriteError`:
    a resume runs it again."""
    base = _job_base(job, suite, count_overridden, rtl)
    if build_error is None and skip_reason is None and build is not None and not build.is_dir():
        build_error = gone_line(build)
    if build_error is not None or skip_reason is not None:
        folder = regdir / job.folder()
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        records.write_text(folder / "sim.log", f"{skip_reason or build_error}\n")
        return job_record(regdir, job, base, None, build_error, skip_reason)
    ex = executor or Executor()
    if ex.stopping:
        return {**base, "status": NOT_RUN, "first_error": "interrupted before it started", "wall_s": 0.0}
    rec = ex.run(job_step(regdir, job, suite, timeout_s, command))
    return job_record(regdir, job, base, rec, build=build)


def job_record(
    regdir: Path,
    job: Job,
    base: dict,
    step: Optional[Record],
    build_error: Optional[str] = None,
    skip_reason: Optional[str] = None,
    build: Optional[Path] = None,
) -> dict:
    """The record of a job whose step ended (``step``; None: it did not run, its build failed, ``build_error``, or
    cannot be made here, ``skip_reason``), written to its ``job.json``; a job the executor stopped (an interrupt) or
    never started leaves nothing and is ``not run``. ``build``: its build folder, named when it is gone. A full disk
    (the job's log says so, or ``job.json`` cannot be written) removes the job's folder and raises
    :class:`dlaverif.flow.records.WriteError`."""
    folder = regdir / job.folder()
    if step is not None and step.status in (KILLED, NOT_STARTED):
        shutil.rmtree(folder, ignore_errors=True)
        why = "interrupted while running" if step.status == KILLED else "interrupted before it started"
        return {**base, "status": NOT_RUN, "first_error": why, "wall_s": 0.0}
    log = folder / "sim.log"
    returncode = (step.returncode or 0) if step is not None else 0
    xml = folder / "results.xml"
    rows = runner.read_results(xml) if xml.is_file() else []
    crash = folder / SIGNAL_FILE
    sig = -returncode if returncode < 0 else int(crash.read_text().strip() or 0) if crash.is_file() else 0
    tail: list[str] = []
    if skip_reason is not None:
        status, error = SKIPPED, skip_reason
    elif build_error is not None or step is None:
        status, error = ERROR, build_error or ""
    elif step.status == STEP_TIMEOUT:
        status, error = TIMEOUT, f"timeout: still running after {step.limit_s:.0f}s (JOB_TIMEOUT), process group killed"
        tail = log_tail(log)
    elif sig:
        who = "job process" if returncode < 0 else "simulator"
        status, error = CRASHED, f"crashed (signal {sig}, {signal_name(sig)}): the {who} was killed"
        tail = log_tail(log)
    elif not rows:
        try:
            check_space(log, folder)
        except OSError:
            shutil.rmtree(folder, ignore_errors=True)
            raise
        status, error = ERROR, f"no test ran: {first_error(log)}"
        if build is not None and not build.is_dir():
            error = gone_line(build)
        tail = log_tail(log)
    elif all(r.passed for r in rows):
        status, error = PASS, ""
    else:
        msg = next((r.message for r in rows if not r.passed and r.message), "")
        status, error = FAIL, (msg.strip().splitlines() or [""])[0][:300] or first_error(log)
    record = {
        **base,
        "status": status,
        "first_error": error,
        "signal": sig or None,
        "log_tail": tail,
        "log": str(log.relative_to(regdir)),
        "wall_s": round(step.wall_s, 2) if step is not None else 0.0,
        "ended": round(time.time(), 3),  # when two records of a job are collected (a rerun), the newest counts
        "sim_time_ns": round(sum(r.sim_time_ns for r in rows), 1),
        "tests": [{"name": r.name, "passed": r.passed} for r in rows],
        "pgid": step.pgid if step is not None else None,
    }
    try:
        records.write_json(folder / "job.json", record, indent=1, sort_keys=True)
    except OSError:
        shutil.rmtree(folder, ignore_errors=True)  # no half a job: a resume runs it again (and the space is freed)
        raise
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
    job_timeout: Optional[float] = None,
    executor: Optional[Executor] = None,
    reuse_builds: bool = False,
    build_timeout: Optional[float] = None,
) -> list[dict]:
    """Compile the builds (from ``rtl``, default blocks/rtl/; ``reuse_builds``: keep those compiled before from the
    same inputs, :func:`compile_builds`, each ended after ``build_timeout`` seconds; or use the ``builds`` folder
    already compiled), then run the jobs ``workers`` at a time (steps of ``executor``, all started from this
    thread), each ended after ``job_timeout`` seconds (default :func:`default_timeout`); the records in job order. A
    full disk ends the running jobs (left to the resume) and raises :class:`dlaverif.flow.records.WriteError`. The
    jobs of a build that failed are recorded as ``error`` without running, and
    reported in one line per build (not through ``on_done``); those of a run whose third-party RTL is not found are
    recorded as ``skipped``, reported in one line per run."""
    executor = executor or Executor()
    if not jobs:  # a resume with nothing left to run: nothing to build either
        return []
    records: dict[str, dict] = {}
    for j in jobs:
        missing = plan.runs[j.run].build.missing
        if missing is not None:
            line = thirdparty.skipped(j.run, missing)
            if not any(r["first_error"] == line for r in records.values()):
                print(line, flush=True)
            records[j.key] = run_job(regdir, j, suite, count_overridden, None, rtl, skip_reason=line)
    jobs_all, jobs = jobs, available(plan, jobs)
    if not jobs:
        return [records[j.key] for j in jobs_all]
    if builds:
        build_errors = prebuilt(regdir, builds, plan, jobs)
    else:
        build_errors = compile_builds(regdir, plan, jobs, coverage, rtl, executor, reuse_builds, build_timeout)
    if executor.stopping:  # interrupted while compiling: every job is left to the resume
        return [records.get(j.key) or {**j.to_dict(), "key": j.key, "status": NOT_RUN} for j in jobs_all]
    durations = load_durations()
    runnable = []
    for (sim, name), err in sorted(build_errors.items()):
        broken = [j for j in jobs if (j.sim, plan.runs[j.run].build.name) == (sim, name)]
        for j in broken:
            records[j.key] = run_job(regdir, j, suite, count_overridden, err, rtl)
        print(f"error: {len(broken)} job(s) of build {sim}/{name} not run: {err}", flush=True)
        cfg = plan.configs.get(name)
        if cfg is not None:  # a configuration of the matrix: the one command that rebuilds and reruns it
            print(
                f"  rerun configuration {cfg.key} {cfg.parameters}: {records[broken[0].key]['rerun_run']}", flush=True
            )
    runnable = [j for j in jobs if j.key not in records]
    bases = [_job_base(j, suite, count_overridden, rtl) for j in runnable]
    steps = [
        job_step(regdir, j, suite, job_timeout if job_timeout is not None else default_timeout(j, durations), None)
        for j in runnable
    ]

    def done(i: int, step: Record) -> None:
        job = runnable[i]
        built = build_dir(regdir, job.sim, plan.runs[job.run].build.name)
        # a full disk raises here: run_all ends the running jobs' groups (left to the resume) on its way out
        rec = job_record(regdir, job, bases[i], step, build=built)
        records[rec["key"]] = rec
        if rec["status"] != NOT_RUN:
            on_done(rec)

    try:
        executor.run_all(steps, workers, done)
    except OSError:  # a full disk: run_all ended the running jobs; like a job's own failed write, none leaves half
        for j in runnable:
            if j.key not in records:
                shutil.rmtree(regdir / j.folder(), ignore_errors=True)
        raise
    return [records[j.key] for j in jobs_all]


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
        options=b.options,
    )


def _child_job(job: Job, regdir: Path, suite: str) -> None:
    from cocotb_tools.runner import get_runner

    plan = testplan.load(config_seed=job.config_seed)
    run = plan.runs[job.run]
    runner.check_simulator(job.sim)
    entry = next(e for e in plan.suite(suite).runs if e.run.name == job.run)
    env = entry.environment(job.count)
    b = runner.Build(
        job.sim,
        runner.hdl_top(run.build.toplevel, run.build.options),
        build_dir(regdir, job.sim, run.build.name),
        run.build.parameters,
        get_runner(job.sim),
        env=runner.build_env(run.build.options, run.build.parameters, build_dir(regdir, job.sim, run.build.name)),
        probes=reach.encode(run.build.options.probes),
    )
    try:
        runner.run(b, run.module, job.seed, [job.test], env, test_dir=regdir / job.folder())
    except RuntimeError as exc:  # cocotb_tools: "Command failed with return code: -9" when a signal killed it
        m = _KILLED.search(str(exc))
        if not m:
            raise
        sig = int(m.group(1))
        records.write_text(regdir / job.folder() / SIGNAL_FILE, f"{sig}\n")
        print(f"regress: the simulator was killed by signal {sig} ({signal_name(sig)})", flush=True)
        sys.exit(128 + sig)


def main(argv: list[str]) -> int:
    if argv[:1] == ["--build"]:
        _child_build(argv[1], argv[2], Path(argv[3]), argv[4] == "--coverage", Path(argv[5]))
        return 0
    if argv[:1] == ["--job"]:
        _child_job(Job(**json.loads(argv[1])), Path(argv[2]), argv[3])
        return 0
    print(
        "usage: python -m dlaverif.flow.regression.execute --build SIM BUILD REGDIR --coverage|--no-coverage RTL_DIR | "
        "--job JOB_JSON REGDIR SUITE",
        file=sys.stderr,
    )
    return 2


if __name__ == "__main__":
    os.environ.setdefault("PYTHONPATH", str(ROOT))
    sys.exit(main(sys.argv[1:]))
