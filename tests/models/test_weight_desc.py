"""WeightSurfaceDescriptor: validator rules one by one, hand-worked descriptors, and agreement with the
packed images of every weight format (dense and sparse-compressed)."""

import json
import subprocess
import sys
import zlib
from pathlib import Path

import numpy as np
import pytest

from dlaverif import models
from dlaverif.models import FormatError, WeightSurfaceDescriptor as D
from dlaverif.models.weight_desc import ERROR_RULES, MAX_DENSE_BYTES, MAX_GROUPS

from .descriptor_helpers import assert_breaks_only

# The register contract the RTL validator mirrors: rule names in bit order.
RULES_IN_BIT_ORDER = (
    "elem_size",
    "groups",
    "group_size",
    "total_overflow",
    "align_weight",
    "align_wmb",
    "align_wgs",
    "size_weight",
    "size_wmb",
    "size_wgs",
    "addr_overflow",
)

# int16, K=17 kernels of C=3 (DC, 1x1): groups of 16 kernels -> 2 groups of 48 and 3 elements;
# dense 102 bytes; WMB needs 102/2 = 51 bits (7 bytes -> 128), WGS 2 entries (8 bytes -> 128).
LEGAL = D(
    compressed=True,
    elem_bytes=2,
    groups=2,
    group_bytes=96,
    last_group_bytes=6,
    weight_base=0x10000,
    weight_bytes=128,
    wmb_base=0x10100,
    wmb_bytes=128,
    wgs_base=0x10200,
    wgs_bytes=128,
)


def test_rule_names_in_bit_order():
    assert ERROR_RULES == RULES_IN_BIT_ORDER


def test_legal_descriptor_and_its_derived_values():
    assert LEGAL.errors() == [] and LEGAL.error_bits() == 0
    assert LEGAL.validate() is LEGAL
    assert (LEGAL.dense_bytes, LEGAL.dense_elems, LEGAL.group_elems, LEGAL.last_group_elems) == (102, 51, 48, 3)
    assert LEGAL.ranges() == {"weight": (0x10000, 128), "wmb": (0x10100, 128), "wgs": (0x10200, 128)}


@pytest.mark.parametrize(
    "change, rule",
    [
        (dict(elem_bytes=4), "elem_size"),
        (dict(elem_bytes=0), "elem_size"),
        (dict(groups=0), "groups"),
        (dict(groups=MAX_GROUPS + 1, wgs_bytes=4 * (MAX_GROUPS + 1)), "groups"),
        (dict(group_bytes=0), "group_size"),
        (dict(last_group_bytes=0), "group_size"),
        (dict(last_group_bytes=98), "group_size"),  # last group larger than the others
        (dict(group_bytes=95), "group_size"),  # half an int16 element
        (dict(last_group_bytes=5), "group_size"),
        (dict(group_bytes=MAX_DENSE_BYTES + 1, last_group_bytes=2), "total_overflow"),
        (dict(group_bytes=2**31, last_group_bytes=2**31), "total_overflow"),  # 2**32 > 2**32 - 1
        (dict(weight_base=0x10020), "align_weight"),  # 32-aligned is not enough (Table 35: 256)
        (dict(wmb_base=0x10180), "align_wmb"),
        (dict(wgs_base=0x10280), "align_wgs"),
        (dict(weight_bytes=100), "size_weight"),  # Table 35: 128-byte multiple
        (dict(wmb_bytes=64), "size_wmb"),
        (dict(groups=100, wgs_bytes=512), "size_wmb"),  # 99*48+3 = 4755 elements need 595 bytes > 128
        (dict(wgs_bytes=8), "size_wgs"),
        (dict(groups=33, wmb_bytes=256), "size_wgs"),  # 33 entries = 132 bytes > 128
        (dict(weight_base=-256), "addr_overflow"),
        (dict(wgs_base=2**64 - 256, wgs_bytes=384), "addr_overflow"),
    ],
)
def test_each_rule_broken_alone_sets_its_own_bit(change, rule):
    assert_breaks_only(LEGAL.with_(**change), rule, RULES_IN_BIT_ORDER, "weight_desc")


