"""Queue occupancy probes (``configs.tops.<top>.occupancy``, :mod:`dlaverif.platform.reach`) in real simulations,
on both simulators, built as the configuration matrix builds them: the weight reader at its smallest queues
(every beat queue 4 deep, one WGS entry: the contracts' minima, written out here) and the read engine at 255 bursts
in flight, whose matrix test fills its burst table. The probed counts are internal signals; on Verilator they are
readable only through the build's generated configuration file."""

from __future__ import annotations

import json
import os

import pytest

from dlaverif.flow import contracts, runner, sim as simflow, testplan

pytestmark = pytest.mark.sim

SIM = os.getenv("SIM", "")
SIMS = [SIM] if SIM else list(runner.SIMULATORS)
PLAN = testplan.load()


def _reach(sim: str, run_name: str, test: str) -> dict:
    run = PLAN.runs[run_name]
    b = simflow.build_run(sim, run)
    tag = run_name.replace("/", "-") + "-probes"
    results = runner.run(b, run.module, seed=1, testcase=test, extra_env={"COUNT": "1"}, tag=tag)
    rows = runner.read_results(results)
    assert rows and all(r.passed for r in rows), rows
    record = results.parent / f"reach_{test}.json"
    return json.loads(record.read_text())


@pytest.mark.parametrize("sim", SIMS)
def test_the_weight_readers_small_queues_are_followed_to_their_last_entry(sim):
    got = _reach(sim, "weight_reader/config@small_queues_narrow_bus", "EdgeTest")["occupancy"]
    assert got == {"data_queue": 4, "wmb_queue": 4, "wgs_queue": 4, "entry_queue": 1}


@pytest.mark.parametrize("sim", SIMS)
def test_the_weight_readers_queues_in_a_4kb_space_reach_their_reach_bounds(sim):
    """At 12 address bits and a 1024-bit bus (32 bus words in the space) QueueFillTest's sets that span the space
    fill every queue exactly to its bound (configs.tops.weight_reader.reach_bounds, else its depth): the data and
    WMB queues to 31 (their bounds; depths 160 and 32), the WGS beats to 32, the entries to 512; never beyond."""
    cfg = PLAN.configs["weight_reader@narrow_addr_wide_bus"]
    p = contracts.resolve("weight_reader", cfg.parameters)
    bounds = PLAN.reach_bounds["weight_reader"]
    want = {
        "data_queue": contracts.evaluate(bounds["data_queue"].bound, p),
        "wmb_queue": contracts.evaluate(bounds["wmb_queue"].bound, p),
        "wgs_queue": p["WGS_DEPTH"],
        "entry_queue": p["ENT_DEPTH"],
    }
    assert want == {"data_queue": 31, "wmb_queue": 31, "wgs_queue": 32, "entry_queue": 512}
    assert _reach(sim, "weight_reader/config@narrow_addr_wide_bus", "QueueFillTest")["occupancy"] == want


@pytest.mark.parametrize("sim", SIMS)
def test_the_engines_burst_table_holds_255_bursts(sim):
    got = _reach(sim, "axi_rd_engine/config@max_outstanding_max", "config_slots")
    assert got["occupancy"] == {"burst_table": 255}
    assert got["most_in_flight"] == 255  # the bus side agrees: 255 ARs accepted and not yet answered
