"""Directed cocotb tests of the pixel reader (module ``blocks.pixel_reader.test_directed``), on the same TB wrapper,
agents, read checker and model comparison as the pyuvm tests (``PixelReaderTB``, ``scoreboard.expected_for``).

Tests: ``n444_line_buffer`` (a two-plane picture whose Y lines span several words, strides differing per plane),
``converter_boundaries`` (every saturation and rounding boundary of the input converter, both signs),
``throughput`` (beats and pixels per cycle of three formats at latency 0 and 32, from the BEATS, PIXELS and CYCLES
registers, exact simulated cycles; printed as the table of docs/pixel_reader.md and bounded).
"""

from __future__ import annotations

import logging
from typing import Any

import cocotb
import numpy as np
from cocotb.triggers import ClockCycles

from dlaverif.platform import Knobs

from .env import PixelReaderTB
from .items import Kind, PixelItem
from .pictures import draw, picture_of
from .scoreboard import check_job, expected_for, saturated_components

LOG = logging.getLogger("cocotb.regression.pixel_reader")


async def run_one(tb: PixelReaderTB, item: PixelItem) -> list[str]:
    """Run one job and check it as the pyuvm scoreboard does (``scoreboard.check_job`` against
    ``expected_for``): the problems found (empty when exact)."""
    log = tb.observe()
    res = await tb.run_job(item)
    await tb.flush()
    res.observe(log.take())
    return check_job(item, expected_for(item, tb.addr_bits))


def picture_item(
    tb: PixelReaderTB, rng: np.random.Generator, name: str, knobs: Knobs | None = None, **kw: Any
) -> PixelItem:
    """A PICTURE item of a random picture of format ``name`` (``pictures.draw`` keywords), inside the build's
    address space."""
    item = PixelItem(name)
    item.kind = Kind.PICTURE
    item.picture = pic = draw(rng, name, addr_bits=tb.addr_bits, **kw)
    item.desc = pic.desc
    item.knobs = knobs if knobs is not None else Knobs()
    return item


async def _setup() -> tuple[PixelReaderTB, np.random.Generator]:
    rng = np.random.default_rng(cocotb.RANDOM_SEED)
    tb = PixelReaderTB(cocotb.top, np.random.default_rng([cocotb.RANDOM_SEED, 1]))
    await tb.reset()
    return tb, rng


async def _close(tb: PixelReaderTB, problems: list[str]) -> None:
    """The end of a test: nothing may be read after its last job (10 cycles to see it); every problem logged, the
    first one fails the test."""
    tb.reads.close()
    await ClockCycles(tb.clk, 10)
    for p in problems:
        LOG.error("%s", p)
    assert not problems, problems[0]


@cocotb.test()
async def n444_line_buffer(dut: Any) -> None:
    """Two-plane pictures at the largest x offset whose Y lines span several words, plane strides differing."""
    tb, rng = await _setup()
    problems = []
    for name in ("T_Y12___U12V12_N444", "T_Y8___V8U8_N444", "T_Y16___V16U16_N444"):
        for w in (9, 17, 40):
            item = picture_item(
                tb, rng, name, h=3, w=w, x_offset="max", gap0=1, gap1=0, converter="saturate", style="specials"
            )
            pic = item.picture
            assert pic is not None, "picture_item draws a picture"
            problems += [f"{pic.label()}: {p}" for p in await run_one(tb, item)]
    await _close(tb, problems)


#: (format, what it stands for) of the datasheet's throughput table
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
            item = picture_item(tb, rng, name, Knobs(latency=lat), h=16, w=256, x_offset=0, gap0=0, gap1=0)
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


