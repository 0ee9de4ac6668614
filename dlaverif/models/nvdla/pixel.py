"""NVDLA pitch-linear pixel formats (ROI input), formats ``nvdla.pixel.<T_NAME>``, and the input converter.

Sources: seed "Pixel Format" (Table 33), "Precision Conversion" (Equation 1) and Table 35 row "Pitch linear
pixel"; clarifications 2.1 (naming and channel order), 2.2 (planes, strides, x-offset), 2.3 (converter),
10 (register fields) and 12.1.

Logical tensor ``H, W, C`` of raw component values, channels in the hardware OUTPUT order ``R, G, B, A``
(RGB family) or ``Y, U, V, A`` (YUV family); an X component is delivered as channel 3 like A (2.1). Channel
count per Table 33: 1 (``T_R*``), 4, or 3 (``*_N444``); any other count is ``FormatError('pixel.channels')``.

Names are read MSB-first within ONE little-endian pixel word (clarifications 2.1, which win over the seed and
over NVIDIA's v2 Python generator): ``T_A8B8G8R8`` has R in byte 0 and A in byte 3. The field table of every
format is derived from its name by that rule (:func:`parse_name`) and the tests check it against the
clarifications' table. Names are spelled as in the clarifications: three underscores before the chroma pair
of the semi-planar formats (``T_Y8___U8V8_N444``), no spaces (the seed prints ``T_A2B10G10R_10`` etc.).

Element types (component values as they lie in memory):

* 8-bit components: ``uint8`` or ``int8`` (raw bits; the sign is the converter's business).
* 16-bit containers (``T_R10``, ``T_R12``, ``T_R16``, ``T_R16_I``, 16-bit RGBA/YUVA, 10/12/16-bit N444):
  ``uint16`` or ``int16`` raw container values. The hardware uses the whole container with no shift
  (clarifications 2.1); whether a producer puts 10/12-bit data MSB- or LSB-aligned is not defined by hardware
  (12.1), so the model stores exactly the container values it is given.
* ``_F`` formats: ``float16`` (the seed's Table 33 says "int16" for ``T_R16_F``; the clarifications and the
  C model say fp16, which we follow).
* Packed 10-bit formats (``T_A2B10G10R10`` ...): ``uint16`` field values, 0..1023 for the 10-bit colour
  fields and 0..3 for the 2-bit alpha (``FormatError('pixel.field_range')`` otherwise). The hardware works
  on ``field << 6`` (``a << 14`` for alpha): :func:`msb_aligned_values` returns those 16-bit values.

Memory (clarifications 2.2): plane 0 pixel x of line y at ``y*line_stride + (x_offset + x)*Bpp0`` from the
32-byte aligned base; semi-planar (N444) plane 1 holds the chroma pair at
``y*uv_line_stride + ((x_offset*Bpp1) mod 32) + x*Bpp1`` from its own 32-byte aligned base. Surfaces are
``data`` (single plane) or ``plane0`` and ``plane1`` (N444).

Choices (tested in ``tests/models/test_nvdla_pixel.py``):

* ``x_offset`` must be in Table 33's range ``0 .. 32/Bpp0 - 1`` (``pixel.x_offset_range``).
* ``line_stride`` is a multiple of 32 (Table 35, ``align.pixel.line_stride``) and at least
  ``(x_offset + W)*Bpp0`` (``pixel.line_stride_min``, the C model's check); default: the smallest such.
  ``uv_line_stride`` likewise (32-byte register units, clarifications 10) with the C model's bound
  ``((x_offset*Bpp1) mod 32) + W*Bpp1`` (``pixel.uv_line_stride_min``); default: the smallest such.
* Each plane image is ``H * stride`` bytes (a whole pitch-linear surface); bytes before the ROI (x-offset
  region) and after it are zero. Unpack accepts any image that covers the atoms the DMA reads,
  ``(H-1)*stride + roundup32(last byte of the line)``, else ``FormatError('pixel.buffer_size')``.
* W and H are at most 8192 (13-bit fields, ``pixel.max_dim``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import partial
from typing import Any, Optional, Sequence, Union

import numpy as np

from ..core.arith import round_up
from ..core.errors import FormatError, require
from ..core.memimage import MemoryImage, Surface
from ..core.registry import Example, Format, Option, register
from . import alignment
from .precision import check_conversion, int_to_fp16, normalize_precision, register_pixel_inputs, round_shift, saturate

PREFIX = "nvdla.pixel."
MAX_DIM = 8192
START_ALIGN = 32

#: PIXEL_FORMAT register values 0..35 (clarifications 2.1 table, ``D_DATAIN_FORMAT.PIXEL_FORMAT``).
ENUM_ORDER: tuple[str, ...] = (
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
)

#: Seed Table 33 as printed (names normalised): planes, valid channel size, valid input precision, max x-offset.
#: ``T_R16_F`` is printed "int16"; the clarifications (2.1) correct it to fp16.
TABLE_33: dict[str, tuple[int, int, str, int]] = {
    "T_R8": (1, 1, "int8", 31),
    "T_R10": (1, 1, "int16", 15),
    "T_R12": (1, 1, "int16", 15),
    "T_R16": (1, 1, "int16", 15),
    "T_R16_I": (1, 1, "int16", 15),
    "T_R16_F": (1, 1, "int16", 15),
    "T_A16B16G16R16": (1, 4, "int16", 3),
    "T_X16B16G16R16": (1, 4, "int16", 3),
    "T_A16B16G16R16_F": (1, 4, "fp16", 3),
    "T_A16Y16U16V16": (1, 4, "int16", 3),
    "T_V16U16Y16A16": (1, 4, "int16", 3),
    "T_A16Y16U16V16_F": (1, 4, "fp16", 3),
    "T_A8B8G8R8": (1, 4, "int8", 7),
    "T_A8R8G8B8": (1, 4, "int8", 7),
    "T_B8G8R8A8": (1, 4, "int8", 7),
    "T_R8G8B8A8": (1, 4, "int8", 7),
    "T_X8B8G8R8": (1, 4, "int8", 7),
    "T_X8R8G8B8": (1, 4, "int8", 7),
    "T_B8G8R8X8": (1, 4, "int8", 7),
    "T_R8G8B8X8": (1, 4, "int8", 7),
    "T_A2B10G10R10": (1, 4, "int16", 7),
    "T_A2R10G10B10": (1, 4, "int16", 7),
    "T_B10G10R10A2": (1, 4, "int16", 7),
    "T_R10G10B10A2": (1, 4, "int16", 7),
    "T_A2Y10U10V10": (1, 4, "int16", 7),
    "T_V10U10Y10A2": (1, 4, "int16", 7),
    "T_A8Y8U8V8": (1, 4, "int8", 7),
    "T_V8U8Y8A8": (1, 4, "int8", 7),
    "T_Y8___U8V8_N444": (2, 3, "int8", 31),
    "T_Y8___V8U8_N444": (2, 3, "int8", 31),
    "T_Y10___U10V10_N444": (2, 3, "int16", 15),
    "T_Y10___V10U10_N444": (2, 3, "int16", 15),
    "T_Y12___U12V12_N444": (2, 3, "int16", 15),
    "T_Y12___V12U12_N444": (2, 3, "int16", 15),
    "T_Y16___U16V16_N444": (2, 3, "int16", 15),
    "T_Y16___V16U16_N444": (2, 3, "int16", 15),
}

_CHANNEL = {"rgb": {"R": 0, "G": 1, "B": 2, "A": 3, "X": 3}, "yuv": {"Y": 0, "U": 1, "V": 2, "A": 3, "X": 3}}


@dataclass(frozen=True)
class Field:
    """One component of a plane: output channel, bit position in the little-endian pixel word, width.
    For byte/word-container formats ``slot`` is the container index (byte for 8-bit, LE 16-bit word else)."""

    letter: str
    channel: int
    lsb: int
    width: int
    slot: int


@dataclass(frozen=True)
class Plane:
    bpp: int  # bytes per pixel in this plane
    container_bits: int  # 8 or 16 (component containers) or 32 (packed 10-bit word)
    fields: tuple[Field, ...]


@dataclass(frozen=True)
class PixelFormat:
    """A Table 33 format, derived from its name (clarifications 2.1)."""

    name: str
    enum: int
    family: str  # "rgb" or "yuv"
    planes: tuple[Plane, ...]
    channels: int
    precision: str  # pipeline input precision class: int8 / int16 / fp16
    packed10: bool
    fp16: bool
    signed_default: bool  # PIXEL_SIGN_OVERRIDE NVIDIA uses for it (T_R16_I: SIGNED)

    @property
    def x_offset_max(self) -> int:
        return 32 // self.planes[0].bpp - 1

    @property
    def dtypes(self) -> tuple[str, ...]:
        if self.fp16:
            return ("float16",)
        if self.packed10:
            return ("uint16",)
        return ("uint8", "int8") if self.planes[0].container_bits == 8 else ("uint16", "int16")

    @property
    def component_bits(self) -> int:
        """Width of the value the input converter sees: 8 or 16."""
        return 8 if self.precision == "int8" else 16

    @property
    def semi_planar(self) -> bool:
        return len(self.planes) == 2


def parse_name(name: str) -> PixelFormat:
    """Build the field table of a pixel format from its name: components are listed MSB-first within one
    little-endian word (clarifications 2.1)."""
    require(name in ENUM_ORDER, "pixel.unknown_format", f"unknown pixel format {name!r}")
    body = name[2:]
    fp16 = signed = False
    if body.endswith("_N444"):
        plane_txt = body[:-5].split("___")
    else:
        if body.endswith("_F"):
            fp16, body = True, body[:-2]
        elif body.endswith("_I"):
            signed, body = True, body[:-2]
        plane_txt = [body]
    comps_per_plane = [re.findall(r"([RGBAXYUV])(\d+)", t) for t in plane_txt]
    letters = {c for comps in comps_per_plane for c, _ in comps}
    family = "yuv" if letters & {"Y", "U", "V"} else "rgb"
    planes = []
    packed10 = False
    for comps in comps_per_plane:
        widths = [int(w) for _, w in comps]
        if sorted(widths) == [2, 10, 10, 10]:
            packed10, container = True, 32
        else:
            container = 8 if widths[0] == 8 else 16  # 10/12/16-bit components live in 16-bit containers
        fields = []
        lsb = 0
        for slot, (letter, width) in enumerate(reversed(comps)):  # LSB first
            width = int(width)
            if container == 32:
                fields.append(Field(letter, _CHANNEL[family][letter], lsb, width, 0))
                lsb += width
            else:
                fields.append(Field(letter, _CHANNEL[family][letter], slot * container, container, slot))
        bpp = 4 if container == 32 else len(comps) * container // 8
        planes.append(Plane(bpp, container, tuple(sorted(fields, key=lambda f: f.lsb))))
    channels = len({f.channel for p in planes for f in p.fields})
    precision = "fp16" if fp16 else ("int8" if planes[0].container_bits == 8 else "int16")
    return PixelFormat(name, ENUM_ORDER.index(name), family, tuple(planes), channels, precision, packed10, fp16, signed)


PIXEL_FORMATS: dict[str, PixelFormat] = {n: parse_name(n) for n in ENUM_ORDER}
register_pixel_inputs({n: f.precision == "fp16" for n, f in PIXEL_FORMATS.items()})


def get(name: str) -> PixelFormat:
    """The :class:`PixelFormat` of ``T_...`` or ``nvdla.pixel.T_...``."""
    key = name[len(PREFIX) :] if name.startswith(PREFIX) else name
    if key not in PIXEL_FORMATS:
        raise FormatError("pixel.unknown_format", f"unknown pixel format {name!r}; known: {list(ENUM_ORDER)}")
    return PIXEL_FORMATS[key]


def _round32(v: int) -> int:
    return round_up(v, 32)


# ----------------------------------------------------------------------------------------------------------
# geometry


@dataclass(frozen=True)
class PixelGeometry:
    fmt: PixelFormat
    h: int
    w: int
    x_offset: int
    line_stride: int
    uv_line_stride: Optional[int]

    def plane_offset(self, i: int) -> int:
        """Byte of the first ROI pixel inside line 0 of plane ``i`` (clarifications 2.2)."""
        bpp = self.fmt.planes[i].bpp
        return self.x_offset * bpp if i == 0 else (self.x_offset * bpp) % 32

    def stride(self, i: int) -> int:
        if i == 0:
            return self.line_stride
        assert self.uv_line_stride is not None, "plane 1 exists only in semi-planar formats, which have a UV stride"
        return int(self.uv_line_stride)

    def plane_bytes(self, i: int) -> int:
        return self.h * self.stride(i)

    def min_bytes(self, i: int) -> int:
        """Bytes the DMA reads in plane ``i``: up to the end of the atom holding the last ROI pixel."""
        return (self.h - 1) * self.stride(i) + _round32(self.plane_offset(i) + self.w * self.fmt.planes[i].bpp)

    def surface_names(self) -> tuple[str, ...]:
        return ("plane0", "plane1") if self.fmt.semi_planar else ("data",)


def geometry(
    fmt: PixelFormat,
    shape: Sequence[int],
    x_offset: int = 0,
    line_stride: Optional[int] = None,
    uv_line_stride: Optional[int] = None,
) -> PixelGeometry:
    """Check shape and options against Tables 33/35 and the C model's stride bounds."""
    shape = tuple(int(d) for d in shape)
    require(len(shape) == 3, "shape.rank", f"{PREFIX}{fmt.name}: shape {shape} is not H,W,C")
    h, w, c = shape
    require(
        c == fmt.channels,
        "pixel.channels",
        f"{PREFIX}{fmt.name}: {c} channels given; Table 33 allows exactly {fmt.channels}",
    )
    for axis, v in (("H", h), ("W", w)):
        require(1 <= v <= MAX_DIM, "pixel.max_dim", f"{PREFIX}{fmt.name}: {axis}={v} outside 1..{MAX_DIM}")
    x_offset = int(x_offset)
    require(
        0 <= x_offset <= fmt.x_offset_max,
        "pixel.x_offset_range",
        f"{PREFIX}{fmt.name}: x_offset {x_offset} outside Table 33 range 0..{fmt.x_offset_max}",
    )
    bpp0 = fmt.planes[0].bpp
    need0 = (x_offset + w) * bpp0
    ls = _round32(need0) if line_stride is None else int(line_stride)
    alignment.check("pixel", line_stride=ls)
    require(
        ls >= need0,
        "pixel.line_stride_min",
        f"{PREFIX}{fmt.name}: line_stride {ls} < (x_offset + W)*Bpp = ({x_offset} + {w})*{bpp0} = {need0}",
    )
    uvs = None
    if fmt.semi_planar:
        bpp1 = fmt.planes[1].bpp
        need1 = (x_offset * bpp1) % 32 + w * bpp1
        uvs = _round32(need1) if uv_line_stride is None else int(uv_line_stride)
        alignment.check("pixel", line_stride=uvs)
        require(
            uvs >= need1,
            "pixel.uv_line_stride_min",
            f"{PREFIX}{fmt.name}: uv_line_stride {uvs} < ((x_offset*Bpp1) mod 32) + W*Bpp1 = {need1}",
        )
    return PixelGeometry(fmt, h, w, x_offset, ls, uvs)


