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
import shlex
import subprocess
import sys
import time
from pathlib import Path

from . import execute

POLL_S = 2.0


def _sbatch(args: list[str]) -> str:
    out = subprocess.run(["sbatch", "--parsable", *args], check=True, capture_output=True, text=True).stdout
    return out.strip().split(";", 1)[0]


def in_queue(job_id: str) -> bool:
    """True while any task of the job is pending or running (``squeue``)."""
    out = subprocess.run(["squeue", "-h", "-j", job_id, "-o", "%i"], capture_output=True, text=True)
    return out.returncode == 0 and bool(out.stdout.strip())


def launch(a: argparse.Namespace, njobs: int) -> int:
    n = max(1, min(a.shards, njobs))
    base = Path(a.out) if a.out else execute.REGRESS / (a.name or f"slurm-{a.suite}-{a.sim.replace(',', '-')}")
    base.mkdir(parents=True, exist_ok=True)
    py = shlex.quote(sys.executable)
    root = shlex.quote(str(execute.ROOT))
    opts = [f"--sim={a.sim}", f"--suite={a.suite}", f"--jobs={a.jobs}", f"--coverage={a.coverage}"]
    opts += [
        f"--{k}={v}"
        for k, v in (
            ("seeds", a.seeds),
            ("seed-list", a.seed_list),
            ("tests", a.tests),
            ("count", a.count),
            ("rtl", a.rtl),
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
            f"--cpus-per-task={max(1, a.jobs)}",
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
            f"--cpus-per-task={max(1, a.jobs)}",
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
    if a.wait == "0":
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
    import json

    failed = json.loads((report / "results.json").read_text())["regression"]["failed"]
    return 1 if failed else 0
