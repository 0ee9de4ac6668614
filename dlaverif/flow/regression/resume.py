"""``RESUME=<run folder>``: which jobs of a run are still to run, the same for both launchers.

A run folder is a local run's folder or a Slurm run's base folder; its ``manifest.json`` lists every job of the run
(for Slurm every shard's), and the results are wherever they were written below it: the run's own ``runs/``, a
shard's folder, or the folder of an earlier resume (``resume<k>/shard<i>/`` when resumed on Slurm). A job is done
when some record below the folder says so; when there are several (a job rerun by ``RERUN=failed``), the newest
counts (:func:`.collect.collect`). The configuration matrix's random draws are part of the run's selection: the
``CONFIG_SEED`` the run was started with is in its manifest and is used again.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Optional

from dlaverif.flow import testplan

from .collect import collect
from .execute import CRASHED, ERROR, FAIL, NOT_RUN, TIMEOUT
from .jobs import Job

JOB_LIST = "jobs.json"  # in a Slurm resume's folder: the keys of the jobs it runs


def to_run(regdir: Path, selected: list[Job], resumed: bool, rerun_failed: bool) -> tuple[list[Job], list[Job]]:
    """The run's jobs (those of ``selected`` its manifest lists) and the ones still to run: all of them for a new
    run; for a resume those without a result (``rerun_failed``: and those that did not pass)."""
    listed = set(json.loads((regdir / "manifest.json").read_text())["jobs"])
    mine = [j for j in selected if j.key in listed]
    if not resumed:
        return mine, mine
    scratch = regdir / f".collect-{os.getpid()}"
    try:
        done = collect([regdir], scratch).jobs
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    redo = {NOT_RUN} | ({FAIL, ERROR, TIMEOUT, CRASHED} if rerun_failed else set())
    return mine, [j for j in mine if j.key not in done or done[j.key]["status"] in redo]


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
    path.write_text(json.dumps([j.key for j in jobs], indent=1))
    return path


def read_job_list(path: Path) -> set[str]:
    return set(json.loads(path.read_text()))
