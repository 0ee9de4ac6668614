"""`make mutants`: prove that the cube-reader tests catch real RTL bugs (mutation check).

Each mutant of :data:`MUTANTS` is one realistic bug written as exact text substitutions on a COPY of
``blocks/rtl/`` (``sim_build/mutants/<sim>/<name>/blocks/rtl/``; the real RTL is never touched). Every substitution's
old text must occur exactly once in its file, otherwise the check stops before simulating anything: an RTL edit
must never turn a mutant silently into a no-op. A substitution that leaves the file unchanged is refused too.

For each mutant (after the unmutated baseline, which must pass) the copy is built with ``dlaverif.flow.runner.build(...,
rtl_dir=...)`` into its own build directories (config ``mutant-<name>-<build>``) and the runs of the testplan's
``mutants`` suite (``blocks/plan.yaml``) run with a fixed seed; a run whose build lists the RTL files it depends on
(the read engine alone, the validator alone) runs only for mutants of those files.

A mutant is KILLED when at least one test fails (or the simulation dies, or exceeds ``--timeout``: a test run
that never ends is a failed run), SURVIVED when every test passes, BROKEN when its copy does not build (a
mutant must be a legal design: fix the mutant). The table names the tests that failed. Exit status 0 only when
the baseline passes and every mutant is killed. Report: ``sim_build/mutants/<sim>/report.json``; per mutant, the log
of its builds and runs and the JUnit files in ``sim_build/mutants/<sim>/<name>/``.

A catalogue of third-party RTL that is not found here (NVIDIA's, ``NVDLA_HW``: ``make nvdla``) is not run: one line
per catalogue says which mutants are skipped and how to get the files, the summary counts them (``skipped`` in the
report), and they neither pass nor fail the check.

A corner mutant (``configs:`` in its catalogue: the matrix configurations where it differs from the correct RTL,
which it equals at the defaults) runs on the ``configs`` suite's runs at those configurations instead of the
mutants suite; ``--config <top>@<name>[,...]`` (``make mutants MUTANT=<name> CONFIG=<top>@<name>``) runs the
baseline and the chosen mutants at the configurations given.

A mutant stops at its first run with a failing test: it is killed, and its remaining runs would only say how
many more tests see the bug (``runs_skipped`` in the report names them). ``--all-runs`` runs every one, for the
full kill matrix of the datasheets' mutant tables. The baseline always runs every run.

Each mutant runs in a child process, a step of :mod:`dlaverif.executor` (its own process group, so a hung simulator
is stopped on ``--timeout``, on SIGINT, SIGTERM or SIGHUP, and when this process dies); ``--jobs N`` (``make mutants
MUTANT_JOBS=N``) runs N mutants at once, the table keeping the mutants' order. Verilator
builds use the machine's cores already (~30-60 s per build with ccache), so Verilator gains less from it than
Icarus, whose compile and simulation are single-threaded.

Usage: ``python -m dlaverif.flow.mutants [--sim verilator|icarus] [--only NAME ...] [--seed N] [--count N] [--list]``
(``make mutants SIM=icarus``; ``SEED`` and ``COUNT`` from the environment are the defaults of the options).
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import re
import shutil
import signal
import sys
import textwrap
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from dlaverif import executor, thirdparty
from dlaverif.flow import codescope, filelists, project, records, runner, sim as simflow, testplan
from dlaverif.flow.mutation import RTL_ROOT, Edit, Mutant, load_catalogue
from dlaverif.flow.planschema import PlanError, Refusal, display, exit_status
from dlaverif.flow.regression import settings

OUT_ROOT = runner.SIM_BUILD / "mutants"


def out_dir(sim: str) -> Path:
    """Per simulator, so that Verilator and Icarus mutation runs can go on side by side."""
    return OUT_ROOT / sim


# ---------------------------------------------------------------------------------------------- the catalogues
@functools.lru_cache(maxsize=None)
def catalogue_files(plan_path: Path | None = None) -> tuple[tuple[str, tuple[Mutant, ...]], ...]:
    """The plan's catalogues: each YAML file its ``mutants:`` list names (paths from the project root,
    :func:`dlaverif.flow.mutation.load_catalogue`), as it is shown, with its mutants, in the plan's order. Read on
    first use; a name given twice across catalogues is refused naming both files."""
    plan = testplan.load() if plan_path is None else testplan.load(plan_path)
    out: list[tuple[str, tuple[Mutant, ...]]] = []
    first: dict[str, str] = {}
    for name in plan.mutants:
        path = project.ROOT / name
        if not path.is_file():
            where = display(plan_path or testplan.PLAN_PATH)
            raise PlanError(f"{where}: mutants: {name}: no such catalogue file (looked for {display(path)})")
        mutants = load_catalogue(path)
        for m in mutants:
            if m.name in first:
                raise PlanError(f"{display(path)}: mutant {m.name}: defined again (first in {first[m.name]})")
            first[m.name] = display(path)
        out.append((display(path), tuple(mutants)))
    return tuple(out)


def catalogue(plan_path: Path | None = None) -> tuple[Mutant, ...]:
    """Every mutant of the plan's catalogues (:func:`catalogue_files`), in the plan's order, the order the mutants
    run."""
    return tuple(m for _, mutants in catalogue_files(plan_path) for m in mutants)


def __getattr__(name: str) -> tuple[Mutant, ...]:
    """``MUTANTS``: :func:`catalogue` of the project's plan (module attribute, read on first use)."""
    if name == "MUTANTS":
        return catalogue()
    raise AttributeError(name)


