"""A user's project gets the code coverage our readers get: ``make regress`` of examples/desc_reader's own Makefile
(its ``TESTPLAN=``), on a copy of the example, scores its reader's line, branch and toggle coverage in its report, with
the waiver its plan gives (by file and reason); ``make report`` of the same jobs without that waiver shows the waived
line as missed. The waived line is found here by its text in the example's RTL."""

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
DEFAULT_ARM = "default: f_st <= F_IDLE;"  # the fetch state machine's default arm: its register holds 3 states
#: make variables of an outer make or of the checkout's flow that must not reach the example's make
OUTER = ("MAKEFLAGS", "MAKELEVEL", "MFLAGS", "TESTPLAN", "SIM_BUILD", "SUITE", "RUN", "TESTS", "SEED", "SEEDS", "COUNT")


def _make(project: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in OUTER}
    env["PYTHONPATH"] = str(ROOT)  # the platform from this checkout; the project's own modules from its folder
    return subprocess.run(
        ["make", "--no-print-directory", "-C", str(project), f"PYTHON={sys.executable}", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )


@pytest.mark.sim
def test_a_user_projects_regression_scores_its_readers_code_coverage(tmp_path: Path) -> None:
    project = shutil.copytree(EXAMPLE, tmp_path / "my_reader", ignore=shutil.ignore_patterns("sim_build"))
    rtl = (project / "rtl" / "desc_reader.sv").read_text().splitlines()
    arm = next(i + 1 for i, line in enumerate(rtl) if DEFAULT_ARM in line)
    plan_path = project / "testplan.yaml"
    own_plan = plan_path.read_text()
    plan = yaml.safe_load(own_plan)
    reason = "the fetch state register only holds its three states"
    plan["coverage"] = {
        "code_waivers": [{"file": "desc_reader.sv", "match": DEFAULT_ARM, "tag": "unreachable", "reason": reason}]
    }
    plan_path.write_text(yaml.safe_dump(plan))

    done = _make(
        project,
        "regress",
        "SUITE=sim",
        "SEED_LIST=1",
        "COUNT=2",
        "JOBS=1",
        "HISTORY=none",
        "TESTS=RandomJobBursts,ScoreboardSelfTest",
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "RTL lines" in done.stdout  # the summary's code coverage rows
    report = project / "sim_build" / "report"
    code = json.loads((report / "results.json").read_text())["code"]
    assert [f["file"] for f in code["files"]] == ["desc_reader.sv"]  # the reader; not the platform's property modules
    f = code["files"][0]
    for metric in ("line", "branch", "toggle"):
        hit, total, _ = f[metric]
        assert 0 < hit <= total, (metric, f[metric])
    assert f["waived"] == {str(arm): {"tag": "unreachable", "reason": reason}}
    assert arm not in f["missed_lines"]
    assert (report / f["html"]).is_file() and "desc_reader.sv" in (report / f["html"]).read_text()

    plan_path.write_text(own_plan)  # the same jobs, reported on the plan without the waiver
    again = _make(project, "report", "HISTORY=none")
    assert again.returncode == 0, again.stdout[-3000:] + again.stderr[-3000:]
    unwaived = json.loads((report / "results.json").read_text())["code"]["files"][0]
    assert arm in unwaived["missed_lines"] and unwaived["waived"] == {}
    assert unwaived["line"][1] == f["line"][1] + 1 and unwaived["line"][0] == f["line"][0]


@pytest.mark.sim
@pytest.mark.parametrize(
    "example, test",
    [("stream_dma", "RandomJobBursts"), ("nvdla_reader", "RandomCubes")],
)
def test_the_other_examples_regressions_score_their_own_rtl(tmp_path: Path, example: str, test: str) -> None:
    """examples/stream_dma and examples/nvdla_reader, run as desc_reader is above (their own Makefile, ``make
    regress``): the report's code coverage lists exactly the example's own RTL file, with line, branch and toggle
    counts above zero."""
    project = shutil.copytree(
        ROOT / "examples" / example, tmp_path / example, ignore=shutil.ignore_patterns("sim_build")
    )
    done = _make(project, "regress", "SUITE=sim", "SEED_LIST=1", "COUNT=2", "JOBS=1", "HISTORY=none", f"TESTS={test}")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "RTL lines" in done.stdout
    code = json.loads((project / "sim_build" / "report" / "results.json").read_text())["code"]
    assert [f["file"] for f in code["files"]] == [f"{example}.sv"]
    for metric in ("line", "branch", "toggle"):
        hit, total, _ = code["files"][0][metric]
        assert 0 < hit <= total, (metric, code["files"][0][metric])
