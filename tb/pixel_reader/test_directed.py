"""Directed cocotb tests of the pixel reader (module ``tb.pixel_reader.test_directed``), on the same TB wrapper,
agents, read checker and model comparison as the pyuvm tests (``PixelReaderTB``, ``scoreboard.expected_for``).

Tests: ``n444_line_buffer`` (a two-plane picture whose Y lines span several words, strides differing per plane),
``throughput`` (beats and pixels per cycle of three formats at latency 0 and 32, from the BEATS, PIXELS and CYCLES
registers, exact simulated cycles; printed as the table of docs/pixel_reader.md and bounded).
"""

from __future__ import annotations

import logging
from typing import Any

import cocotb
import numpy as np
from cocotb.triggers import ClockCycles

from tb.platform import Knobs

from .env import PixelReaderTB
from .items import Kind, PixelItem
from .pictures import draw
from .scoreboard import check_job, expected_for

LOG = logging.getLogger("cocotb.regression.pixel_reader")


async def run_one(tb: PixelReaderTB, item: PixelItem) -> list[str]:
    """Run one job and check it as the pyuvm scoreboard does (``scoreboard.check_job`` against
    ``expected_for``): the problems found (empty when exact)."""
    log = tb.observe()
    res = await tb.run_job(item)
    await tb.flush()
    res.observe(log.take())
    return check_job(item, expected_for(item, tb.addr_bits))


def picture_item(rng: np.random.Generator, name: str, knobs: Knobs | None = None, **kw: Any) -> PixelItem:
    """A PICTURE item of a random picture of format ``name`` (``pictures.draw`` keywords)."""
    item = PixelItem(name)
    item.kind = Kind.PICTURE
    item.picture = pic = draw(rng, name, **kw)
    item.desc = pic.desc
    item.knobs = knobs if knobs is not None else Knobs()
    return item


async def _setup() -> tuple[PixelReaderTB, np.random.Generator]:
    rng = np.random.default_rng(cocotb.RANDOM_SEED)
    tb = PixelReaderTB(cocotb.top, np.random.default_rng([cocotb.RANDOM_SEED, 1]))
    await tb.reset()
    return tb, rng


@cocotb.test()
async def n444_line_buffer(dut: Any) -> None:
    """Two-plane pictures at the largest x offset whose Y lines span several words, plane strides differing."""
    tb, rng = await _setup()
    problems = []
    for name in ("T_Y12___U12V12_N444", "T_Y8___V8U8_N444", "T_Y16___V16U16_N444"):
        for w in (9, 17, 40):
            item = picture_item(
                rng, name, h=3, w=w, x_offset="max", gap0=1, gap1=0, converter="saturate", style="specials"
            )
            pic = item.picture
            assert pic is not None, "picture_item draws a picture"
            problems += [f"{pic.label()}: {p}" for p in await run_one(tb, item)]
    tb.reads.close()
    await ClockCycles(dut.clk, 10)
    for p in problems:
        LOG.error("%s", p)
    assert not problems, problems[0]


#: (format, what it stands for) of the throughput table (issue 10)
THROUGHPUT_FORMATS = (
    ("T_A8B8G8R8", "8-bit, 4 channels"),
    ("T_A2B10G10R10", "packed 10-bit"),
    ("T_Y8___U8V8_N444", "semi-planar N444"),
)
THROUGHPUT_LATENCIES = (0, 32)
#: lower bound on pixels per cycle (START to DONE) of a 256x16 picture: one pixel per cycle less the per-line
#: plane-0 fill of N444 (8 cycles per 256-pixel line), the job's start-up and the first read's latency
MIN_PIXELS_PER_CYCLE = 0.9


@cocotb.test()
async def throughput(dut: Any) -> None:
    """Beats and pixels per cycle (BEATS, PIXELS, CYCLES registers: exact simulated cycles) of a packed 256x16
    picture in three formats at read latency 0 and 32; every pixel checked against the model."""
    tb, rng = await _setup()
    rows, problems = [], []
    for name, what in THROUGHPUT_FORMATS:
        for lat in THROUGHPUT_LATENCIES:
            item = picture_item(rng, name, Knobs(latency=lat), h=16, w=256, x_offset=0, gap0=0, gap1=0)
            problems += [f"{name} latency {lat}: {p}" for p in await run_one(tb, item)]
            st = item.response().status
            rows.append((name, what, lat, st.beats, st.pixels, st.cycles))
    tb.reads.close()
    await ClockCycles(dut.clk, 10)
    lines = [
        "| format | kind | latency | beats | pixels | cycles | beats/cycle | pixels/cycle |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for name, what, lat, beats, pixels, cycles in rows:
        lines.append(
            f"| {name} | {what} | {lat} | {beats} | {pixels} | {cycles} | {beats / cycles:.3f} | "
            f"{pixels / cycles:.3f} |"
        )
        if pixels / cycles < MIN_PIXELS_PER_CYCLE:
            problems.append(f"{name} latency {lat}: {pixels / cycles:.3f} pixels per cycle < {MIN_PIXELS_PER_CYCLE}")
    LOG.info("pixel reader throughput (256x16 pictures, 256-bit bus):\n%s", "\n".join(lines))
    for p in problems:
        LOG.error("%s", p)
    assert not problems, problems[0]
