"""PixelDescriptor: validator rules one by one, hand-worked descriptors (clarifications 2.2, 2.3) and
agreement with the packed images of all 36 pixel formats."""

import zlib

import numpy as np
import pytest

from dlaverif import models
from dlaverif.models import FormatError, PixelDescriptor as D
from dlaverif.models.nvdla.pixel import ENUM_ORDER
from dlaverif.models.pixel_desc import ERROR_RULES

from .descriptor_helpers import assert_breaks_only

RULES_IN_BIT_ORDER = (
    "format",
    "size",
    "x_offset",
    "precision",
    "align_base0",
    "align_stride0",
    "align_base1",
    "align_stride1",
    "stride_min0",
    "stride_min1",
    "addr_overflow",
)

# T_Y10___U10V10_N444 (code 30): Y 2 bytes/pixel, UV pair 4 bytes/pixel, x offset 0..15. W=40, x_offset 3:
# plane 0 needs (3+40)*2 = 86 bytes a line -> 96; plane 1 needs (3*4 mod 32) + 40*4 = 172 -> 192.
LEGAL = D(
    format_code=30,
    width=40,
    height=4,
    x_offset=3,
    base0=0x1000,
    line_stride0=96,
    out_precision=1,
    base1=0x2000,
    line_stride1=192,
)


def test_rule_names_in_bit_order():
    assert ERROR_RULES == RULES_IN_BIT_ORDER


def test_legal_descriptor_and_the_bytes_it_reads():
    assert LEGAL.errors() == [] and LEGAL.validate() is LEGAL
    assert (LEGAL.format_name, LEGAL.precision_name, LEGAL.planes) == ("T_Y10___U10V10_N444", "int16", 2)
    # plane 0: 3 lines of 96 + the line's atoms up to byte 86 -> 96; plane 1: 3*192 + 192 (bytes 12..172)
    assert LEGAL.ranges() == {"plane0": (0x1000, 3 * 96 + 96), "plane1": (0x2000, 4 * 192)}


@pytest.mark.parametrize(
    "change, rule",
    [
        (dict(format_code=36), "format"),
        (dict(format_code=-1), "format"),
        (dict(width=0), "size"),
        (dict(height=0), "size"),
        (dict(height=8193), "size"),
        (dict(x_offset=16), "x_offset"),  # Table 33: 0..15 for 2-byte pixels
        (dict(x_offset=-1), "x_offset"),
        (dict(out_precision=3), "precision"),
        (dict(cvt_en=False, out_precision=2), "precision"),  # raw 16-bit bits cannot become fp16
        (dict(cvt_en=False, out_precision=0), "precision"),
        (dict(base0=0x1010), "align_base0"),
        (dict(line_stride0=112), "align_stride0"),
        (dict(base1=0x2010), "align_base1"),
        (dict(line_stride1=208), "align_stride1"),
        (dict(line_stride0=64), "stride_min0"),  # < 86
        (dict(line_stride1=160), "stride_min1"),  # < 172
        (dict(base0=-32), "addr_overflow"),
        (dict(base1=-0x2000), "addr_overflow"),
    ],
)
def test_each_rule_broken_alone_sets_its_own_bit(change, rule):
    assert_breaks_only(LEGAL.with_(**change), rule, RULES_IN_BIT_ORDER, "pixel_desc")


@pytest.mark.parametrize(
    "change",
    [
        dict(x_offset=15, line_stride0=128, line_stride1=224),  # (15+40)*2 = 110; 28 + 160 = 188
        dict(x_offset=0),
        dict(line_stride0=96, line_stride1=192),
        dict(width=1, height=1),
        dict(width=8192, line_stride0=16416, line_stride1=32768),  # (3+8192)*2 = 16390; 12 + 32768 > 32768
        dict(cvt_en=False, out_precision=1),
        dict(out_precision=0),
        dict(out_precision=2),  # integer images convert to every precision
    ],
)
def test_edge_values_that_are_kept(change):
    d = LEGAL.with_(**change)
    if change.get("width") == 8192:
        assert d.errors() == ["stride_min1"]  # 12 + 32768 bytes do not fit 32768
        d = d.with_(line_stride1=32800)
    assert d.errors() == []


def test_the_picture_may_end_exactly_at_the_top_of_the_address_space():
    top = 2**32 - 4 * 192
    d = LEGAL.with_(base1=top)
    assert d.errors(addr_bits=32) == []
    assert d.with_(base1=top + 32).errors(addr_bits=32) == ["addr_overflow"]


