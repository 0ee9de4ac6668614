"""The fast path for descriptor-port readers, end to end through a user project's own Makefile: examples/desc_reader
and examples/stream_dma (status port with tag and error, TID/TDEST on its stream, an ``enable`` tie-off, an
active-low reset) each declare it in their plan as ``fastpath: {}`` (suite ``fast``): the wrapper's prefixes, clock,
reset, widths and control ports come from the reader's own ports. The same tests as on the default path pass on the
HDL memory and capture, on both simulators: every job's bytes, its status and its TID/TDEST checked, and its AXI4
read-master property set bound into the reader inside the wrapper (on Icarus through ``DLA_FASTPATH_TOP``)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.regression.test_user_coverage import _make

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _project(tmp_path: Path, example: str) -> Path:
    return shutil.copytree(EXAMPLES / example, tmp_path / example, ignore=shutil.ignore_patterns("sim_build"))


@pytest.mark.sim
@pytest.mark.parametrize("sim", ["verilator", "icarus"])
@pytest.mark.parametrize("example", ["desc_reader", "stream_dma"])
def test_a_descriptor_port_reader_passes_its_tests_on_the_fast_path(tmp_path: Path, example: str, sim: str) -> None:
    project = _project(tmp_path, example)
    done = _make(project, "sim", "SUITE=fast", f"SIM={sim}", "SEED=1")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert f"regression: 3 passed, 0 failed  (SIM={sim} SEED=1)" in done.stdout, done.stdout[-3000:]
    top = next((project / "sim_build").rglob(f"{example}_fastpath.sv"))  # the HDL top is the generated wrapper
    assert "hdl_axi_mem" in top.read_text()
    inputs = next((project / "sim_build" / sim).rglob("build-inputs.json")).read_text()
    assert f"{example}_props.sv" in inputs  # the property set is compiled with the wrapper
    results = (project / "sim_build").rglob("results.xml")
    assert any("RandomJobBursts" in p.read_text() for p in results)