# ----------------------------------------------------------------------------------------------------------
# pack / unpack


def _raw_unsigned(t: np.ndarray) -> np.ndarray:
    """Component bits as unsigned integers (int8 -> uint8, int16/float16 -> uint16)."""
    if t.dtype.itemsize == 1:
        return t.view(np.uint8)
    return t.view(np.uint16)


def _check_dtype(fmt: PixelFormat, dt: np.dtype) -> None:
    require(
        dt.name in fmt.dtypes,
        "dtype.unsupported",
        f"{PREFIX}{fmt.name}: element type {dt.name} is not valid; valid: {list(fmt.dtypes)}",
    )


def _write_plane(fmt: PixelFormat, plane: Plane, t: np.ndarray, dest: np.ndarray) -> None:
    """Write one plane's pixels into ``dest``, an (H, W*bpp) uint8 view of the plane's lines."""
    h, w = t.shape[:2]
    if plane.container_bits == 32:
        word = np.zeros((h, w), dtype="<u4")
        for f in plane.fields:
            v = t[..., f.channel]
            bad = v >= (1 << f.width)
            if bad.any():
                y, x = (int(i[0]) for i in np.nonzero(bad))
                raise FormatError(
                    "pixel.field_range",
                    f"{PREFIX}{fmt.name}: channel {f.channel} ({f.letter}) value {int(v[y, x])} at "
                    f"(h={y}, w={x}) does not fit its {f.width}-bit field (0..{(1 << f.width) - 1})",
                )
            word |= v.astype(np.uint32) << np.uint32(f.lsb)
        dest[...] = word.view(np.uint8).reshape(h, w * 4)
        return
    raw = _raw_unsigned(t)
    cont = dest.view("<u2") if plane.container_bits == 16 else dest  # last axis is contiguous
    cont = cont.reshape(h, w, len(plane.fields))
    for f in plane.fields:  # one strided copy per component
        cont[..., f.slot] = raw[..., f.channel]


