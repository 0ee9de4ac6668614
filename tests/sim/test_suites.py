"""The ``smoke`` suite of ``blocks/plan.yaml`` on Verilator and Icarus: every run of the suite is built and run
through ``dlaverif.flow.runner`` (cocotb_tools.runner), one pytest item per (simulator, run).

A run fails when any cocotb test fails, when a test the plan expects did not run (a renamed or deleted test cannot
drop out silently), or when an artifact the plan names (functional coverage XML) was not written. A missing
simulator fails with an install hint (never skipped).

Environment: SEEDS (comma-separated run seeds, default "1"), COUNT (random items per family; default: the suite's),
WAVES=1, COCOTB_TEST_FILTER (a test-name regex). Builds: ``sim_build/<sim>/<build>-<xdist worker>/``; each run and
seed in ``<run>-seed<N>/`` below it. Reproduce one test: ``make sim SIM=<sim> TESTCASE=<test> SEED=<n>``.
"""

from __future__ import annotations

import os

import pytest

from dlaverif.flow import runner, sim as simflow, testplan
from tests.sim.conftest import require

SEEDS = [int(s) for s in (os.getenv("SEEDS") or "1").split(",") if s.strip()]
WAVES = os.getenv("WAVES", "0") not in ("", "0")
SUITE = testplan.load().suite("smoke")


@pytest.mark.sim
@pytest.mark.parametrize("entry", SUITE.runs, ids=lambda e: e.run.name)
@pytest.mark.parametrize("sim", runner.SIMULATORS)
def test_smoke_run(sim: str, entry: testplan.SuiteRun) -> None:
    run = entry.run
    require(run.build)  # a run whose third-party RTL is not found here is skipped, saying how to get it
    b = simflow.build_run(sim, run, waves=WAVES)
    flt = os.getenv("COCOTB_TEST_FILTER") or None
    env = entry.environment(os.getenv("COUNT", "").strip() or SUITE.count)
    for seed in SEEDS:
        tests = flt or (list(run.tests) or None)
        limit = runner.simulation_limit(sim, run.name, tests if isinstance(tests, list) else None, env["COUNT"])
        xml = runner.run(b, run.module, seed, tests, env, waves=WAVES, tag=run.name.replace("/", "-"), limit_s=limit)
        rows = runner.assert_passed(xml)
        if not flt:
            ran = {r.name.split("/", 1)[0] for r in rows}
            missing = run.expected_tests() - ran
            assert not missing, f"{run.name}: tests missing from the run: {sorted(missing)}"
        for art in run.artifacts:
            assert (xml.parent / art).exists(), f"{run.name}: {art} was not written"
