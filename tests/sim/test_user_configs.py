"""A user's project gets the configuration matrix ours gets: a copy of examples/desc_reader whose plan adds
``configs:`` runs its corners through its own Makefile (``make sim SUITE=configs RUN=<run>@<corner>``). Its reader
declares no parameter contract (its own elaboration checks its parameters), so a corner gives numbers for the
parameters its header declares: a legal corner passes, an illegal one stops the build with the RTL's own line (so the
corner's parameters do reach the build), and a name the header does not declare is refused when the plan is read."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "desc_reader"
OUTER = ("MAKEFLAGS", "MAKELEVEL", "MFLAGS", "TESTPLAN", "SIM_BUILD", "SUITE", "RUN", "TESTS", "SEED", "COUNT")


def _project(tmp_path: Path, corners: dict) -> Path:
    project = shutil.copytree(EXAMPLE, tmp_path / "my_reader", ignore=shutil.ignore_patterns("sim_build"))
    plan = yaml.safe_load((project / "testplan.yaml").read_text())
    plan["configs"] = {"tops": {"desc_reader": {"run": "desc_reader/bursts", "corners": corners}}}
    (project / "testplan.yaml").write_text(yaml.safe_dump(plan))
    return project


def _make(project: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in OUTER}
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run(
        ["make", "--no-print-directory", "-C", str(project), f"PYTHON={sys.executable}", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


@pytest.mark.sim
def test_a_user_corner_runs_and_an_illegal_one_stops_its_build(tmp_path: Path) -> None:
    project = _project(tmp_path, {"deep": {"SLOTS": 4, "ID_BITS": 6}, "odd_slots": {"SLOTS": 3}})
    common = ("SIM=icarus", "SUITE=configs", "SEED=1", "COUNT=2")
    deep = _make(project, "sim", "RUN=desc_reader/bursts@deep", *common)
    assert deep.returncode == 0, deep.stdout[-3000:] + deep.stderr[-2000:]
    assert "desc_reader/bursts@deep" in deep.stdout and "3 passed, 0 failed" in deep.stdout
    odd = _make(project, "sim", "RUN=desc_reader/bursts@odd_slots", *common)
    assert odd.returncode != 0
    assert "SLOTS=3" in odd.stdout + odd.stderr  # desc_reader.sv's own elaboration stop names it


@pytest.mark.sim  # it starts make sim, which refuses the plan before building anything
def test_a_user_corner_naming_no_parameter_of_its_top_is_refused(tmp_path: Path) -> None:
    project = _project(tmp_path, {"typo": {"SLOT": 4}})
    done = subprocess.run(
        [sys.executable, "-m", "dlaverif.flow.sim", "--sim", "icarus", "--suite", "configs"],
        env={**os.environ, "TESTPLAN": str(project / "testplan.yaml"), "PYTHONPATH": str(ROOT),
             "DESC_READER_RTL": str(project / "rtl")},
        cwd=project,
        capture_output=True,
        text=True,
        timeout=120,
    )  # fmt: skip
    lines = done.stderr.splitlines()
    assert done.returncode == 2 and len(lines) == 1, done.stderr
    assert "desc_reader declares no parameter contract" in lines[0] and "SLOT: 4" in lines[0], lines[0]


@pytest.mark.sim
def test_the_examples_deep_corner_fills_the_readers_queue(tmp_path: Path) -> None:
    """examples/desc_reader's own plan runs ``slots_8`` with ``IN_FLIGHT=capacity``: the bench keeps SLOTS + 1 = 9
    jobs in flight (8 queued behind the one being read, rtl/desc_reader.sv's header), its reach record says the DUT
    took 9 at once, and the plan's occupancy probe (the reader's q_count) says its queue held 8 of 8; the suite's
    entry at the defaults (no IN_FLIGHT, the suite's COUNT 1) sends its one job."""
    project = shutil.copytree(EXAMPLE, tmp_path / "my_reader", ignore=shutil.ignore_patterns("sim_build"))
    common = ("SIM=icarus", "SUITE=configs", "SEED=1")
    done = _make(project, "sim", "RUN=desc_reader/bursts@slots_8,desc_reader/bursts", *common)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    most, deepest = {}, {}
    for path in (project / "sim_build" / "icarus").glob("*/*/reach_RandomJobBursts.json"):
        record = json.loads(path.read_text())
        most[path.parent.name], deepest[path.parent.name] = record["most_jobs_in_flight"], record["occupancy"]
    assert most == {"desc_reader-bursts@slots_8-seed1": 9, "desc_reader-bursts-seed1": 1}, most
    assert deepest["desc_reader-bursts@slots_8-seed1"] == {"descriptors": 8}, deepest
