"""The testbench's pure address functions at the top of the 64-bit space (``AXI_ADDR_W`` 64), without a simulator:
footprints and fault lookups of the three readers, the read checker's regions, the sparse memory, the placement
helpers and the fast path's fault words. Jobs lie just below 2**63, at 2**63 and ending on the last byte of the
space (``2**64 - 1``). Oracles are Python integers from the spec's address formulas, written out here."""

from __future__ import annotations

import dataclasses
import itertools
from types import SimpleNamespace

import numpy as np
import pytest

from blocks.cube_reader import families as F
from blocks.cube_reader.footprint import atom_fault_range, cube_regions, first_fault_atom
from blocks.cube_reader.items import CubeItem, Kind
from blocks.cube_reader.scoreboard import expected_for
from blocks.pixel_reader.footprint import first_fault_pixel, line_starts, pixel_addresses, plane_regions
from blocks.weight_reader import weights as W
from blocks.weight_reader.footprint import needed_bytes, weight_regions, word_in
from dlaverif import models, placement
from dlaverif.agents.axi_mem import Burst, SparseMemory
from dlaverif.checkers.axi_read import AxiReadChecker
from dlaverif.fastpath.harness import HdlMemAgent
from dlaverif.footprint import Region, runs_hit, words_of_runs
from dlaverif.models import FormatError

TOP = 1 << 64
HALF = 1 << 63
BW = 32  # 256-bit bus


def _overflow(exc: pytest.ExceptionInfo) -> None:
    assert exc.value.rule == "image.address_overflow" and "the image ends above 2^64" in str(exc.value)