def test_fp16_images_only_to_fp16():
    r16f = D(format_code=5, width=4, height=2, x_offset=0, base0=0, line_stride0=32, out_precision=2)
    assert r16f.errors() == []
    assert r16f.with_(out_precision=0).errors() == ["precision"]
    assert r16f.with_(out_precision=1).errors() == ["precision"]


def test_single_plane_formats_ignore_plane_1():
    r8 = D(
        format_code=0,
        width=4,
        height=2,
        x_offset=31,
        base0=0x40,
        line_stride0=64,
        out_precision=0,
        base1=0x13,
        line_stride1=7,
    )
    assert r8.errors() == [] and list(r8.ranges()) == ["data"]


def test_an_unknown_format_sets_only_its_own_bit():
    unknown = LEGAL.with_(format_code=63, x_offset=31, line_stride0=32, line_stride1=32)
    assert unknown.errors() == ["format"]
    with pytest.raises(FormatError) as exc:
        unknown.ranges()  # no format, no plane sizes
    assert exc.value.rule == "pixel_desc.format"


def test_several_broken_rules_set_several_bits():
    d = LEGAL.with_(width=0, base0=0x1001, line_stride1=1)
    assert d.errors() == ["size", "align_base0", "align_stride1"]
    assert d.error_bits() == 0b10010010


@pytest.mark.parametrize(
    "field, value, rule",
    [
        ("cvt_offset", 32768, "pixel.cvt_offset_range"),
        ("cvt_scale", -32769, "pixel.cvt_scale_range"),
        ("cvt_truncate", 64, "pixel.cvt_truncate_range"),
        ("mean", (0, 0, 40000, 0), "pixel.cvt_mean_range"),
        ("mean", (1, 2, 3), "pixel.cvt_mean_channels"),
    ],
)
def test_converter_fields_must_fit_their_registers(field, value, rule):
    with pytest.raises(FormatError) as exc:
        LEGAL.with_(**{field: value})
    assert exc.value.rule == rule


# --------------------------------------------------------------------------- hand-worked exports


@pytest.mark.parametrize(
    "name, code",
    [
        ("T_R8", 0),
        ("T_R16_F", 5),
        ("T_A8R8G8B8", 13),
        ("T_A2B10G10R10", 20),
        ("T_V8U8Y8A8", 27),
        ("T_Y8___U8V8_N444", 28),
        ("T_Y16___V16U16_N444", 35),
    ],
)
def test_format_codes_follow_table_33(name, code):  # clarifications 2.1 enum column
    channels = 3 if "N444" in name else (1 if name.startswith("T_R") and "G" not in name else 4)
    dtype = {"T_R16_F": "float16"}.get(
        name, "uint8" if "8" in name and "10" not in name and "16" not in name else "uint16"
    )
    d = models.descriptor("nvdla.pixel." + name, (2, 3, channels), dtype)
    assert (d.format_code, d.format_name) == (code, name)


def test_roi_example_of_clarifications_2_2():
    # T_A8R8G8B8 ROI at 0x1000_0014 -> base 0x1000_0000, x offset 5; W=10: line (5+10)*4 = 60 -> stride 64
    d = models.descriptor("nvdla.pixel.T_A8R8G8B8", (4, 10, 4), "uint8", base=0x1000_0000, x_offset=5)
    assert (d.format_code, d.base0, d.x_offset, d.line_stride0, d.out_precision) == (13, 0x1000_0000, 5, 64, 0)
    assert d.ranges() == {"data": (0x1000_0000, 3 * 64 + 64)}


def test_semi_planar_example_plane_1_follows_plane_0():
    # T_Y8___U8V8_N444, W=20, x offset 20: plane 0 line 40 -> 64; plane 1 (40 mod 32) + 40 = 48 -> 64
    d = models.descriptor("nvdla.pixel.T_Y8___U8V8_N444", (2, 20, 3), "uint8", base=0x8000, x_offset=20)
    assert (d.base0, d.line_stride0, d.base1, d.line_stride1) == (0x8000, 64, 0x8000 + 128, 64)
    explicit = models.descriptor(
        "nvdla.pixel.T_Y8___U8V8_N444", (2, 20, 3), "uint8", base=0x8000, x_offset=20, base1=0x20000, uv_line_stride=96
    )
    assert (explicit.base1, explicit.line_stride1) == (0x20000, 96)
    with pytest.raises(FormatError) as exc:
        models.descriptor("nvdla.pixel.T_Y8___U8V8_N444", (2, 20, 3), "uint8", base=0x8000, base1=0x20010)
    assert exc.value.rule == "pixel_desc.align_base1"


