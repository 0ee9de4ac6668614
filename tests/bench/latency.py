"""`make bench`: the read engine's size (flip-flops and memory bits); the cube-reader utilization
table (run by hand: :func:`utilization`), now part of the one latency table of ``efficiency.py``.

Utilization (AXI data beats / cycles of the job, from the BEATS and CYCLES registers) of 4096-atom int8 cubes
with one-atom lines, gapped 8-atom lines and packed lines, at latency 0, 8, 32 and 128, on the 256-bit and
512-bit builds, on Verilator (simulated cycles: exact and repeatable). The simulation is
``blocks/cube_reader/test_latency.py::latency_table``; its rows land in ``sim_build/bench/latency.json`` with the
flip-flop count of ``axi_rd_engine`` at its default MAX_OUTSTANDING and at 8 (Yosys ``stat`` after ``synth``).
"""

from __future__ import annotations

import json
import platform
import re
import shutil
import subprocess
import tempfile
from datetime import datetime, timezone
from pathlib import Path

from blocks.axi_rd_engine.test_engine import default_outstanding
from dlaverif.flow import runner

OUT = runner.SIM_BUILD / "bench"
BUS_BITS = (256, 512)
LATENCIES = (0, 8, 32, 128)
LAYOUT_LABELS = {
    "one_atom_lines": "one atom per line (gapped)",
    "eight_atom_lines": "8 atoms per line, gapped",
    "packed": "packed",
}
SIM = "verilator"


def utilization(bus_bits: int, outstanding: int) -> list[dict]:
    """Rows of ``latency_table`` for one build of the cube reader."""
    b = runner.build(
        SIM, "cube_reader", f"bench{bus_bits}-o{outstanding}", {"AXI_DATA_W": bus_bits, "MAX_OUTSTANDING": outstanding}
    )
    OUT.mkdir(parents=True, exist_ok=True)
    rows_file = OUT / f"latency-dw{bus_bits}-o{outstanding}.rows.json"
    rows_file.unlink(missing_ok=True)
    runner.assert_passed(
        runner.run(b, "blocks.cube_reader.test_latency", 1, "latency_table", extra_env={"LATENCY_JSON": str(rows_file)})
    )
    return json.loads(rows_file.read_text())


def storage(top: str, parameters: dict[str, int] | None = None, rtl: Path = runner.RTL) -> dict | None:
    """Flip-flop bits and memory bits of ``top`` (its defaults, but ``parameters``), from Yosys ``stat`` after a
    generic ``synth`` stopped before ``memory_map`` (then ``techmap``), the hierarchy flattened: a buffer written
    as an ``sdp_ram`` (registered read port) stays a memory. The RTL is read from a copy that the formal
    driver makes readable by Yosys 0.23 (``dlaverif.flow.formal.yosys_rewrite``: no ``import accel_pkg::*``), in the
    top's compile order (its ``<top>.f``). None when Yosys is not installed (``make setup``)."""
    yosys = shutil.which("yosys")
    if yosys is None:
        return None
    from dlaverif.flow import filelists
    from dlaverif.flow.formal import yosys_rewrite

    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "rtl"
        shutil.copytree(rtl, copy)
        yosys_rewrite(copy)
        incs = [f"-I{d}" for d in filelists.include_dirs(copy, top)]  # the port groups (common/axi_ports.svh)
        srcs = " ".join([*incs, *map(str, filelists.sources(copy, top))])
        chparams = "".join(f"chparam -set {k} {v} {top}; " for k, v in (parameters or {}).items())
        script = (
            f"read_verilog -sv {srcs}; {chparams}"
            f"synth -top {top} -flatten -run begin:fine; opt -fast -full; techmap; opt -fast; memory_unpack; stat"
        )
        subprocess.run([yosys, "-q", "-p", script, "-l", f"{tmp}/y.log"], capture_output=True, check=True)
        text = Path(tmp, "y.log").read_text()
    stat = text[text.rfind("Printing statistics") :]
    # one line per cell type: "$_DFF_P_   12", "$_SDFFE_PP0P_  40", ...
    ffs = sum(int(n) for _, n in re.findall(r"^\s+(\$_[A-Z]*DFF[A-Z0-9_]*)\s+(\d+)\s*$", stat, re.M))
    mem = re.search(r"Number of memory bits:\s+(\d+)", stat)
    return {"flip_flops": ffs, "memory_bits": int(mem[1]) if mem else 0}


def flip_flops(outstanding: int) -> dict | None:
    """The read engine's size at ``outstanding`` reads in flight (:func:`storage`)."""
    return storage("axi_rd_engine", {"MAX_OUTSTANDING": outstanding})


#: the tops whose size `make bench` reports at their defaults
READERS = ("cube_reader", "weight_reader", "pixel_reader")


def _cell(row: dict) -> str:
    """Utilization, and in brackets the fraction of the one-atom-per-cycle output limit where it differs."""
    u, f = row["utilization"], row["of_limit"]
    return f"{u:.3f}" if abs(u - f) < 5e-4 else f"{u:.3f} ({f:.3f})"


def table(rows: list[dict], bus_bits: int, outstanding: int) -> str:
    head = (
        f"| {bus_bits}-bit bus, {outstanding} reads in flight; latency (cycles) | "
        + " | ".join(str(lat) for lat in LATENCIES)
        + " |"
    )
    lines = [head, "|---|" + "---|" * len(LATENCIES)]
    for layout, label in LAYOUT_LABELS.items():
        cells = {r["latency"]: r for r in rows if r["layout"] == layout}
        lines.append(f"| {label} | " + " | ".join(_cell(cells[lat]) for lat in LATENCIES) + " |")
    return "\n".join(lines)


def main(outstanding: int | None = None) -> int:
    """The read engine's size (at ``outstanding`` reads in flight, default: the engine's default, and at 8). The
    latency table of the three readers is ``efficiency.py``'s; :func:`utilization` (the cube reader on
    both bus widths) stays for a run by hand."""
    n = default_outstanding() if outstanding is None else outstanding
    doc: dict = {
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%d"),
        "machine": platform.machine(),
        "processor": platform.processor(),
        "max_outstanding": n,
    }
    doc["size_source"] = "yosys synth -run begin:fine; techmap; stat (memories kept)"
    doc["size"] = {str(k): flip_flops(k) for k in sorted({n, 8})}
    doc["reader_size"] = {top: storage(top) for top in READERS}
    for top, sz in doc["reader_size"].items():
        if sz is not None:
            print(f"{top} (defaults): {sz['flip_flops']} flip-flops, {sz['memory_bits']} memory bits (Yosys stat)")
    for k, sz in doc["size"].items():
        print(
            f"axi_rd_engine, MAX_OUTSTANDING={k}: "
            + (
                f"{sz['flip_flops']} flip-flops, {sz['memory_bits']} memory bits (Yosys stat)"
                if sz is not None
                else "Yosys not installed: apt-get install -y yosys"
            )
        )
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "latency.json").write_text(json.dumps(doc, indent=2))
    print(f"written {OUT / 'latency.json'}")
    return 0