def apply_edits(text: str, edits: list[Edit], where: str) -> str:
    """``text`` with every edit applied; raises ValueError unless each old text occurs exactly once."""
    for e in edits:
        n = text.count(e.old)
        if n != 1:
            raise ValueError(
                f"{where}: the old text occurs {n} times in {e.file} (must be exactly once; the RTL "
                f"changed? update the mutant): {e.old!r}"
            )
        if e.old == e.new:
            raise ValueError(f"{where}: edit of {e.file} changes nothing: {e.old!r}")
        text = text.replace(e.old, e.new)
    return text


def tree(mutant: Mutant, rtl: Path = runner.RTL) -> Path | None:
    """The tree a mutant's files are in: ``rtl`` for ours, the third-party checkout of its root variable (None when
    that is not found: the mutant cannot be built here, and its runs are unavailable too)."""
    if mutant.root == RTL_ROOT:
        return rtl
    found = thirdparty.environment().get(mutant.root)
    if not found:
        return None
    # the default that holds the mutant's files (each shared export holds one block's: thirdparty.located); a tree
    # without them (NVDLA_HW naming another block's export) cannot build this mutant
    first = sorted(mutant.files)[0]
    path = Path(thirdparty.located(mutant.root, found, f"/{first}"))
    return Path(str(path)[: -len(first) - 1]) if path.is_file() else None


def unavailable(chosen: list[Mutant]) -> list[tuple[str, list[str], str]]:
    """The mutants of ``chosen`` whose third-party tree is not found here (:func:`tree`), per catalogue: (the
    catalogue file, their names, the one line saying how to get the files). They cannot be built, so they are not
    run: skipped, said and counted, never left out silently."""
    names = {m.name for m in chosen if tree(m) is None}
    out = []
    for path, mutants in catalogue_files():
        mine = [m for m in mutants if m.name in names]
        if mine:
            root, first = mine[0].root, sorted(mine[0].files)[0]
            value = thirdparty.environment().get(root)
            if root not in thirdparty.DEFAULTS:
                why = f"{root} is not set"
            elif not value:
                why = thirdparty.hint(root)
            elif not Path(value).is_dir():
                why = f"{value} does not exist: {root}={value} is not {thirdparty.DEFAULTS[root][1]}"
            else:  # a tree without this catalogue's files (another block's export)
                get = f"{thirdparty.GET[root]}, or " if root in thirdparty.GET else ""
                why = f"{value} does not hold {first}: {get}make ... {root}=<{thirdparty.DEFAULTS[root][1]}>"
            out.append((path, [m.name for m in mine], why))
    return out