def test_converter_worked_examples_of_clarifications_2_3():
    d = models.descriptor(
        "nvdla.pixel.T_R8", (1, 5, 1), "uint8", out_precision="int8", cvt_offset=128, cvt_scale=3, cvt_truncate=2
    )
    x = np.array([200, 130, 126, 255, 0], np.uint8).reshape(1, 5, 1)
    assert d.convert(x).ravel().tolist() == [54, 2, -2, 95, -96]
    signed = models.descriptor("nvdla.pixel.T_R8", (1, 1, 1), "uint8", sign_override="signed")
    assert signed.sign_override is True
    assert signed.convert(np.array([[[0x87]]], np.uint8)).ravel().tolist() == [-121]
    assert d.with_(cvt_offset=0, cvt_scale=1, cvt_truncate=0).convert(np.array([[[0x87]]], np.uint8)).ravel() == 127
    assert models.descriptor("nvdla.pixel.T_R8", (1, 1, 1), "uint8", sign_override="unsigned").sign_override is False
    assert models.descriptor("nvdla.pixel.T_R16_I", (1, 1, 1), "int16").sign_override is True  # NVIDIA's default
    fp = models.descriptor("nvdla.pixel.T_R16", (1, 4, 1), "uint16", out_precision="fp16")
    got = fp.convert(np.array([65519, 65520, 2049, 2051], np.uint16).reshape(1, 4, 1)).ravel()
    assert got.tolist() == [65504.0, 65504.0, 2048.0, 2052.0]
    mean = d.with_(mean_en=True, mean=(100, 0, 0, 0), cvt_scale=1, cvt_truncate=0)  # mean replaces the offset
    assert mean.convert(np.array([[[200]]], np.uint8)).ravel().tolist() == [100]


@pytest.mark.parametrize(
    "kwargs, rule",
    [
        (dict(base=0x1010), "pixel_desc.align_base0"),
        (dict(base1=0x1000), "pixel.base1_single_plane"),  # a one-plane format has no plane 1
        (dict(out_precision="int8"), "pixel_desc.precision"),  # an fp16 picture
        (dict(x_offset=4), "pixel.x_offset_range"),  # the format's own option check comes first
        (dict(out_precision="int4"), "precision.unknown"),
    ],
)
def test_descriptor_export_refuses(kwargs, rule):
    with pytest.raises(FormatError) as exc:
        models.descriptor("nvdla.pixel.T_A16Y16U16V16_F", (2, 3, 4), "float16", **kwargs)
    assert exc.value.rule == rule


# --------------------------------------------------------------------------- agreement with packed images

# Bytes per pixel of plane 0 (and plane 1), written from Table 33 / clarifications 2.1 by hand.
BPP: dict[str, tuple[int, ...]] = {
    "T_R8": (1,),
    "T_R10": (2,),
    "T_R12": (2,),
    "T_R16": (2,),
    "T_R16_I": (2,),
    "T_R16_F": (2,),
}
BPP.update(
    {
        n: (8,)
        for n in (
            "T_A16B16G16R16",
            "T_X16B16G16R16",
            "T_A16B16G16R16_F",
            "T_A16Y16U16V16",
            "T_V16U16Y16A16",
            "T_A16Y16U16V16_F",
        )
    }
)
BPP.update(
    {
        n: (4,)
        for n in (
            "T_A8B8G8R8",
            "T_A8R8G8B8",
            "T_B8G8R8A8",
            "T_R8G8B8A8",
            "T_X8B8G8R8",
            "T_X8R8G8B8",
            "T_B8G8R8X8",
            "T_R8G8B8X8",
            "T_A8Y8U8V8",
            "T_V8U8Y8A8",
        )
    }
)
PACKED10 = ("T_A2B10G10R10", "T_A2R10G10B10", "T_B10G10R10A2", "T_R10G10B10A2", "T_A2Y10U10V10", "T_V10U10Y10A2")
BPP.update({n: (4,) for n in PACKED10})
BPP.update({n: (1, 2) for n in ("T_Y8___U8V8_N444", "T_Y8___V8U8_N444")})
BPP.update({f"T_Y{b}___{p}_N444": (2, 4) for b in (10, 12, 16) for p in (f"U{b}V{b}", f"V{b}U{b}")})


def test_the_hand_table_covers_all_36_formats():
    assert sorted(BPP) == sorted(ENUM_ORDER) and len(BPP) == 36


