"""The weight reader's testbench pieces that need no simulator: the weight sets agree with the models, the expected
transfers and the run-time error oracle are right on hand-made cases, the read regions and the register values."""

from __future__ import annotations

import zlib

import numpy as np
import pytest

from blocks.weight_reader import registers as R, weights as W
from blocks.weight_reader.footprint import needed_bytes, weight_regions
from blocks.weight_reader.items import Kind, WeightItem, truncated
from blocks.weight_reader.scoreboard import expected_for, runtime_error, transfers
from dlaverif import models
from dlaverif.models.nvdla import sparse


@pytest.mark.parametrize("family", list(W.FAMILIES))
@pytest.mark.parametrize("dtype", W.PRECISIONS)
def test_weight_sets_are_legal_and_decompress_to_the_dense_stream(family, dtype):
    # a stable seed per case: hash() of a str is salted per process (PYTHONHASHSEED), so it drew new data every run
    rng = np.random.default_rng(zlib.crc32(f"{family}/{dtype}".encode()))
    for mask in W.MASKS:
        ws = W.draw(rng, family, dtype, mask, 40, small=True)
        d = ws.desc
        assert d.errors(40) == [], (ws.label(), d.errors(40))
        assert ws.dense.size == d.dense_bytes == sum(ws.group_elems) * d.elem_bytes
        if d.compressed:
            back = sparse.decompress(
                ws.image["weight"].data,
                ws.image["wmb"].data,
                ws.image["wgs"].data,
                d.elem_bytes,
                ws.group_elems,
                d.dense_bytes,
            )
            assert np.array_equal(back, ws.dense), ws.label()
            assert ws.kept.sum() * d.elem_bytes == ws.wgs_values().sum()
        else:
            assert np.array_equal(ws.image["weight"].data[: d.dense_bytes], ws.dense)
        for s in ws.image.surfaces:
            assert s.base % 256 == 0 and s.base + s.nbytes <= 1 << 40


def test_the_natural_pattern_equals_the_formats_own_compressed_pack():
    # DC: the dense stream of the weight set is the model's mapped stream; compress=True of the same tensor gives
    # the same three surfaces (the weight set builds them with the formats' own surface builder)
    rng = np.random.default_rng(5)
    t = rng.integers(-3, 4, (33, 70, 3, 3)).astype(np.int8)
    dense = models.pack("nvdla.weight.dc", t).surfaces[0].data
    comp = models.pack("nvdla.weight.dc", t, compress=True)
    sizes = models.info("nvdla.weight.dc", t.shape, "int8")["group_elements"]
    w, m, g = sparse.compress(dense[: sum(sizes)], 1, sizes)
    assert [np.array_equal(a, comp[n].data) for a, n in ((w, "weight"), (m, "wmb"), (g, "wgs"))] == [True] * 3


def test_byte_zero_values_keep_elements_whose_bytes_are_zero():
    rng = np.random.default_rng(1)
    ws = W.draw(rng, "dc", "int16", "byte_zero_values", 40, kernels=16, channels=64)
    u = ws.dense.view("<u2")
    assert ((u == 0x0100) | (u == 0x0001)).any()
    assert np.array_equal(ws.kept, u != 0)


def test_transfers_split_each_group_at_the_bus_width():
    group, start, length, last = transfers([70, 70, 5], 32)
    assert group.tolist() == [0, 0, 0, 1, 1, 1, 2]
    assert start.tolist() == [0, 32, 64, 70, 102, 134, 140]
    assert length.tolist() == [32, 32, 6, 32, 32, 6, 5]
    assert last.tolist() == [False, False, True, False, False, True, True]


def _item(ws, kind=Kind.CORRUPT):
    it = WeightItem("x")
    it.kind, it.ws, it.desc = kind, ws, ws.desc
    return it


def test_runtime_error_oracle_names_the_group_and_the_bit():
    rng = np.random.default_rng(2)
    ws = W.draw(rng, "dc", "int8", "uniform_0.5", 40, kernels=97, channels=64)  # 4 groups
    assert ws.desc.groups == 4
    it = _item(ws)
    assert runtime_error(it) == (0, 4)
    wmb = ws.image["wmb"].data.copy()
    p = ws.group_elems[0] * 2 + 3  # an element of group 2
    wmb[p // 8] ^= 1 << (p % 8)
    it.surface_override["wmb"] = wmb
    assert runtime_error(it) == (R.WGS_MISMATCH, 2)
    it = _item(ws)
    it.desc = truncated(ws.desc, int(ws.wgs_values().sum()))
    bit, g = runtime_error(it)
    assert bit == R.WEIGHT_OVERRUN and np.cumsum(ws.wgs_values())[g] > it.desc.weight_bytes
    exp = expected_for(it, 40, 32)
    assert exp.max_beats == int((exp.group < g).sum()) and exp.loose == 0


def test_regions_allow_only_the_needed_bus_words():
    rng = np.random.default_rng(3)
    ws = W.draw(rng, "dc", "int16", "uniform_0.5", 40, kernels=17, channels=65)
    it = _item(ws, Kind.WEIGHTS)
    need = needed_bytes(it.ws, it.desc)
    regions = {r.name: r for r in weight_regions(it.ws, it.desc, 32, strict=True)}
    assert set(regions) == {"weight", "wmb", "wgs"}
    assert need["wgs"] == 4 * ws.desc.groups and need["wmb"] == -(-sum(ws.group_elems) // 8)
    for name, r in regions.items():
        base = ws.desc.ranges()[name][0]
        assert r.words[0] == base // 32 and r.words[-1] == (base + need[name] - 1) // 32


def test_descriptor_values_split_bases_and_set_the_format_bit():
    rng = np.random.default_rng(4)
    ws = W.draw(rng, "winograd", "float16", "uniform_0.5", 40)
    v = R.descriptor_values(ws.desc)
    assert v["CFG"] == 1 and v["ELEM_BYTES"] == 2
    assert v["WEIGHT_BASE_LO"] | v["WEIGHT_BASE_HI"] << 32 == ws.desc.weight_base
    assert set(v) == set(R.DESC_REGS)
    assert R.RULE_BITS["addr_overflow"] == 10 and R.VALIDATOR_MASK == 0x7FF


def test_mismatch_address_points_at_the_compressed_byte_and_the_wmb_bit():
    from blocks.weight_reader.scoreboard import surface_address

    rng = np.random.default_rng(6)
    ws = W.draw(rng, "dc", "int16", "uniform_0.5", 40, kernels=16, channels=64)
    it = _item(ws, Kind.WEIGHTS)
    el = int(np.flatnonzero(ws.kept)[3])  # the 4th kept element
    text = surface_address(it, 2 * el + 1)
    d = ws.desc
    assert f"compressed byte 0x{d.weight_base + 3 * 2 + 1:x}" in text
    assert f"WMB bit {el % 8} of 0x{d.wmb_base + el // 8:x}" in text
    zero = int(np.flatnonzero(~ws.kept)[0])
    assert "a zero element" in surface_address(it, 2 * zero)
