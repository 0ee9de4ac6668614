"""`make sim`: build the RTL and run the default regression on one simulator, then print a results table.

Make variables arrive as environment variables, in cocotb's own spelling: ``SIM`` (verilator | icarus), ``TESTCASE``
(a test name or regex), ``SEED`` (reproducible randomization; default: a fresh seed, printed), ``WAVES=1`` (FST/VCD
waveforms under sim_build/), ``COUNT`` (random items per layout family, default: the suite's count, 200),
``BUILD_TIMEOUT`` (seconds per build command, :func:`dlaverif.flow.runner.build_limit`), ``SIM_TIMEOUT`` (seconds per
simulation, one run's simulator, :func:`dlaverif.flow.runner.simulation_limit`; both by default from the measured
durations, a stuck one ends the run as BROKEN with one line naming it and its limit). The runs
are the ``sim`` suite of ``blocks/plan.yaml`` (another project's plan: ``TESTPLAN=``, :mod:`dlaverif.flow.project`), or
``SUITE=<suite>`` (``--suite``), narrowed to runs (``RUN=a,b``: exact
names) and tests (``TESTS=``: globs over ``run::test`` or a test name) exactly as ``make regress`` narrows them
(:func:`dlaverif.flow.testplan.select`; a name that selects nothing is refused, exit 2): the rerun commands of
``make regress`` name SUITE and RUN, so a job of any suite reruns alone. A
``TESTCASE`` that is exactly a test name of a run selects that test only (with its parametrizations), not every test
whose name contains it. A run whose third-party RTL is not found here (``NVDLA_HW``, :mod:`dlaverif.thirdparty`) is
skipped: one line at the start and a SKIP row in the table, each with :func:`dlaverif.thirdparty.skipped`'s line saying
how to get the files. Exit status 0 when every test of every other run passed (2 when every selected run is
skipped: nothing could run). ``RTL=<dir>`` compiles the file lists
(``<top>.f``) of another folder (a broken copy that a ``make regress RTL=<dir>`` reported)."""

from __future__ import annotations

import argparse
import os
import random
import sys
import zlib

from dlaverif import thirdparty
from dlaverif.flow import runner, testplan
from dlaverif.flow.planschema import PlanError
from dlaverif.flow.regression import settings


def build_run(
    sim: str, run: testplan.Run, waves: bool = False, rtl_dir=None, config: str | None = None, swap=None
) -> runner.Build:
    """Compile the build a run needs (one build folder per plan build, shared by its runs); ``rtl_dir`` and
    ``swap``: a mutant's RTL (:func:`dlaverif.flow.runner.build`)."""
    return runner.build(
        sim,
        run.build.toplevel,
        config or run.build.name,
        run.build.parameters,
        waves=waves,
        rtl_dir=rtl_dir,
        options=run.build.options,
        swap=swap,
    )


