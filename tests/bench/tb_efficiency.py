"""cocotb module of the DUT-efficiency benchmark (``tests/bench/efficiency.py`` runs it): each
reader on the default platform (the same TB, scoreboard and checkers as its pyuvm tests, so every job is also
checked byte for byte), a few fixed cases per block, each at read latency 0 and 32, without and with 50 % random
TREADY backpressure (the ``half`` stall profile); with ``EFFICIENCY_MODE=latency`` the latency table's cases
at read latency 0, 8, 32 and 128 without backpressure instead.

Per job (exact simulated cycles, so the figures do not depend on the machine):

* ``bus_util``: AXI read data beats / cycles from the first accepted AR to the last R beat (both included);
* ``out_per_cycle``: output transfers / cycles from the first to the last transfer;
* ``out_bytes_per_cycle``: output bytes / the job's CYCLES register (START to DONE);
* the job's CYCLES and BEATS registers, the output bytes.

Rows go to ``$EFFICIENCY_JSON`` (one file per block). Nothing here asserts a rate; the scoreboard fails the test
on any wrong byte.
"""

from __future__ import annotations

import json
import os
from typing import Any, Callable, Sequence

import numpy as np
import pyuvm

from blocks.cube_reader.families import Layout, _finish
from blocks.cube_reader.items import Kind as CubeKind
from blocks.cube_reader.sequences import CubeSeqBase
from blocks.cube_reader.tests import CubeTestBase
from blocks.pixel_reader.items import Kind as PixelKind
from blocks.pixel_reader.sequences import PixelSeqBase
from blocks.pixel_reader.tests import PixelTestBase
from blocks.weight_reader.items import Kind as WeightKind
from blocks.weight_reader.sequences import WeightSeqBase
from blocks.weight_reader.tests import WeightTestBase
from dlaverif.agents.analysis import JobLog
from dlaverif.platform import Knobs

from .efficiency import CONDITIONS, LATENCY_CONDITIONS, efficiency

TIMEOUT_MS = 2000


def latency_mode() -> bool:
    """``EFFICIENCY_MODE=latency``: the latency table's cases at :data:`LATENCY_CONDITIONS`, not the
    efficiency cases at :data:`CONDITIONS`."""
    return os.getenv("EFFICIENCY_MODE", "") == "latency"


async def run_cases(seq: Any, block: str, cases: Sequence[tuple[str, Callable[[], Any]]]) -> list[dict]:
    """Send every case at every condition (a fresh item per job, the same stimulus across the conditions of a
    case) and return one row per job. ``seq.r_port``: the memory agent's ``r_ap`` (set by the test)."""
    log = JobLog(r=seq.r_port)
    rows = []
    for label, make in cases:
        for latency, backpressure in LATENCY_CONDITIONS if latency_mode() else CONDITIONS:
            item = make()
            item.knobs = Knobs(latency=latency, backpressure=backpressure)
            log.take()
            await seq.send(item)
            rows.append(
                {
                    "block": block,
                    "case": label,
                    "latency": latency,
                    "tready": backpressure,
                    **efficiency(item, log.take()["r"]),
                }
            )
    return rows


async def measure(test: Any, seq: Any) -> None:
    """Run a block's case sequence in its test and write the rows to ``$EFFICIENCY_JSON``."""
    seq.r_port = test.tb.mem.r_ap
    await test.run_seq(seq)
    out = os.getenv("EFFICIENCY_JSON")
    if out:
        with open(out, "w") as f:
            json.dump(seq.rows, f, indent=2)


# ------------------------------------------------------------------------------------------------ cube reader
def _cube(
    rng: np.random.Generator,
    fmt: str,
    layout: Layout,
    dtype: str,
    shape: tuple,
    epa: int,
    channels: int,
    opts: dict,
    addr_bits: int,
):
    tensor = (
        rng.integers(-100, 100, shape).astype(dtype)
        if dtype != "int8"
        else rng.integers(-128, 128, shape, dtype=np.int8)
    )
    return _finish(fmt, layout, dtype, shape, opts, tensor, rng, epa, channels, addr_bits, "page")


#: (label, format, layout, dtype, shape, elements per atom, channels, options): 32 to 64 KB each
CUBE_CASES: tuple[tuple[str, str, Layout, str, tuple[int, int, int, int], int, int, dict[str, int]], ...] = (
    ("NVDLA int8 packed 1x64x16x32", "nvdla.feature", Layout.NVDLA_FEATURE, "int8", (1, 64, 16, 32), 32, 64, {}),
    ("NVDLA fp16 packed 1x32x16x32", "nvdla.feature", Layout.NVDLA_FEATURE, "float16", (1, 32, 16, 32), 16, 32, {}),
    (
        "NVDLA int8, 2-atom gap per line",
        "nvdla.feature",
        Layout.NVDLA_FEATURE,
        "int8",
        (1, 64, 16, 32),
        32,
        64,
        {"line_stride": 34 * 32, "surface_stride": 16 * 34 * 32 + 64, "batch_stride": 2 * (16 * 34 * 32 + 64)},
    ),
    ("oneDNN nChw16c f32 1x32x16x16", "onednn.nChw16c", Layout.ONEDNN, "float32", (1, 32, 16, 16), 16, 32, {}),
    ("MACE image f32 1x16x64x8", "mace.image.channel_major", Layout.MACE, "float32", (1, 16, 64, 8), 4, 8, {}),
)