def check_table(mutants: tuple[Mutant, ...] | None = None, rtl: Path = runner.RTL) -> None:
    """Every mutant applies cleanly to the current RTL (fail loudly before anything is simulated); a third-party
    mutant whose checkout is not found is not checked (its runs cannot be built either). ``mutants``: default the
    plan's :func:`catalogue`."""
    mutants = catalogue() if mutants is None else mutants
    names = [m.name for m in mutants]
    dup = {n for n in names if names.count(n) > 1}
    if dup:
        raise ValueError(f"duplicate mutant names: {sorted(dup)}")
    for m in mutants:
        if not m.name.replace("_", "").isalnum() or m.name == "baseline":
            raise ValueError(f"bad mutant name {m.name!r}")
        root = tree(m, rtl)
        if root is None:
            continue
        for f in sorted(m.files):
            apply_edits(_file(m, root, f).read_text(), [e for e in m.edits if e.file == f], m.name)


def user_project() -> bool:
    """Whether the project declares no RTL folder (:data:`dlaverif.flow.project.RTL_DECLARED`): its mutants of the
    project's RTL edit the files of its builds' own lists (any root), each compiled in place of its original; a
    project with a declared folder (this repository's blocks/rtl/) has a copy of that folder edited."""
    return not project.RTL_DECLARED


@functools.lru_cache(maxsize=None)
def user_files() -> dict[str, Path]:
    """The design files of a user plan's builds (their own lists, :mod:`dlaverif.flow.codescope`), by file name: what
    a mutant of the project's RTL names."""
    plan = testplan.load()
    return codescope.by_name(
        {
            b.name: codescope.design_files(b.toplevel, b.options.filelist, runner.RTL)
            for b in plan.builds.values()
            if b.missing is None
        }
    )


def _file(mutant: Mutant, root: Path, name: str) -> Path:
    """The file ``name`` of a mutant's edit in ``root``: ours are named by file name and found in their subfolder of
    the RTL tree (dlaverif.flow.filelists.locate), a user project's in its builds' lists (:func:`user_files`), a
    third-party tree's by their path in it."""
    if mutant.root != RTL_ROOT:
        return root / name
    if user_project():
        found = user_files().get(name)
        if found is None:
            raise ValueError(f"{mutant.name}: {name} is in no file list of the plan's builds")
        return found
    return filelists.locate(root, name)


def user_copy(mutant: Mutant, dest: Path) -> dict[Path, Path]:
    """A user project's mutant: each file it edits copied to ``dest/rtl/`` with its edits; original -> copy, what
    its builds compile in place of the originals (:func:`dlaverif.flow.runner.build`'s ``swap``)."""
    copy = dest / "rtl"
    shutil.rmtree(copy, ignore_errors=True)
    copy.mkdir(parents=True)
    swap = {}
    for f in sorted(mutant.files):
        src = _file(mutant, copy, f)
        out = copy / src.name
        out.write_text(apply_edits(src.read_text(), [e for e in mutant.edits if e.file == f], mutant.name))
        swap[src] = out
    return swap


def make_copy(mutant: Mutant | None, dest: Path, rtl: Path = runner.RTL) -> Path:
    """A fresh copy of ``rtl`` in ``dest/rtl`` with the mutant's edits applied (none for the baseline)."""
    copy = dest / "rtl"
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(rtl, copy, copy_function=shutil.copy)  # fresh mtimes
    if mutant is not None:
        for f in sorted(mutant.files):
            p = _file(mutant, copy, f)
            p.write_text(apply_edits(p.read_text(), [e for e in mutant.edits if e.file == f], mutant.name))
    return copy


def make_tree_copy(mutant: Mutant, dest: Path) -> Path:
    """A third-party mutant's tree copied to ``dest/<root>`` with its edits applied (the build then finds the copy
    through the root variable)."""
    src = tree(mutant)
    if src is None:
        raise ValueError(f"{mutant.name}: {thirdparty.hint(mutant.root)}")
    copy = dest / mutant.root
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(src, copy, copy_function=shutil.copy)
    for f in sorted(mutant.files):
        p = copy / f
        p.write_text(apply_edits(p.read_text(), [e for e in mutant.edits if e.file == f], mutant.name))
    return copy


# ---------------------------------------------------------------------------------------------- suites
def suite_runs() -> list[testplan.SuiteRun]:
    """The runs of the testplan's ``mutants`` suite."""
    try:
        return list(testplan.load().suite("mutants").runs)
    except KeyError as exc:  # a plan without a mutants suite
        raise Refusal(str(exc.args[0])) from None