def pack(
    fmt: PixelFormat,
    tensor: np.ndarray,
    x_offset: int = 0,
    line_stride: Optional[int] = None,
    uv_line_stride: Optional[int] = None,
) -> MemoryImage:
    """Pack an H,W,C tensor of raw component values (output channel order) into the pitch-linear planes."""
    t = np.asarray(tensor)
    _check_dtype(fmt, t.dtype)
    g = geometry(fmt, t.shape, x_offset, line_stride, uv_line_stride)
    surfaces = []
    for i, (plane, name) in enumerate(zip(fmt.planes, g.surface_names())):
        lines = np.zeros((g.h, g.stride(i)), dtype=np.uint8)
        off = g.plane_offset(i)
        _write_plane(fmt, plane, t, lines[:, off : off + g.w * plane.bpp])
        surfaces.append(Surface(name, lines.reshape(-1), START_ALIGN))
    return MemoryImage(tuple(surfaces))


def unpack(
    fmt: PixelFormat,
    image: MemoryImage,
    shape: Sequence[int],
    dtype: Any,
    x_offset: int = 0,
    line_stride: Optional[int] = None,
    uv_line_stride: Optional[int] = None,
) -> np.ndarray:
    """Read the H,W,C tensor of raw component values back from the plane images."""
    dt = np.dtype(dtype)
    _check_dtype(fmt, dt)
    g = geometry(fmt, shape, x_offset, line_stride, uv_line_stride)
    out = np.zeros((g.h, g.w, fmt.channels), dtype=np.uint16 if dt.itemsize == 2 else np.uint8)
    for i, (plane, name) in enumerate(zip(fmt.planes, g.surface_names())):
        data = np.ascontiguousarray(image.data(name))
        need = g.min_bytes(i)
        require(
            data.size >= need,
            "pixel.buffer_size",
            f"{PREFIX}{fmt.name}: surface {name} has {data.size} bytes; the ROI needs {need}",
        )
        off = g.plane_offset(i)
        lines = np.lib.stride_tricks.as_strided(
            data[off:], shape=(g.h, g.w * plane.bpp), strides=(g.stride(i), 1), writeable=False
        )
        if plane.container_bits == 32:
            word = np.ascontiguousarray(lines).view("<u4").reshape(g.h, g.w)
            for f in plane.fields:
                out[..., f.channel] = (word >> np.uint32(f.lsb)) & np.uint32((1 << f.width) - 1)
        else:
            cont = lines.view("<u2") if plane.container_bits == 16 else lines  # last axis is contiguous
            cont = cont.reshape(g.h, g.w, len(plane.fields))
            for f in plane.fields:
                out[..., f.channel] = cont[..., f.slot]
    return out.view(dt)  # same width: int8/int16/float16 reinterpret the raw bits


