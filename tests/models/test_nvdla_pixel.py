"""nvdla.pixel.T_*: Table 33, the clarifications' byte/bit table (2.1), planes and x-offset (2.2), the input
converter (2.3) with every worked example, round trips, strict errors and the 1080p packing speed."""

import json
from fractions import Fraction
from math import floor

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from dlaverif import models
from dlaverif.models import FormatError
from dlaverif.models.nvdla import pixel
from tests.models.test_nvdla_precision import fp16_oracle

# Table 33 of the seed, transcribed (names as in the clarifications): planes, channels, max x-offset.
TABLE_33 = {
    "T_R8": (1, 1, 31),
    "T_R10": (1, 1, 15),
    "T_R12": (1, 1, 15),
    "T_R16": (1, 1, 15),
    "T_R16_I": (1, 1, 15),
    "T_R16_F": (1, 1, 15),
    "T_A16B16G16R16": (1, 4, 3),
    "T_X16B16G16R16": (1, 4, 3),
    "T_A16B16G16R16_F": (1, 4, 3),
    "T_A16Y16U16V16": (1, 4, 3),
    "T_V16U16Y16A16": (1, 4, 3),
    "T_A16Y16U16V16_F": (1, 4, 3),
    "T_A8B8G8R8": (1, 4, 7),
    "T_A8R8G8B8": (1, 4, 7),
    "T_B8G8R8A8": (1, 4, 7),
    "T_R8G8B8A8": (1, 4, 7),
    "T_X8B8G8R8": (1, 4, 7),
    "T_X8R8G8B8": (1, 4, 7),
    "T_B8G8R8X8": (1, 4, 7),
    "T_R8G8B8X8": (1, 4, 7),
    "T_A2B10G10R10": (1, 4, 7),
    "T_A2R10G10B10": (1, 4, 7),
    "T_B10G10R10A2": (1, 4, 7),
    "T_R10G10B10A2": (1, 4, 7),
    "T_A2Y10U10V10": (1, 4, 7),
    "T_V10U10Y10A2": (1, 4, 7),
    "T_A8Y8U8V8": (1, 4, 7),
    "T_V8U8Y8A8": (1, 4, 7),
    "T_Y8___U8V8_N444": (2, 3, 31),
    "T_Y8___V8U8_N444": (2, 3, 31),
    "T_Y10___U10V10_N444": (2, 3, 15),
    "T_Y10___V10U10_N444": (2, 3, 15),
    "T_Y12___U12V12_N444": (2, 3, 15),
    "T_Y12___V12U12_N444": (2, 3, 15),
    "T_Y16___U16V16_N444": (2, 3, 15),
    "T_Y16___V16U16_N444": (2, 3, 15),
}