def config_runs(keys: tuple[str, ...] | list[str]) -> list[testplan.SuiteRun]:
    """The ``configs`` suite's runs of the matrix configurations ``keys`` (``<top>@<name>``), in that order;
    :class:`Refusal` (one line) for a key the matrix does not have."""
    if not keys:
        return []
    plan = testplan.load()
    unknown = [k for k in keys if k not in plan.configs]
    if unknown:
        known = f"e.g. {', '.join(sorted(plan.configs)[:4])}, ..." if plan.configs else "the plan has no matrix"
        raise Refusal(
            f"CONFIG={','.join(unknown)}: not a configuration of the matrix ({display(testplan.PLAN_PATH)} configs:); "
            f"{known}"
        )
    if testplan.CONFIG_SUITE not in plan.suites:
        raise Refusal(f"CONFIG: {display(testplan.PLAN_PATH)} has no {testplan.CONFIG_SUITE} suite to run the matrix")
    entries = {e.run.name: e for e in plan.suite(testplan.CONFIG_SUITE).runs}
    return [entries[plan.configs[k].run] for k in keys]


def runs_for(mutant: Mutant | None, config: tuple[str, ...] = ()) -> list[testplan.SuiteRun]:
    """The runs whose build depends on the mutant's files (every run for the baseline): the mutants suite's, or
    the matrix's runs at ``config`` when given, else at the mutant's own ``configs`` (a corner mutant: the same RTL
    as the correct one at the defaults)."""
    chosen = config or (mutant.configs if mutant is not None else ())
    pool = config_runs(chosen) if chosen else suite_runs()
    runs = [e for e in pool if e.run.build.missing is None]  # a third-party build not found: not runnable
    if mutant is None:
        return runs
    names = {Path(f).name for f in mutant.files}  # a build lists the names of the files it depends on
    return [e for e in runs if e.run.build.rtl is None or e.run.build.rtl & names]


def baseline_runs(chosen: list[Mutant] | tuple[Mutant, ...], config: tuple[str, ...] = ()) -> list[testplan.SuiteRun]:
    """What the unmutated RTL must pass first: the matrix's runs at ``config`` when given; else the mutants suite
    (unless every chosen mutant is a corner mutant) and the runs at every chosen corner mutant's configurations."""
    if config:
        return runs_for(None, config)
    corners = tuple(dict.fromkeys(c for m in chosen for c in m.configs))
    pool = (runs_for(None) if any(not m.configs for m in chosen) or not chosen else []) + (
        runs_for(None, corners) if corners else []
    )
    return list({e.run.name: e for e in pool}.values())


@dataclass
class Outcome:
    name: str
    status: str = "BROKEN"  # PASS (baseline) | KILLED | SURVIVED | BROKEN
    family: str = ""
    bug: str = ""
    files: list[str] = field(default_factory=list)
    suites: dict = field(default_factory=dict)  # suite -> {"tests": n, "failed": [names], "messages": [..]}
    killed_by: list[str] = field(default_factory=list)
    tests: int = 0
    runs_skipped: list[str] = field(default_factory=list)  # not run: an earlier run had already killed the mutant
    note: str = ""
    time_s: float = 0.0