def info(
    fmt: PixelFormat,
    shape: Sequence[int],
    dtype: Any,
    x_offset: int = 0,
    line_stride: Optional[int] = None,
    uv_line_stride: Optional[int] = None,
) -> dict:
    """Planes, strides, sizes and register values of a pixel surface."""
    dt = np.dtype(dtype)
    _check_dtype(fmt, dt)
    g = geometry(fmt, shape, x_offset, line_stride, uv_line_stride)
    names = g.surface_names()
    surfaces = [
        {
            "name": n,
            "bytes": g.plane_bytes(i),
            "min_bytes": g.min_bytes(i),
            "align": START_ALIGN,
            "line_stride": g.stride(i),
            "bytes_per_pixel": fmt.planes[i].bpp,
            "first_pixel_byte": g.plane_offset(i),
        }
        for i, n in enumerate(names)
    ]
    regs = {
        "PIXEL_FORMAT": fmt.enum,
        "DATAIN_FORMAT": 1,
        "PIXEL_MAPPING": 0,
        "PIXEL_X_OFFSET": g.x_offset,
        "PIXEL_Y_OFFSET": 0,
        "PIXEL_SIGN_OVERRIDE": int(fmt.signed_default),  # 1 = SIGNED_INT (the convolution DMA's D_DATAIN_FORMAT)
        "LINE_STRIDE": g.line_stride,
        "WIDTH": g.w - 1,
        "HEIGHT": g.h - 1,
        "CHANNEL": fmt.channels - 1,
    }
    if fmt.semi_planar:
        regs["LINE_UV_STRIDE"] = g.stride(1)
    return {
        "format": PREFIX + fmt.name,
        "enum": fmt.enum,
        "shape": [g.h, g.w, fmt.channels],
        "dtype": dt.name,
        "channels": fmt.channels,
        "channel_order": (["R", "G", "B", "A"] if fmt.family == "rgb" else ["Y", "U", "V", "A"])[: fmt.channels],
        "planes": len(fmt.planes),
        "precision": fmt.precision,
        "packed_10bit": fmt.packed10,
        "default_sign_override": "signed" if fmt.signed_default else "unsigned",
        "x_offset": g.x_offset,
        "x_offset_range": [0, fmt.x_offset_max],
        "line_stride": g.line_stride,
        "uv_line_stride": g.uv_line_stride,
        "bytes": sum(s["bytes"] for s in surfaces),
        "alignment": {"start": START_ALIGN, "line_stride": 32},
        "surfaces": surfaces,
        "registers": regs,
    }


