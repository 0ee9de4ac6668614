"""SDP operand surfaces (bias, PReLU, BN, element-wise) against the seed's BytesPerAtom rule and the worked
examples of clarifications 8, a slow address oracle, round trips, descriptors, Equation 3 and strict errors."""

import json

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from dlaverif import models
from dlaverif.models import FormatError
from dlaverif.models.blocked import Layout
from dlaverif.models.nvdla import sdp

PER_ELEMENT = ("nvdla.bias.element", "nvdla.eltwise")


def oracle_element(t, proc, line_stride=None, surface_stride=None):
    """Per-element image, element by element: (c div epg)*SS + h*LS + w*atom + (c mod epg)*bpe + k*bpc."""
    t4 = t if t.ndim == 4 else t[None]
    k_, c_, h_, w_ = t4.shape
    bpc = t.dtype.itemsize
    epg = 32 if proc == "int8" else 16
    atom = epg * k_ * bpc
    ls = w_ * atom if line_stride is None else line_stride
    ss = h_ * ls if surface_stride is None else surface_stride
    s_ = -(-c_ // epg)
    img = bytearray(s_ * ss)  # whole surfaces
    for k in range(k_):
        for c in range(c_):
            for h in range(h_):
                for w in range(w_):
                    a = (c // epg) * ss + h * ls + w * atom + (c % epg) * k_ * bpc + k * bpc
                    img[a : a + bpc] = t4[k, c, h, w].astype(t.dtype.newbyteorder("<")).tobytes()
    return bytes(img)


def test_clarification_example_int8_both_w3_h2():
    # clarifications 8: int8 proc, 1-byte, BOTH, W=3, H=2: atom 64, LS 192, SS 384; (1,1,40): ALU 656, MUL 657
    t = np.zeros((2, 41, 2, 3), np.int8)
    t[0, 40, 1, 1], t[1, 40, 1, 1] = 0x11, 0x22
    inf = models.info("nvdla.eltwise", t.shape, "int8")
    assert (inf["bytes_per_atom"], inf["line_stride"], inf["surface_stride"]) == (64, 192, 384)
    assert inf["registers"]["DATA_USE"] == 2 and inf["component_order"] == ["ALU", "MUL"]
    img = models.pack("nvdla.eltwise", t).tobytes()
    assert (img[656], img[657]) == (0x11, 0x22) and img.count(0) == len(img) - 2
    assert len(img) == 384 + 192 + 2 * 64 + 64


def test_clarification_example_int16_bn_c20():
    # clarifications 8: int16 proc, 2-byte, C=20: per-channel BN surface 128 B; channel c ALU at 4c, MUL at 4c+2
    alu = np.arange(20, dtype=np.int16) * 3 - 30
    mul = np.arange(20, dtype=np.int16) * -7 + 1000
    img = models.pack("nvdla.bn", np.stack([alu, mul])).tobytes()
    assert len(img) == 128 == models.info("nvdla.bn", (2, 20), "int16")["bytes"]
    for c in range(20):
        assert int.from_bytes(img[4 * c : 4 * c + 2], "little", signed=True) == alu[c]
        assert int.from_bytes(img[4 * c + 2 : 4 * c + 4], "little", signed=True) == mul[c]
    assert img[80:] == bytes(48)


@pytest.mark.parametrize(
    "fmt, shape, dtype, proc, atom",
    [
        ("nvdla.bias.channel", (5,), "int8", None, 32),  # 32 x 1 x 1
        ("nvdla.bias.channel", (5,), "int16", "int8", 64),  # "2 bytes per element with INT8": 32 x 1 x 2
        ("nvdla.bias.channel", (5,), "int16", None, 32),  # 16 x 1 x 2
        ("nvdla.prelu", (5,), "float16", None, 32),
        ("nvdla.bn", (2, 5), "int8", None, 64),  # 32 x 2 x 1
        ("nvdla.bn", (2, 5), "int16", "int8", 128),  # 32 x 2 x 2
        ("nvdla.bn", (2, 5), "float16", None, 64),  # 16 x 2 x 2
        ("nvdla.eltwise", (5, 2, 2), "int8", None, 32),
        ("nvdla.eltwise", (2, 5, 2, 2), "int16", None, 64),
        ("nvdla.eltwise", (2, 5, 2, 2), "int16", "int8", 128),
        ("nvdla.bias.element", (5, 2, 2), "int16", "int8", 64),
    ],
)
def test_bytes_per_atom_formula(fmt, shape, dtype, proc, atom):
    inf = models.info(fmt, shape, dtype, proc_precision=proc)
    json.dumps(inf)  # JSON-serialisable for the CLI
    assert inf["bytes_per_atom"] == atom
    assert inf["elements_per_atom"] == (32 if (proc or dtype) == "int8" else 16)


def test_per_channel_layouts():
    # bias, int8: C=40 -> two 32-byte atoms, channel c at byte c, padding zero
    b = np.arange(40, dtype=np.int8) - 20
    img = models.pack("nvdla.bias.channel", b).tobytes()
    assert img == b.tobytes() + bytes(24)
    inf = models.info("nvdla.bias.channel", (40,), "int8")
    assert (inf["bytes"], inf["compiler_bytes"], inf["registers"]["DATA_USE"], inf["registers"]["DATA_MODE"]) == (
        64,
        40,
        1,
        0,
    )
    # int16 bias in an int8 pipeline: 32 channels per 64-byte atom, channel c at 2c
    b16 = (np.arange(40, dtype=np.int16) - 20) * 300
    img = models.pack("nvdla.bias.channel", b16, proc_precision="int8").tobytes()
    assert len(img) == 128 and img[:80] == b16.astype("<i2").tobytes() and img[80:] == bytes(48)
    # PReLU is a MUL operand with MUL_PRELU
    inf = models.info("nvdla.prelu", (3,), "float16")
    assert inf["registers"]["DATA_USE"] == 0 and inf["registers"]["MUL_PRELU"] == 1 and inf["bytes"] == 32
    back = models.unpack("nvdla.bias.channel", img, (40,), "int16", proc_precision="int8")
    assert back.tolist() == b16.tolist()


@pytest.mark.parametrize(
    "fmt, shape, dtype, proc, opts",
    [
        ("nvdla.eltwise", (2, 41, 2, 3), "int8", None, {}),
        ("nvdla.eltwise", (37, 3, 2), "int16", None, dict(line_stride=96, surface_stride=320)),
        ("nvdla.eltwise", (2, 17, 2, 2), "float16", None, dict(line_stride=192)),
        ("nvdla.eltwise", (1, 33, 1, 2), "int16", "int8", {}),
        ("nvdla.bias.element", (20, 2, 3), "int16", None, {}),
        ("nvdla.bias.element", (40, 3, 1), "int16", "int8", dict(surface_stride=256)),
        ("nvdla.bias.element", (3, 1, 1), "int8", None, {}),
    ],
)
def test_per_element_matches_slow_oracle(fmt, shape, dtype, proc, opts):
    nb = int(np.prod(shape)) * np.dtype(dtype).itemsize
    t = np.random.default_rng(3).integers(0, 256, nb, dtype=np.uint8).view(dtype).reshape(shape)
    img = models.pack(fmt, t, proc_precision=proc, **opts)
    assert img.tobytes() == oracle_element(t, proc or {"int8": "int8", "int16": "int16"}.get(dtype, "fp16"), **opts)
    back = models.unpack(fmt, img, shape, dtype, proc_precision=proc, **opts)
    assert back.tobytes() == t.tobytes()


def test_descriptor_of_per_element_operand_gathers_the_atoms():
    t = (np.arange(2 * 20 * 2 * 3) % 200 - 100).astype(np.int16).reshape(2, 20, 2, 3)
    d = models.descriptor("nvdla.eltwise", t.shape, "int16", base=0x4000)
    assert (d.atom_bytes, d.elem_bytes, d.count_c, d.count_h, d.count_w, d.count_n) == (64, 2, 2, 2, 3, 1)
    assert (d.stride_h, d.stride_c, d.stride_n, d.layout) == (192, 384, 0, Layout.NVDLA_OPERAND)
    assert d.errors() == []
    atoms = d.gather(models.pack("nvdla.eltwise", t).data(), mem_base=0x4000)
    padded = np.zeros((2, 32, 2, 3), np.int16)
    padded[:, :20] = t
    expect = [
        padded[:, s * 16 : (s + 1) * 16, h, w].T.astype("<i2").tobytes()  # (16 channels x [ALU, MUL])
        for s in range(2)
        for h in range(2)
        for w in range(3)
    ]
    assert [a.tobytes() for a in atoms] == expect
    assert models.descriptor("nvdla.bias.element", (3, 1, 1), "float16").fp16
    for fmt in ("nvdla.bias.channel", "nvdla.prelu", "nvdla.bn"):
        with pytest.raises(FormatError) as exc:
            models.descriptor(fmt, (2, 4) if fmt == "nvdla.bn" else (4,), "int8")
        assert exc.value.rule == "descriptor.none"
    with pytest.raises(FormatError) as exc:
        models.descriptor("nvdla.eltwise", t.shape, "int16", base=0x4010)
    assert exc.value.rule == "align.eltwise.start"


@settings(max_examples=40, deadline=None)
@given(
    fmt=st.sampled_from(["nvdla.bias.channel", "nvdla.prelu", "nvdla.bn", "nvdla.bias.element", "nvdla.eltwise"]),
    c=st.integers(1, 70),
    h=st.integers(1, 4),
    w=st.integers(1, 5),
    two=st.booleans(),
    dtype_proc=st.sampled_from([("int8", "int8"), ("int16", "int16"), ("int16", "int8"), ("float16", "fp16")]),
    pad_l=st.integers(0, 2),
    pad_s=st.integers(0, 2),
    seed=st.integers(0, 2**32 - 1),
)
def test_round_trip_property(fmt, c, h, w, two, dtype_proc, pad_l, pad_s, seed):
    dtype, proc = dtype_proc
    shape = {
        "nvdla.bias.channel": (c,),
        "nvdla.prelu": (c,),
        "nvdla.bn": (2, c),
        "nvdla.bias.element": (c, h, w),
        "nvdla.eltwise": (2, c, h, w) if two else (c, h, w),
    }[fmt]
    nb = int(np.prod(shape)) * np.dtype(dtype).itemsize
    t = np.random.default_rng(seed).integers(0, 256, nb, dtype=np.uint8).view(dtype).reshape(shape)
    opts = {}
    if fmt in PER_ELEMENT and not (h == 1 and w == 1):
        atom = models.info(fmt, shape, dtype, proc_precision=proc)["bytes_per_atom"]
        opts = dict(line_stride=w * atom + 32 * pad_l)
        opts["surface_stride"] = h * opts["line_stride"] + 32 * pad_s
    img = models.pack(fmt, t, proc_precision=proc, **opts)
    inf = models.info(fmt, shape, dtype, proc_precision=proc, **opts)
    assert img.nbytes == inf["bytes"] and inf["bytes"] % 32 == 0
    assert models.unpack(fmt, img, shape, dtype, proc_precision=proc, **opts).tobytes() == t.tobytes()
    if fmt in PER_ELEMENT:
        d = models.descriptor(fmt, shape, dtype, proc_precision=proc, **opts)
        assert d.extent == inf["extent_bytes"] <= img.nbytes and d.atom_bytes in (32, 64, 128)
        assert d.gather(img.data()).shape == (d.num_atoms, d.atom_bytes)


@pytest.mark.parametrize(
    "fmt, shape, dtype, opts, rule",
    [
        ("nvdla.bias.channel", (4,), "int8", dict(data_size=2), "sdp.data_size"),
        ("nvdla.bias.channel", (4,), "float16", dict(proc_precision="int16"), "sdp.operand_precision"),
        ("nvdla.bias.channel", (4,), "int16", dict(proc_precision="fp16"), "sdp.operand_precision"),
        ("nvdla.bias.channel", (4,), "int8", dict(proc_precision="int16"), "sdp.two_byte_required"),
        ("nvdla.eltwise", (4, 2, 2), "int8", dict(proc_precision="int16"), "sdp.two_byte_required"),
        ("nvdla.bn", (3, 4), "int8", {}, "sdp.components"),
        ("nvdla.eltwise", (2, 4, 2, 2), "int8", dict(components=1), "sdp.components"),
        ("nvdla.eltwise", (3, 4, 2, 2), "int8", {}, "sdp.components"),
        ("nvdla.bias.element", (4, 2, 2), "int8", dict(line_stride=80), "align.bias.line_stride"),
        ("nvdla.eltwise", (4, 2, 2), "int8", dict(line_stride=48), "align.eltwise.line_stride"),
        ("nvdla.bias.element", (4, 2, 2), "int8", dict(line_stride=32), "sdp.line_stride_min"),
        ("nvdla.bias.element", (4, 2, 2), "int8", dict(surface_stride=112), "align.bias.surface_stride"),
        ("nvdla.eltwise", (4, 2, 2), "int8", dict(surface_stride=112), "sdp.surface_stride_align"),
        ("nvdla.eltwise", (4, 2, 2), "int8", dict(surface_stride=96), "sdp.surface_stride_min"),
        ("nvdla.eltwise", (40, 1, 1), "int8", dict(surface_stride=64), "sdp.surface_stride_1x1"),
        ("nvdla.eltwise", (8193, 1, 1), "int8", {}, "sdp.max_dim"),
        ("nvdla.bias.channel", (4,), "float32", {}, "dtype.unsupported"),
    ],
)
def test_strict_errors(fmt, shape, dtype, opts, rule):
    with pytest.raises(FormatError) as exc:
        models.info(fmt, shape, dtype, **opts)
    assert exc.value.rule == rule


def test_unpack_refuses_short_buffers():
    img = models.pack("nvdla.eltwise", np.ones((20, 2, 3), np.int8))
    with pytest.raises(FormatError) as exc:
        models.unpack("nvdla.eltwise", img.data()[:-1], (20, 2, 3), "int8")
    assert exc.value.rule == "sdp.buffer_size"
    img = models.pack("nvdla.eltwise", np.ones((20, 2, 3), np.int8), line_stride=128)
    assert (
        img.nbytes == 256 and models.info("nvdla.eltwise", (20, 2, 3), "int8", line_stride=128)["extent_bytes"] == 224
    )
    assert models.unpack("nvdla.eltwise", img.data()[:224], (20, 2, 3), "int8", line_stride=128).sum() == 120
    with pytest.raises(FormatError) as exc:
        models.unpack("nvdla.eltwise", img.data()[:223], (20, 2, 3), "int8", line_stride=128)
    assert exc.value.rule == "sdp.buffer_size"
    with pytest.raises(FormatError) as exc:
        models.unpack("nvdla.bn", bytes(127), (2, 20), "int16")
    assert exc.value.rule == "sdp.buffer_size"


@pytest.mark.parametrize(
    "value, proc, reg",
    [
        (-1, "int16", 0xFFFF),
        (100, "int8", 0x0064),
        (-128, "int8", 0xFF80),
        (32767, "int16", 0x7FFF),
        (1.0, "fp16", 0x3C00),
        (-2.0, "fp16", 0xC000),
        (70000.0, "fp16", 0x7BFF),
        (1 / 3, "fp16", 0x3555),
    ],
)
def test_per_layer_operand_register_value(value, proc, reg):
    assert sdp.per_layer_bias(value, proc) == reg


def test_per_layer_operand_errors():
    with pytest.raises(FormatError) as exc:
        sdp.per_layer_operand(40000, "int16")
    assert exc.value.rule == "sdp.layer_value_range"
    with pytest.raises(FormatError) as exc:
        sdp.per_layer_operand(1.5, "int8")
    assert exc.value.rule == "sdp.layer_value_type"


@pytest.mark.parametrize(
    "x, dtype, out, off, scale, shift, expect",
    [
        (1000, np.int16, "int8", 0, 1, 3, 125),
        (1004, np.int16, "int8", 0, 1, 3, 126),  # 125.5 -> away from zero
        (-1004, np.int16, "int8", 0, 1, 3, -126),
        (2000, np.int16, "int8", 0, 1, 3, 127),  # 250 saturates
        (-128, np.int8, "int16", 0, 300, 0, -32768),  # -38400 saturates
        (10, np.int8, "int16", -5, 2, 1, 15),  # (10+5)*2/2
        (7, np.int8, "int8", 0, -3, 2, -5),  # -21/4 = -5.25 -> -5
        (2051, np.int16, "fp16", 0, 1, 0, 2052),  # int -> fp16 RNE
    ],
)
def test_equation_3_sdp_converter(x, dtype, out, off, scale, shift, expect):
    y = sdp.sdp_convert(np.array([x], dtype), out, offset=off, scale=scale, shift=shift)
    assert float(y[0]) == expect


@pytest.mark.parametrize(
    "kw, rule",
    [
        (dict(out_precision="fp16", x=np.array([1], np.int8)), "precision.invalid_conversion"),  # Table 30
        (dict(out_precision="int8", x=np.array([1.0], np.float16)), "sdp.cvt_dtype"),
        (dict(out_precision="int8", x=np.array([1], np.int8), offset=1 << 31), "sdp.cvt_offset_range"),
        (dict(out_precision="int8", x=np.array([1], np.int8), scale=1 << 15), "sdp.cvt_scale_range"),
        (dict(out_precision="int8", x=np.array([1], np.int8), shift=64), "sdp.cvt_shift_range"),
    ],
)
def test_equation_3_errors(kw, rule):
    with pytest.raises(FormatError) as exc:
        sdp.sdp_convert(**kw)
    assert exc.value.rule == rule