# ---------------------------------------------------------------------------------------------- one mutant
def run_one(
    name: str,
    sim: str,
    seed: int,
    count: int,
    keep_builds: bool,
    all_runs: bool = False,
    at: tuple[str, ...] = (),
    chosen: tuple[str, ...] = (),
) -> Outcome:
    """Build and simulate one mutant (or ``baseline``) in this process, on the runs of :func:`runs_for` (at the
    matrix configurations ``at`` when given; the baseline's: :func:`baseline_runs` of the ``chosen`` mutants'
    names, every mutant when empty); a mutant stops after its first run with a failing test unless ``all_runs``."""
    mutant = None if name == "baseline" else next(m for m in catalogue() if m.name == name)
    out = Outcome(name)
    if mutant:
        out.family, out.bug, out.files = mutant.family, mutant.bug, sorted(mutant.files)
    dest = out_dir(sim) / name
    ours = mutant is None or mutant.root == RTL_ROOT
    swap: dict[Path, Path] = {}
    copy: Path | None = None
    if not user_project():
        copy = make_copy(mutant if ours else None, dest)
    elif mutant is not None and ours:
        swap = user_copy(mutant, dest)
    else:
        dest.mkdir(parents=True, exist_ok=True)
    if mutant is not None and not ours:
        os.environ[mutant.root] = str(make_tree_copy(mutant, dest))  # this worker process builds from the copy
    builds: dict[str, runner.Build] = {}
    build_dirs: list[Path] = []
    if mutant is None:
        picked = [m for m in catalogue() if not chosen or m.name in chosen]
        entries = baseline_runs(picked, at)
    else:
        entries = runs_for(mutant, at)
    for i, entry in enumerate(entries):
        if mutant is not None and not all_runs and any(v["failed"] for v in out.suites.values()):
            out.runs_skipped = [e.run.name for e in entries[i:]]
            break
        run = entry.run
        key = run.build.name
        if key not in builds:
            config = f"mutant-{name}-{key}"
            stale = runner.SIM_BUILD / sim / f"{config}-{runner.worker()}"
            shutil.rmtree(stale, ignore_errors=True)  # never reuse an older mutant's build
            try:
                builds[key] = simflow.build_run(sim, run, rtl_dir=copy, config=config, swap=swap)
            except (Exception, SystemExit) as exc:
                out.status, out.note = "BROKEN", f"build of {run.build.toplevel} failed: {exc}"
                return out
            build_dirs.append(builds[key].build_dir)
        tag = run.name.replace("/", "-")
        try:
            xml = runner.run(builds[key], run.module, seed, list(run.tests) or None, entry.environment(count), tag=tag)
        except (Exception, SystemExit) as exc:
            out.suites[run.name] = {"tests": 0, "failed": ["<simulation died>"], "messages": [str(exc)]}
            continue
        shutil.copy(xml, dest / f"{tag}.results.xml")
        rows = runner.read_results(xml)
        bad = [r for r in rows if not r.passed]
        out.suites[run.name] = {
            "tests": len(rows),
            "failed": [r.name for r in bad],
            "messages": [r.message[:300] for r in bad],
        }
        if not rows:
            out.suites[run.name]["failed"] = ["<no test ran>"]
    out.tests = sum(s["tests"] for s in out.suites.values())
    out.killed_by = [f"{s}:{t}" for s, v in out.suites.items() for t in v["failed"]]
    if mutant is None:
        out.status = "FAIL" if out.killed_by else "PASS"
    else:
        out.status = "KILLED" if out.killed_by else "SURVIVED"
    if not keep_builds:
        for d in build_dirs:
            shutil.rmtree(d, ignore_errors=True)
    return out


def _step(name: str, args: argparse.Namespace, log: Path, result: Path) -> executor.Step:
    """One mutant as a child process (``--worker``), ended with its process group after ``--timeout``."""
    cmd = (
        [
            sys.executable,
            "-m",
            "dlaverif.flow.mutants",
            "--worker",
            name,
            "--sim",
            args.sim,
            "--seed",
            str(args.seed),
            "--count",
            str(args.count),
            "--result",
            str(result),
        ]
        + (["--keep-builds"] if args.keep_builds else [])
        + (["--all-runs"] if args.all_runs else [])
        + (["--config", ",".join(args.config)] if args.config else [])
        + [a for n in (args.only or []) if name == "baseline" for a in ("--only", n)]
    )
    # the project's root first (its test modules), then what this process was given (the platform, when it is not
    # installed)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (str(runner.ROOT), os.getenv("PYTHONPATH")) if p))
    for k in ("TESTCASE", "COCOTB_TEST_FILTER", "COCOTB_TESTCASE", "WAVES"):  # always the whole modules
        env.pop(k, None)

    def fresh() -> None:
        log.parent.mkdir(parents=True, exist_ok=True)
        result.unlink(missing_ok=True)

    return executor.Step(f"mutant {name}", cmd, args.timeout, "--timeout", runner.ROOT, log, env=env, prepare=fresh)