@pytest.mark.parametrize(
    "change",
    [
        dict(groups=MAX_GROUPS, wgs_bytes=262144, wmb_bytes=393216),  # most groups: 4*65535 B; 65534*48+3 bits
        dict(groups=100, wmb_bytes=640, wgs_bytes=512),  # 4755 bits fit 595 <= 640 bytes
        dict(groups=32, wmb_bytes=256),  # 32 entries = 128 bytes exactly
        dict(weight_bytes=0),  # all-zero weights: empty compressed surface
        dict(wgs_base=2**64 - 128 - 128, wgs_bytes=128),  # last byte at 2**64 - 129
        dict(last_group_bytes=96),  # last group as large as the others
    ],
)
def test_edge_values_that_are_kept(change):
    assert LEGAL.with_(**change).errors() == []


def test_total_exactly_at_the_32_bit_limit_is_kept_and_one_more_element_is_not():
    top = D(False, 1, 1, MAX_DENSE_BYTES, MAX_DENSE_BYTES, 0, MAX_DENSE_BYTES + 1)
    assert top.errors() == []
    assert top.with_(groups=2, last_group_bytes=1).errors() == ["total_overflow"]


def test_the_address_limit_follows_addr_bits():
    d = LEGAL.with_(wgs_base=2**32 - 256, wgs_bytes=256)
    assert d.errors(addr_bits=32) == [] and d.errors(addr_bits=31) == ["addr_overflow"]


def test_dense_weights_ignore_wmb_and_wgs_but_need_room_for_the_dense_stream():
    dense = LEGAL.with_(compressed=False, wmb_base=0x13, wmb_bytes=1, wgs_base=-5, wgs_bytes=3)
    assert dense.errors() == []
    assert dense.ranges() == {"weight": (0x10000, 128)}
    assert dense.with_(weight_bytes=0).errors() == ["size_weight"]  # 0 < 102 dense bytes
    assert LEGAL.with_(weight_bytes=0).errors() == []  # compressed: may be empty


def test_several_broken_rules_set_several_bits():
    d = LEGAL.with_(elem_bytes=3, weight_base=0x10001, wgs_bytes=1)
    assert d.errors() == ["elem_size", "align_weight", "size_wgs"]
    assert d.error_bits() == 0b1000010001


# --------------------------------------------------------------------------- hand-worked exports


def test_clarifications_7_example_compressed():
    # int8, one group of 16 weights 0,5,0,0,7,1,0,...,0,9 (clarifications 7): as DC weights K=1, C=16, 1x1.
    w = np.zeros((1, 16, 1, 1), np.int8)
    w[0, [1, 4, 5, 15], 0, 0] = [5, 7, 1, 9]
    img = models.pack("nvdla.weight.dc", w, compress=True)
    d = models.descriptor("nvdla.weight.dc", w.shape, "int8", base=0x10000, image=img, compress=True)
    assert d == D(
        compressed=True,
        elem_bytes=1,
        groups=1,
        group_bytes=16,
        last_group_bytes=16,
        weight_base=0x10000,
        weight_bytes=128,
        wmb_base=0x10100,
        wmb_bytes=128,
        wgs_base=0x10200,
        wgs_bytes=128,
    )


def test_dense_int16_dc_example():
    d = models.descriptor("nvdla.weight.dc", (17, 3, 1, 1), "int16", base=0x20000)
    assert d == LEGAL.with_(compressed=False, weight_base=0x20000, wmb_base=0, wmb_bytes=0, wgs_base=0, wgs_bytes=0)


