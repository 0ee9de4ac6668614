"""BlockedCubeDescriptor: the validator reference model and the atom stream, against hand-worked cases."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from dlaverif.models import FormatError
from dlaverif.models.blocked import ERROR_RULES, BlockedCubeDescriptor as D, Layout

# A packed NVDLA int8 cube W=4, H=3, C=64 (2 surfaces): LS = 4*32, SS = 3*LS (clarifications 1.2).
PACKED = D(
    base=0x1000,
    atom_bytes=32,
    elem_bytes=1,
    count_w=4,
    count_h=3,
    count_c=2,
    count_n=1,
    stride_h=128,
    stride_c=384,
    stride_n=768,
    layout=Layout.NVDLA_FEATURE,
)


def test_packed_cube_is_legal_and_sized():
    assert PACKED.errors() == []
    assert PACKED.num_atoms == 24
    assert PACKED.extent == 768  # (2-1)*384 + (3-1)*128 + (4-1)*32 + 32


def test_atom_addresses_follow_the_offset_formula():
    addr = PACKED.atom_addresses()
    assert addr.shape == (1, 2, 3, 4)
    assert addr[0, 1, 2, 3] == 0x1000 + 384 + 2 * 128 + 3 * 32
    assert list(addr.reshape(-1)[:5]) == [0x1000, 0x1020, 0x1040, 0x1060, 0x1080]


@pytest.mark.parametrize(
    "change, rules",
    [
        (dict(layout=7), ["layout"]),
        (dict(atom_bytes=64), ["atom_size", "overlap"]),  # NVDLA feature atoms are 32 bytes; 4x64 B > line
        (dict(atom_bytes=24, layout=Layout.GENERIC), ["atom_size", "align_base", "align_stride_h"]),  # 4096%24, 128%24
        (dict(elem_bytes=4), ["elem_size"]),  # NVDLA elements are 1 or 2 bytes
        (dict(fp16=True), ["elem_size"]),  # fp16 needs 2-byte elements
        (dict(count_h=0), ["count"]),
        (dict(count_n=65536, stride_n=1 << 20), ["count"]),
        (dict(base=0x1010), ["align_base"]),  # Table 35: 32-byte start
        (dict(stride_h=136, stride_c=448), ["align_stride_h"]),
        (dict(stride_c=400), ["align_stride_c"]),
        (dict(stride_n=784), ["align_stride_n"]),
        (dict(stride_h=96), ["overlap"]),  # line shorter than 4 atoms
        (dict(stride_c=256), ["overlap"]),  # surface shorter than 3 lines
        (dict(stride_c=128), ["overlap"]),  # surface stride equal to line stride
    ],
)
def test_each_rule_has_its_own_error(change, rules):
    assert PACKED.with_(**change).errors() == rules


def test_count_of_one_ignores_its_stride_for_overlap_but_not_for_alignment():
    one = PACKED.with_(count_n=1, stride_n=0)
    assert one.errors() == []
    assert PACKED.with_(stride_n=16).errors() == ["align_stride_n"]  # still a register rule


def test_address_overflow_against_the_bus_width():
    top = (1 << 40) - PACKED.extent
    assert PACKED.with_(base=top).errors(addr_bits=40) == []
    assert PACKED.with_(base=top + 32).errors(addr_bits=40) == ["addr_overflow"]
    assert PACKED.with_(base=top + 32).errors(addr_bits=64) == []


def test_error_bits_follow_rule_order():
    assert ERROR_RULES.index("overlap") == 8
    assert PACKED.with_(stride_h=96, base=0x1010).error_bits() == (1 << 8) | (1 << 4)


def test_an_atom_wider_than_the_readers_stream_is_refused():
    # the cube reader sends one atom per transfer: a build with MAX_ATOM_BYTES = 16 refuses 32-byte atoms
    assert PACKED.errors(max_atom_bytes=32) == []
    assert PACKED.errors(max_atom_bytes=16) == ["atom_size"]
    generic = PACKED.with_(layout=Layout.GENERIC, atom_bytes=16, stride_h=64, stride_c=192, stride_n=384)
    assert generic.errors(max_atom_bytes=16) == []
    assert generic.errors(max_atom_bytes=8) == ["atom_size"]


def test_validate_names_the_rule():
    with pytest.raises(FormatError, match=r"descriptor\.align_base"):
        PACKED.with_(base=0x1004).validate()


def test_mace_interleaved_nesting_is_legal():
    # MACE channel-major: w, then channel group (W*atom), then h (row pitch): stride_c < stride_h.
    w, cg, h = 3, 2, 2
    d = D(0, 16, 4, w, h, cg, 1, stride_h=w * cg * 16, stride_c=w * 16, stride_n=h * w * cg * 16, layout=Layout.MACE)
    assert d.errors() == []
    assert d.with_(atom_bytes=8).errors() == ["atom_size"]  # MACE atom = 4 elements


def test_gather_and_scatter_are_inverse():
    rng = np.random.default_rng(1)
    gapped = PACKED.with_(stride_h=160, stride_c=512, base=0)
    atoms = rng.integers(0, 256, (gapped.num_atoms, 32), dtype=np.uint8)
    mem = gapped.scatter(atoms, fill=0xA5)
    assert np.array_equal(gapped.gather(mem), atoms)
    # the gap bytes are not part of any atom
    assert mem[128:160].tolist() == [0xA5] * 32


def test_gather_refuses_memory_that_is_too_small():
    with pytest.raises(FormatError, match="out_of_image"):
        PACKED.gather(np.zeros(100, np.uint8), mem_base=0x1000)


@settings(max_examples=60, deadline=None)
@given(
    w=st.integers(1, 5),
    h=st.integers(1, 5),
    c=st.integers(1, 4),
    n=st.integers(1, 3),
    atom=st.sampled_from([8, 16, 32, 64, 128]),
    gh=st.integers(0, 3),
    gc=st.integers(0, 3),
    gn=st.integers(0, 3),
)
def test_nested_layouts_with_gaps_are_legal_and_injective(w, h, c, n, atom, gh, gc, gn):
    sh = w * atom + gh * atom
    sc = h * sh + gc * atom
    sn = c * sc + gn * atom
    d = D(0, atom, 1, w, h, c, n, sh, sc, sn, Layout.ONEDNN)
    assert d.errors() == []
    addr = d.atom_addresses().reshape(-1)
    assert len(np.unique(addr)) == addr.size  # one start per atom
    assert np.all(np.diff(np.sort(addr)) >= atom)  # no two atoms share a byte