def _outcome(name: str, rec: executor.Record, log: Path, result: Path) -> Outcome:
    """What a mutant's ended step says: killed by a hang past ``--timeout``, its result, or a broken harness."""
    if rec.status == executor.TIMEOUT:
        out = Outcome(
            name,
            "KILLED",
            killed_by=[f"<timeout after {rec.limit_s:.0f} s>"],
            note="the test run did not finish (hang): counted as a failed run",
        )
    elif result.exists():
        out = Outcome(**json.loads(result.read_text()))
    else:
        out = Outcome(name, "BROKEN", note=f"harness failed (exit {rec.returncode}), see {log}")
    if name != "baseline":
        m = next(m for m in catalogue() if m.name == name)
        out.family, out.bug, out.files = m.family, m.bug, sorted(m.files)
    out.time_s = round(rec.wall_s, 1)
    return out


# ---------------------------------------------------------------------------------------------- driver
def _short(names: list[str], width: int) -> str:
    """``suite:test/param=..`` names grouped per suite and test: ``directed: bus_error(x6) registers; uvm: ..``."""
    groups: dict[str, dict[str, int]] = {}
    for n in names:
        suite, _, test = n.partition(":")
        tests = groups.setdefault(suite, {})
        key = test.split("/", 1)[0]
        tests[key] = tests.get(key, 0) + 1
    text = "; ".join(
        f"{s}: " + " ".join(t + (f"(x{k})" if k > 1 else "") for t, k in tests.items()) for s, tests in groups.items()
    )
    return text if len(text) <= width else text[: width - 3] + "..."


def print_table(rows: list[Outcome]) -> None:
    print()
    print(f"{'mutant':34s} {'status':8s} {'failed':>9s} {'time':>7s}  killed by")
    print("-" * 140)
    for o in rows:
        text = _short(o.killed_by, 600) if o.killed_by else o.note
        lines = textwrap.wrap(text, 76) or [""]
        print(f"{o.name:34s} {o.status:8s} {len(o.killed_by):4d}/{o.tests:<4d} {o.time_s:6.0f}s  {lines[0]}")
        for line in lines[1:]:
            print(f"{'':66s}{line}")
    print("-" * 140)