def main(argv: list[str] | None = None) -> int:
    """Exit 0 when every selected test passed, 1 otherwise, 2 (one line, nothing built) on a bad make variable."""
    ap = argparse.ArgumentParser(prog="make sim", description=__doc__)
    ap.add_argument("--sim", default=os.getenv("SIM", "verilator"))
    ap.add_argument("--suite", default="sim", help="the testplan suite to run (default: sim)")
    ap.add_argument("--runs", default=os.getenv("RUN", ""), help="only these runs (exact names, comma-separated)")
    ap.add_argument("--tests", default=os.getenv("TESTS", ""), help="glob patterns over run::test or test")
    args = ap.parse_args(argv)
    try:
        plan = testplan.load()
    except PlanError as exc:  # a TESTPLAN= that is missing or broken: file:line: key: what
        print(exc, file=sys.stderr)
        return 2
    except settings.BadInput as exc:  # CONFIG_SEED
        print(f"make sim: {exc}", file=sys.stderr)
        return 2
    try:
        sim = settings.sims(args.sim)
        if len(sim) != 1:
            raise settings.BadInput(f"SIM={args.sim}: make sim runs one simulator ({', '.join(runner.SIMULATORS)})")
        seed_text = os.getenv("SEED", "").strip()
        seed = settings.whole("SEED", seed_text, 0) if seed_text else random.SystemRandom().randrange(1, 1 << 31)
        count_text = os.getenv("COUNT", "").strip()
        if count_text:
            settings.whole("COUNT", count_text, 1)
        settings.timeout(os.getenv("BUILD_TIMEOUT", ""), "BUILD_TIMEOUT")  # each build's limit (runner.build_limit)
        settings.timeout(os.getenv("SIM_TIMEOUT", ""), "SIM_TIMEOUT")  # each simulation's (runner.simulation_limit)
        rtl = os.getenv("RTL", "").strip() or None  # another RTL folder (its <top>.f lists), e.g. a mutant's copy
        if rtl:
            settings.folder("RTL", rtl)
        selection = testplan.select(plan, args.suite, args.runs, args.tests)
        flags = settings.simulation_switches()  # WAVES and ASSERT: 0 or 1; MISMATCH_MAPS
        testcase = settings.pattern("TESTCASE", os.getenv("TESTCASE", "").strip()) or None
    except (settings.BadInput, testplan.SelectionError) as exc:
        print(f"make sim: {exc}", file=sys.stderr)
        return 2
    args.sim = sim[0]
    waves = flags["WAVES"]
    suite = plan.suite(args.suite)
    count = count_text or str(suite.count)
    if args.suite == testplan.CONFIG_SUITE:
        print(f"configurations: {testplan.CONFIG_SEED_VAR}={plan.config_seed} (random draws r{plan.config_seed}_*)")
    print(
        f"regression: SIM={args.sim} SEED={seed} COUNT={count}"
        + (f" TESTCASE={testcase}" if testcase else "")
        + f" WAVES={int(waves)}"
        + ("" if flags["ASSERT"] else " ASSERT=0"),
        flush=True,
    )

    rows: list[tuple[str, runner.Result]] = []
    broken: list[str] = []
    unavailable = [e.run for e, _ in selection if e.run.build.missing is not None]
    # third-party RTL not found (dlaverif/thirdparty/): skipped, said in one line, the rest runs
    for run in unavailable:
        print(thirdparty.skipped(run.name, str(run.build.missing)), flush=True)
    for entry, chosen in selection:
        run = entry.run
        if run.build.missing is not None:
            continue
        selected: str | list[str] | None = testcase
        if testcase and testcase in testplan.module_tests(run.module):
            selected = [testcase]  # the test of that name alone, not every name containing it
        elif not testcase and args.tests:
            selected = chosen  # the tests TESTS= selected (the same selection as make regress)
        # the tests the simulation runs, for its default limit (a TESTCASE regex, or none listed: every test of the run)
        tests = selected if isinstance(selected, list) else None if selected else (list(run.tests) or None)
        try:
            b = build_run(
                args.sim,
                run,
                waves=waves,
                rtl_dir=rtl,
                config=f"{run.build.name}-rtl{zlib.crc32(str(rtl).encode()):08x}" if rtl else None,
            )
            xml = runner.run(
                b,
                run.module,
                seed,
                selected or (list(run.tests) or None),
                entry.environment(count),
                waves=waves,
                tag=run.name.replace("/", "-"),
                limit_s=runner.simulation_limit(args.sim, run.name, tests, entry.environment(count)["COUNT"]),
            )
            results = runner.read_results(xml)
        except Exception as exc:  # a build or harness failure is a failed run, reported in the table
            broken.append(f"{run.name}: {type(exc).__name__}: {exc}")
            continue
        if testcase and not results:
            continue
        rows += [(run.name, r) for r in results]

    print()
    print(f"{'suite':24s} {'test':58s} {'result':6s} {'sim time':>12s} {'wall':>8s}")
    print("-" * 112)
    for name, r in rows:
        verdict = "PASS" if r.passed else "FAIL"
        print(f"{name:24s} {r.name[:58]:58s} {verdict:6s} {r.sim_time_ns / 1000:10.1f}us {r.real_time_s:7.1f}s")
        if not r.passed and r.message:
            print(f"{'':24s}   {r.message[:200]}")
    for line in broken:
        print(f"{'BROKEN':24s} {line}")
    for run in unavailable:  # every test of the run, not built: the line says how to get its RTL
        print(f"{run.name:24s} {'(every test of the run)':58s} {'SKIP':6s}")
        print(f"{'':24s}   {thirdparty.skipped(run.name, str(run.build.missing))}")
    failed = sum(not r.passed for _, r in rows)
    print("-" * 112)
    skips = f", {len(unavailable)} skipped" if unavailable else ""
    print(
        f"regression: {len(rows) - failed} passed, {failed + len(broken)} failed{skips}  (SIM={args.sim} SEED={seed})"
    )
    if failed or broken:
        print(f"reproduce: make sim SIM={args.sim} SEED={seed} TESTCASE=<test name>")
        # a configuration of the matrix (blocks/plan.yaml configs:): the one command that rebuilds and reruns it
        bad = {n for n, r in rows if not r.passed} | {line.split(":", 1)[0] for line in broken}
        for name in sorted(bad):
            cfg = plan.config_of_run(name)
            if cfg is not None:
                print(f"rerun configuration {cfg.key} {cfg.parameters}: {cfg.rerun(args.sim, seed)}")
    if not rows and not broken and unavailable:
        return 2  # nothing selected can run here: the lines above say what to set
    if not rows and not broken:
        print("regression: no test matched" + (f" TESTCASE={testcase}" if testcase else ""))
        return 1
    return 1 if failed or broken else 0


if __name__ == "__main__":
    sys.exit(main())