# ----------------------------------------------------------------------------------------------------------
# what the hardware sees, ROI helper, input converter (Equation 1, clarifications 2.3)


def msb_aligned_values(name: str, tensor: np.ndarray) -> np.ndarray:
    """The 16-bit values the CDMA works on for each channel (clarifications 2.1 notes).

    Packed 10-bit formats: ``field << 6`` for the 10-bit fields and ``alpha << 14`` (MSB-aligned, low bits zero,
    no replication), as ``uint16``. Every other format: the raw component values unchanged (uint8/uint16 bits,
    float16 for ``_F`` formats)."""
    fmt = get(name)
    t = np.asarray(tensor)
    _check_dtype(fmt, t.dtype)
    require(
        t.ndim >= 1 and t.shape[-1] == fmt.channels,
        "pixel.channels",
        f"{PREFIX}{fmt.name}: last axis {t.shape[-1:]} is not {fmt.channels} channels",
    )
    if not fmt.packed10:
        return t if fmt.fp16 else _raw_unsigned(t)
    out = np.empty(t.shape, dtype=np.uint16)
    for f in fmt.planes[0].fields:
        v = t[..., f.channel]
        require(
            not (v >= (1 << f.width)).any(),
            "pixel.field_range",
            f"{PREFIX}{fmt.name}: channel {f.channel} has values above {(1 << f.width) - 1}",
        )
        out[..., f.channel] = v.astype(np.uint16) << np.uint16(16 - f.width)
    return out