def test_deconvolution_exports_one_descriptor_per_set_back_to_back():
    # K=1, C=64, 3x3, stride 2x1: sets (0,0), (1,0) of 3x2 taps = 384 int8 bytes each -> 384-byte surfaces
    got = models.descriptor("nvdla.weight.deconv", (1, 64, 3, 3), "int8", base=0x1000, stride_x=2)
    assert list(got) == ["set_x0_y0", "set_x1_y0"]
    assert [(d.weight_base, d.weight_bytes, d.group_bytes) for d in got.values()] == [
        (0x1000, 384, 384),
        (0x1200, 384, 384),
    ]


@pytest.mark.parametrize(
    "kwargs, rule",
    [
        (dict(compress=True), "weight.descriptor_image"),  # sizes depend on the values
        (
            dict(compress=True, image=models.pack("nvdla.weight.dc", np.ones((1, 16, 1, 1), np.int8))),
            "weight.compress_mismatch",
        ),
        (dict(base=0x1080), "weight_desc.align_weight"),
        (
            dict(
                base=0x1080,
                compress=True,
                image=models.pack("nvdla.weight.dc", np.ones((1, 16, 1, 1), np.int8), compress=True),
            ),
            "image.base",
        ),
    ],
)
def test_descriptor_export_refuses(kwargs, rule):
    with pytest.raises(FormatError) as exc:
        models.descriptor("nvdla.weight.dc", (1, 16, 1, 1), "int8", **kwargs)
    assert exc.value.rule == rule


# --------------------------------------------------------------------------- agreement with packed images

KPG = {"int8": 32, "int16": 16, "float16": 16}
E = {"int8": 1, "int16": 2, "float16": 2}


def _round_up(n, a):
    return (n + a - 1) // a * a


