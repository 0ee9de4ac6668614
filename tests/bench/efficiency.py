"""`make bench`: DUT efficiency of the three readers, exact simulated cycles on Verilator.

For each block, the cases of ``tests/bench/tb_efficiency.py`` (cube reader: packed int8 and fp16 NVDLA cubes, an
NVDLA cube with gapped lines, nChw16c f32, a MACE image; weight reader: dense, density 0.5 and 0.05, all-ones
int16; pixel reader: an 8-bit 4-channel, a packed 10-bit and a semi-planar format), each at read latency 0 and 32,
without and with 50 % random TREADY backpressure. Columns: AXI read-bus utilization (data beats / cycles from
the first AR to the last R beat; the limit is 1.0), output transfers per cycle (first to last transfer) and output
bytes per cycle (START to DONE). With backpressure the output can take at most half the cycles, so ~0.5 is the
limit there. Rows land in ``sim_build/bench/efficiency.json``; nothing asserts a rate.

Then the latency table (the same test with ``EFFICIENCY_MODE=latency``): the cube reader's one-atom
lines, 8-atom lines and packed cubes, the weight reader's four cases, the pixel reader's narrowest lines and widest
pixels, at read latency 0, 8, 32 and 128; each cell output transfers per cycle / bus utilization. Rows land in
``sim_build/bench/latency_table.json``.
"""

from __future__ import annotations

import json
import platform
from datetime import datetime, timezone
from typing import Any

from dlaverif.agents.stream import payload
from dlaverif.flow import runner

OUT = runner.SIM_BUILD / "bench"
MODULE = "tests.bench.tb_efficiency"
SIM = "verilator"
#: (read latency, TREADY stall profile) of every case
CONDITIONS = ((0, "none"), (32, "none"), (0, "half"), (32, "half"))
#: the latency table's conditions: read latency 0, 8, 32 and 128, no backpressure
LATENCY_CONDITIONS = ((0, "none"), (8, "none"), (32, "none"), (128, "none"))
#: (build, test) per block
BLOCKS = (("cube_reader", "CubeEfficiency"), ("weight_reader", "WeightEfficiency"), ("pixel_reader", "PixelEfficiency"))


def efficiency(item: Any, r_beats: list) -> dict:
    """The figures of one finished job (``item.result`` from the scoreboard, ``r_beats`` the R
    beats the memory agent published during it)."""
    res = item.result
    st = res.status
    first_ar = res.bursts[0].cycle if res.bursts else 0
    last_r = r_beats[-1].cycle if r_beats else first_ar
    span = last_r - first_ar + 1
    beats = res.beats
    data, _ = payload(beats)
    out_span = (beats[-1].cycle - beats[0].cycle + 1) if len(beats) else 0
    return {
        "cycles": int(st.cycles),
        "beats": int(st.beats),
        "r_beats": len(r_beats),
        "bus_util": len(r_beats) / span if r_beats else 0.0,
        "transfers": len(beats),
        "out_per_cycle": len(beats) / out_span if out_span else 0.0,
        "out_bytes": int(data.size),
        "out_bytes_per_cycle": int(data.size) / int(st.cycles) if st.cycles else 0.0,
    }


def measure(top: str, test: str, mode: str = "") -> list[dict]:
    """Rows of one block's efficiency test (``mode`` ``latency``: the latency table's cases and conditions)."""
    b = runner.build(SIM, top, f"bench-{top}")
    OUT.mkdir(parents=True, exist_ok=True)
    rows_file = OUT / f"efficiency{'-' + mode if mode else ''}-{top}.rows.json"
    rows_file.unlink(missing_ok=True)
    runner.assert_passed(
        runner.run(
            b,
            MODULE,
            1,
            [test],
            tag=f"bench-eff{mode}-{top}",
            extra_env={"EFFICIENCY_JSON": str(rows_file), "EFFICIENCY_MODE": mode},
        )
    )
    return json.loads(rows_file.read_text())


def latency_table(rows: list[dict]) -> str:
    """One markdown row per (block, case), one column per read latency: output transfers per cycle / bus
    utilization."""
    lats = [lat for lat, _ in LATENCY_CONDITIONS]
    lines = [
        "| block | case | " + " | ".join(f"latency {lat}" for lat in lats) + " |",
        "|---|---|" + "---|" * len(lats),
    ]
    cases: dict[tuple[str, str], dict] = {}
    for r in rows:
        cases.setdefault((r["block"], r["case"]), {})[r["latency"]] = r
    for (block, case), cells in cases.items():
        lines.append(
            f"| {block} | {case} | "
            + " | ".join(f"{cells[lat]['out_per_cycle']:.3f} / {cells[lat]['bus_util']:.3f}" for lat in lats)
            + " |"
        )
    return "\n".join(lines)


def table(rows: list[dict]) -> str:
    """One markdown row per (block, case): bus utilization / output transfers per cycle per condition."""
    conds = sorted({(r["latency"], r["tready"]) for r in rows}, key=lambda c: (c[1] != "none", c[0]))
    head = (
        "| block | case | "
        + " | ".join(f"lat {lat}{', TREADY 50 %' if t != 'none' else ''}" for lat, t in conds)
        + " |"
    )
    lines = [head, "|---|---|" + "---|" * len(conds)]
    cases: dict[tuple[str, str], dict] = {}
    for r in rows:
        cases.setdefault((r["block"], r["case"]), {})[(r["latency"], r["tready"])] = r
    for (block, case), cells in cases.items():
        lines.append(
            f"| {block} | {case} | "
            + " | ".join(
                f"{cells[c]['bus_util']:.3f} / {cells[c]['out_per_cycle']:.3f} "
                f"({cells[c]['out_bytes_per_cycle']:.1f} B)"
                for c in conds
            )
            + " |"
        )
    return "\n".join(lines)


def main() -> int:
    rows: list[dict] = []
    for top, test in BLOCKS:
        rows += measure(top, test)
    print(
        "DUT efficiency (256-bit bus, exact simulated cycles): bus utilization / output transfers per cycle "
        "(output bytes per cycle, START to DONE)"
    )
    print(table(rows))
    doc = {
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%d"),
        "machine": platform.machine(),
        "simulator": SIM,
        "rows": rows,
    }
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "efficiency.json").write_text(json.dumps(doc, indent=2))
    print(f"written {OUT / 'efficiency.json'}")
    lat_rows: list[dict] = []
    for top, test in BLOCKS:
        lat_rows += measure(top, test, "latency")
    print(
        "Latency table (256-bit bus, exact simulated cycles, no backpressure): output transfers per cycle (first "
        "to last) / bus utilization (data beats / cycles from the first AR to the last R beat)"
    )
    print(latency_table(lat_rows))
    doc["rows"] = lat_rows
    (OUT / "latency_table.json").write_text(json.dumps(doc, indent=2))
    print(f"written {OUT / 'latency_table.json'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