hardware_values = msb_aligned_values


def roi_registers(name: str, roi_address: int, uv_roi_address: Optional[int] = None) -> dict:
    """Firmware guidance (clarifications 2.2): base = ROI address rounded down to 32, ``PIXEL_X_OFFSET`` =
    (ROI address mod 32) / Bpp. For N444 also the plane-1 base (the 32-byte atom holding the first chroma pair),
    which must sit at byte ``(x_offset*Bpp1) mod 32`` of that atom."""
    fmt = get(name)
    bpp0 = fmt.planes[0].bpp
    rem = int(roi_address) % 32
    require(
        rem % bpp0 == 0,
        "pixel.roi_alignment",
        f"{fmt.name}: ROI address 0x{int(roi_address):x} is not on a pixel boundary ({bpp0} bytes/pixel)",
    )
    x_off = rem // bpp0
    out = {"base0": int(roi_address) - rem, "x_offset": x_off}
    if fmt.semi_planar:
        if uv_roi_address is None:
            raise FormatError("pixel.uv_roi_required", f"{fmt.name}: plane 1 ROI address missing")
        bpp1 = fmt.planes[1].bpp
        uv_rem = int(uv_roi_address) % 32
        require(
            uv_rem == (x_off * bpp1) % 32,
            "pixel.uv_roi_offset",
            f"{fmt.name}: chroma ROI at byte {uv_rem} of its atom; the single PIXEL_X_OFFSET={x_off} places "
            f"it at byte {(x_off * bpp1) % 32}",
        )
        out["base1"] = int(uv_roi_address) - uv_rem
    return out


