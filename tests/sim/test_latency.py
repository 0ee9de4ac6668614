"""Issue 15 in ``make test``: the cube reader at memory latency, on Verilator and Icarus (256-bit bus).

Runs ``tb/cube_reader/test_latency.py`` but its bench table: one-atom lines at latency 32 keep >= 0.95 beats
per cycle (simulated cycles, exact), and a bus error and a reset with every read slot in flight. The cube
reader is built with MAX_OUTSTANDING = the read engine's default (``cube_reader.sv`` passes its own parameter
to the engine).
"""
from __future__ import annotations

import os

import pytest

from tb import runner
from tb.axi_rd_engine.test_engine import default_outstanding

SEEDS = [int(s) for s in (os.getenv("SEEDS") or "1").split(",") if s.strip()]
TESTS = "one_atom_lines_latency32|bus_error_with_all_slots_in_flight|reset_with_all_slots_in_flight"  # a regex


@pytest.mark.sim
@pytest.mark.parametrize("sim", runner.SIMULATORS)
def test_cube_reader_latency(sim: str) -> None:
    n = default_outstanding()
    b = runner.build(sim, "cube_reader", f"latency-o{n}", {"AXI_DATA_W": 256, "MAX_OUTSTANDING": n})
    for seed in SEEDS:
        rows = runner.assert_passed(runner.run(b, "tb.cube_reader.test_latency", seed, TESTS))
        assert len(rows) == 4, f"expected 4 tests (bus error x2), ran {[r.name for r in rows]}"
