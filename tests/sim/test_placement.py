"""Job placement at every legal address width (the configuration matrix's AXI_ADDR_W 12 .. 64), without a simulator:
``dlaverif.placement`` keeps every base inside the build's address space, the weight and pixel stimulus built
on it stays inside it, and at the defaults (40 bits) it draws what the fixed placements drew before (hand-written
formulas of those placements as the oracle: the seeds and exact cycle counts at the defaults are unchanged)."""

from __future__ import annotations

import numpy as np
import pytest

from blocks.cube_reader import families as F
from blocks.cube_reader.harness import at_atoms, nvdla_feature
from blocks.cube_reader.test_directed import ATOM_CASES
from blocks.pixel_reader import pictures as P
from blocks.weight_reader import weights as W
from dlaverif import placement
from dlaverif.models.blocked import Layout

WIDTHS = (12, 13, 16, 21, 32, 40, 62, 63, 64)


def test_placements_by_hand_at_12_and_13_bits():
    assert placement.at_top(256, 12, 256) == 4096 - 256
    assert placement.at_top(300, 12, 32) == (4096 - 300) // 32 * 32
    assert placement.page_boundary(np.random.default_rng(0), 12) == 0  # one page: no boundary inside
    assert placement.page_boundary(np.random.default_rng(0), 13) == 4096  # two pages: the one between them
    assert placement.fit_down(0x1000_0000, 1000, 12, 32) == (4096 - 1000) // 32 * 32
    assert placement.fit_down(-256, 100, 12, 256) == 0
    assert placement.slots_that_fit(200, 4096 - 64, 12, 32) == 3  # gaps of 0, 32 and 64 bytes fit
    with pytest.raises(placement.DoesNotFit, match="5000 bytes do not fit in a 12-bit address space"):
        placement.at_top(5000, 12, 256)


@pytest.mark.parametrize("bits", WIDTHS)
def test_every_base_keeps_the_job_inside_the_space(bits):
    rng = np.random.default_rng(bits)
    top = 1 << bits
    for span in (1, 100, 256, 3000, 4096):
        assert 0 <= placement.at_top(span, bits, 256) and placement.at_top(span, bits, 256) + span <= top
        for _ in range(20):
            for base in (
                placement.below_top(rng, span, bits, 256),
                placement.in_window(rng, 0x1000_0000, 4096, span, bits, 32),
                placement.fit_down(placement.page_boundary(rng, bits) - 512, span, bits, 256),
            ):
                assert 0 <= base and base + span <= top, (bits, span, hex(base))


def test_default_width_draws_what_the_fixed_placements_drew():
    for seed in range(50):
        a, b = np.random.default_rng(seed), np.random.default_rng(seed)
        # the pixel reader's pictures: 0x1000_0000 + 32 * k, k < 4096
        assert placement.in_window(a, 0x1000_0000, 4096, 5000, 40, 32) == 0x1000_0000 + 32 * int(b.integers(0, 4096))
        # the weight reader's: a page boundary among the first 4095, or anywhere below the top (256-byte steps)
        assert placement.page_boundary(a, 40) == int(b.integers(1, 1 << 12)) * 4096
        assert placement.below_top(a, 7936, 40, 256) == int(b.integers(0, ((1 << 40) - 7936) >> 8)) << 8


@pytest.mark.parametrize("bits", WIDTHS)
def test_weight_sets_lie_inside_the_space_or_refuse(bits):
    """A weight set inside the space, its surfaces apart; or DoesNotFit (the sequences then draw a smaller one)."""
    rng = np.random.default_rng(bits)
    placed = 0
    for family in W.FAMILIES:
        for _ in range(4):
            try:
                ws = W.draw(rng, family, "int8", "uniform_0.5", bits, small=True)
            except placement.DoesNotFit:
                continue
            placed += 1
            spans = sorted((base, base + max(size, 1)) for base, size in ws.desc.ranges().values())
            assert spans[0][0] >= 0 and spans[-1][1] <= 1 << bits, (bits, spans)
            assert all(hi <= lo for (_, hi), (lo, _) in zip(spans, spans[1:])), spans
            assert not ws.desc.errors(bits)
    assert placed >= 8, f"only {placed} weight sets fit {bits} address bits"


@pytest.mark.parametrize("bits", WIDTHS)
def test_pictures_lie_inside_the_space(bits):
    rng = np.random.default_rng(bits)
    for name in P.PIXEL_FORMATS:
        pic = P.draw(rng, name, addr_bits=bits)
        for base, size in pic.desc.ranges().values():
            assert 0 <= base and base + size <= 1 << bits, (name, hex(base), size)
        assert not pic.desc.errors(bits)


