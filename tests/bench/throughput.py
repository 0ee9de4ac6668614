"""Testbench throughput (``make bench``): verified bytes per second and simulated cycles per second for a 4
MiB NVDLA int8 cube through the cube reader on Verilator (512 KiB on Icarus, ``tb_throughput.SHAPES``), for (a) the
naive baseline (AxiRamRead + a Python loop on every rising edge), (b) the default pyuvm testbench, (c) the fast path
(HDL memory and capture, ``dlaverif/fastpath/harness.py``), each as a ratio to (a). Times are wall seconds of the job
inside the simulator process (programming, simulation, checking; not the build nor the simulator's start-up). Rates
use the CPU time of the simulator process (``time.process_time`` inside it; the child's rusage for the ceiling), best
of ``BENCH_REPS`` runs: on a shared machine the wall time mostly measures the other users; both spreads are printed
and kept. Written to ``sim_build/bench/throughput.json``. Nothing asserts a time."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import numpy as np

from dlaverif.flow import runner, testplan

from . import ceiling
from .tb_throughput import bench_cube

OUT = Path(__file__).resolve().parents[2] / "sim_build" / "bench"
MODULE = "tests.bench.tb_throughput"
#: (row, testplan build, cocotb test): the builds are the testplan's (the fast path's declares its wrapper)
CASES = (
    ("a naive", "cube_reader", "naive"),
    ("b default", "cube_reader", "PlatformBench"),
    ("c fast", "cube_reader_hdl", "PlatformBench"),
)


def _row(sim: str, label: str, runs: list[dict], cpus: list[float], walls: list[float]) -> dict:
    """Rates from the best (least disturbed) CPU time; the spread of CPU and wall times is kept."""
    cpu = min(cpus)
    return {
        "sim": sim,
        "case": label,
        "runs": runs,
        "cpu_s": cpu,
        "cpu_min": min(cpus),
        "cpu_max": max(cpus),
        "wall_min": min(walls),
        "wall_max": max(walls),
        "cycles": runs[-1]["cycles"],
        "bytes": runs[-1]["bytes"],
        "bytes_per_s": runs[-1]["bytes"] / cpu,
        "cycles_per_s": runs[-1]["cycles"] / cpu,
    }


def measure(sim: str, reps: int) -> list[dict]:
    rows = []
    builds = {}
    for label, top, test in CASES:
        if top not in builds:
            pb = testplan.load().builds[top]
            builds[top] = runner.build(sim, pb.toplevel, f"bench-{top}", pb.parameters, options=pb.options)
        runs = []
        for _ in range(reps):
            xml = runner.run(builds[top], MODULE, 1, [test], tag=f"bench-{test}-{top}")
            runner.assert_passed(xml)
            runs.append(json.loads((xml.parent / "bench.json").read_text()))
        rows.append(_row(sim, label, runs, [r["cpu_s"] for r in runs], [r["wall_s"] for r in runs]))
    cmd = ceiling.build(sim)
    c = ceiling.run(sim, cmd, bench_cube(np.random.default_rng(1), sim=sim), reps)
    if c["mismatches"]:
        raise RuntimeError(f"ceiling run on {sim}: the HDL logs do not match the model ({c})")
    rows.append(_row(sim, "d ceiling", [c], c["cpus"], c["walls"]))
    base, top = rows[0]["bytes_per_s"], rows[-1]["bytes_per_s"]
    for r in rows:
        r["x_naive"] = r["bytes_per_s"] / base
        r["of_ceiling"] = r["bytes_per_s"] / top
    return rows


def main() -> int:
    reps = int(os.getenv("BENCH_REPS", "2"))
    sims = [s for s in (os.getenv("BENCH_SIMS") or "verilator,icarus").split(",") if s]
    rows = []
    print(
        f"{'sim':10s} {'testbench':10s} {'cycles':>8s} {'CPU s (min..max)':>18s} {'wall s (min..max)':>18s} "
        f"{'verified KB/s':>14s} "
        f"{'kcycles/s':>10s} {'x naive':>8s} {'of ceiling':>10s}"
    )
    for sim in sims:
        for r in measure(sim, reps):
            rows.append(r)
            print(
                f"{r['sim']:10s} {r['case']:10s} {r['cycles']:8d} {r['cpu_min']:8.2f}..{r['cpu_max']:<8.2f} "
                f"{r['wall_min']:8.2f}..{r['wall_max']:<8.2f} "
                f"{r['bytes_per_s'] / 1e3:14.0f} {r['cycles_per_s'] / 1e3:10.1f} "
                f"{r['x_naive']:8.2f} {r['of_ceiling']:10.3f}"
            )
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "throughput.json").write_text(json.dumps({"reps": reps, "rows": rows}, indent=2))
    print(f"written {OUT / 'throughput.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