# Clarifications 2.1 table: per plane (bytes per pixel, kind, {channel: position}); "byte": byte k of the
# pixel, "word": little-endian 16-bit word k, "bits": (lsb, width) in the little-endian 32-bit word.
B1 = [(1, "byte", {0: 0})]
W1 = [(2, "word", {0: 0})]
RGBA16 = [(8, "word", {0: 0, 1: 1, 2: 2, 3: 3})]
AYUV16 = [(8, "word", {0: 2, 1: 1, 2: 0, 3: 3})]
ABGR8, ARGB8 = [(4, "byte", {0: 0, 1: 1, 2: 2, 3: 3})], [(4, "byte", {0: 2, 1: 1, 2: 0, 3: 3})]
BGRA8, RGBA8 = [(4, "byte", {0: 1, 1: 2, 2: 3, 3: 0})], [(4, "byte", {0: 3, 1: 2, 2: 1, 3: 0})]
A2_LOW = [(4, "bits", {0: (20, 10), 1: (10, 10), 2: (0, 10), 3: (30, 2)})]
A2_HIGH = [(4, "bits", {0: (2, 10), 1: (12, 10), 2: (22, 10), 3: (0, 2)})]
UV8, VU8 = [(2, "byte", {1: 1, 2: 0})], [(2, "byte", {1: 0, 2: 1})]
UV16, VU16 = [(4, "word", {1: 1, 2: 0})], [(4, "word", {1: 0, 2: 1})]
LAYOUT = {
    "T_R8": B1,
    "T_R10": W1,
    "T_R12": W1,
    "T_R16": W1,
    "T_R16_I": W1,
    "T_R16_F": W1,
    "T_A16B16G16R16": RGBA16,
    "T_X16B16G16R16": RGBA16,
    "T_A16B16G16R16_F": RGBA16,
    "T_A16Y16U16V16": AYUV16,
    "T_V16U16Y16A16": [(8, "word", {0: 1, 1: 2, 2: 3, 3: 0})],
    "T_A16Y16U16V16_F": AYUV16,
    "T_A8B8G8R8": ABGR8,
    "T_X8B8G8R8": ABGR8,
    "T_A8R8G8B8": ARGB8,
    "T_X8R8G8B8": ARGB8,
    "T_B8G8R8A8": BGRA8,
    "T_B8G8R8X8": BGRA8,
    "T_R8G8B8A8": RGBA8,
    "T_R8G8B8X8": RGBA8,
    "T_A8Y8U8V8": ARGB8,
    "T_V8U8Y8A8": BGRA8,
    "T_A2B10G10R10": [(4, "bits", {0: (0, 10), 1: (10, 10), 2: (20, 10), 3: (30, 2)})],
    "T_A2R10G10B10": A2_LOW,
    "T_A2Y10U10V10": A2_LOW,
    "T_B10G10R10A2": A2_HIGH,
    "T_V10U10Y10A2": A2_HIGH,
    "T_R10G10B10A2": [(4, "bits", {0: (22, 10), 1: (12, 10), 2: (2, 10), 3: (0, 2)})],
    "T_Y8___U8V8_N444": B1 + UV8,
    "T_Y8___V8U8_N444": B1 + VU8,
    "T_Y10___U10V10_N444": W1 + UV16,
    "T_Y10___V10U10_N444": W1 + VU16,
    "T_Y12___U12V12_N444": W1 + UV16,
    "T_Y12___V12U12_N444": W1 + VU16,
    "T_Y16___U16V16_N444": W1 + UV16,
    "T_Y16___V16U16_N444": W1 + VU16,
}
ENUM = [
    "T_R8",
    "T_R10",
    "T_R12",
    "T_R16",
    "T_R16_I",
    "T_R16_F",
    "T_A16B16G16R16",
    "T_X16B16G16R16",
    "T_A16B16G16R16_F",
    "T_A16Y16U16V16",
    "T_V16U16Y16A16",
    "T_A16Y16U16V16_F",
    "T_A8B8G8R8",
    "T_A8R8G8B8",
    "T_B8G8R8A8",
    "T_R8G8B8A8",
    "T_X8B8G8R8",
    "T_X8R8G8B8",
    "T_B8G8R8X8",
    "T_R8G8B8X8",
    "T_A2B10G10R10",
    "T_A2R10G10B10",
    "T_B10G10R10A2",
    "T_R10G10B10A2",
    "T_A2Y10U10V10",
    "T_V10U10Y10A2",
    "T_A8Y8U8V8",
    "T_V8U8Y8A8",
    "T_Y8___U8V8_N444",
    "T_Y8___V8U8_N444",
    "T_Y10___U10V10_N444",
    "T_Y10___V10U10_N444",
    "T_Y12___U12V12_N444",
    "T_Y12___V12U12_N444",
    "T_Y16___U16V16_N444",
    "T_Y16___V16U16_N444",
]
NAMES = sorted(TABLE_33)


def P(name):
    return "nvdla.pixel." + name


def random_pixels(name, h, w, rng, dtype=None):
    fmt = models.get_format(P(name))
    dtype = np.dtype(dtype or fmt.dtypes[0])
    ch = TABLE_33[name][1]
    if LAYOUT[name][0][1] == "bits":
        x = rng.integers(0, 1024, (h, w, ch)).astype(np.uint16)
        x[..., 3] %= 4
        return x
    return rng.integers(0, 256, h * w * ch * dtype.itemsize, dtype=np.uint8).view(dtype).reshape(h, w, ch)