_SIGN = {"unsigned": False, "unsigned_int": False, "0": False, "signed": True, "signed_int": True, "1": True}


def _signed_override(value: Union[str, int, bool]) -> bool:
    key = str(int(value)) if isinstance(value, (bool, int, np.integer)) else str(value).strip().lower()
    require(key in _SIGN, "pixel.sign_override", f"PIXEL_SIGN_OVERRIDE {value!r} is not unsigned/signed (0/1)")
    return _SIGN[key]


def _int16_reg(name: str, value: Any) -> np.ndarray:
    v = np.asarray(value, dtype=np.int64)
    require(
        bool(((v >= -32768) & (v <= 32767)).all()),
        f"pixel.cvt_{name}_range",
        f"{name} {value} outside the signed 16-bit register range",
    )
    return v


def input_convert(
    values: np.ndarray,
    out_precision: str,
    *,
    cvt_en: bool = True,
    sign_override: Union[str, int] = "unsigned",
    offset: int = 0,
    scale: int = 1,
    truncate: int = 0,
    mean: Optional[Sequence[int]] = None,
    bits: Optional[int] = None,
) -> np.ndarray:
    """CDMA input converter, Equation 1 as the C model does it (clarifications 2.3). Vectorized.

    ``values``: component values as the converter sees them (see :func:`msb_aligned_values`), last axis =
    channels. Integer input is widened to 17 bits (zero-extension for ``sign_override='unsigned'``,
    sign-extension for ``'signed'``) from its ``bits`` (8 or 16; default: the dtype's width), then
    ``t = (x17 - offset) * scale`` (offset/scale signed 16-bit; with ``mean`` given - ``D_MEAN_FORMAT=ENABLE`` -
    channel i uses ``mean[i]`` (RY, GU, BV, AX) instead of ``offset``), ``y = round_half_away(t / 2**truncate)``
    (``truncate`` 0..63), saturate to int17, then int8/int16 saturation or int -> fp16 (RNE, +-65504).
    ``cvt_en=False`` passes the raw bits and reinterprets them as signed (uint8 200 -> int8 -56); this model then
    requires the output width to equal the input width (8 -> int8, 16 -> int16), else
    ``FormatError('pixel.cvt_disabled_precision')`` - a choice, the sources do not describe the mixed case.
    float16 input is passed through unchanged and only fp16 output is allowed (Table 29; C model, 12.5).
    """
    v = np.asarray(values)
    out = normalize_precision(out_precision)
    if v.dtype == np.float16:
        check_conversion("conv", "image_fp16", out)
        return v.copy()
    require(v.dtype.kind in "iu", "pixel.cvt_dtype", f"converter input must be integers or float16, got {v.dtype}")
    check_conversion("conv", "image_int", out)
    bits = v.dtype.itemsize * 8 if bits is None else int(bits)
    require(bits in (8, 16), "pixel.cvt_bits", f"component width {bits} is not 8 or 16")
    wide = v.astype(np.int64)
    require(
        bool(((wide >= -(1 << (bits - 1))) & (wide < (1 << bits))).all()),
        "pixel.cvt_value_range",
        f"converter input holds values that are not {bits}-bit raw components",
    )
    raw = wide & ((1 << bits) - 1)
    if not cvt_en:
        require(
            (bits, out) in ((8, "int8"), (16, "int16")),
            "pixel.cvt_disabled_precision",
            f"CVT_EN=0 passes {bits}-bit raw data; output precision {out} does not have that width",
        )
        return raw.astype(np.uint8 if bits == 8 else np.uint16).view(np.int8 if bits == 8 else np.int16)
    x17 = raw - ((raw >> (bits - 1)) << bits) if _signed_override(sign_override) else raw
    if mean is not None:
        m = _int16_reg("mean", mean).reshape(-1)
        channels = v.shape[-1] if v.ndim else 1
        require(m.size >= channels, "pixel.cvt_mean_channels", f"{m.size} mean values for {channels} channels")
        off = m[:channels]
    else:
        off = _int16_reg("offset", offset)
    sc = _int16_reg("scale", scale)
    require(0 <= int(truncate) <= 63, "pixel.cvt_truncate_range", f"CVT_TRUNCATE {truncate} outside 0..63")
    y = saturate(round_shift((x17 - off) * sc, int(truncate)), "int17")
    if out == "fp16":
        return int_to_fp16(y)
    return saturate(y, out)


