"""The ``sim`` marker is enforced (tests/conftest.py): an inner pytest, run on a temporary test file with a copy of
this suite's conftest, has unmarked tests that try to start a simulator in each way the guard knows; each fails with
the one refusal line naming the test and the command, whether or not the test caught the exception, while a marked
test starts its simulator and other commands run as usual. The simulator the inner tests find on PATH is a stand-in
script, so nothing is simulated even if the guard let a start through."""

from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

INNER = """
import subprocess
import sys

import pytest


@pytest.fixture(scope="session")
def simulated():
    return subprocess.run(["iverilog", "-o", "x.vvp", "x.sv"], capture_output=True, text=True)


def test_verilator_by_name():
    subprocess.run(["verilator", "--version"], capture_output=True)


def test_caught_make_regress():
    try:
        subprocess.run(["make", "-s", "--no-print-directory", "regress", "JOBS=1"], capture_output=True)
    except Exception:
        pass


def test_flow_child():
    subprocess.run([sys.executable, "-m", "dlaverif.flow.regression.execute", "--help"], capture_output=True)


def test_runner_build():
    from dlaverif.flow import runner

    runner.build("verilator", "top", "guard-probe")


def test_session_fixture(simulated):
    pass


def test_other_commands_run():
    assert subprocess.run(["true"]).returncode == 0
    assert subprocess.run(["make", "--version"], capture_output=True).returncode == 0


@pytest.mark.sim
def test_marked_starts_its_simulator():
    out = subprocess.run(["verilator", "--version"], capture_output=True, text=True)
    assert out.stdout == "stand-in verilator\\n"
"""

REFUSED = {
    "test_verilator_by_name": "verilator --version",
    "test_caught_make_regress": "make -s --no-print-directory regress JOBS=1",
    "test_flow_child": f"{sys.executable} -m dlaverif.flow.regression.execute --help",
    "test_runner_build": "dlaverif.flow.runner.build('verilator', 'top', 'guard-probe')",
    "test_session_fixture": "iverilog -o x.vvp x.sv",
}


def test_an_unmarked_test_that_starts_a_simulator_fails_with_one_line(tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name in ("verilator", "iverilog"):
        (bin_dir / name).write_text(f"#!/bin/sh\necho stand-in {name}\n")
        (bin_dir / name).chmod(0o755)
    inner = tmp_path / "inner"
    inner.mkdir()
    (inner / "conftest.py").write_text((ROOT / "tests" / "conftest.py").read_text())
    (inner / "pytest.ini").write_text("[pytest]\nmarkers =\n    sim: runs a simulator\n")
    (inner / "test_inner.py").write_text(INNER)
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}", "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist", "-q", "--junitxml=out.xml"],
        cwd=inner,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    cases = {c.get("name"): c for c in ET.parse(inner / "out.xml").getroot().iter("testcase")}
    assert set(cases) == {*REFUSED, "test_other_commands_run", "test_marked_starts_its_simulator"}
    for name, command in REFUSED.items():
        bad = cases[name].find("failure")
        if bad is None:
            bad = cases[name].find("error")  # refused while the session fixture was set up
        assert bad is not None, f"{name} was not refused"
        line = f"test_inner.py::{name}: starts a simulator without the sim marker: {command}"
        assert (bad.text or "").strip() == line
        assert line in done.stdout
    for name in ("test_other_commands_run", "test_marked_starts_its_simulator"):
        assert list(cases[name]) == [], f"{name}: {done.stdout}"


@pytest.mark.parametrize(
    "argv",
    [
        ["/usr/bin/vvp", "-n", "sim.vvp"],
        ["yosys-smtbmc", "-s", "z3", "model.smt2"],
        ["verilator_bin", "--lint-only"],
        "make sim SUITE=smoke",
        ["make", "-C", "/tmp", "formal"],
        ["python3", "-m", "dlaverif.flow.mutants", "--sim", "verilator"],
        ["python3", "-m", "dlaverif.flow.regression", "run"],
        ["python3", "-I", "-S", "/x/dlaverif/executor.py", "--guard", "42", "--", "vvp", "-M", "lib", "sim.vvp"],
    ],
)
def test_each_kind_of_start_is_recognized(argv: list[str] | str) -> None:
    from tests.conftest import simulator_start

    assert simulator_start(argv) is not None


@pytest.mark.parametrize(
    "argv",
    [
        ["make", "-s", "regs"],
        ["python3", "-m", "dlaverif.flow.regression", "report", "reg"],
        ["python3", "-m", "dlaverif.models", "info"],
        ["git", "ls-files"],
        ["verilator_coverage", "--write", "x.dat"],
        ["python3", "-I", "-S", "/x/dlaverif/executor.py", "--guard", "42", "--", "git", "fetch", "origin"],
    ],
)
def test_other_commands_are_not_starts(argv: list[str]) -> None:
    from tests.conftest import simulator_start

    assert simulator_start(argv) is None
