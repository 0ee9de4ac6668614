"""``RESUME=<run folder>``: which jobs of a run are still to run, the same for both launchers.

A run folder is a local run's folder or a Slurm run's base folder; its ``manifest.json`` lists every job of the run
(for Slurm every shard's), and the results are wherever they were written below it: the run's own ``runs/``, a
shard's folder, or the folder of an earlier resume (``resume<k>/shard<i>/`` when resumed on Slurm). A job is done
when some record below the folder says so; when there are several (a job rerun by ``RERUN=failed``), the newest
counts (:func:`.collect.collect`). A job that was ``skipped`` (its run's third-party RTL, ``NVDLA_HW``, was not found)
is run by the resume once the files are found (``make nvdla`` since, or ``NVDLA_HW=`` set): a skip is not a result,
only the files' absence. The configuration matrix's random draws are part of the run's selection: the
``CONFIG_SEED`` the run was started with is in its manifest and is used again.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Optional

from dlaverif import thirdparty
from dlaverif.flow import records, testplan

from . import runfolder
from .collect import collect
from .execute import CRASHED, ERROR, FAIL, NOT_RUN, PASS, SKIPPED, TIMEOUT, available
from .jobs import Job

JOB_LIST = "jobs.json"  # in a Slurm resume's folder: the keys of the jobs it runs


def to_run(
    regdir: Path, selected: list[Job], resumed: bool, rerun_failed: bool, plan: Optional[testplan.Plan] = None
) -> tuple[list[Job], list[Job]]:
    """The run's jobs (those of ``selected`` its manifest lists) and the ones still to run: all of them for a new
    run; for a resume those without a result (``rerun_failed``: and those that did not pass), and those that were
    skipped whose third-party RTL ``plan`` (default: the plan loaded now) finds here now."""
    listed = set(json.loads((regdir / "manifest.json").read_text())["jobs"])
    mine = [j for j in selected if j.key in listed]
    if not resumed:
        return mine, mine
    done = _results(regdir)
    redo = {NOT_RUN} | ({FAIL, ERROR, TIMEOUT, CRASHED} if rerun_failed else set())
    skipped = [j for j in mine if j.key in done and done[j.key]["status"] == SKIPPED]
    found = {j.key for j in available(plan or testplan.load(), skipped)} if skipped else set()
    return mine, [j for j in mine if j.key not in done or done[j.key]["status"] in redo or j.key in found]


def _results(regdir: Path) -> dict[str, dict]:
    """Every job record below a run folder (the newest of each job; :func:`.collect.collect`)."""
    scratch = regdir / f".collect-{os.getpid()}"  # only made for an archive, which a run folder never is
    try:
        return collect([regdir], scratch).jobs
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def nothing_to_do(regdir: Path, selected: list[Job], rerun_failed: bool, report: Path) -> Optional[str]:
    """For ``RESUME=`` of a run that is complete (its ``state.json`` says so: its report, history entry and ``latest``
    were published, into ``report`` when it says where) and has no job left to run: the one line that says so, and
    the caller runs and writes nothing (no second history entry, no file touched). None when there is something to
    do (a resume into another report folder writes the report there)."""
    state = runfolder.state(regdir)
    if not state.get("complete") or state.get("report", os.path.abspath(report)) != os.path.abspath(report):
        return None
    mine, todo = to_run(regdir, selected, True, rerun_failed)
    if todo:
        return None
    done = _results(regdir)
    passed = sum(1 for j in mine if done[j.key]["status"] == PASS)
    skipped = sum(1 for j in mine if done[j.key]["status"] == SKIPPED)
    said = f"{passed} of {len(mine)} jobs passed" + (f", {skipped} skipped" if skipped else "")
    return (
        f"{regdir} is already complete ({said}; its report was published): nothing run, nothing written"
        + ("" if rerun_failed or passed + skipped == len(mine) else "; RERUN=failed reruns the others")
        + (
            f"; its skipped jobs run once their third-party RTL is found ({'; '.join(thirdparty.GET.values())})"
            if skipped and thirdparty.GET
            else "; its skipped jobs run once their third-party RTL is found"
            if skipped
            else ""
        )
    )


def config_seed(manifest: dict) -> Optional[int]:
    """The ``CONFIG_SEED`` a run was started with (None: a run older than that record)."""
    seed = manifest.get("config_seed")
    return int(seed) if seed is not None else None


def use_config_seed(manifest: dict) -> None:
    """Draw the configuration matrix as the run did: its ``CONFIG_SEED`` into the environment, which the testplan
    and every job process (they inherit it, also through ``sbatch``) read."""
    seed = config_seed(manifest)
    if seed is not None:
        os.environ[testplan.CONFIG_SEED_VAR] = str(seed)


def next_attempt(regdir: Path) -> Path:
    """A new folder ``regdir/resume<k>`` for a resume on Slurm (its builds, job list and shard folders)."""
    k = 1
    while True:
        folder = regdir / f"resume{k}"
        try:
            folder.mkdir()
            return folder
        except FileExistsError:
            k += 1


def write_job_list(folder: Path, jobs: list[Job]) -> Path:
    path = folder / JOB_LIST
    records.write_json(path, [j.key for j in jobs], indent=1)
    return path


def read_job_list(path: Path) -> set[str]:
    """The job keys of a Slurm resume's ``jobs.json`` (:class:`dlaverif.flow.records.BadRecord` when unreadable)."""
    keys = records.read_json(path, lambda v: isinstance(v, list) and all(isinstance(k, str) for k in v), "job list")
    return set(keys)
