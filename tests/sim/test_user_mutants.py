"""A user's project gets ``make mutants`` as ours does: a copy of examples/desc_reader runs its own Makefile's
``make mutants`` on its catalogue (``mutants.yaml``, listed in its plan). Its mutant is killed; a mutant added here that
only edits a comment survives (so the check can fail), and the project's own RTL is left as it was: each mutant's
file is a copy under sim_build/, compiled in place of the original."""

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
COMMENT = "// the job is read: reported now, its tail still in the packer"


@pytest.mark.sim
def test_a_user_mutant_is_killed_and_a_comment_edit_survives(tmp_path: Path) -> None:
    project = shutil.copytree(EXAMPLE, tmp_path / "my_reader", ignore=shutil.ignore_patterns("sim_build"))
    rtl = project / "rtl" / "desc_reader.sv"
    before = rtl.read_text()
    assert before.count(COMMENT) == 1
    catalogue = yaml.safe_load((project / "mutants.yaml").read_text())
    catalogue["mutants"].append(
        {"name": "comment_only", "family": "none", "bug": "a comment reworded", "file": "desc_reader.sv",
         "old": COMMENT, "new": "// reported now"}
    )  # fmt: skip
    (project / "mutants.yaml").write_text(yaml.safe_dump(catalogue))
    env = {k: v for k, v in os.environ.items() if k not in OUTER}
    env["PYTHONPATH"] = str(ROOT)
    done = subprocess.run(
        ["make", "--no-print-directory", "-C", str(project), f"PYTHON={sys.executable}", "mutants", "SIM=icarus",
         "SEED=1", "COUNT=4"],
        env=env, capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    assert done.returncode != 0, done.stdout[-3000:]  # a survivor fails the check
    assert "mutants: 1/2 killed, 1 survived, 0 broken" in done.stdout, done.stdout[-3000:] + done.stderr[-2000:]
    report = json.loads((project / "sim_build" / "mutants" / "icarus" / "report.json").read_text())
    status = {m["name"]: m["status"] for m in report["mutants"]}
    assert report["baseline"]["status"] == "PASS" and status == {
        "first_lane_ignored": "KILLED",
        "comment_only": "SURVIVED",
    }
    assert report["runs"] == {"desc_reader/bursts": "desc_reader_tb.tests"}  # the plan's mutants suite
    killed = next(m for m in report["mutants"] if m["name"] == "first_lane_ignored")
    assert any("data mismatch" in msg for msg in killed["suites"]["desc_reader/bursts"]["messages"]), killed
    mutated = project / "sim_build" / "mutants" / "icarus" / "first_lane_ignored" / "rtl" / "desc_reader.sv"
    assert "lo = '0;" in mutated.read_text() and "lo = '0;" not in before
    assert rtl.read_text() == before  # the project's RTL untouched


@pytest.mark.sim  # it starts make mutants, which refuses the catalogue before building anything
@pytest.mark.parametrize(
    "field, value, said",
    [
        ("file", "nosuch.sv", "first_lane_ignored: nosuch.sv is in no file list of the plan's builds"),
        ("old", "lo = 'x;", "first_lane_ignored: the old text occurs 0 times in desc_reader.sv"),
    ],
)
def test_a_user_mutant_that_does_not_fit_its_rtl_is_one_line(tmp_path: Path, field: str, value: str, said: str) -> None:
    project = shutil.copytree(EXAMPLE, tmp_path / "my_reader", ignore=shutil.ignore_patterns("sim_build"))
    catalogue = yaml.safe_load((project / "mutants.yaml").read_text())
    catalogue["mutants"][0][field] = value
    (project / "mutants.yaml").write_text(yaml.safe_dump(catalogue))
    done = subprocess.run(
        [sys.executable, "-m", "dlaverif.flow.mutants", "--sim", "icarus"],
        env={**os.environ, "TESTPLAN": str(project / "testplan.yaml"), "PYTHONPATH": str(ROOT),
             "DESC_READER_RTL": str(project / "rtl"), "SIM_BUILD": str(tmp_path / "out")},
        cwd=project, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    lines = done.stderr.splitlines()
    assert done.returncode == 2 and len(lines) == 1 and lines[0].startswith(f"make mutants: {said}"), done.stderr
    assert not (tmp_path / "out" / "mutants").exists()  # nothing built or simulated
