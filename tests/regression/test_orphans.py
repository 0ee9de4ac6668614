"""A regression whose steps get stuck or whose orchestrator dies, on fake commands (no simulator): a stuck build
ends as a timeout in one line, a stuck coverage merge too, a job writes nothing into its run after its orchestrator
was SIGKILLed, a run whose orchestrator died is taken over (its leftover process groups ended) by ``RESUME=`` and
by ``make report``, and a ``RESUME=`` of a run whose orchestrator still runs is refused in one line."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from dlaverif import executor
from dlaverif.flow import runner, testplan
from dlaverif.flow.regression import codecov, execute, orchestrator, publish, runfolder
from dlaverif.flow.regression.jobs import Job

from .regress_cli import REGRESSION, own_run
from .test_faults import KEYS, _job_record, _manifest

JOB = Job("verilator", "axi_rd_engine/directed", "stop_drains", 3, "8")


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] != "Z"


def regress(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*REGRESSION, *args], cwd=runner.ROOT, text=True, capture_output=True)


def test_a_stuck_build_ends_as_a_timeout_in_one_line_and_its_jobs_are_errors(tmp_path, monkeypatch, capsys):
    # a compiler stopped with SIGSTOP: the fault that held `make regress JOB_TIMEOUT=30` until an outer timeout
    stuck = [sys.executable, "-c", "import os, signal; print('compiling'); os.kill(os.getpid(), signal.SIGSTOP)"]
    monkeypatch.setattr(execute, "build_command", lambda *a: stuck)
    plan = testplan.load()
    t0 = time.monotonic()
    ex = executor.Executor(registry=tmp_path / execute.PROCESSES)
    recs = execute.run_shard(tmp_path, plan, "smoke", [JOB], 1, False, False, executor=ex, build_timeout=1.0)
    assert time.monotonic() - t0 < 1.0 + executor.KILL_GRACE_S
    line = "build verilator/axi_rd_engine: timeout: still running after 1s (BUILD_TIMEOUT), process group killed"
    out = capsys.readouterr().out.splitlines()
    assert out[0] == line
    assert [r["status"] for r in recs] == ["error"] and recs[0]["first_error"].startswith(line)
    status = json.loads((tmp_path / "builds" / "status.json").read_text())
    assert status["verilator/axi_rd_engine"].startswith(line)  # a failed build: a resume compiles it again
    pgid = int(json.loads((tmp_path / execute.PROCESSES).read_text().splitlines()[0])["pgid"])
    assert executor.group_members(pgid) == []


WRITER = """
import sys, time
from pathlib import Path
from dlaverif import executor
from dlaverif.flow.regression import execute
from dlaverif.flow.regression.jobs import Job
regdir, script = Path(sys.argv[1]), sys.argv[2]
job = Job("verilator", "axi_rd_engine/directed", "stop_drains", 3, "8")
execute.run_job(regdir, job, "smoke", False, timeout_s=300, executor=executor.Executor(regdir / execute.PROCESSES),
                command=[sys.executable, "-c", script])