#: the latency table's cubes: 1024 int8 atoms each, one-atom lines with a one-atom gap after each line,
#: 8-atom lines with a one-atom gap, packed
CUBE_LATENCY_CASES: tuple[tuple[Any, ...], ...] = (
    (
        "one-atom lines (gapped)",
        "nvdla.feature",
        Layout.NVDLA_FEATURE,
        "int8",
        (1, 128, 256, 1),
        32,
        128,
        {"line_stride": 64, "surface_stride": 256 * 64, "batch_stride": 4 * 256 * 64},
    ),
    (
        "8-atom lines (gapped)",
        "nvdla.feature",
        Layout.NVDLA_FEATURE,
        "int8",
        (1, 128, 32, 8),
        32,
        128,
        {"line_stride": 9 * 32, "surface_stride": 32 * 9 * 32, "batch_stride": 4 * 32 * 9 * 32},
    ),
    ("packed", "nvdla.feature", Layout.NVDLA_FEATURE, "int8", (1, 128, 32, 8), 32, 128, {}),
)


class _CubeCases(CubeSeqBase):
    async def body(self) -> None:
        cases = []
        for label, fmt, layout, dtype, shape, epa, ch, opts in CUBE_LATENCY_CASES if latency_mode() else CUBE_CASES:
            cube = _cube(self.rng, fmt, layout, dtype, shape, epa, ch, opts, self.addr_bits)

            def make(cube=cube):
                item = self.new_item(CubeKind.CUBE, cube)
                item.nan_to_zero = False
                return item

            cases.append((label, make))
        self.rows = await run_cases(self, "cube_reader", cases)


@pyuvm.test(timeout_time=TIMEOUT_MS, timeout_unit="ms")
class CubeEfficiency(CubeTestBase):
    """Bus utilization and output rate of five cube layouts at latency 0/32, with and without backpressure."""

    async def body(self) -> None:
        await measure(self, _CubeCases("eff"))


# ------------------------------------------------------------------------------------------------ weight reader
#: (label, precision, sparsity pattern): DC 64x128x3x3, two kernel groups (as the weight ThroughputTest)
WEIGHT_CASES = (
    ("dense int8", "int8", "dense"),
    ("density 0.5 int8", "int8", "uniform_0.5"),
    ("density 0.05 int8", "int8", "uniform_0.05"),
    ("all-ones int16", "int16", "all_ones"),
)


class _WeightCases(WeightSeqBase):
    async def body(self) -> None:
        cases = []
        for label, dtype, mask in WEIGHT_CASES:
            ws = None
            while ws is None or ws.shape[2:] != (3, 3):
                ws = self.draw(family="dc", dtype=dtype, mask=mask, kernels=64, channels=128)
            cases.append((label, lambda ws=ws: self.new_item(WeightKind.WEIGHTS, ws, Knobs())))
        self.rows = await run_cases(self, "weight_reader", cases)


@pyuvm.test(timeout_time=TIMEOUT_MS, timeout_unit="ms")
class WeightEfficiency(WeightTestBase):
    """Bus utilization and dense output bytes per cycle of dense and sparse weights at latency 0/32, with and
    without backpressure."""

    async def body(self) -> None:
        await measure(self, _WeightCases("eff"))


# ------------------------------------------------------------------------------------------------ pixel reader
PIXEL_CASES = (
    ("T_A8B8G8R8 256x16", "T_A8B8G8R8", 16, 256, 0),
    ("T_A2B10G10R10 256x16", "T_A2B10G10R10", 16, 256, 0),
    ("T_Y8___U8V8_N444 256x16", "T_Y8___U8V8_N444", 16, 256, 0),
)
#: the latency table's pictures: (label, format, height, width, bus words of gap after each line): the
#: narrowest lines (8 pixels of 4 bytes: one bus word, then a one-word gap) and the widest pixels (8 bytes)
PIXEL_LATENCY_CASES = (
    ("narrow lines: T_A8B8G8R8 8x256, 1-word gap", "T_A8B8G8R8", 256, 8, 1),
    ("8-byte pixels: T_A16B16G16R16 256x16", "T_A16B16G16R16", 16, 256, 0),
)


class _PixelCases(PixelSeqBase):
    async def body(self) -> None:
        cases = []
        for label, name, h, w, gap in PIXEL_LATENCY_CASES if latency_mode() else PIXEL_CASES:
            pic = self.draw(name, h=h, w=w, x_offset=0, gap0=gap, gap1=0)
            cases.append((label, lambda pic=pic: self.new_item(PixelKind.PICTURE, pic)))
        self.rows = await run_cases(self, "pixel_reader", cases)


@pyuvm.test(timeout_time=TIMEOUT_MS, timeout_unit="ms")
class PixelEfficiency(PixelTestBase):
    """Bus utilization and pixels (output atoms) per cycle of three pixel formats at latency 0/32, with and
    without backpressure."""

    async def body(self) -> None:
        await measure(self, _PixelCases("eff"))
