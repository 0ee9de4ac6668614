"""A run whose NVIDIA jobs were skipped (``NVDLA_HW``'s files not found) is not complete for good: once the files
are there, ``RESUME=`` runs those jobs; while they are still absent, the resume of the complete run does nothing.
NVIDIA's files are stood in for by empty files at the paths of the build's file list: the plan only asks whether
they exist, and nothing is compiled here (the jobs are listed, not run)."""

from __future__ import annotations

import json
from pathlib import Path

from dlaverif.flow import filelists, testplan
from dlaverif.flow.regression import execute, resume, runfolder
from dlaverif.flow.regression.jobs import Job

NVIDIA = Job("verilator", "pdp_rdma/random", "random_pictures", 1, "8")
OURS = Job("verilator", "axi_rd_engine/directed", "stop_drains", 1, "8")


def _plan(monkeypatch, nvdla_hw: Path) -> testplan.Plan:
    monkeypatch.setenv("NVDLA_HW", str(nvdla_hw))
    return testplan.load()


def _stand_in(root: Path) -> Path:
    """Empty files at every path of the NVIDIA build's file list, under ``root``."""
    plan = testplan.load()
    listed = plan.builds[plan.runs[NVIDIA.run].build.name].options.filelist
    assert listed is not None
    for line in listed.read_text().splitlines():
        entry = line.split("//", 1)[0].strip()
        if entry.startswith("$NVDLA_HW/"):
            (root / entry[len("$NVDLA_HW/") :]).parent.mkdir(parents=True, exist_ok=True)
            (root / entry[len("$NVDLA_HW/") :]).touch()
        elif entry.startswith("+incdir+$NVDLA_HW/"):
            (root / entry[len("+incdir+$NVDLA_HW/") :]).mkdir(parents=True, exist_ok=True)
    return root


def test_skipped_jobs_run_on_resume_once_nvidias_files_are_found(tmp_path, monkeypatch, capsys):
    absent = _plan(monkeypatch, tmp_path / "no-nvdla")
    assert absent.runs[NVIDIA.run].build.missing is not None  # the premise: not found
    reg = tmp_path / "reg"
    reg.mkdir()
    (reg / "manifest.json").write_text(json.dumps({"suite": "nightly", "jobs": [NVIDIA.key, OURS.key]}))
    execute.run_job(reg, OURS, "nightly", False, timeout_s=60, command=["true"])  # a job of ours with a result
    recs = execute.run_shard(reg, absent, "nightly", [NVIDIA], 1, False, False)
    assert [r["status"] for r in recs] == ["skipped"]
    runfolder.mark(reg, True, "complete", "")  # the run completed, its NVIDIA job skipped
    # the files still absent: nothing to run, the resume of the complete run says so and writes nothing
    assert resume.to_run(reg, [NVIDIA, OURS], True, False, absent)[1] == []
    said = resume.nothing_to_do(reg, [NVIDIA, OURS], False, tmp_path / "report")
    assert said == (
        f"{reg} is already complete (0 of 2 jobs passed, 1 skipped; its report was published): nothing run, nothing "
        "written; RERUN=failed reruns the others; its skipped jobs run once their third-party RTL is found (make "
        "nvdla (fetches the pinned files into the checkout, docs/setup.md))"
    )
    # the files found (make nvdla, or NVDLA_HW= a checkout): the skipped job is run by the resume, the others not
    found = _plan(monkeypatch, _stand_in(tmp_path / "nvdla-hw"))
    assert found.runs[NVIDIA.run].build.missing is None
    assert filelists.parse(found.builds[found.runs[NVIDIA.run].build.name].options.filelist).sources
    mine, todo = resume.to_run(reg, [NVIDIA, OURS], True, False, found)
    assert [j.key for j in mine] == [NVIDIA.key, OURS.key] and [j.key for j in todo] == [NVIDIA.key]
    assert resume.to_run(reg, [NVIDIA, OURS], True, False)[1] == todo  # the plan loaded now, by default
    assert resume.nothing_to_do(reg, [NVIDIA, OURS], False, tmp_path / "report") is None  # not complete any more