def oracle_planes(name, x, xo, ls, uvs=None):
    """Expected plane bytes, pixel by pixel, from the clarifications' table and address rules (2.1, 2.2)."""
    h, w, _ = x.shape
    raw = x.view(np.uint16) if x.dtype.itemsize == 2 else x.view(np.uint8)
    out = []
    for i, (bpp, kind, spec) in enumerate(LAYOUT[name]):
        stride = ls if i == 0 else uvs
        first = xo * bpp if i == 0 else (xo * bpp) % 32
        buf = bytearray(h * stride)
        for y in range(h):
            for xx in range(w):
                a = y * stride + first + xx * bpp
                if kind == "bits":
                    word = sum(int(raw[y, xx, ch]) << lsb for ch, (lsb, _) in spec.items())
                    buf[a : a + 4] = word.to_bytes(4, "little")
                for ch, pos in spec.items():
                    if kind == "byte":
                        buf[a + pos] = int(raw[y, xx, ch])
                    elif kind == "word":
                        buf[a + 2 * pos : a + 2 * pos + 2] = int(raw[y, xx, ch]).to_bytes(2, "little")
        out.append(bytes(buf))
    return out


def surfaces(name):
    return ["plane0", "plane1"] if TABLE_33[name][0] == 2 else ["data"]


def test_all_36_formats_registered_with_enum_values():
    assert len(ENUM) == 36 and sorted(ENUM) == NAMES
    registered = [n for n in models.format_names() if n.startswith("nvdla.pixel.")]
    assert sorted(registered) == sorted(P(n) for n in ENUM)
    for value, name in enumerate(ENUM):
        assert models.info(P(name), (1, 1, TABLE_33[name][1]), models.get_format(P(name)).dtypes[0])["enum"] == value


@pytest.mark.parametrize("name", NAMES)
def test_table_33_planes_channels_x_offset(name):
    planes, channels, xmax = TABLE_33[name]
    fmt = models.get_format(P(name))
    dt = fmt.dtypes[0]
    inf = models.info(P(name), (2, 3, channels), dt, x_offset=xmax)
    assert (inf["planes"], inf["channels"], inf["x_offset_range"]) == (planes, channels, [0, xmax])
    assert [s["name"] for s in inf["surfaces"]] == surfaces(name)
    json.dumps(inf)  # info is JSON-serialisable (the CLI prints it)
    with pytest.raises(FormatError) as exc:
        models.info(P(name), (2, 3, channels), dt, x_offset=xmax + 1)
    assert exc.value.rule == "pixel.x_offset_range"
    for bad in {1, 3, 4} - {channels}:
        with pytest.raises(FormatError) as exc:
            models.pack(P(name), np.zeros((2, 3, bad), dt))
        assert exc.value.rule == "pixel.channels"


