"""``LAUNCHER=slurm``: a regression as a Slurm job array of shards plus a merge job that depends on all of them.

A build job compiles every build of the regression once (``run --build-only`` into ``<base>/builds``); each array
task, after it (``--dependency=afterany``: a failed build is reported by the shards as failed jobs), runs
``python -m dlaverif.flow.regression run --shard $SLURM_ARRAY_TASK_ID/N --prebuilt <base>/builds --no-report`` into its
own shard folder; the merge job (``--dependency=afterany:<array>``, so it
runs even when a shard failed) runs ``python -m dlaverif.flow.regression report`` over the shard folders. The submitting
environment is exported to the jobs (``sbatch``'s default), so they see the same checkout, venv and simulators:
the checkout must be on storage every node shares. ``WAIT=1`` polls ``squeue`` until the merge job left the queue
and prints the summary; ``WAIT=0`` prints the job ids and the command that collects the report.

``RESUME=<run folder>`` on Slurm continues a run of either launcher (:mod:`.resume`): the jobs still to run are
listed in a new ``<run>/resume<k>/jobs.json``; a build job compiles what they need into ``resume<k>/builds``, the
array runs them (``--job-list``) into ``resume<k>/shard<i>/`` and the merge job reports the whole run folder, so
the report holds the jobs of the first try and of every resume. The submitting process holds the run folder's lock
while it waits, so a local resume of the same folder is refused meanwhile.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from pathlib import Path
from typing import Optional, Sequence

from dlaverif.executor import OK, Executor, Step, check
from dlaverif.flow import records

from . import execute, orchestrator, resume, runfolder
from .settings import RunSettings

POLL_S = 2.0
#: polls without an answer from squeue before the wait gives up (a controller gone, not one busy for a moment)
SILENT_POLLS = 30
#: one sbatch or squeue call's limit (a step of dlaverif.executor): a controller that hangs ends it
CLIENT_TIMEOUT_S = 120.0


def _sbatch(args: list[str]) -> str:
    rec = check(Executor().run(Step("sbatch", ["sbatch", "--parsable", *args], CLIENT_TIMEOUT_S, capture=True)))
    return rec.output.strip().split(";", 1)[0]


def in_queue(job_id: str) -> Optional[bool]:
    """True while any task of the job is pending or running, False once it left (``squeue`` lists no task, or no
    longer knows the job: "Invalid job id"); None when ``squeue`` gave no answer (it failed, or hung past
    :data:`CLIENT_TIMEOUT_S`: a controller too busy to reply in time, or not reachable): the caller asks again
    rather than take it for "left"."""
    rec = Executor().run(Step("squeue", ["squeue", "-h", "-j", job_id, "-o", "%i"], CLIENT_TIMEOUT_S, capture=True))
    if rec.status != OK:
        return False if "invalid job id" in rec.output.lower() else None
    return bool(rec.output.strip())


def wait_for(jobs: Sequence[str]) -> Optional[str]:
    """Poll until every job of ``jobs`` left the queue; the line saying why it stopped waiting when ``squeue`` gave
    no answer :data:`SILENT_POLLS` times in a row (None once they all left)."""
    silent = 0
    while True:
        answers = [in_queue(j) for j in jobs]
        if not any(a is None or a for a in answers):
            return None
        silent = silent + 1 if None in answers else 0
        if silent >= SILENT_POLLS:
            return (
                f"slurm: squeue gave no answer {silent} times in a row ({silent * POLL_S:.0f} s): is the controller up?"
            )
        time.sleep(POLL_S)


def launch(a: argparse.Namespace, s: RunSettings) -> int:
    """Submit the regression ``s`` (checked settings; ``a``: the command line, for the folders) to Slurm; with
    ``RESUME=`` only the jobs its run folder still lacks."""
    if s.resume is not None:
        try:
            with runfolder.RunLock(s.resume):
                died = orchestrator.take_over(s.resume, refuse_alive=True)
                if died is not None:
                    print(f"slurm: {s.resume}: {died}; continuing", flush=True)
                _, todo = resume.to_run(s.resume, s.selected, True, s.rerun_failed)
                attempt = resume.next_attempt(s.resume)
                job_list = resume.write_job_list(attempt, todo)
                print(f"slurm: resuming {s.resume}: {len(todo)} of {len(s.selected)} jobs to run", flush=True)
                return _submit(a, s, s.resume, attempt, len(todo), job_list)
        except (runfolder.Busy, orchestrator.Alive) as exc:
            print(f"regress: refused: {exc}", file=sys.stderr)
            return 3
    if a.out:
        base = Path(a.out)
        base.mkdir(parents=True, exist_ok=True)
    else:
        base = runfolder.create(execute.REGRESS, "slurm-" + runfolder.new_name(s.suite, s.sims, (1, 1)))
    # every job of the regression, so that a shard that never ran (cancelled, its node dead) is listed as not run
    records.write_json(base / "manifest.json", s.manifest(s.selected, "", "slurm"), indent=1)
    return _submit(a, s, base, base, len(s.selected), None)


def _submit(a: argparse.Namespace, s: RunSettings, base: Path, work: Path, njobs: int, job_list: Path | None) -> int:
    """A build job and an array of shards for ``njobs`` jobs (none when 0) working in ``work`` (the run folder, or a
    resume's folder in it with its ``job_list``), then the merge job that reports the whole of ``base``."""
    n = max(1, min(s.shards, njobs))
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
            ("build-timeout", s.build_timeout or ""),
            ("report-timeout", s.report_timeout or ""),
            ("job-list", job_list or ""),
        )
        if v
    ]
    common = f"cd {root} && {py} -m dlaverif.flow.regression run {' '.join(map(shlex.quote, opts))} --launcher=local"
    build_cmd = f"{common} --build-only --out={shlex.quote(str(work))}"
    shard_cmd = (
        f"{common} --shard=$SLURM_ARRAY_TASK_ID/{n} --out={shlex.quote(str(work))}/shard$SLURM_ARRAY_TASK_ID "
        f"--prebuilt={shlex.quote(str(work / 'builds'))} --no-report"
    )
    report = Path(a.report_dir)
    collect = (
        f"cd {root} && {py} -m dlaverif.flow.regression report {shlex.quote(str(base))} "
        f"--out={shlex.quote(str(report))}" + (f" --report-timeout={s.report_timeout}" if s.report_timeout else "")
    )
    resume_cmd = f"make regress RESUME={base}"
    waits_on: list[str] = []
    if njobs:
        build = _sbatch(
            [
                "--job-name=regress-build",
                f"--cpus-per-task={s.jobs}",
                f"--output={work}/slurm-build-%j.out",
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
                f"--output={work}/slurm-%A_%a.out",
                "--wrap",
                shard_cmd,
            ]
        )
        waits_on = [build, array]
    merge = _sbatch(
        [f"--dependency=afterany:{waits_on[-1]}"] * bool(waits_on)
        + ["--job-name=regress-report", f"--output={work}/slurm-report-%j.out", "--wrap", collect]
    )
    what = f"build job {waits_on[0]}, job array {waits_on[1]} ({n} shards, {njobs} jobs) and " if waits_on else ""
    print(f"slurm: {what}merge job {merge} submitted; shard folders in {work}", flush=True)
    runfolder.mark(base, False, f"submitted to Slurm: {what}merge job {merge}", resume_cmd)
    if not s.wait:
        print(
            f"collect the report when job {merge} has finished:\n  make report INPUTS={base} REPORT={report}\n"
            f"  (or: {collect})"
        )
        return 0
    silent = wait_for((*waits_on, merge))
    if silent is not None:
        print(f"{silent}; the jobs may still run: make report INPUTS={base} REPORT={report}", file=sys.stderr)
        return 1
    summary = report / "summary.md"
    if not summary.is_file():
        print(f"slurm: the merge job left no report; see {work}/slurm-*.out", file=sys.stderr)
        return 1
    print(summary.read_text())
    print(f"report: {report / 'index.html'}")
    g = json.loads((report / "results.json").read_text())["regression"]
    if g.get("complete"):
        runfolder.mark(base, True, f"complete; report {report}")
    return 1 if g["failed"] or g.get("not_run") else 0