def convert_pixels(
    name: str,
    tensor: np.ndarray,
    out_precision: str,
    *,
    cvt_en: bool = True,
    sign_override: Optional[Union[str, int]] = None,
    offset: int = 0,
    scale: int = 1,
    truncate: int = 0,
    mean: Optional[Sequence[int]] = None,
) -> np.ndarray:
    """A pixel tensor of format ``name`` through the CDMA converter: :func:`msb_aligned_values`, then
    :func:`input_convert` with the format's component width; ``sign_override`` defaults to the one NVIDIA
    uses for the format (signed for ``T_R16_I``, unsigned otherwise)."""
    fmt = get(name)
    hw = msb_aligned_values(name, tensor)
    sign = ("signed" if fmt.signed_default else "unsigned") if sign_override is None else sign_override
    return input_convert(
        hw,
        out_precision,
        cvt_en=cvt_en,
        sign_override=sign,
        offset=offset,
        scale=scale,
        truncate=truncate,
        mean=mean,
        bits=None if fmt.fp16 else fmt.component_bits,
    )


# ----------------------------------------------------------------------------------------------------------
# registration: one format per Table 33 row

#: Keyword arguments of ``models.descriptor`` for pixel formats that are not format options
#: (:func:`models.pixel_desc.descriptor`: plane 1 base, output precision, converter registers).
DESCRIPTOR_PARAMS: tuple[str, ...] = (
    "base1",
    "out_precision",
    "cvt_en",
    "sign_override",
    "cvt_offset",
    "cvt_scale",
    "cvt_truncate",
    "mean",
)


def _descriptor(fmt: PixelFormat, shape: Sequence[int], dtype: Any, base: int = 0, **opts: Any) -> Any:
    """:func:`models.pixel_desc.descriptor` (imported here: it builds on this module)."""
    from ..pixel_desc import descriptor

    return descriptor(fmt, shape, dtype, base=base, **opts)


def _field_max(fmt: PixelFormat) -> tuple[int, ...]:
    """Largest value per channel of a packed 10-bit format (its field widths), () for the others."""
    if not fmt.packed10:
        return ()
    width = {f.channel: f.width for p in fmt.planes for f in p.fields}
    return tuple((1 << width[c]) - 1 for c in range(fmt.channels))


def _register(fmt: PixelFormat) -> Format:
    options = [
        Option("x_offset", "int", 0, f"PIXEL_X_OFFSET in pixels, 0..{fmt.x_offset_max} (Table 33)"),
        Option(
            "line_stride", "int", None, "LINE_STRIDE in bytes, multiple of 32; default smallest >= (x_offset+W)*Bpp"
        ),
    ]
    if fmt.semi_planar:
        options.append(
            Option(
                "uv_line_stride",
                "int",
                None,
                "LINE_UV_STRIDE in bytes, multiple of 32; default smallest >= ((x_offset*Bpp1) mod 32)+W*Bpp1",
            )
        )
    return register(
        Format(
            name=PREFIX + fmt.name,
            axes=("H", "W", "C"),
            dtypes=fmt.dtypes,
            pack=partial(pack, fmt),
            unpack=partial(unpack, fmt),
            info=partial(info, fmt),
            descriptor=partial(_descriptor, fmt),
            descriptor_params=DESCRIPTOR_PARAMS,
            options=tuple(options),
            surfaces=("plane0", "plane1") if fmt.semi_planar else ("data",),
            summary=(
                f"NVDLA pixel {fmt.name} (PIXEL_FORMAT {fmt.enum}): {fmt.channels} channel(s) "
                f"{'RGBA'[: fmt.channels] if fmt.family == 'rgb' else 'YUVA'[: fmt.channels]}, {fmt.precision}, "
                f"{len(fmt.planes)} plane(s), {'+'.join(str(p.bpp) for p in fmt.planes)} B/pixel"
            ),
            spec="seed 'Pixel Format', Table 33, Table 35; clarifications 2",
            example=Example((2, 5, fmt.channels), fmt.dtypes[0], color_by="C", probe_max=_field_max(fmt)),
        )
    )


FORMATS: dict[str, Format] = {n: _register(f) for n, f in PIXEL_FORMATS.items()}