@pytest.mark.parametrize("name", NAMES)
def test_pack_matches_clarifications_table_and_addresses(name):
    rng = np.random.default_rng(len(name))
    x = random_pixels(name, 3, 5, rng)
    xo = min(3, TABLE_33[name][2])
    bpp0 = LAYOUT[name][0][0]
    ls = -(-(xo + 5) * bpp0 // 32) * 32 + 32
    opts = dict(x_offset=xo, line_stride=ls)
    if TABLE_33[name][0] == 2:
        opts["uv_line_stride"] = 96
    img = models.pack(P(name), x, **opts)
    expect = oracle_planes(name, x, xo, ls, opts.get("uv_line_stride"))
    assert [img[s].tobytes() for s in surfaces(name)] == expect
    assert all(img[s].align == 32 for s in surfaces(name))
    back = models.unpack(P(name), img, x.shape, x.dtype, **opts)
    assert back.dtype == x.dtype and back.tobytes() == x.tobytes()


def test_a2b10g10r10_example_bytes_01_00_f8_ff():
    # clarifications 2.1: word 0xFFF80001 -> fields R=1, G=0x200, B=0x3FF, A=3 -> R=0x0040 G=0x8000 B=0xFFC0 A=0xC000
    img = b"\x01\x00\xf8\xff" + bytes(28)
    x = models.unpack(P("T_A2B10G10R10"), img, (1, 1, 4), "uint16")
    assert x.reshape(-1).tolist() == [1, 0x200, 0x3FF, 3]
    assert pixel.msb_aligned_values("T_A2B10G10R10", x).reshape(-1).tolist() == [0x0040, 0x8000, 0xFFC0, 0xC000]
    assert models.pack(P("T_A2B10G10R10"), x).tobytes() == img


def test_a8b8g8r8_has_r_in_byte_0_and_x_passes_through():
    x = np.array([[[0x11, 0x22, 0x33, 0x44]]], np.uint8)  # R, G, B, A/X
    assert models.pack(P("T_A8B8G8R8"), x).tobytes()[:4] == b"\x11\x22\x33\x44"
    assert models.pack(P("T_X8R8G8B8"), x).tobytes()[:4] == b"\x33\x22\x11\x44"  # X is kept, not zeroed
    assert pixel.convert_pixels("T_X8R8G8B8", x, "int8", cvt_en=False).reshape(-1)[3] == 0x44


def test_roi_example_a8r8g8b8_at_0x10000014():
    # clarifications 2.2: base0 = 0x1000_0000, x_offset 5
    assert pixel.roi_registers("T_A8R8G8B8", 0x1000_0014) == {"base0": 0x1000_0000, "x_offset": 5}
    with pytest.raises(FormatError) as exc:
        pixel.roi_registers("T_A8R8G8B8", 0x1000_0016)
    assert exc.value.rule == "pixel.roi_alignment"


def test_n444_plane1_x_offset_example():
    # clarifications 2.2: Y ROI at line start+20 -> x_offset 20; chroma ROI at UV line start+40 -> base1 = +32,
    # first pair at byte 8 of that atom
    regs = pixel.roi_registers("T_Y8___U8V8_N444", 0x4000 + 20, 0x8000 + 40)
    assert regs == {"base0": 0x4000, "x_offset": 20, "base1": 0x8000 + 32}
    with pytest.raises(FormatError) as exc:
        pixel.roi_registers("T_Y8___U8V8_N444", 0x4000 + 20, 0x8000 + 36)
    assert exc.value.rule == "pixel.uv_roi_offset"
    x = np.zeros((1, 2, 3), np.uint8)
    x[0, 0] = (0x10, 0x20, 0x30)  # Y, U, V
    img = models.pack(P("T_Y8___U8V8_N444"), x, x_offset=20)
    assert img["plane0"].tobytes()[20] == 0x10
    assert img["plane1"].tobytes()[8:10] == b"\x30\x20"  # U8V8 = U in the high byte: V at byte 8, U at 9
    inf = models.info(P("T_Y8___U8V8_N444"), (1, 2, 3), "uint8", x_offset=20)
    assert inf["uv_line_stride"] == 32 and inf["surfaces"][1]["first_pixel_byte"] == 8


def test_default_and_minimum_strides():
    inf = models.info(P("T_A8R8G8B8"), (2, 5, 4), "uint8", x_offset=5)
    assert inf["line_stride"] == 64 and inf["bytes"] == 128  # (5+5)*4 = 40 -> 64
    inf = models.info(P("T_Y16___V16U16_N444"), (3, 7, 3), "uint16", x_offset=9)
    assert (inf["line_stride"], inf["uv_line_stride"]) == (32, 32)  # (9+7)*2 = 32; (36 mod 32) + 7*4 = 32
    inf = models.info(P("T_Y16___V16U16_N444"), (3, 10, 3), "uint16", x_offset=9)
    assert inf["line_stride"] == 64  # (9+10)*2 = 38 -> 64
    assert inf["uv_line_stride"] == 64  # 4 + 10*4 = 44 -> 64
    assert inf["registers"]["LINE_UV_STRIDE"] == 64 and inf["bytes"] == 3 * 64 + 3 * 64


@pytest.mark.parametrize("name, signed", [("T_R16_I", 1), ("T_R16", 0), ("T_A8B8G8R8", 0), ("T_R8", 0)])
def test_info_gives_the_sign_override_register(name, signed):
    # D_DATAIN_FORMAT.PIXEL_SIGN_OVERRIDE (SIGNED_INT = 1) is programmed for every image layer: T_R16_I is the one
    # format NVIDIA reads as signed by default (clarifications 2.3), every other integer format as unsigned
    dtype = "int16" if name == "T_R16_I" else ("uint16" if name == "T_R16" else "uint8")
    channels = 4 if name == "T_A8B8G8R8" else 1
    inf = models.info(P(name), (2, 3, channels), dtype)
    assert inf["registers"]["PIXEL_SIGN_OVERRIDE"] == signed


@pytest.mark.parametrize(
    "name, opts, rule",
    [
        ("T_A8R8G8B8", dict(line_stride=48), "align.pixel.line_stride"),
        ("T_A8R8G8B8", dict(x_offset=5, line_stride=32), "pixel.line_stride_min"),
        ("T_Y8___U8V8_N444", dict(x_offset=20, uv_line_stride=16), "align.pixel.line_stride"),
        ("T_Y8___U8V8_N444", dict(x_offset=20, uv_line_stride=32), None),  # 8 + 6*2 = 20 fits
        ("T_Y16___U16V16_N444", dict(x_offset=7, uv_line_stride=32), "pixel.uv_line_stride_min"),  # 28 + 6*4 = 52
        ("T_R16", dict(x_offset=16), "pixel.x_offset_range"),
        ("T_A16B16G16R16", dict(x_offset=-1), "pixel.x_offset_range"),
    ],
)
def test_strict_option_errors(name, opts, rule):
    ch = TABLE_33[name][1]
    x = np.zeros((2, 6, ch), models.get_format(P(name)).dtypes[0])
    if rule is None:
        assert models.pack(P(name), x, **opts).nbytes > 0
        return
    with pytest.raises(FormatError) as exc:
        models.pack(P(name), x, **opts)
    assert exc.value.rule == rule


def test_other_strict_errors():
    with pytest.raises(FormatError) as exc:
        models.pack(P("T_A2R10G10B10"), np.array([[[1024, 0, 0, 0]]], np.uint16))
    assert exc.value.rule == "pixel.field_range"
    with pytest.raises(FormatError) as exc:
        models.pack(P("T_B10G10R10A2"), np.array([[[0, 0, 0, 4]]], np.uint16))
    assert exc.value.rule == "pixel.field_range"
    with pytest.raises(FormatError) as exc:
        models.pack(P("T_R8"), np.zeros((1, 1, 1), np.float16))
    assert exc.value.rule == "dtype.unsupported"
    with pytest.raises(FormatError) as exc:
        models.pack(P("T_R16_F"), np.zeros((1, 1, 1), np.int16))
    assert exc.value.rule == "dtype.unsupported"
    with pytest.raises(FormatError) as exc:
        models.pack(P("T_R8"), np.zeros((1, 8193, 1), np.uint8))
    assert exc.value.rule == "pixel.max_dim"
    img = models.pack(P("T_A8B8G8R8"), np.ones((3, 9, 4), np.uint8), line_stride=64)
    with pytest.raises(FormatError) as exc:  # the last line's atoms end at 2*64 + 64 = 192
        models.unpack(P("T_A8B8G8R8"), img.data()[:191], (3, 9, 4), "uint8", line_stride=64)
    assert exc.value.rule == "pixel.buffer_size"
    assert models.unpack(P("T_A8B8G8R8"), img.data()[:192], (3, 9, 4), "uint8", line_stride=64).sum() == 108


def test_signed_dtypes_are_raw_bits_and_fp16_round_trips_bitwise():
    x = np.array([[[-56]]], np.int8)
    assert models.pack(P("T_R8"), x).tobytes()[0] == 200
    assert models.unpack(P("T_R8"), bytes([200]) + bytes(31), (1, 1, 1), "uint8")[0, 0, 0] == 200
    f = np.array([[[np.nan, -0.0, 6e-8, -65504]]], np.float16)
    img = models.pack(P("T_A16B16G16R16_F"), f)
    assert img.tobytes()[:8] == f.tobytes()
    assert models.unpack(P("T_A16B16G16R16_F"), img, f.shape, "float16").tobytes() == f.tobytes()


@settings(max_examples=50, deadline=None)
@given(
    name=st.sampled_from(NAMES),
    h=st.integers(1, 4),
    w=st.integers(1, 40),
    data=st.data(),
    pad=st.integers(0, 2),
    seed=st.integers(0, 2**32 - 1),
)
def test_round_trip_property(name, h, w, data, pad, seed):
    fmt = models.get_format(P(name))
    dtype = data.draw(st.sampled_from(fmt.dtypes))
    xo = data.draw(st.integers(0, TABLE_33[name][2]))
    x = random_pixels(name, h, w, np.random.default_rng(seed), dtype)
    base = models.info(P(name), x.shape, dtype, x_offset=xo)
    opts = dict(x_offset=xo, line_stride=base["line_stride"] + 32 * pad)
    if TABLE_33[name][0] == 2:
        opts["uv_line_stride"] = base["uv_line_stride"] + 32 * pad
    img = models.pack(P(name), x, **opts)
    assert (
        img.nbytes
        == models.info(P(name), x.shape, dtype, **opts)["bytes"]
        == h * (opts["line_stride"] + opts.get("uv_line_stride", 0))
    )
    assert models.unpack(P(name), img, x.shape, dtype, **opts).tobytes() == x.tobytes()


def test_packing_1080p_a8r8g8b8_places_every_channel():
    """The benchmark case (speed is measured by `make bench`, not asserted here)."""
    x = np.random.default_rng(0).integers(0, 256, (1080, 1920, 4), dtype=np.uint8)
    img = models.pack(P("T_A8R8G8B8"), x)
    raw = np.frombuffer(img.tobytes(), np.uint8).reshape(1080, 1920, 4)
    assert (raw[..., 2] == x[..., 0]).all() and (raw[..., 1] == x[..., 1]).all()
    assert (raw[..., 0] == x[..., 2]).all() and (raw[..., 3] == x[..., 3]).all()


# ------------------------------------------------------------------------------------------- converter (2.3)


@pytest.mark.parametrize("raw, expect", [(200, 54), (130, 2), (126, -2), (255, 95), (0, -96)])
def test_converter_worked_examples_unsigned_int8(raw, expect):
    y = pixel.input_convert(
        np.array([raw], np.uint8), "int8", sign_override="unsigned", offset=128, scale=3, truncate=2
    )
    assert y.dtype == np.int8 and int(y[0]) == expect


def test_converter_sign_override_examples():
    x = np.array([0x87], np.uint8)
    assert int(pixel.input_convert(x, "int8", sign_override="signed", offset=0, scale=1)[0]) == -121
    assert int(pixel.input_convert(x, "int16", sign_override="unsigned", offset=0, scale=1)[0]) == 135
    assert int(pixel.input_convert(x, "int8", sign_override="unsigned", offset=0, scale=1)[0]) == 127
    assert int(pixel.input_convert(x, "int8", sign_override=1)[0]) == -121


@pytest.mark.parametrize("raw, expect", [(65519, 65504), (65520, 65504), (2049, 2048), (2051, 2052)])
def test_converter_fp16_examples(raw, expect):
    y = pixel.input_convert(np.array([raw], np.uint16), "fp16", offset=0, scale=1)
    assert y.dtype == np.float16 and float(y[0]) == expect


def test_converter_disabled_reinterprets_bits():
    assert int(pixel.input_convert(np.array([200], np.uint8), "int8", cvt_en=False)[0]) == -56
    assert int(pixel.input_convert(np.array([0xFFC0], np.uint16), "int16", cvt_en=False)[0]) == -64
    with pytest.raises(FormatError) as exc:
        pixel.input_convert(np.array([200], np.uint8), "int16", cvt_en=False)
    assert exc.value.rule == "pixel.cvt_disabled_precision"


def test_converter_mean_per_channel_and_fp16_passthrough():
    x = np.array([[100, 100, 100, 100]], np.uint8)
    y = pixel.input_convert(x, "int16", offset=7, mean=[10, 20, 30, 40], scale=2, truncate=1)
    assert y.tolist() == [[90, 80, 70, 60]]
    f = np.array([1.5, np.inf, -3.0], np.float16)
    assert pixel.input_convert(f, "fp16", offset=100, scale=5).tobytes() == f.tobytes()
    with pytest.raises(FormatError) as exc:
        pixel.input_convert(f, "int8")
    assert exc.value.rule == "precision.invalid_conversion"


@pytest.mark.parametrize(
    "kw, rule",
    [
        (dict(offset=40000), "pixel.cvt_offset_range"),
        (dict(scale=-40000), "pixel.cvt_scale_range"),
        (dict(truncate=64), "pixel.cvt_truncate_range"),
        (dict(sign_override="maybe"), "pixel.sign_override"),
        (dict(mean=[1, 2]), "pixel.cvt_mean_channels"),
        (dict(bits=8, values=np.array([[256, 0, 0]], np.uint16)), "pixel.cvt_value_range"),
    ],
)
def test_converter_register_ranges(kw, rule):
    values = kw.pop("values", np.zeros((1, 3), np.uint8))
    with pytest.raises(FormatError) as exc:
        pixel.input_convert(values, "int8", **kw)
    assert exc.value.rule == rule


def test_convert_pixels_uses_hardware_values_and_format_sign():
    # packed 10-bit: R field 1023 -> 0xFFC0 = 65472, / 2**6 -> 1023; alpha 3 -> 0xC000 = 49152, / 2**6 -> 768
    x = np.array([[[1023, 512, 1, 3]]], np.uint16)
    y = pixel.convert_pixels("T_A2B10G10R10", x, "int16", offset=0, scale=1, truncate=6)
    assert y.reshape(-1).tolist() == [1023, 512, 1, 768]
    y = pixel.convert_pixels("T_A2B10G10R10", x, "int8", offset=0, scale=1, truncate=8)
    assert y.reshape(-1).tolist() == [127, 127, 0, 127]  # 255.75 -> 127 (sat), 128 -> 127, 0.25 -> 0, 192
    # T_R16_I is signed by default (clarifications 2.1); T_R16 is unsigned
    r = np.array([[[0x8000]]], np.uint16)
    assert int(pixel.convert_pixels("T_R16_I", r, "int16").reshape(-1)[0]) == -32768
    assert int(pixel.convert_pixels("T_R16", r, "int16").reshape(-1)[0]) == 32767


def cvt_oracle(raw, bits, signed, off, scale, trunc, out):
    x = raw - (1 << bits) if signed and raw >= 1 << (bits - 1) else raw
    t = Fraction((x - off) * scale, 2**trunc)
    y = floor(abs(t) + Fraction(1, 2)) * (1 if t >= 0 else -1)
    y = min(max(y, -65536), 65535)
    if out == "fp16":
        return fp16_oracle(y)
    lo, hi = (-128, 127) if out == "int8" else (-32768, 32767)
    return min(max(y, lo), hi)


@settings(max_examples=60, deadline=None)
@given(
    bits=st.sampled_from([8, 16]),
    signed=st.booleans(),
    off=st.integers(-32768, 32767),
    scale=st.integers(-32768, 32767),
    trunc=st.integers(0, 40),
    out=st.sampled_from(["int8", "int16", "fp16"]),
    data=st.data(),
)
def test_converter_against_exact_oracle(bits, signed, off, scale, trunc, out, data):
    raws = data.draw(st.lists(st.integers(0, (1 << bits) - 1), min_size=1, max_size=8))
    y = pixel.input_convert(
        np.array(raws, np.uint8 if bits == 8 else np.uint16),
        out,
        sign_override="signed" if signed else "unsigned",
        offset=off,
        scale=scale,
        truncate=trunc,
    )
    assert [float(v) for v in y] == [float(cvt_oracle(r, bits, signed, off, scale, trunc, out)) for r in raws]