def _words(runs: list[tuple[int, int]], bw: int = BW) -> list[int]:
    """Bus words (address // bw) holding a byte of any run (start, bytes): Python ints."""
    return sorted({w for s, n in runs for w in range(s // bw, (s + n - 1) // bw + 1)})


# ---------------------------------------------------------------------------------------------- shared footprint
def test_words_of_runs_up_to_the_last_byte_and_not_one_past():
    starts = np.array([TOP - 96, TOP - 40], np.uint64)
    assert words_of_runs(starts, 40, BW).tolist() == _words([(TOP - 96, 40), (TOP - 40, 40)])
    assert words_of_runs(starts, 40, BW)[-1] == TOP // BW - 1  # the word holding 2**64 - 1
    with pytest.raises(FormatError) as exc:
        words_of_runs(starts, 41, BW)  # the second run would end at 2**64 + 1: refused, not wrapped to word 0
    _overflow(exc)


def test_runs_hit_sees_a_run_that_ends_on_the_last_byte():
    starts = np.array([0, HALF - 8, TOP - 32], np.uint64)
    assert runs_hit(starts, 32, TOP - BW, TOP).tolist() == [False, False, True]  # s + 32 wraps to 0 in uint64
    assert runs_hit(starts, 32, 0, 1).tolist() == [True, False, False]  # no wrapped run hits the bottom
    assert runs_hit(starts, 32, HALF, HALF + 1).tolist() == [False, True, False]  # a run straddling 2**63
    assert runs_hit(starts, 32, TOP - 33, TOP - 32).tolist() == [False, False, False]


# ---------------------------------------------------------------------------------------------- cube reader
def _cube_at(base_of, family: str = "nvdla.feature", seed: int = 0) -> F.Cube:
    """A legal cube of ``family`` drawn at 64 address bits, then moved to ``base_of(extent, alignment)``."""
    fam = {f.name: f for f in F.available_families()}[family]
    rng = np.random.default_rng(seed)
    cube = fam.draw(rng, fam.dtypes[0], addr_bits=64, where="any")
    d = cube.desc.with_(base=base_of(cube.desc.extent, cube.desc.alignment))
    return dataclasses.replace(cube, desc=d)


def _slow_atoms(cube: F.Cube) -> tuple[list[int], list[bytes]]:
    """Atom addresses (the spec's formula, Python ints) and their bytes read from the cube's image."""
    d = cube.desc
    addrs = [
        d.base + n * d.stride_n + c * d.stride_c + h * d.stride_h + w * d.atom_bytes
        for n, c, h, w in itertools.product(*map(range, d.counts))
    ]
    return addrs, [cube.image[a - d.base : a - d.base + d.atom_bytes].tobytes() for a in addrs]


BASES = {
    "straddles_2_63": lambda extent, align: (HALF - extent // 2) // align * align,
    "at_2_63": lambda extent, align: HALF,
    "ends_on_the_last_byte": lambda extent, align: TOP - extent,
}


@pytest.mark.parametrize("where", BASES)
@pytest.mark.parametrize("family", [f.name for f in F.available_families()])
def test_cube_expectation_and_footprint_at_the_top(family, where):
    """The scoreboard's expectation, the read footprint and the fault lookups of a cube placed at 2**63 or on the
    last byte: the atoms read from the Python-int addresses, their bus words, the atom a fault on the last word
    poisons."""
    cube = _cube_at(BASES[where], family)
    d = cube.desc
    assert d.errors(64) == []
    addrs, atoms = _slow_atoms(cube)
    if where == "ends_on_the_last_byte":
        assert addrs[-1] + d.atom_bytes == TOP
    item = CubeItem("t")
    item.kind, item.cube, item.desc = Kind.CUBE, cube, d
    exp = expected_for(item, 64)
    assert [int(a) for a in exp.addrs] == addrs
    assert [bytes(a) for a in exp.atoms] == atoms
    (region,) = cube_regions(d, BW)
    assert (region.lo, region.hi) == (d.base, d.base + d.extent)
    assert region.words is not None and region.words.tolist() == _words([(a, d.atom_bytes) for a in addrs])
    assert atom_fault_range(d, len(addrs) - 1, BW) == (addrs[-1] // BW * BW, addrs[-1] // BW * BW + BW)
    last_word = (addrs[-1] + d.atom_bytes - 1) // BW * BW  # the word of the cube's last byte (2**64 - BW at the top)
    word = (last_word, last_word + BW)
    first_hit = min(i for i, a in enumerate(addrs) if a < word[1] and a + d.atom_bytes > word[0])
    assert first_fault_atom(d, [(*word, "SLVERR")]) == first_hit
    item.kind, item.faults = Kind.BUS_ERROR, [(*word, "DECERR")]
    assert expected_for(item, 64).max_atoms == first_hit


def test_a_cube_one_atom_past_the_top_has_no_addresses():
    cube = _cube_at(lambda extent, align: TOP - extent + align)
    assert "addr_overflow" in cube.desc.errors(64)  # an illegal descriptor: the reader refuses it
    with pytest.raises(FormatError) as exc:
        cube.desc.atom_addresses()
    _overflow(exc)


def test_families_place_top_exact_cubes_on_the_last_byte_at_64_bits():
    for fam in F.available_families():
        cube = fam.draw(np.random.default_rng(1), fam.dtypes[0], addr_bits=64, where="top_exact")
        d = cube.desc
        end = d.base + max(d.extent, cube.image.size)  # the packed image may run past the last atom (padding)
        assert end <= TOP and TOP - end < d.alignment, fam.name
        assert [bytes(a) for a in cube.gather(d)] == _slow_atoms(cube)[1], fam.name


# ---------------------------------------------------------------------------------------------- pixel reader
@pytest.mark.parametrize("name", ["T_R8", "T_A16B16G16R16", "T_Y8___U8V8_N444", "T_Y16___V16U16_N444"])
def test_pixel_footprint_at_the_top(name):
    """Line starts, pixel addresses, the planes' bus words and the first poisoned pixel of a picture whose last
    plane ends on the last byte of the space (Python-int oracle: base + x offset position + h*stride + w*bpp)."""
    fmt = models.nvdla.pixel.PIXEL_FORMATS[name]
    h, w, xo = 3, 9, 1
    shape = (h, w, fmt.channels)
    dtype = fmt.dtypes[0]
    d0 = models.descriptor("nvdla.pixel." + name, shape, dtype, x_offset=xo)
    span = max(b + s for b, s in d0.ranges().values())
    base = (TOP - span) // 32 * 32
    d = models.descriptor("nvdla.pixel." + name, shape, dtype, x_offset=xo, base=base)
    assert d.errors(64) == []
    planes = [(d.base0, d.line_stride0), (d.base1, d.line_stride1)][: len(fmt.planes)]
    slow = []
    for i, (b, stride) in enumerate(planes):
        bpp = fmt.planes[i].bpp
        first = xo * bpp if i == 0 else (xo * bpp) % 32
        slow.append([[b + first + y * stride + x * bpp for x in range(w)] for y in range(h)])
    assert [s.tolist() for s in line_starts(d, fmt)] == [[row[0] for row in p] for p in slow]
    assert [a.tolist() for a in pixel_addresses(d, fmt)] == slow
    regions = plane_regions(d, BW)
    for i, r in enumerate(regions):
        bpp = fmt.planes[i].bpp
        assert r.words is not None and r.words.tolist() == _words([(row[0], w * bpp) for row in slow[i]])
    last_plane = len(slow) - 1
    last_byte = slow[last_plane][-1][-1] + fmt.planes[last_plane].bpp - 1
    word = last_byte // BW * BW
    hits = [
        y * w + x
        for y, x in itertools.product(range(h), range(w))
        for i in range(len(slow))
        if slow[i][y][x] < word + BW and slow[i][y][x] + fmt.planes[i].bpp > word
    ]
    assert first_fault_pixel(d, fmt, [(word, word + BW, "SLVERR")]) == min(hits)
    assert max(r.hi for r in regions) <= TOP


# ---------------------------------------------------------------------------------------------- weight reader
@pytest.mark.parametrize("compress", [False, True])
def test_weight_regions_at_the_top(compress):
    """The surfaces a weight job may read, and their needed bus words, with the last surface ending within 256 bytes
    of the top of the space (its highest 256-byte aligned base)."""
    rng = np.random.default_rng(3)
    ws = W.draw(rng, "dc", "int8", "uniform_0.5" if compress else "dense", 64, small=True, compressed=compress)
    at0 = models.descriptor(ws.fmt, ws.shape, ws.dtype, compress=compress, image=ws.image, **ws.opts).ranges()
    base = (TOP - max(b + s for b, s in at0.values())) // 256 * 256
    d = models.descriptor(ws.fmt, ws.shape, ws.dtype, base=base, compress=compress, image=ws.image, **ws.opts)
    assert d.errors(64) == []
    need = needed_bytes(ws, d)
    regions = weight_regions(ws, d, BW, strict=True)
    assert [(r.name, r.lo, r.hi) for r in regions] == [(n, b, b + max(s, 1)) for n, (b, s) in d.ranges().items()]
    for r in regions:
        assert r.words is not None and r.words.tolist() == _words([(r.lo, need[r.name])])
    assert TOP - 256 < max(r.hi for r in regions) <= TOP
    lo, hi = word_in(regions[-1].lo, need[regions[-1].name], BW, rng)
    assert regions[-1].lo // BW * BW <= lo and hi == lo + BW <= TOP


def test_weight_sets_placed_at_the_top_of_a_64_bit_space():
    """``weights.place`` at 64 bits ends a set within 256 bytes of the top when it draws "at the top"."""
    image = models.pack("nvdla.weight.dc", np.ones((2, 3, 3, 3), np.int8), compress=True)
    for seed in range(40):
        placed = W.place(np.random.default_rng(seed), image, 64)
        ends = [s.end for s in placed]
        assert max(ends) <= TOP
        if TOP - max(ends) < 256 * 9:
            break
    else:
        pytest.fail("no seed of 40 placed the set at the top")


# ---------------------------------------------------------------------------------------------- memory, checker
def test_sparse_memory_holds_the_last_byte_of_a_64_bit_space():
    m = SparseMemory(TOP)
    m.write(TOP - 4, b"\x01\x02\x03\x04")
    assert m.read(TOP - 6, 6) == bytes([0xA5, 0xA5, 1, 2, 3, 4])
    with pytest.raises(ValueError):
        m.read(TOP - 1, 2)


def test_read_checker_regions_at_the_top():
    """A strict region ending on the last byte: reads of its words pass, a stray word inside it and a word below
    it are reported with their 64-bit addresses."""
    starts = np.array([TOP - 128, TOP - 64], np.uint64)  # two 32-byte atoms with a one-word gap before each
    words = words_of_runs(starts, 32, BW)
    c = AxiReadChecker(BW)
    c.expect([Region("cube", TOP - 128, TOP, words)])
    c.write(Burst(0, TOP - 128, 0, 5, 1, 0))
    c.write(Burst(0, TOP - 64, 0, 5, 1, 0))
    assert c.take() == []
    c.write(Burst(0, TOP - 64, 1, 5, 1, 0))  # the last atom and the word after it: the last word of the space
    v = c.take()
    assert len(v) == 1 and f"first at 0x{TOP - 32:x}" in v[0]
    c.write(Burst(0, TOP - 160, 0, 5, 1, 0))
    v = c.take()
    assert len(v) == 1 and "outside the job's surfaces" in v[0] and f"0x{TOP - 160:x}" in v[0]


# ---------------------------------------------------------------------------------------------- placement, fast path
def test_placement_at_64_bits_reaches_the_last_byte():
    assert placement.at_top(4096, 64, 256) + 4096 == TOP
    assert placement.at_top(300, 64, 32) == (TOP - 300) // 32 * 32
    assert placement.fit_down(TOP, 512, 64, 256) == TOP - 512
    assert placement.aligned_bases(TOP, 64, 1) == 1
    with pytest.raises(placement.DoesNotFit):
        placement.aligned_bases(TOP + 1, 64, 1)


def test_fast_path_fault_words_fit_64_bits_at_the_top():
    """The fast path's memory configuration: a fault on the last bus word of a 64-bit space is written as its last
    byte (2**64 - 1, a 64-bit word; its exclusive end 2**64 is not), and the segments hold the image at the top."""
    mem = HdlMemAgent(SimpleNamespace(bus_bytes=BW, addr_bits=64, mem_words=1 << 19))
    mem.load(TOP - 64, bytes(range(64)))
    mem.inject(TOP - BW, TOP, "SLVERR")
    mem.inject(0x1000, 0x1000, "DECERR")  # an empty range poisons nothing: not written
    cfg = [0] * 64
    words = mem.config(cfg)
    assert cfg[36] == 1 and cfg[37:39] == [TOP - BW, TOP - 1]
    assert all(0 <= v < TOP for v in cfg)
    assert cfg[1] == 1 and cfg[2] == (TOP - 64 - 64) // BW  # one segment from the guard band below the image
    assert len(words) == cfg[3] * BW == 128


def test_runs_hit_takes_signed_starts_as_addresses():
    """int64 starts (a small address space's addresses) give the same answer as uint64 ones, never float64."""
    signed = np.array([0x1000, 0x1020], np.int64)
    assert runs_hit(signed, 32, 0x1020, 0x1021).tolist() == [False, True]
    with pytest.raises(FormatError):
        runs_hit(np.array([-32], np.int64), 32, 0, 1)
