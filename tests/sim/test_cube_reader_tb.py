"""The cube-reader testbench's own logic, without a simulator: the expected-stream model wrapper, fp16 classes,
the bus-error prefix rule, the stimulus families and the illegal-descriptor mutations, the sparse memory.

Oracles: hand-written bit patterns, and explicit slow loops over small cubes written here independently of
models.blocked (address = base + n*SN + c*SC + h*SH + w*ATOM).
"""

import numpy as np
import pytest

from blocks.cube_reader import families as F
from blocks.cube_reader.footprint import atom_fault_range, first_fault_atom
from blocks.cube_reader.items import CubeItem, Kind
from blocks.cube_reader.scoreboard import expected_for, fp16_classes
from blocks.cube_reader.sequences import _mutations
from dlaverif.agents.axi_mem import GUARD, SparseMemory
from dlaverif.models.blocked import BlockedCubeDescriptor as D, Layout


def test_fp16_classes_on_hand_patterns():
    halves = [0x7C00, 0xFC00, 0x7C01, 0xFE00, 0x7FFF, 0x0001, 0x8000, 0x3C00, 0x7BFF, 0x0000, 0x83FF, 0xFFFF]
    is_nan = [0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0, 1]
    is_inf = [1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    atoms = np.array(halves, "<u2").view(np.uint8).reshape(3, 8)  # little-endian in memory
    nan, inf, _ = fp16_classes(atoms, 2)
    assert nan.reshape(-1).astype(int).tolist() == is_nan
    assert inf.reshape(-1).astype(int).tolist() == is_inf


def _slow_stream(d, mem, mem_base):
    out, coords = [], []
    for n in range(d.count_n):
        for c in range(d.count_c):
            for h in range(d.count_h):
                for w in range(d.count_w):
                    a = d.base + n * d.stride_n + c * d.stride_c + h * d.stride_h + w * d.atom_bytes - mem_base
                    out.append(bytes(mem[a : a + d.atom_bytes]))
                    coords.append((n, c, h, w))
    return out, coords


def _item(cube, kind=Kind.CUBE, nan_to_zero=False):
    it = CubeItem("t")
    it.kind, it.cube, it.desc, it.nan_to_zero = kind, cube, cube.desc, nan_to_zero
    return it


@pytest.mark.parametrize("nan_to_zero", [False, True])
def test_expected_stream_matches_a_slow_loop_and_flushes_nan(nan_to_zero):
    rng = np.random.default_rng(5)
    d = D(
        base=0x2FC0,
        atom_bytes=16,
        elem_bytes=2,
        count_w=3,
        count_h=2,
        count_c=2,
        count_n=2,
        stride_h=64,
        stride_c=160,
        stride_n=352,
        layout=Layout.GENERIC,
        fp16=True,
    )
    img = rng.integers(0, 256, d.extent, dtype=np.uint8)
    img[0:2] = [0x01, 0x7C]  # NaN at the first element of atom 0
    img[18:20] = [0x00, 0xFC]  # -INF in atom 1
    cube = F.Cube("t", None, Layout.GENERIC, "float16", (2, 2, 2, 3), {}, None, img, d, 8, 16)
    exp = expected_for(_item(cube, nan_to_zero=nan_to_zero), 40)
    want, coords = _slow_stream(d, img, d.base)
    halves = np.frombuffer(b"".join(want), "<u2")
    slow_nan = sum(((h >> 10) & 0x1F) == 0x1F and (h & 0x3FF) != 0 for h in halves.tolist())
    slow_inf = sum(((h >> 10) & 0x1F) == 0x1F and (h & 0x3FF) == 0 for h in halves.tolist())
    assert int(exp.nan.sum()) == slow_nan and int(exp.inf.sum()) == slow_inf and slow_inf >= 1 and slow_nan >= 1
    if nan_to_zero:
        want = [
            b"".join(
                b"\0\0" if ((v >> 10) & 0x1F) == 0x1F and (v & 0x3FF) else v.to_bytes(2, "little")
                for v in np.frombuffer(a, "<u2").tolist()
            )
            for a in want
        ]
    assert [bytes(a) for a in exp.atoms] == want
    assert [tuple(int(v) for v in c) for c in exp.coords] == coords
    assert exp.error == 0 and exp.exact and exp.max_atoms == 24


def test_segmented_cube_gathers_each_batch_from_its_segment():
    rng = np.random.default_rng(9)
    cube = F.synthetic(Layout.GENERIC)(rng, None, huge=True, atom=8, elem=1)
    d = cube.desc
    assert d.stride_n >= 1 << 31 and cube.segments is not None and d.errors(40) == []
    mem = {}
    for addr, seg in cube.segments:
        for i, v in enumerate(seg.tolist()):
            mem[addr + i] = v
    slow = []
    for n in range(d.count_n):
        for c in range(d.count_c):
            for h in range(d.count_h):
                for w in range(d.count_w):
                    a = d.base + n * d.stride_n + c * d.stride_c + h * d.stride_h + w * d.atom_bytes
                    slow.append(bytes(mem[a + k] for k in range(d.atom_bytes)))
    assert [bytes(a) for a in cube.gather(d)] == slow


def test_bus_error_prefix_is_the_first_atom_touching_the_poisoned_word():
    d = D(
        base=0x1000,
        atom_bytes=8,
        elem_bytes=1,
        count_w=4,
        count_h=2,
        count_c=1,
        count_n=1,
        stride_h=64,
        stride_c=128,
        stride_n=128,
    )
    # atoms at 0x1000,08,10,18 and 0x1040,48,50,58; a 32-byte bus word 0x1040..0x105f holds atoms 4..7
    assert first_fault_atom(d, [(0x1040, 0x1060, "SLVERR")]) == 4
    assert first_fault_atom(d, [(0x1020, 0x1040, "SLVERR")]) is None  # the gap between the lines
    assert atom_fault_range(d, 6, 32) == (0x1040, 0x1060)
    assert first_fault_atom(d, [(0x1050, 0x1051, "DECERR"), (0x1018, 0x1019, "SLVERR")]) == 3


def test_bus_error_expectation_sets_the_response_bit():
    rng = np.random.default_rng(2)
    cube = F.synthetic(Layout.GENERIC)(rng, None, atom=32, elem=1, counts=(1, 1, 1, 6))
    it = _item(cube, Kind.BUS_ERROR)
    it.faults = [(*atom_fault_range(cube.desc, 2, 32), "DECERR")]
    exp = expected_for(it, 40)
    assert exp.error == 1 << 17 and exp.max_atoms == 2 and not exp.exact


@pytest.mark.parametrize("fam", F.available_families(), ids=lambda f: f.name)
def test_every_family_draws_legal_cubes_whose_image_covers_the_descriptor(fam):
    rng = np.random.default_rng(17)
    for i in range(40):
        dtype = fam.dtypes[i % len(fam.dtypes)]
        size = ("small", "medium", "large")[i % 3] if i % 7 else "small"
        edge = fam.edges[i] if i < len(fam.edges) else None
        cube = fam.draw(rng, dtype, size=size, edge=edge)
        d = cube.desc
        assert d.errors(40) == [], (cube.label(), d)
        assert d.base + d.extent <= 1 << 40
        assert cube.image.size >= d.extent
        assert cube.gather(d).shape == (d.num_atoms, d.atom_bytes)
        if size == "large" and edge is None:
            assert d.num_atoms >= 100


def test_mutations_break_the_rule_they_name():
    rng = np.random.default_rng(3)
    fam = F.available_families()[0]
    for _ in range(10):
        d = fam.draw(rng, fam.dtypes[0]).desc
        for name, bad in _mutations(d, rng, 40):
            errs = bad.errors(40)
            if name in (
                "align_base",
                "align_stride_h",
                "align_stride_c",
                "align_stride_n",
                "layout",
                "atom_size",
                "elem_size",
            ):
                assert name in errs, (name, errs, bad)
            elif name.startswith("count"):
                assert "count" in errs
            elif name.startswith("overlap"):
                assert errs, (name, bad)
            elif name in ("addr_overflow", "addr_beyond", "addr_base_hi"):
                assert "addr_overflow" in errs


def test_sparse_memory_reads_guard_bytes_where_nothing_was_written():
    m = SparseMemory(1 << 40)
    m.write(0xFFE, b"\x01\x02\x03\x04")  # crosses a 4 KB page
    assert m.read(0xFFC, 8) == bytes([GUARD, GUARD, 1, 2, 3, 4, GUARD, GUARD])
    m.write((1 << 40) - 2, b"\xaa\xbb")
    assert m.read((1 << 40) - 3, 3) == bytes([GUARD, 0xAA, 0xBB])
    with pytest.raises(ValueError):
        m.read((1 << 40) - 1, 2)
