"""Directed cocotb tests of the cube reader (tb/cube_reader/test_directed.py) and of its AXI read engine alone
(tb/axi_rd_engine/test_engine.py) on Verilator and Icarus.

Each simulator builds ``rtl_stubs/files.f`` into ``sim_build/<sim>/<config>-<xdist worker>/`` (tb.runner) and
runs the whole directed module once; the test fails when any cocotb test fails (names and messages in the
assertion, logs under the build directory). The 256-bit bus is the default build; a 512-bit build runs the
data-path tests again.
"""
from __future__ import annotations

import os

import pytest

from tb import runner

SEEDS = [int(s) for s in (os.getenv("SEEDS") or "1").split(",") if s.strip()]
# the 512-bit build repeats the tests whose data path depends on the bus width
WIDE_TESTS = "packed_nvdla_int8|atom_sizes|four_kb_boundary|bus_error|bus_utilization|backpressure"


def _build_and_run(sim: str, top: str, test_module: str, config: str, params: dict, test_filter: str | None = None):
    b = runner.build(sim, top, config, params)
    for seed in SEEDS:
        runner.assert_passed(runner.run(b, test_module, seed, test_filter))


@pytest.mark.sim
@pytest.mark.parametrize("width", [256, 512], ids=lambda w: f"dw{w}")
@pytest.mark.parametrize("sim", runner.SIMULATORS)
def test_cube_reader_directed(sim: str, width: int) -> None:
    _build_and_run(sim, "cube_reader", "tb.cube_reader.test_directed",
                   "directed" if width == 256 else f"directed{width}", {"AXI_DATA_W": width},
                   None if width == 256 else WIDE_TESTS)


@pytest.mark.sim
@pytest.mark.parametrize("sim", runner.SIMULATORS)
def test_axi_rd_engine_directed(sim: str) -> None:
    _build_and_run(sim, "axi_rd_engine", "tb.axi_rd_engine.test_engine", "engine", {})
