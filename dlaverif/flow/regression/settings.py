"""Every make variable of ``make regress`` (and the ones ``make sim`` shares), checked in one place before anything
runs: a bad value raises :class:`BadInput`, whose message is the one line the user sees (the variable, the value
and what is allowed); the caller prints it and exits 2 without writing anything.

:func:`check_run` turns the options of ``python -m dlaverif.flow.regression run`` (each defaulting to its make variable)
into a :class:`RunSettings`; ``make sim`` uses the same checkers (:func:`sims`, :func:`whole`, ...) and the same
selection (:func:`dlaverif.flow.testplan.select`).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Optional

from dlaverif.flow import runner, testplan
from dlaverif.flow.planschema import Refusal

from . import jobs as jobs_mod

MAX_JOBS = 512  # simulations at a time: more is a typo, not a machine
NO_HISTORY = "none"  # HISTORY=none: make exports an unset variable as empty, so empty cannot mean "none" there


class BadInput(Refusal):
    """A make variable with a value the flow does not take (the message names both and what is allowed)."""


def _bad(var: str, value: str, allowed: str) -> BadInput:
    return BadInput(f"{var}={value}: {allowed}")


def whole(var: str, value: str, low: int = 1, high: Optional[int] = None) -> int:
    """``value`` as a whole number in [low, high]."""
    text = value.strip()
    if not re.fullmatch(r"\d+", text) or int(text) < low or (high is not None and int(text) > high):
        bound = f"{low}..{high}" if high is not None else f">= {low}"
        raise _bad(var, value, f"expected a whole number {bound}")
    return int(text)


def switch(var: str, value: str) -> bool:
    """``0`` or ``1``."""
    if value.strip() not in ("0", "1"):
        raise _bad(var, value, "expected 0 or 1")
    return value.strip() == "1"


def sims(value: str) -> list[str]:
    """``SIM``: one simulator or a comma-separated list of distinct ones."""
    names = testplan.split_names(value)
    if not names or any(n not in runner.SIMULATORS for n in names) or len(set(names)) != len(names):
        raise _bad("SIM", value, f"expected {', '.join(runner.SIMULATORS)} or a comma-separated list of them")
    return names


def seed_list(value: str) -> list[int]:
    """``SEED_LIST``: distinct whole numbers, comma-separated."""
    parts = [p for p in re.split(r"[,\s]+", value.strip()) if p]
    if not parts or any(not re.fullmatch(r"\d+", p) for p in parts) or len(set(map(int, parts))) != len(parts):
        raise _bad("SEED_LIST", value, "expected distinct whole numbers, comma-separated")
    return [int(p) for p in parts]


#: the wall-clock limits a run takes, and what an empty one means
TIMEOUTS = {
    "JOB_TIMEOUT": "derived from each job's duration",
    "BUILD_TIMEOUT": "the default of every build",
    "REPORT_TIMEOUT": "the default of every step of the report",
    "SIM_TIMEOUT": "derived from the durations of the tests it runs",
}


def timeout(value: str, var: str = "JOB_TIMEOUT") -> Optional[float]:
    """A limit of :data:`TIMEOUTS` (``JOB_TIMEOUT``: per job, ``BUILD_TIMEOUT``: per build, ``REPORT_TIMEOUT``: per
    coverage merge or genhtml of a report, ``SIM_TIMEOUT``: per simulation of make sim and the pytest simulations):
    seconds (> 0); empty: None, the default (:func:`..execute.default_timeout`, :func:`..execute.build_limit`,
    :func:`..codecov.default_limit`, :func:`dlaverif.flow.runner.simulation_limit`: each from the measured
    durations)."""
    if not value.strip():
        return None
    try:
        t = float(value)
    except ValueError:
        t = -1.0
    if not t > 0 or t != t or t == float("inf"):
        raise _bad(var, value, f"expected a number of seconds > 0 (empty: {TIMEOUTS[var]})")
    return t


def folder(var: str, value: str) -> Path:
    """An existing folder."""
    p = Path(value).expanduser()
    if not p.is_dir():
        raise _bad(var, value, "no such folder")
    return p


def writable_folder(var: str, value: str) -> Path:
    """A folder the flow will write at the end of a run (``REPORT``, ``HISTORY``), checked before the run starts: it
    is a folder or does not exist yet, and the nearest folder above it that exists takes a new entry (tried with an
    empty folder made and removed at once: root passes every permission test, a read-only file system does not; the
    folder's times are put back, so a command that then writes nothing, a resume of a complete run, changes nothing)."""
    p = Path(value).expanduser()
    if p.exists() and not p.is_dir():
        raise _bad(var, value, "exists and is not a folder")
    parent = Path(os.path.abspath(p)).parent
    while not parent.exists():
        parent = parent.parent
    if not parent.is_dir():
        raise _bad(var, value, f"cannot be created: {parent} is not a folder")
    before = parent.stat()
    try:
        os.rmdir(tempfile.mkdtemp(prefix=f".{p.name}.probe-", dir=parent))
    except OSError as exc:
        raise _bad(var, value, f"cannot be written: {parent}: {exc.strerror or exc}") from None
    try:
        os.utime(parent, ns=(before.st_atime_ns, before.st_mtime_ns))
    except OSError:  # a folder of another owner that takes new entries: its time moves, as any writer's would
        pass
    return p


#: the on/off make variables of a simulation and their defaults (dlaverif.flow.runner reads ASSERT and VERILATOR_PUBLIC)
SWITCHES = (("WAVES", "0"), ("ASSERT", "1"), ("VERILATOR_PUBLIC", "0"))


def simulation_switches(env: Mapping[str, str] = os.environ) -> dict[str, bool]:
    """The make variables a simulation reads from its environment, checked: the :data:`SWITCHES` 0 or 1, so that
    ``WAVES=abc`` is refused instead of being taken for on, and ``MISMATCH_MAPS`` a whole number
    (dlaverif.platform.reporting reads it inside every simulation). Returns the switches. (What a simulation's
    environment then is, is :func:`dlaverif.flow.runner.simulation_env`'s.)"""
    maps = env.get("MISMATCH_MAPS", "").strip()
    if maps:
        whole("MISMATCH_MAPS", maps, 0)
    return {var: switch(var, env.get(var, "").strip() or default) for var, default in SWITCHES}


def pattern(var: str, value: str) -> str:
    """A test name or regular expression (``TESTCASE``: cocotb matches it against the test names)."""
    try:
        re.compile(value)
    except re.error as exc:
        raise _bad(var, value, f"not a test name or regular expression ({exc})") from None
    return value


@dataclass(frozen=True)
class RunSettings:
    """What ``make regress`` runs, every value checked."""

    sims: list[str]
    suite: str
    seeds: list[int]
    jobs: int
    tests: str
    runs: str
    count: str
    shard: tuple[int, int]
    shards: int
    launcher: str
    wait: bool
    coverage: bool
    job_timeout: Optional[float]
    rtl: Optional[Path]
    resume: Optional[Path]  # the run folder to continue (its manifest wins over the selection variables)
    rerun_failed: bool  # RERUN=failed: a resume reruns the jobs that did not pass too
    selected: list[jobs_mod.Job]  # every job of the selection (all shards)
    config_seed: Optional[int] = None  # CONFIG_SEED of the configuration matrix's random draws (the plan's)
    build_timeout: Optional[float] = None  # BUILD_TIMEOUT (None: execute.build_limit, from the durations)
    report_timeout: Optional[float] = None  # REPORT_TIMEOUT (None: codecov.default_limit, from the durations)

    def manifest(self, jobs: list[jobs_mod.Job], shard: str, launcher: str = "local") -> dict:
        """A run folder's ``manifest.json``: the selection (what ``RESUME=`` takes back) and the run's ``jobs``."""
        return {
            "suite": self.suite,
            "sims": self.sims,
            "seeds": self.seeds,
            "shard": shard,
            "coverage": self.coverage,
            "tests": self.tests,
            "runs": self.runs,
            "count": self.count,
            "rtl": str(self.rtl or runner.RTL),
            "config_seed": self.config_seed,
            "random_runs": sorted({j.run for j in jobs if j.config_seed is not None}),
            "jobs": [j.key for j in jobs],
            "launcher": launcher,
        }


def load_manifest(var: str, value: str) -> dict:
    """The ``manifest.json`` of a run folder (``RESUME=``), or BadInput."""
    p = folder(var, value)
    mf = p / "manifest.json"
    try:
        m = json.loads(mf.read_text())
        assert isinstance(m, dict) and isinstance(m["jobs"], list) and m["suite"] and m["sims"]
    except (OSError, ValueError, KeyError, AssertionError, TypeError):
        raise _bad(var, value, "not a regression folder (no readable manifest.json in it)") from None
    return m


def check_run(a: argparse.Namespace, plan: testplan.Plan) -> RunSettings:
    """Check every option of ``run`` (each is a make variable) and the durations file; raises BadInput (or the
    durations file's :class:`dlaverif.flow.planschema.Refusal`) on the first bad one."""
    jobs_n = whole("JOBS", a.jobs, 1, MAX_JOBS)
    simulation_switches()
    if a.report:  # written when every job has run: refused now rather than after the run
        writable_folder("REPORT", a.report_dir)
        if a.history.strip() not in ("", NO_HISTORY):
            writable_folder("HISTORY", a.history)
    jobs_mod.load_durations()  # shards and timeouts come from it: a corrupt one is refused before anything runs
    launcher = a.launcher.strip()
    if launcher not in ("local", "slurm"):
        raise _bad("LAUNCHER", a.launcher, "expected local or slurm")
    wait = switch("WAIT", a.wait)
    shards = whole("SHARDS", a.shards, 1, 1000)
    job_timeout = timeout(a.job_timeout)
    build_timeout = timeout(a.build_timeout, "BUILD_TIMEOUT")
    report_timeout = timeout(a.report_timeout, "REPORT_TIMEOUT")
    rerun = a.rerun.strip()
    if rerun not in ("", "failed"):
        raise _bad("RERUN", a.rerun, "expected failed (with RESUME=: also rerun the jobs that did not pass) or nothing")
    resume = Path(a.resume.strip()).resolve() if a.resume.strip() else None
    if rerun and resume is None:
        raise _bad("RERUN", a.rerun, "only with RESUME=<run folder>")
    if resume is not None:  # the run's own selection, from its manifest
        m = load_manifest("RESUME", a.resume.strip())
        sim_text, suite, tests, runs = ",".join(m["sims"]), m["suite"], m.get("tests", ""), m.get("runs", "")
        seeds_v, count = [int(s) for s in m["seeds"]], str(m.get("count", ""))
        coverage, rtl_text, shard_text = bool(m.get("coverage", True)), m.get("rtl", ""), m.get("shard", "")
    else:
        sim_text, suite, tests, runs, count = a.sim, a.suite.strip(), a.tests.strip(), a.runs.strip(), a.count.strip()
        coverage, rtl_text, shard_text = switch("COVERAGE", a.coverage), a.rtl.strip(), a.shard.strip()
        seeds_v = []
    sim_names = sims(sim_text)
    if suite not in plan.suites:
        raise _bad("SUITE", suite, f"no such suite; allowed: {', '.join(plan.suites)}")
    if not seeds_v:
        if a.seed_list.strip():
            seeds_v = seed_list(a.seed_list)
        else:
            n = whole("SEEDS", a.seeds, 1, 100000) if a.seeds.strip() else plan.suites[suite].reseeds
            seeds_v = list(range(1, n + 1))
    if count:
        whole("COUNT", count, 1)
    try:
        shard = jobs_mod.parse_shard(shard_text)
    except ValueError:
        raise _bad("SHARD", shard_text, "expected i/n with 1 <= i <= n") from None
    rtl = folder("RTL", rtl_text) if rtl_text and rtl_text != str(runner.RTL) else None
    try:
        selected = jobs_mod.expand(plan, suite, sim_names, seeds_v, tests, count or None, runs)
    except testplan.SelectionError as exc:
        raise BadInput(str(exc)) from None
    return RunSettings(
        sims=sim_names,
        suite=suite,
        seeds=seeds_v,
        jobs=jobs_n,
        tests=tests,
        runs=runs,
        count=count,
        shard=shard,
        shards=shards,
        launcher=launcher,
        wait=wait,
        coverage=coverage,
        job_timeout=job_timeout,
        rtl=rtl,
        resume=resume,
        rerun_failed=rerun == "failed",
        selected=selected,
        config_seed=plan.config_seed,
        build_timeout=build_timeout,
        report_timeout=report_timeout,
    )
