"""A real (tiny) Verilator regression through ``python -m dlaverif.flow.regression``: its report holds every job, merged
functional and code coverage, one JUnit file, and is reproducible; a broken RTL shows up as failures with the
command that reruns them; the HTML opens in headless Chromium with its tables."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from dlaverif.flow import mutants, runner, testplan
from dlaverif.flow.regression import jobs

from .conftest import TESTS, regress
from .regress_cli import own_run

pytestmark = pytest.mark.sim


def _results(folder: Path) -> dict:
    return json.loads((folder / "results.json").read_text())


def test_the_report_holds_every_job_and_both_coverages(tiny_regression):
    r = _results(tiny_regression / "report")
    expected = jobs.expand(testplan.load(), "smoke", ["verilator"], [1, 2], TESTS)
    assert len(expected) == 8
    assert sorted(r["signature"]["jobs"]) == sorted(j.key for j in expected)
    assert set(r["signature"]["jobs"].values()) == {"pass"}
    assert r["regression"]["seeds"] == [1, 2]
    groups = {g["name"]: g for g in r["functional"]["covergroups"]}
    assert groups["cube_reader.kind"]["size"] == 4 and 0 < r["functional"]["covered"] < r["functional"]["bins"]
    code = {f["file"]: f for f in r["code"]["files"]}
    assert code["axi_rd_engine.sv"]["line"][1] > 0 and code["axi_rd_engine.sv"]["line"][0] > 0
    assert (tiny_regression / "report" / code["axi_rd_engine.sv"]["html"]).is_file()
    junit = ET.parse(tiny_regression / "report" / "junit.xml").getroot()
    assert len(junit.findall(".//testcase")) == 8 and not junit.findall(".//failure")
    summary = (tiny_regression / "report" / "summary.md").read_text()
    assert "**8 passed, 0 failed** of 8 jobs" in summary


def test_the_report_is_reproducible_from_the_same_runs(tiny_regression, tmp_path):
    p = regress("report", str(tiny_regression / "reg"), f"--out={tmp_path / 'again'}", "--history=")
    assert p.returncode == 0, p.stdout + p.stderr
    first, again = _results(tiny_regression / "report"), _results(tmp_path / "again")
    assert first["signature"] == again["signature"]
    merged = (tiny_regression / "report" / "fcov_merged.xml").read_text()
    assert merged == (tmp_path / "again" / "fcov_merged.xml").read_text()


def test_history_none_keeps_no_history_as_make_passes_it(tiny_regression, tmp_path):
    """make exports an unset HISTORY as empty, so the flow's "no history" is ``HISTORY=none``: --keep then keeps
    nothing and no folder named none appears; a real folder, the control, gains the report's results.json."""
    reg, kept = str(tiny_regression / "reg"), tmp_path / "kept"
    p = regress("report", reg, f"--out={tmp_path / 'one'}", "--keep", env={"HISTORY": str(kept)})
    assert p.returncode == 0, p.stdout + p.stderr
    assert [f.name for f in kept.glob("*/results.json")] == ["results.json"]
    p = regress("report", reg, f"--out={tmp_path / 'two'}", "--keep", env={"HISTORY": "none"})
    assert p.returncode == 0, p.stdout + p.stderr
    assert (tmp_path / "two" / "results.json").is_file() and not (Path(runner.ROOT) / "none").exists()
    assert len(list(kept.glob("*/results.json"))) == 1


def test_broken_rtl_is_reported_with_rerun_commands(tmp_path):
    mutant = next(m for m in mutants.MUTANTS if m.name == "outstanding_limit_off_by_one")
    rtl = mutants.make_copy(mutant, tmp_path)
    p = regress(*own_run(tmp_path, "--seed-list=1", "--tests=outstanding_limit", f"--rtl={rtl}", "--coverage=0"))
    assert p.returncode == 1, p.stdout + p.stderr
    r = _results(tmp_path / "report")
    assert r["regression"]["failed"] == 1
    f = r["failures"][0]
    assert (f["sim"], f["run"], f["test"], f["seed"]) == ("verilator", "axi_rd_engine/directed", "outstanding_limit", 1)
    assert f["first_error"] and Path(f["log"]).is_file()
    assert f["rerun"] == (
        "make sim SIM=verilator SUITE=smoke RUN=axi_rd_engine/directed TESTCASE=outstanding_limit "
        f"SEED=1 RTL={rtl} WAVES=1"
    )
    assert f["rerun"] in p.stdout  # the summary printed on stdout
    junit = ET.parse(tmp_path / "report" / "junit.xml").getroot()
    failed = [c.get("name") for c in junit.iter("testcase") if c.find("failure") is not None]
    assert failed == ["outstanding_limit[seed=1]"]


def _dom(html: Path, tmp_path: Path) -> str:
    exe = shutil.which("chromium")
    assert exe, "chromium missing: apt-get install -y chromium"
    p = subprocess.run(
        [
            exe,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            f"--user-data-dir={tmp_path / 'profile'}",
            "--dump-dom",
            html.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert p.returncode == 0, p.stderr[-2000:]
    return p.stdout


def test_the_html_report_opens_in_a_browser_with_its_tables(tiny_regression, tmp_path):
    dom = _dom(tiny_regression / "report" / "index.html", tmp_path)
    tables = dict(re.findall(r'<table id="(\w+)">(.*?)</table>', dom, re.S))
    assert set(tables) == {"testplan", "failures", "configurations", "functional", "code", "walltime"}
    rows = {k: len(re.findall(r"<tr", v)) - 1 for k, v in tables.items()}  # minus the header row
    # the configuration axis: the two builds the tiny run used, both of kind defaults, each with its own coverage
    assert rows["configurations"] == 2 and tables["configurations"].count("<td>defaults</td>") == 2
    configs = json.loads((tiny_regression / "report" / "results.json").read_text())["configurations"]
    assert [(c["name"], c["jobs"], c["passed"], c["status"]) for c in configs] == [
        ("axi_rd_engine", 6, 6, "pass"),
        ("cube_reader", 2, 2, "pass"),
    ]
    assert all(c["lines"][1] > 0 and not c["rerun"] for c in configs)
    assert rows["testplan"] == len(testplan.load().testpoints)
    assert rows["walltime"] == 4  # 4 tests x 2 seeds
    assert rows["failures"] == 1 and "none" in tables["failures"]
    assert "axi_rd_engine.sv" in tables["code"] and ".gcov.html" in tables["code"]
    assert 'class="notrun"' in tables["testplan"]  # testpoints this run did not test
    assert "Seeds: 1, 2" in dom
    charts = re.findall(r'<img src="(charts/[\w.]+\.svg)"', dom)  # the charts, next to index.html
    assert sorted(charts) == ["charts/covergroups.svg", "charts/testpoints.svg", "charts/walltime.svg"]
    assert all((tiny_regression / "report" / c).stat().st_size > 1000 for c in charts)
    assert "the trend starts with the next" in dom  # one regression kept in its history so far