def markdown_table(prefix: str, sims: tuple[str, ...] = runner.SIMULATORS) -> str:
    """The mutants whose names start with ``prefix`` as a markdown table from the last reports
    (``sim_build/mutants/<sim>/report.json``, every simulator that has one): the bug and its files, and per
    simulator the status, the failing tests (first three, then a count) and the first property that failed with
    them (``ASSERT``/``ASSUME`` of blocks/rtl/props/, or nothing when only the scoreboards caught it). For the
    blocks' datasheets (their Mutants sections): pasted from one command, not written by hand."""
    reports = {}
    for sim in sims:
        path = out_dir(sim) / "report.json"
        if path.exists():
            reports[sim] = {m["name"]: m for m in json.loads(path.read_text())["mutants"]}
    if not reports:
        raise SystemExit(f"mutants: no report in {out_dir('<sim>')}: run make mutants first")
    head = "| mutant | what it breaks (file) | " + " | ".join(
        f"{s.capitalize()}: failing tests | property" for s in reports
    )
    lines = [head + " |", "|" + "---|" * (2 + 2 * len(reports))]
    for m in catalogue():
        if not m.name.startswith(prefix):
            continue
        cells = [f"`{m.name}`", f"{m.bug} ({', '.join(f'`{f}`' for f in sorted(m.files))})"]
        for rep in reports.values():
            o = rep.get(m.name)
            if o is None:
                cells += ["not run", ""]
                continue
            tests = list(dict.fromkeys(t.split("/")[0] for v in o["suites"].values() for t in v["failed"]))
            text = ", ".join(tests[:3]) + (f" (+{len(tests) - 3})" if len(tests) > 3 else "")
            found = (
                re.search(r"(?:ASSERT|ASSUME) '(.+?)' failed at", x)
                for v in o["suites"].values()
                for x in v.get("messages", [])
            )
            prop = next((p for p in found if p), None)
            status = "" if o["status"] == "KILLED" else f"**{o['status']}** "
            cells += [status + (text or o.get("note", "")), f"'{prop.group(1)}'" if prop else ""]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="make mutants", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    # the make variables' defaults are checked below (settings: one line, exit 2), as make sim's are
    ap.add_argument("--sim", default=os.getenv("SIM") or "verilator", help=f"{' or '.join(runner.SIMULATORS)}")
    ap.add_argument("--only", action="append", help="only this mutant (repeatable; the baseline always runs)")
    ap.add_argument("--seed", default=os.getenv("SEED") or "1")
    ap.add_argument(
        "--count",
        default=os.getenv("COUNT") or "8",
        help="random cubes per layout family in the pyuvm suite",
    )
    ap.add_argument("--timeout", type=float, default=1200.0, help="wall-clock seconds per mutant")
    ap.add_argument("--keep-builds", action="store_true", help="keep the mutants' build directories")
    ap.add_argument(
        "--all-runs", action="store_true", help="run every run of each mutant (default: stop at its first kill)"
    )
    ap.add_argument("--jobs", default=os.getenv("MUTANT_JOBS") or "1", help="mutants simulated at once (default 1)")
    ap.add_argument(
        "--config",
        default=os.getenv("CONFIG") or "",
        help="<top>@<name>[,...]: run at these configurations of the matrix (their configs-suite runs), baseline too",
    )
    ap.add_argument("--list", action="store_true", help="list the mutants and exit")
    ap.add_argument(
        "--markdown", metavar="PREFIX", help="print the mutants named PREFIX* as a markdown table from the last reports"
    )
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--result", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    sim = settings.sims(args.sim)
    if len(sim) != 1:
        raise settings.BadInput(f"SIM={args.sim}: make mutants runs one simulator ({', '.join(runner.SIMULATORS)})")
    args.seed = settings.whole("SEED", str(args.seed), 0)
    args.count = settings.whole("COUNT", str(args.count), 1)
    args.jobs = settings.whole("MUTANT_JOBS", str(args.jobs), 1, settings.MAX_JOBS)
    settings.simulation_switches()
    suite_runs()  # the testplan and its mutants suite, before anything is written
    args.config = tuple(testplan.split_names(args.config))
    config_runs(args.config)  # a configuration the matrix does not have: one line, nothing written

    if args.worker:  # child: one mutant, result as JSON
        o = run_one(
            args.worker,
            args.sim,
            args.seed,
            args.count,
            args.keep_builds,
            args.all_runs,
            args.config,
            tuple(args.only or ()),
        )
        records.write_json(Path(args.result), asdict(o), indent=1)
        return 0

    if args.markdown is not None:
        print(markdown_table(args.markdown))
        return 0
    try:
        check_table()  # every substitution applies exactly once, before any simulation
    except ValueError as exc:  # a catalogue that no longer fits the RTL: one line, exit 2, nothing simulated
        raise Refusal(str(exc)) from None
    for m in catalogue():  # a corner mutant's configurations exist in the matrix
        try:
            config_runs(m.configs)
        except Refusal as exc:
            raise Refusal(f"mutant {m.name}: configs: {exc}") from None
    chosen = list(catalogue())
    if args.only:
        unknown = set(args.only) - {m.name for m in catalogue()}
        if unknown:
            ap.error(f"unknown mutant(s) {sorted(unknown)}; --list shows them")
        chosen = [m for m in catalogue() if m.name in args.only]
    if args.list:
        for m in catalogue():
            at = f" [differs at {', '.join(m.configs)}]" if m.configs else ""
            print(f"{m.name:34s} {', '.join(sorted(m.files)):18s} {m.bug}{at}")
        return 0
    skipped = unavailable(chosen)  # a catalogue of third-party RTL not found here (NVDLA_HW): one line each
    for path, names, why in skipped:
        print(thirdparty.skipped(f"{len(names)} mutant(s) of {path}", why), flush=True)
    left_out = {n for _, names, _ in skipped for n in names}
    chosen = [m for m in chosen if m.name not in left_out]

    OUT = out_dir(args.sim)
    OUT.mkdir(parents=True, exist_ok=True)
    print(
        f"mutants: SIM={args.sim} SEED={args.seed} COUNT={args.count}, {len(chosen)} mutants; logs in "
        f"{_shown(OUT)}/<name>/",
        flush=True,
    )
    t0 = time.monotonic()
    try:
        with executor.raising_signals():  # SIGINT, SIGTERM, SIGHUP: the running mutants end with their groups
            return _drive(args, chosen, OUT, t0, sorted(left_out, key=[m.name for m in catalogue()].index))
    except executor.Interrupted as exc:
        print(f"\nmutants: interrupted ({signal.Signals(exc.signum).name}); no report written", file=sys.stderr)
        return 128 + exc.signum