#: Directed converter cases: (label, format, output precision 0 int8 / 1 int16 / 2 fp16, component
#: dtype, converter registers, raw components, components the model must clamp). Equation 1 as the model does it
#: (models.nvdla.pixel.input_convert): t = (x17 - offset) * scale, y = round_half_away(t / 2**truncate), int17
#: saturation, then int8/int16 saturation or int -> fp16 (round to nearest even, +-65504).
CONVERTER_BOUNDARIES: tuple[tuple[str, str, int, str, dict[str, Any], tuple[int, ...], int], ...] = (
    # fp16: 65504 is the largest finite; 65519 rounds down to it; from 65520 on the value rounds to infinity and
    # saturates (3 clamped); 2049 / 2051 and 4098 / 4102 are ties of the 2- and 4-apart fp16 neighbours (to even)
    (
        "fp16 +",
        "T_R16",
        2,
        "uint16",
        {"cvt_scale": 1},
        (65503, 65504, 65505, 65519, 65520, 65521, 65535, 0, 1, 2049, 2051, 4098, 4102),
        3,
    ),
    (
        "fp16 -",
        "T_R16",
        2,
        "uint16",
        {"cvt_scale": -1},
        (65503, 65504, 65505, 65519, 65520, 65521, 65535, 0, 1, 2049, 2051, 4098, 4102),
        3,
    ),
    # int17 first: (x + 32768) * 2 is 65536 and more, clamped to 65535 and then to fp16 65504 (all 4); with offset
    # 32767, (x - 32767) * 2 = -65534 .. stays inside int17 but passes -65520 (3 of 4)
    ("int17 fp16", "T_R16", 2, "uint16", {"cvt_offset": -32768, "cvt_scale": 2}, (0, 16383, 16384, 65535), 4),
    ("int17 -fp16", "T_R16", 2, "uint16", {"cvt_offset": 32767, "cvt_scale": 2}, (0, 1, 32767, 2), 3),
    ("int16 +", "T_R16", 1, "uint16", {"cvt_scale": 1}, (32766, 32767, 32768, 32769, 65535, 0), 3),
    ("int16 -", "T_R16", 1, "uint16", {"cvt_scale": -1}, (32766, 32767, 32768, 32769, 65535, 0), 2),
    ("int8 +", "T_R16", 0, "uint16", {"cvt_scale": 1}, (126, 127, 128, 129, 255, 256, 0), 4),
    ("int8 -", "T_R16", 0, "uint16", {"cvt_scale": -1}, (126, 127, 128, 129, 255, 256, 0), 3),
    # ties of the shift: x / 2 and x / 4 with halves, rounded away from zero on both signs
    ("ties int16 +", "T_R16", 1, "uint16", {"cvt_truncate": 1}, (1, 2, 3, 5, 7, 65533, 65535), 1),
    ("ties int16 -", "T_R16", 1, "uint16", {"cvt_scale": -1, "cvt_truncate": 1}, (1, 2, 3, 5, 7, 65533, 65535), 0),
    ("ties int8 +", "T_R16", 0, "uint16", {"cvt_scale": 3, "cvt_truncate": 2}, (2, 6, 42, 170, 169, 171), 2),
    ("ties int8 -", "T_R16", 0, "uint16", {"cvt_scale": -3, "cvt_truncate": 2}, (2, 6, 42, 170, 171, 172), 1),
    # sign-extended components (PIXEL_SIGN_OVERRIDE) through int8 and int16
    ("signed int8", "T_R16", 0, "int16", {"sign_override": "signed"}, (-129, -128, -127, 127, 128, -32768, 32767), 4),
    (
        "signed int16",
        "T_R16",
        1,
        "int16",
        {"sign_override": "signed", "cvt_scale": 2},
        (-16385, -16384, 16383, 16384, 0),
        2,
    ),
    # 8-bit components (T_R8): zero-extended, and sign-extended with PIXEL_SIGN_OVERRIDE
    ("8-bit int8", "T_R8", 0, "uint8", {}, (126, 127, 128, 255, 0), 2),
    (
        "signed 8-bit int8",
        "T_R8",
        0,
        "int8",
        {"sign_override": "signed", "cvt_scale": 2},
        (-65, -64, 63, 64, -128, 127),
        4,
    ),
)


@cocotb.test()
async def converter_boundaries(dut: Any) -> None:
    """Every saturation and rounding boundary of the input converter, both signs (CONVERTER_BOUNDARIES): each
    case is one line of T_R16 or T_R8 pixels; the pixels, SATURATED and the status against the model, and the model
    must clamp exactly the stated number of components (so that the case really sits on its boundary)."""
    tb, rng = await _setup()
    problems = []
    for label, name, precision, dtype, cvt, values, clamped in CONVERTER_BOUNDARIES:
        t = np.array(values, dtype=np.int64).astype(dtype).reshape(1, len(values), 1)
        opts = {"x_offset": 0, "line_stride": -(-t.itemsize * len(values) // 32) * 32}
        pic = picture_of(rng, name, t, opts, precision, {"cvt_en": True, **cvt}, tb.addr_bits)
        item = PixelItem(label)
        item.kind, item.picture, item.desc, item.knobs = Kind.PICTURE, pic, pic.desc, Knobs()
        got = int(saturated_components(pic).sum())
        if got != clamped:
            problems.append(f"{label}: the model clamps {got} components, the case is written for {clamped}")
        problems += [f"{label} ({pic.label()}): {p}" for p in await run_one(tb, item)]
    await _close(tb, problems)
