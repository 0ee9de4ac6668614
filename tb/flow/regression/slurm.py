"""``LAUNCHER=slurm``: a regression as a Slurm job array of shards plus a merge job that depends on all of them.

A build job compiles every build of the regression once (``run --build-only`` into ``<base>/builds``); each array
task, after it (``--dependency=afterany``: a failed build is reported by the shards as failed jobs), runs
``python -m tb.flow.regression run --shard $SLURM_ARRAY_TASK_ID/N --prebuilt <base>/builds --no-report`` into its own
shard folder; the merge job (``--dependency=afterany:<array>``, so it
runs even when a shard failed) runs ``python -m tb.flow.regression report`` over the shard folders. The submitting
environment is exported to the jobs (``sbatch``'s default), so they see the same checkout, venv and simulators:
the checkout must be on storage every node shares. ``WAIT=1`` polls ``squeue`` until the merge job left the queue
and prints the summary; ``WAIT=0`` prints the job ids and the command that collects the report.
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
import time
from pathlib import Path

from tb.flow import runner

from . import execute, runfolder
from .settings import RunSettings

POLL_S = 2.0


def _sbatch(args: list[str]) -> str:
    out = subprocess.run(["sbatch", "--parsable", *args], check=True, capture_output=True, text=True).stdout
    return out.strip().split(";", 1)[0]


def in_queue(job_id: str) -> bool:
    """True while any task of the job is pending or running (``squeue``)."""
    out = subprocess.run(["squeue", "-h", "-j", job_id, "-o", "%i"], capture_output=True, text=True)
    return out.returncode == 0 and bool(out.stdout.strip())


def launch(a: argparse.Namespace, s: RunSettings) -> int:
    """Submit the regression ``s`` (checked settings; ``a``: the command line, for the folders) to Slurm."""
    njobs = len(s.selected)
    n = max(1, min(s.shards, njobs))
    if a.out:
        base = Path(a.out)
        base.mkdir(parents=True, exist_ok=True)
    else:
        base = runfolder.create(execute.REGRESS, "slurm-" + runfolder.new_name(s.suite, s.sims, (1, 1)))
    # every job of the regression, so that a shard that never ran (cancelled, its node dead) is listed as not run
    (base / "manifest.json").write_text(
        json.dumps(
            {
                "suite": s.suite,
                "sims": s.sims,
                "seeds": s.seeds,
                "shard": "",
                "coverage": s.coverage,
                "tests": s.tests,
                "runs": s.runs,
                "count": s.count,
                "rtl": str(s.rtl or runner.RTL),
                "jobs": [j.key for j in s.selected],
                "launcher": "slurm",
            },
            indent=1,
        )
    )
    py = shlex.quote(sys.executable)
    root = shlex.quote(str(execute.ROOT))
    opts = [f"--sim={','.join(s.sims)}", f"--suite={s.suite}", f"--jobs={s.jobs}", f"--coverage={int(s.coverage)}"]
    opts += [f"--seed-list={','.join(map(str, s.seeds))}"]
    opts += [
        f"--{k}={v}"
        for k, v in (
            ("tests", s.tests),
            ("runs", s.runs),
            ("count", s.count),
            ("rtl", s.rtl or ""),
            ("job-timeout", s.job_timeout or ""),
        )
        if v
    ]
    common = f"cd {root} && {py} -m tb.flow.regression run {' '.join(map(shlex.quote, opts))} --launcher=local"
    build_cmd = f"{common} --build-only --out={shlex.quote(str(base))}"
    shard_cmd = (
        f"{common} --shard=$SLURM_ARRAY_TASK_ID/{n} --out={shlex.quote(str(base))}/shard$SLURM_ARRAY_TASK_ID "
        f"--prebuilt={shlex.quote(str(base / 'builds'))} --no-report"
    )
    report = Path(a.report_dir)
    collect = (
        f"cd {root} && {py} -m tb.flow.regression report {shlex.quote(str(base))} --out={shlex.quote(str(report))}"
    )
    build = _sbatch(
        [
            "--job-name=regress-build",
            f"--cpus-per-task={s.jobs}",
            f"--output={base}/slurm-build-%j.out",
            "--wrap",
            build_cmd,
        ]
    )
    array = _sbatch(
        [
            f"--array=1-{n}",
            "--job-name=regress",
            f"--dependency=afterany:{build}",
            f"--cpus-per-task={s.jobs}",
            f"--output={base}/slurm-%A_%a.out",
            "--wrap",
            shard_cmd,
        ]
    )
    merge = _sbatch(
        [
            f"--dependency=afterany:{array}",
            "--job-name=regress-report",
            f"--output={base}/slurm-report-%j.out",
            "--wrap",
            collect,
        ]
    )
    print(
        f"slurm: build job {build}, job array {array} ({n} shards, {njobs} jobs) and merge job {merge} submitted; "
        f"shard folders in {base}",
        flush=True,
    )
    if not s.wait:
        print(
            f"collect the report when job {merge} has finished:\n  make report INPUTS={base} REPORT={report}\n"
            f"  (or: {collect})"
        )
        return 0
    while in_queue(build) or in_queue(array) or in_queue(merge):
        time.sleep(POLL_S)
    summary = report / "summary.md"
    if not summary.is_file():
        print(f"slurm: the merge job left no report; see {base}/slurm-*.out", file=sys.stderr)
        return 1
    print(summary.read_text())
    print(f"report: {report / 'index.html'}")
    g = json.loads((report / "results.json").read_text())["regression"]
    return 1 if g["failed"] or g.get("not_run") else 0