"""


def test_a_job_writes_nothing_into_its_run_after_its_orchestrator_was_sigkilled(tmp_path):
    # the job's simulator (a grandchild) keeps rewriting results.xml, as the orphan that overwrote a finished run did
    results = tmp_path / JOB.folder() / "results.xml"
    sim = f"import time\nwhile True:\n    open({str(results)!r}, 'a').write('x')\n    time.sleep(0.01)"
    job = f"import subprocess, sys, time\nsubprocess.Popen([sys.executable, '-c', {sim!r}])\ntime.sleep(300)"
    orch = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(tmp_path), job], cwd=runner.ROOT, env={**os.environ, "PYTHONPATH": "."}
    )
    end = time.monotonic() + 20
    while not (results.is_file() and results.stat().st_size > 10) and time.monotonic() < end:
        time.sleep(0.05)
    assert results.stat().st_size > 10  # the "simulator" writes
    orch.kill()
    orch.wait()
    time.sleep(1.0)  # the death signal and the guard's SIGKILL of the group act within milliseconds
    size = results.stat().st_size
    time.sleep(1.5)
    assert results.stat().st_size == size  # nothing written after the end
    pgid = int(json.loads((tmp_path / execute.PROCESSES).read_text().splitlines()[0])["pgid"])
    assert executor.group_members(pgid) == []


def _run_left_running(tmp_path: Path, who: dict) -> tuple[Path, subprocess.Popen]:
    """A run folder whose jobs all have a result, whose state says running and whose orchestrator is ``who``, with a
    stopped leftover process group in its registry (a simulator stopped when its orchestrator was SIGKILLed)."""
    reg = tmp_path / "reg"
    _manifest(reg, KEYS, "1/1")
    for key in KEYS:
        _job_record(reg, key, "pass")
    runfolder.mark(reg, False, f"{orchestrator.RUNNING} 2026-11-29 03:00:00", f"make regress RESUME={reg}")
    (reg / orchestrator.ORCHESTRATOR).write_text(json.dumps(who))
    left = subprocess.Popen(
        [sys.executable, "-c", "import os, signal; os.kill(os.getpid(), signal.SIGSTOP)"], start_new_session=True
    )
    entry = {"name": f"job {KEYS[0]}", "pgid": left.pid, "start": executor.start_ticks(left.pid)}
    (reg / execute.PROCESSES).write_text(json.dumps(entry) + "\n")
    return reg, left


def _dead_orchestrator() -> dict:
    p = subprocess.Popen(["true"])
    p.wait()
    me = executor.Identity.me()
    return {"pid": p.pid, "start": me.start, "host": me.host}


@pytest.mark.sim  # a `regression run` process: the flow's own orchestrator, as tests/conftest.py counts it
def test_a_resume_of_a_run_whose_orchestrator_died_ends_its_leftovers_and_continues(tmp_path):
    who = _dead_orchestrator()
    reg, left = _run_left_running(tmp_path, who)
    try:
        p = regress(*own_run(tmp_path, f"--resume={reg}"))
        assert p.returncode == 0, p.stdout + p.stderr
        assert left.wait(5) == -signal.SIGKILL  # the stopped leftover is gone
        said = [ln for ln in p.stdout.splitlines() if "orchestrator died" in ln]
        assert said == [
            f"regress: {reg.resolve()}: orchestrator died (pid {who['pid']} on {who['host']}) while the run was "
            "running; 1 leftover process group(s) ended; continuing"
        ]
        assert runfolder.state(reg)["complete"] is True
        now = json.loads((reg / orchestrator.ORCHESTRATOR).read_text())  # the resume is the orchestrator now
        assert now["pid"] != who["pid"] and now["host"] == who["host"]
    finally:
        left.kill()
        left.wait()


@pytest.mark.sim  # a `regression run` process: the flow's own orchestrator, as tests/conftest.py counts it
def test_a_resume_of_a_run_whose_orchestrator_runs_is_refused_in_one_line(tmp_path):
    live = subprocess.Popen(["sleep", "60"])
    try:
        me = executor.Identity.me()
        who = {"pid": live.pid, "start": executor.start_ticks(live.pid), "host": me.host}
        reg, left = _run_left_running(tmp_path, who)
        before = (reg / runfolder.STATE).read_text()
        p = regress(*own_run(tmp_path, f"--resume={reg}"))
        assert p.returncode == 3
        assert p.stderr.splitlines() == [
            f"regress: refused: {reg.resolve()} is still run by its orchestrator (pid {live.pid} on {me.host}); "
            "stop it first"
        ]
        assert (reg / runfolder.STATE).read_text() == before  # nothing changed
        assert left.poll() is None  # its processes are the live orchestrator's: not touched
        assert not (tmp_path / "report").exists()
    finally:
        live.kill()
        live.wait()
        left.kill()
        left.wait()


def test_a_report_of_a_run_whose_orchestrator_died_ends_its_leftovers_and_says_so(tmp_path):
    who = _dead_orchestrator()
    reg, left = _run_left_running(tmp_path, who)
    try:
        p = regress("report", str(reg), f"--out={tmp_path / 'report'}", "--history=none")
        assert p.returncode == 0, p.stdout + p.stderr
        assert left.wait(5) == -signal.SIGKILL
        reason = (
            f"orchestrator died (pid {who['pid']} on {who['host']}) while the run was running; "
            "1 leftover process group(s) ended"
        )
        assert p.stderr.splitlines() == [f"report: {reg}: {reason}"]
        assert runfolder.state(reg)["reason"] == reason
        assert (tmp_path / "report" / "summary.md").is_file()
    finally:
        left.kill()
        left.wait()


def test_a_stuck_coverage_merge_ends_as_a_timeout_and_the_report_says_so_in_one_line(tmp_path, monkeypatch):
    tool = tmp_path / "verilator_coverage"
    tool.write_text("#!/bin/sh\nkill -STOP $$\n")  # a merge stopped with SIGSTOP: it would hold the report forever
    tool.chmod(0o755)
    monkeypatch.setattr(codecov, "tool", lambda name: str(tool))
    dat = tmp_path / "coverage.dat"
    dat.write_text("# SystemC::Coverage-3\n")
    out = tmp_path / "report"
    out.mkdir()
    (out / "index.html").write_text("old")
    t0 = time.monotonic()
    with pytest.raises(publish.ReportError) as caught:
        publish.swap_in(out, lambda folder: codecov.merge([dat], folder / "code", timeout_s=1.0))
    assert time.monotonic() - t0 < 1.0 + executor.KILL_GRACE_S
    assert str(caught.value) == (
        f"report not written to {out}: verilator_coverage --write coverage.dat: timeout: still running after 1s "
        "(REPORT_TIMEOUT), process group killed; the previous report is unchanged"
    )
    assert (out / "index.html").read_text() == "old"


HANGING = """
import sys
from dlaverif.flow.regression import __main__ as regress, execute
pids = sys.argv[1]
script = f"import os, time\\nopen({pids!r}, 'a').write(f'{{os.getpid()}}\\\\n')\\ntime.sleep(300)"
execute.job_command = lambda *a: [sys.executable, "-c", script]  # a job that hangs, as a stuck simulator does
sys.exit(regress.main(sys.argv[2:]))
"""


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_sighup_stops_a_regression_as_sigterm_does(tmp_path, sig):
    builds = tmp_path / "prebuilt"
    builds.mkdir()
    (builds / "status.json").write_text(json.dumps({"verilator/axi_rd_engine": ""}))  # compiled: nothing to build
    pids = tmp_path / "pids"
    args = own_run(
        tmp_path, "--seed-list=1,2", "--tests=axi_rd_engine/directed::stop_drains", f"--prebuilt={builds}", "--jobs=2"
    )
    orch = subprocess.Popen(
        [sys.executable, "-c", HANGING, str(pids), *args],
        cwd=runner.ROOT,
        env={**os.environ, "PYTHONPATH": str(runner.ROOT)},
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    end = time.monotonic() + 60
    while len(pids.read_text().split() if pids.is_file() else []) < 2 and time.monotonic() < end:
        time.sleep(0.05)
    jobs = [int(p) for p in pids.read_text().split()]
    assert len(jobs) == 2 and all(alive(p) for p in jobs)  # both jobs run (JOBS=2)
    orch.send_signal(sig)
    out, err = orch.communicate(timeout=60)
    assert orch.returncode == 128 + sig, out + err
    assert f"regress: {signal.Signals(sig).name}: stopping the running jobs" in err.splitlines()
    reg = tmp_path / "reg"
    state = runfolder.state(reg)
    assert state["reason"] == f"interrupted ({signal.Signals(sig).name}) while its jobs ran: 2 of 2 not run"
    assert not any(alive(p) for p in jobs)
    assert not list(reg.rglob("job.json"))  # the stopped jobs left nothing: both are left to the resume
