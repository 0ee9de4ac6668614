"""The arithmetic of `make bench`'s DUT-efficiency rows and of the models' share of a regression, on hand-made
inputs whose answers are counted by hand (the benches themselves only run in `make bench`)."""

from __future__ import annotations

from types import SimpleNamespace

from dlaverif.agents.axi_mem import Burst, RBeat
from dlaverif.agents.stream import Beat
from tests.bench.efficiency import efficiency, table
from tests.bench.model_share import classify


def _job() -> tuple[SimpleNamespace, list[RBeat]]:
    # first AR accepted at cycle 10; 6 R beats, the last at cycle 21: 6 beats over cycles 10..21 = 12 cycles
    bursts = [Burst(0, 0x1000, 5, 5, 1, 10)]
    r = [RBeat(0x1000 + 32 * i, 0, i == 5, c) for i, c in enumerate((13, 14, 15, 18, 20, 21))]
    # 4 output transfers of 32, 32, 32 and 8 bytes at cycles 15..18 (4 cycles); CYCLES register 26
    out = [Beat(bytes(n), (1 << n) - 1, i == 3, i, 15 + i) for i, n in enumerate((32, 32, 32, 8))]
    status = SimpleNamespace(cycles=26, beats=6)
    item = SimpleNamespace(result=SimpleNamespace(bursts=bursts, beats=out, status=status))
    return item, r


def test_efficiency_counts_from_first_ar_to_last_r_beat() -> None:
    item, r = _job()
    row = efficiency(item, r)
    assert row["r_beats"] == 6 and row["bus_util"] == 6 / 12
    assert row["transfers"] == 4 and row["out_per_cycle"] == 1.0
    assert row["out_bytes"] == 104 and row["out_bytes_per_cycle"] == 104 / 26
    assert row["cycles"] == 26 and row["beats"] == 6


def test_efficiency_of_a_job_without_reads() -> None:
    item = SimpleNamespace(result=SimpleNamespace(bursts=[], beats=[], status=SimpleNamespace(cycles=5, beats=0)))
    row = efficiency(item, [])
    assert row["bus_util"] == 0.0 and row["out_per_cycle"] == 0.0 and row["out_bytes"] == 0


def test_table_has_one_line_per_case_and_a_column_per_condition() -> None:
    item, r = _job()
    rows = [
        {"block": "b", "case": c, "latency": lat, "tready": t, **efficiency(item, r)}
        for c in ("x", "y")
        for lat, t in ((0, "none"), (32, "half"))
    ]
    lines = table(rows).splitlines()
    assert len(lines) == 4 and lines[0].count("|") == 5
    assert lines[2].startswith("| b | x | 0.500 / 1.000 (4.0 B)")


RAW = """\
process 1:"python -m dlaverif.flow.regression run";process 2:"/w/sim_build/verilator/x/cube_reader";Task._resume (cocotb/task.py:349);pack (dlaverif/models/core/registry.py:231) 7
process 1:"python -m dlaverif.flow.regression run";process 2:"/w/sim_build/verilator/x/cube_reader";Task._resume (cocotb/task.py:349);_tick (dlaverif/agents/axi_mem.py:300) 20
process 1:"python -m dlaverif.flow.regression run";process 2:"/w/sim_build/verilator/x/cube_reader" 13
process 1:"python -m dlaverif.flow.regression run";main (dlaverif/flow/regression/__main__.py:10) 4
process 1:"python -m dlaverif.flow.regression run";x (tb/models/notmine.py:3) 2
"""  # noqa: E501  (py-spy's collapsed stacks, one sample line each: kept verbatim)


def test_classify_counts_model_frames_testbench_and_simulator() -> None:
    c = classify(RAW)
    # a frame of the models package only when its path starts with dlaverif/models/ (not tb/models/...)
    assert c == {"models": 7, "testbench": 20, "simulator": 13, "other": 6}
