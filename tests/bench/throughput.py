"""Testbench throughput of issue 12 (``make bench``): verified bytes per second and simulated cycles per second for
a 4 MiB NVDLA int8 cube through the cube reader, on Verilator and Icarus, for (a) the naive baseline (AxiRamRead +
a Python loop on every rising edge), (b) the default pyuvm testbench, (c) the fast path (HDL memory and capture,
``tb/hdl_mem.py``), each as a ratio to (a). Times are wall seconds of the job inside the simulator process
(programming, simulation, checking; not the build nor the simulator's start-up), best of ``REPS`` runs and the
spread over them. Written to ``sim_build/bench/throughput.json``. Nothing asserts a time.
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from tb import runner

OUT = Path(__file__).resolve().parents[2] / "sim_build" / "bench"
MODULE = "tests.bench.tb_throughput"
CASES = (("a naive", "cube_reader", "naive"), ("b default", "cube_reader", "PlatformBench"),
         ("c fast", "cube_reader_hdl", "PlatformBench"))


def measure(sim: str, reps: int) -> list[dict]:
    rows = []
    builds = {}
    for label, top, test in CASES:
        if top not in builds:
            builds[top] = runner.build(sim, top, f"bench-{top}")
        runs = []
        for rep in range(reps):
            xml = runner.run(builds[top], MODULE, 1, [test], tag=f"bench-{test}-{top}")
            runner.assert_passed(xml)
            runs.append(json.loads((xml.parent / "bench.json").read_text()))
        best = min(runs, key=lambda r: r["wall_s"])
        walls = [r["wall_s"] for r in runs]
        rows.append({"sim": sim, "case": label, "runs": runs, "wall_s": best["wall_s"], "wall_min": min(walls),
                     "wall_max": max(walls), "cycles": best["cycles"], "bytes": best["bytes"],
                     "bytes_per_s": best["bytes"] / best["wall_s"], "cycles_per_s": best["cycles"] / best["wall_s"]})
    base = rows[0]["bytes_per_s"]
    for r in rows:
        r["x_naive"] = r["bytes_per_s"] / base
    return rows


def main() -> int:
    reps = int(os.getenv("BENCH_REPS", "2"))
    sims = [s for s in (os.getenv("BENCH_SIMS") or "verilator,icarus").split(",") if s]
    rows = []
    print(f"{'sim':10s} {'testbench':10s} {'cycles':>8s} {'wall s (min..max)':>20s} {'verified KB/s':>14s} "
          f"{'kcycles/s':>10s} {'x naive':>8s}")
    for sim in sims:
        for r in measure(sim, reps):
            rows.append(r)
            print(f"{r['sim']:10s} {r['case']:10s} {r['cycles']:8d} {r['wall_min']:9.2f}..{r['wall_max']:<9.2f} "
                  f"{r['bytes_per_s'] / 1e3:14.0f} {r['cycles_per_s'] / 1e3:10.1f} {r['x_naive']:8.2f}")
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "throughput.json").write_text(json.dumps({"reps": reps, "rows": rows}, indent=2))
    print(f"written {OUT / 'throughput.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
