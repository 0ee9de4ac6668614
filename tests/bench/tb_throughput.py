"""cocotb module of the testbench-throughput benchmark (``tests/bench/throughput.py`` runs it): one NVDLA
int8 feature cube (1x256x128x128 = 4 MiB on Verilator, 1x256x128x16 on Icarus: ``SHAPES``; packed, latency 0, no
stalls) through the cube reader, every byte compared.

* ``naive``: the baseline: cocotbext-axi's ``AxiRamRead`` and a Python loop that awaits every rising
  edge and compares each transfer's bytes with the model's atom (``desc.gather``) as it arrives.
* ``PlatformBench``: the pyuvm platform (``CubeReaderTB``, the env, ``CubeScoreboard``); on the default build it
  uses the default agents, on the ``cube_reader_hdl`` build (its ``fastpath:`` wrapper,
  ``dlaverif/flow/fastpath.py``) the fast path (``dlaverif/fastpath/harness.py``).

Each writes ``bench.json`` into its run folder: wall and CPU seconds of the simulator process for the job
(programming, simulation, check), simulated cycles of the job, bytes compared, mismatches. The scoreboard's verdict
fails the test, as always.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import cocotb
import numpy as np
import pyuvm
from cocotb.clock import Clock
from cocotb.simtime import get_sim_time
from cocotb.triggers import ClockCycles, RisingEdge
from cocotbext.axi import AxiRamRead, AxiReadBus

from blocks.cube_reader import registers
from blocks.cube_reader.families import Layout, _finish
from blocks.cube_reader.items import Kind
from blocks.cube_reader.sequences import CubeSeqBase
from blocks.cube_reader.tests import CubeTestBase
from dlaverif.agents.csr import CsrAgent
from dlaverif.platform import PERIOD_NS, Knobs

SHAPE = (1, 256, 128, 128)  # int8: 4 MiB
#: Icarus simulates the reader about 100 times slower than Verilator (1.4k cycles/s even with no Python at all):
#: it gets an eighth of the cube (512 KiB), so that make bench stays within minutes; rates are per byte and per cycle
SHAPES = {"verilator": SHAPE, "icarus": (1, 256, 128, 16)}


def bench_shape(sim: str) -> tuple[int, ...]:
    return SHAPES.get(sim.lower(), SHAPE)


def bench_cube(rng: np.random.Generator, addr_bits: int = 40, sim: str = "verilator"):
    shape = bench_shape(sim)
    tensor = rng.integers(-128, 128, shape, dtype=np.int8)
    return _finish(
        "nvdla.feature", Layout.NVDLA_FEATURE, "int8", shape, {}, tensor, rng, 32, shape[1], addr_bits, "page"
    )


def _sim() -> str:
    return "icarus" if "icarus" in cocotb.SIM_NAME.lower() else "verilator"


def _write(result: dict) -> None:
    Path("bench.json").write_text(json.dumps(result))


def _cycle() -> int:
    return int(get_sim_time("ns") // PERIOD_NS)


@cocotb.test()
async def naive(dut) -> None:
    """AxiRamRead + a Python loop awaiting every rising edge, comparing every byte as it arrives."""
    Clock(dut.clk, PERIOD_NS, unit="ns").start(start_high=False)
    dut.rst.value = 1
    dut.m_axis_tready.value = 1
    ram = AxiRamRead(AxiReadBus.from_prefix(dut, "m_axi"), dut.clk, dut.rst, size=1 << 40)
    csr = CsrAgent(dut, dut.clk, dut.rst, registers.REGS, "s_axil", irq=dut.irq, period_ns=PERIOD_NS)
    await ClockCycles(dut.clk, 4)
    dut.rst.value = 0
    await ClockCycles(dut.clk, 2)
    cube = bench_cube(np.random.default_rng(1), sim=_sim())
    d = cube.desc
    ram.write(d.base, cube.image.tobytes())
    expected = d.gather(cube.image, d.base)
    t0, p0, c0 = time.perf_counter(), time.process_time(), _cycle()
    await registers.program(csr, d)
    await csr.start()
    n = bad = 0
    ab = d.atom_bytes
    mask = (1 << (8 * ab)) - 1
    while n < expected.shape[0]:
        await RisingEdge(dut.clk)
        if dut.m_axis_tvalid.value and dut.m_axis_tready.value:
            got = (dut.m_axis_tdata.value.to_unsigned() & mask).to_bytes(ab, "little")
            if got != expected[n].tobytes():
                bad += 1
            n += 1
    wall, cpu, cycles = time.perf_counter() - t0, time.process_time() - p0, _cycle() - c0
    _write({"wall_s": wall, "cpu_s": cpu, "cycles": cycles, "bytes": int(expected.size), "mismatches": bad})
    assert bad == 0, f"{bad} atoms differ"


class _BenchSeq(CubeSeqBase):
    def __init__(self, name: str, cube) -> None:
        super().__init__(name)
        self.cube = cube

    async def body(self) -> None:
        item = self.new_item(Kind.CUBE, self.cube)
        item.knobs = Knobs()
        item.nan_to_zero = False
        await self.send(item)


@pyuvm.test(timeout_time=2000, timeout_unit="ms")
class PlatformBench(CubeTestBase):
    """The bench cube through the pyuvm platform (default agents or the fast path, by build)."""

    async def body(self) -> None:
        cube = bench_cube(np.random.default_rng(1), self.tb.addr_bits, _sim())  # stimulus made before the clock starts
        t0, p0, c0 = time.perf_counter(), time.process_time(), _cycle()
        await self.run_seq(_BenchSeq("bench", cube))
        wall, cpu, cycles = time.perf_counter() - t0, time.process_time() - p0, _cycle() - c0
        sb = self.env.scoreboard
        _write(
            {
                "wall_s": wall,
                "cpu_s": cpu,
                "cycles": cycles,
                "bytes": int(np.prod(bench_shape(_sim()))),
                "mismatches": sb.errors,
                "atoms_checked": sb.units_checked,
                "fast_path": self.tb.backend.exchange_seconds() is not None,
                "hdl_exchange_s": self.tb.backend.exchange_seconds(),
                "check_s": sb.check_seconds,
            }
        )