def _picture(rng, name, h, w):
    """Raw components that are never zero, so every written byte of a pixel is found in memory."""
    fmt = models.get_format("nvdla.pixel." + name)
    c = 3 if "N444" in name else (4 if BPP[name][0] >= 4 else 1)
    dtype = fmt.dtypes[0]
    if name in PACKED10:
        x = rng.integers(1, 1024, (h, w, c)).astype(np.uint16)
        x[..., 3] = rng.integers(1, 4, (h, w))
    elif dtype == "float16":
        x = rng.uniform(0.5, 100, (h, w, c)).astype(np.float16)
    else:
        hi = 256 if np.dtype(dtype).itemsize == 1 else 65536
        x = rng.integers(1, hi, (h, w, c)).astype(dtype)
        if np.dtype(dtype).itemsize == 2:  # both bytes of every 16-bit component non-zero
            x = (x | 0x0101).astype(dtype)
        else:
            x = x.astype(dtype)
    return x


@pytest.mark.parametrize("edge", ["low", "high"])
@pytest.mark.parametrize("name", ENUM_ORDER)
def test_descriptor_agrees_with_the_packed_image(name, edge):
    rng = np.random.default_rng(zlib.crc32(f"{name}{edge}".encode()))
    bpp = BPP[name]
    h, w = int(rng.integers(1, 5)), int(rng.integers(1, 40))
    x_off = 0 if edge == "low" else 32 // bpp[0] - 1
    gap = 32 * int(rng.integers(0, 3))
    strides = {"line_stride": -(-(x_off + w) * bpp[0] // 32) * 32 + gap}
    if len(bpp) == 2:
        strides["uv_line_stride"] = -(-((x_off * bpp[1]) % 32 + w * bpp[1]) // 32) * 32 + 32 * int(rng.integers(0, 3))
    x = _picture(rng, name, h, w)
    full = "nvdla.pixel." + name
    base = 0x10_0000 + 32 * int(rng.integers(0, 64))
    img = models.pack(full, x, x_offset=x_off, **strides).placed(base)
    d = models.descriptor(full, x.shape, x.dtype, base=base, x_offset=x_off, **strides)
    assert d.errors() == [] and d.format_name == name
    assert (d.width, d.height, d.x_offset) == (w, h, x_off)
    surfaces = list(img)
    assert list(d.ranges()) == [s.name for s in surfaces]
    plane_strides = [strides["line_stride"], strides.get("uv_line_stride")]
    for i, (s, (rbase, rbytes)) in enumerate(zip(surfaces, d.ranges().values())):
        stride = (d.line_stride0, d.line_stride1)[i]
        assert (rbase, stride) == (s.base, plane_strides[i])
        first = x_off * bpp[i] if i == 0 else (x_off * bpp[i]) % 32  # clarifications 2.2
        # the descriptor reads up to the end of the 32-byte atom holding the last pixel, inside the surface
        assert rbytes == (h - 1) * stride + -(-(first + w * bpp[i]) // 32) * 32 <= s.nbytes
        # every pixel's bytes at the descriptor's addresses; nothing written anywhere else
        addr = (
            np.arange(h)[:, None, None] * stride
            + first
            + np.arange(w)[None, :, None] * bpp[i]
            + np.arange(bpp[i])[None, None, :]
        )
        pix = s.data[addr]  # (h, w, bpp) bytes
        mask = np.zeros(s.nbytes, bool)
        mask[addr.reshape(-1)] = True
        assert not s.data[~mask].any()
        channels = x[..., :1] if (len(bpp) == 2 and i == 0) else (x[..., 1:] if i == 1 else x)
        if name in PACKED10:
            assert pix.any(axis=2).all()  # every pixel's word holds its non-zero fields
            continue
        width = channels.dtype.itemsize
        words = pix.reshape(h, w, -1).view("<u2" if width == 2 else np.uint8)  # the components of a pixel
        raw = channels.view(np.uint16 if width == 2 else np.uint8)
        np.testing.assert_array_equal(np.sort(words, axis=2), np.sort(raw, axis=2))


def test_descriptor_params_name_exactly_the_non_option_arguments():
    import inspect

    from dlaverif.models.nvdla.pixel import DESCRIPTOR_PARAMS
    from dlaverif.models.pixel_desc import descriptor

    params = list(inspect.signature(descriptor).parameters)
    assert params[params.index("uv_line_stride") + 1 :] == list(DESCRIPTOR_PARAMS)