def _kernel_elems(name, shape, dtype, opts):
    """Elements per mapped kernel, from the spec's geometry (independent of the models' code)."""
    k, c, r, s = shape
    if name == "dc":
        return c * r * s
    if name == "image":
        return r * s * opts.get("channels", c)  # pre-extension: 1 x R x (S*Ci)
    if name == "winograd":
        cp = _round_up(c * E[dtype], 32) // E[dtype]  # C padded to 32 bytes, 4x4 taps
        return 16 * cp * opts.get("stride_x", 1) * opts.get("stride_y", 1)
    return c * -(-r // opts.get("stride_y", 1)) * -(-s // opts.get("stride_x", 1))  # one deconv set


CASES = [  # (format, shape, options)
    ("dc", (1, 1, 1, 1), {}),
    ("dc", (15, 63, 1, 1), {}),
    ("dc", (16, 64, 3, 3), {}),
    ("dc", (17, 65, 2, 3), {}),
    ("dc", (33, 130, 1, 2), {}),
    ("dc", (70, 5, 3, 1), {}),
    ("image", (17, 3, 3, 3), {"channels": 4}),
    ("image", (33, 4, 4, 3), {"post_extension": 2}),
    ("image", (16, 1, 5, 4), {"post_extension": 4}),
    ("image", (31, 3, 7, 7), {}),
    ("winograd", (17, 20, 3, 3), {}),
    ("winograd", (32, 33, 6, 6), {"stride_x": 2, "stride_y": 2}),
    ("deconv", (17, 9, 3, 3), {"stride_x": 2}),
    ("deconv", (33, 64, 4, 4), {"stride_x": 2, "stride_y": 2}),
]


def _weights(rng, shape, dtype, density):
    if dtype == "float16":
        x = rng.standard_normal(shape).astype(np.float16)
    else:
        lim = 128 if dtype == "int8" else 1000
        x = rng.integers(-lim, lim, shape).astype(dtype)
    x[rng.random(shape) >= density] = 0
    if dtype == "int16":  # elements with a zero byte that are not zero elements
        flat = x.reshape(-1)
        flat[: min(2, flat.size)] = [0x0100, 0x0001][: min(2, flat.size)]
    return x


@pytest.mark.parametrize("dtype", ["int8", "int16", "float16"])
@pytest.mark.parametrize("fmt, shape, opts", CASES)
def test_descriptor_agrees_with_the_packed_image(fmt, shape, opts, dtype):
    rng = np.random.default_rng(zlib.crc32(repr((fmt, shape, dtype)).encode()))
    x = _weights(rng, shape, dtype, density=0.4)
    name = "nvdla.weight." + fmt
    e, kpg, k = E[dtype], KPG[dtype], shape[0]
    kernel_bytes = _kernel_elems(fmt, shape, dtype, opts) * e
    groups = -(-k // kpg)
    base = 0x40000
    dense_img = models.pack(name, x, **opts)
    comp_img = models.pack(name, x, compress=True, **opts)
    dense = models.descriptor(name, shape, dtype, base=base, **opts)
    comp = models.descriptor(name, shape, dtype, base=base, image=comp_img, compress=True, **opts)
    assert models.descriptor(name, shape, dtype, base=base, image=dense_img, **opts) == dense
    if fmt == "deconv":
        prefixes = [n + "." for n in dense]
        dense, comp = list(dense.values()), list(comp.values())
    else:
        prefixes, dense, comp = [""], [dense], [comp]
    placed_dense, placed_comp = dense_img.placed(base), comp_img.placed(base)
    for p, dd, cd in zip(prefixes, dense, comp):
        for d in (dd, cd):
            assert d.errors() == []
            assert (d.elem_bytes, d.groups) == (e, groups)
            assert d.group_bytes == min(k, kpg) * kernel_bytes
            assert d.last_group_bytes == (k - (groups - 1) * kpg) * kernel_bytes
            assert d.dense_bytes == k * kernel_bytes
        # dense: the one weight surface, exactly where placed() put it, holding the whole stream
        surf = placed_dense[p.rstrip(".") if p else "weight"]
        assert not dd.compressed and dd.ranges() == {"weight": (surf.base, surf.nbytes)}
        assert dd.weight_bytes == _round_up(dd.dense_bytes, 128)
        stream = surf.data[: dd.dense_bytes]
        assert not surf.data[dd.dense_bytes :].any()
        # compressed: three surfaces, where placed() put them, sized as the model made them
        names = {"weight": p + "weight", "wmb": p + "wmb", "wgs": p + "wgs"}
        assert cd.compressed and cd.ranges() == {
            k_: (placed_comp[n].base, placed_comp[n].nbytes) for k_, n in names.items()
        }
        assert cd.wmb_bytes == _round_up(-(-cd.dense_elems // 8), 128)
        assert cd.wgs_bytes == _round_up(4 * groups, 128)
        # WGS contents: per group, the non-zero elements of the dense stream times the element size
        elems = stream.view(np.uint8 if e == 1 else "<u2")
        starts = np.arange(groups) * cd.group_elems
        nonzero = np.add.reduceat((elems != 0).astype(np.int64), starts)
        wgs = placed_comp[names["wgs"]].data[: 4 * groups].view("<u4")
        np.testing.assert_array_equal(wgs, nonzero * e)
        assert cd.weight_bytes == _round_up(int(wgs.sum()), 128)


# --------------------------------------------------------------------------- the CLI shows them


def _info(*args):
    out = subprocess.run(
        [sys.executable, "-m", "dlaverif.models", "info", *args],
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)["descriptor"]


def test_cli_info_prints_the_weight_descriptor():
    got = _info("nvdla.weight.dc", "--shape", "17,3,1,1", "--dtype", "int16", "--base", "0x20000")
    assert (got["weight_base"], got["groups"], got["group_bytes"], got["dense_bytes"]) == (0x20000, 2, 96, 102)
    sets = _info("nvdla.weight.deconv", "--shape", "1,64,3,3", "--dtype", "int8", "--opt", "stride_x=2")
    assert [s["weight_base"] for s in sets.values()] == [0, 0x200]
    # compressed sizes depend on the weights, not on the shape: no descriptor from the shape alone
    assert _info("nvdla.weight.dc", "--shape", "1,16,1,1", "--dtype", "int8", "--opt", "compress=1") is None