def _drive(args: argparse.Namespace, chosen: list[Mutant], out: Path, t0: float, skipped: list[str]) -> int:
    """The baseline, then the mutants ``--jobs`` at a time (steps of one executor, from this thread); the table and
    the report. ``skipped``: the mutants not run, their third-party tree not found here (counted in the summary)."""
    ex = executor.Executor()
    names = ["baseline", *(m.name for m in chosen)]

    def paths(name: str) -> tuple[Path, Path]:
        return out / name / "log.txt", out / name / "result.json"

    def done(name: str, rec: executor.Record) -> Outcome:
        o = _outcome(name, rec, *paths(name))
        print(
            f"  {name:34s} {o.status:8s} {o.time_s:6.0f}s  "
            + (_short(o.killed_by, 90) if o.killed_by else o.note[:90]),
            flush=True,
        )
        return o

    def one(name: str) -> Outcome:
        return done(name, ex.run(_step(name, args, *paths(name))))

    rows: list[Outcome] = [one("baseline")]
    if rows[0].status != "PASS":
        print(
            f"mutants: the unmutated RTL does not pass on {args.sim} ({rows[0].status}: "
            f"{_short(rows[0].killed_by, 200) or rows[0].note}); see {out / 'baseline' / 'log.txt'}"
        )
        _write_report(args, rows, time.monotonic() - t0, skipped)
        return 1
    outcomes: dict[int, Outcome] = {}

    def ended(i: int, rec: executor.Record) -> None:
        outcomes[i] = done(names[1 + i], rec)

    steps = [_step(n, args, *paths(n)) for n in names[1:]]
    ex.run_all(steps, args.jobs, ended)
    rows += [outcomes[i] for i in range(len(steps))]
    total = time.monotonic() - t0
    print_table(rows)
    muts = rows[1:]
    killed = sum(o.status == "KILLED" for o in muts)
    survived = [o.name for o in muts if o.status == "SURVIVED"]
    broken = [o.name for o in muts if o.status == "BROKEN"]
    print(
        f"mutants: {killed}/{len(muts)} killed, {len(survived)} survived, {len(broken)} broken"
        + (f", {len(skipped)} skipped (their RTL is not found here, see above)" if skipped else "")
        + f" (SIM={args.sim} SEED={args.seed} COUNT={args.count}, {total / 60:.1f} min)"
    )
    for n in survived:
        print(
            f"  SURVIVED {n}: {next(o.bug for o in muts if o.name == n)} -- either an equivalent mutant or a "
            f"gap in the tests"
        )
    for n in broken:
        print(f"  BROKEN {n}: {next(o.note for o in muts if o.name == n)}")
    path = _write_report(args, rows, total, skipped)
    print(f"report: {_shown(path)}")
    return 0 if not survived and not broken else 1


def _shown(path: Path) -> Path:
    """``path`` relative to the project's root when it is inside it (``SIM_BUILD=`` may put it elsewhere)."""
    return path.relative_to(runner.ROOT) if path.is_relative_to(runner.ROOT) else path


def _write_report(args, rows: list[Outcome], total: float, skipped: list[str]) -> Path:
    muts = rows[1:]
    report = {
        "sim": args.sim,
        "seed": args.seed,
        "count": args.count,
        "total_time_s": round(total, 1),
        "all_runs": args.all_runs,
        "jobs": args.jobs,
        "runs": {e.run.name: e.run.module for e in suite_runs()},
        "baseline": asdict(rows[0]) if rows else None,
        "summary": {
            "mutants": len(muts),
            "killed": sum(o.status == "KILLED" for o in muts),
            "survived": [o.name for o in muts if o.status == "SURVIVED"],
            "broken": [o.name for o in muts if o.status == "BROKEN"],
            "skipped": skipped,  # not run: their third-party RTL (NVDLA_HW) is not found here
        },
        "mutants": [asdict(o) for o in muts],
    }
    path = out_dir(args.sim) / "report.json"
    records.write_json(path, report, indent=1)
    return path


if __name__ == "__main__":
    sys.exit(exit_status("make mutants", main))