@pytest.mark.parametrize("max_atom", [8, 16, 32, 64, 128])
def test_directed_cubes_at_the_builds_atoms(max_atom):
    """The cube reader's directed cubes at MAX_ATOM_BYTES: unchanged where the build sends their atoms, else the
    same counts and runs in generic atoms of the build's width; legal for that build either way."""
    for d in [nvdla_feature(5, 4, 3, 2, base=0x20040, line_gap=64, surf_gap=96, batch_gap=32), *ATOM_CASES.values()]:
        fit = at_atoms(d, max_atom, 21)
        assert not fit.errors(21, max_atom_bytes=max_atom)
        if d.atom_bytes <= max_atom:
            assert fit is d
        else:
            assert "atom_size" in d.errors(21, max_atom_bytes=max_atom)  # what the build answers to d itself
            ratio = d.atom_bytes // max_atom
            assert (fit.atom_bytes, fit.layout, fit.counts) == (max_atom, Layout.GENERIC, d.counts)
            assert np.array_equal(fit.atom_addresses() - fit.base, (d.atom_addresses() - d.base) // ratio)


def test_upper_half_by_hand():
    """The highest address bit set and the job inside the space; the whole upper half reachable."""
    assert placement.upper_half(np.random.default_rng(0), 2048, 12, 32) == 2048  # the job fills the upper half
    assert placement.upper_half(np.random.default_rng(0), 3000, 12, 32) == placement.at_top(3000, 12, 32)
    seen = {placement.upper_half(np.random.default_rng(s), 4096 - 64, 13, 32) for s in range(200)}
    assert seen == {4096, 4096 + 32, 4096 + 64}  # every aligned base that fits, none else
    with pytest.raises(placement.DoesNotFit):
        placement.upper_half(np.random.default_rng(0), 5000, 12, 32)


def test_draw_below_reaches_past_numpy_int64():
    """Uniform below any Python int up to 2**64: numpy's integers() alone stops at 2**63 - 1."""
    rng = np.random.default_rng(3)
    n = (1 << 64) - 5
    draws = [placement.draw_below(rng, n) for _ in range(400)]
    assert all(0 <= v < n for v in draws)
    assert sum(v >= 1 << 63 for v in draws) > 150  # about half in the upper half
    assert placement.draw_below(np.random.default_rng(7), 1000) == int(np.random.default_rng(7).integers(0, 1000))


@pytest.mark.parametrize("bits", WIDTHS)
def test_high_placements_set_the_highest_address_bit(bits):
    """The address-space tails of the random sequences: every base at or above 2**(bits-1) (2**63 at 64 bits),
    every job inside the space, pictures and cubes alike; a one-plane picture's lines at ``top`` end in the last
    32 bytes."""
    rng = np.random.default_rng(bits)
    half, top = 1 << (bits - 1), 1 << bits
    for name in P.PIXEL_FORMATS:
        for where in ("high", "top"):
            pic = P.draw(rng, name, addr_bits=bits, where=where, h=2, w=9)
            spans = list(pic.desc.ranges().values())
            assert all(base + size <= top for base, size in spans), (name, where, spans)
            assert all(half <= base for base, _ in spans) or bits == 12, (name, where, spans)  # 2 KB: may not fit
            assert not pic.desc.errors(bits)
            if where == "top" and not P.PIXEL_FORMATS[name].semi_planar:  # plane 1's gap is drawn after the base
                d = pic.desc  # its lines (the last one's padding too) end in the last 32 bytes
                assert top - 32 < d.base0 + d.height * d.line_stride0 <= top
    for fam in F.available_families() if bits >= 21 else ():  # the cube reader's matrix: 21 bits and up (plan)
        for where in ("high", "top_exact"):
            d = fam.draw(rng, fam.dtypes[0], addr_bits=bits, where=where).desc
            if d.extent <= half:
                assert d.base >= half and d.base + d.extent <= top, (fam.name, where, hex(d.base))
        d = fam.draw(rng, fam.dtypes[0], addr_bits=bits, where="cross_half").desc
        assert d.base + d.extent <= top and (d.extent > top // 2 or d.base < half), (fam.name, hex(d.base))


def test_pictures_refuse_an_unknown_place():
    with pytest.raises(ValueError, match="where='middle': one of window, high, top"):
        P.draw(np.random.default_rng(0), "T_R8", addr_bits=40, where="middle")


def test_build_value_is_the_builds_parameter_else_the_rtl_default(monkeypatch):
    from dlaverif.flow import contracts

    monkeypatch.delenv("PARAM_MAX_OUTSTANDING", raising=False)
    assert contracts.build_value("cube_reader", "MAX_OUTSTANDING") == 128  # blocks/rtl/cube_reader/cube_reader.sv
    monkeypatch.setenv("PARAM_MAX_OUTSTANDING", "255")
    assert contracts.build_value("cube_reader", "MAX_OUTSTANDING") == 255
