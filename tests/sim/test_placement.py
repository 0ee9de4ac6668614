"""Job placement at every legal address width (the configuration matrix's AXI_ADDR_W 12 .. 64), without a simulator:
``dlaverif.placement`` keeps every base inside the build's address space, the weight and pixel stimulus built
on it stays inside it, and at the defaults (40 bits) it draws what the fixed placements drew before (hand-written
formulas of those placements as the oracle: the seeds and exact cycle counts at the defaults are unchanged)."""

from __future__ import annotations

import numpy as np
import pytest

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
