"""Random pictures for the pixel reader: a raw component tensor in one of the 36 formats, packed by the model
(``models.pack``) and placed in memory, with the descriptor the reader is programmed with
(``models.descriptor``) and its converter settings.

Knobs a sequence may fix: height, width, x offset (``"min"``/``"max"`` for the ends of Table 33's range),
gaps after each plane's line, the output precision, the converter (``"random"``, ``"saturate"``: offset and scale
that clamp in both directions, ``"ties"``: a shift whose halves are hit, ``"off"``: CVT_EN = 0) and the value
style (``"random"`` or ``"specials"``: fp16 NaN/INF/denormals/-0.0 and integer extremes).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional, Union

import numpy as np

from dlaverif import models, placement
from dlaverif.models.nvdla.pixel import ENUM_ORDER, PIXEL_FORMATS, PixelFormat
from dlaverif.models.pixel_desc import PixelDescriptor

PREFIX = "nvdla.pixel."
FORMATS: tuple[str, ...] = ENUM_ORDER
#: fp16 bit patterns worth seeing: +-0, denormals, the smallest normal, 1.0, max, +-INF, quiet and signalling NaNs
FP16_SPECIALS = np.array(
    [
        0x0000,
        0x8000,
        0x0001,
        0x03FF,
        0x8001,
        0x0400,
        0x3C00,
        0x7BFF,
        0xFBFF,
        0x7C00,
        0xFC00,
        0x7E00,
        0x7C01,
        0xFFFF,
        0x7FFF,
    ],
    np.uint16,
)


def legal_precisions(fmt: PixelFormat, cvt_en: bool = True) -> tuple[int, ...]:
    """OUT_PRECISION codes the validator accepts for ``fmt`` (Table 29; CVT_EN = 0 keeps the component width)."""
    if fmt.fp16:
        return (2,)
    if not cvt_en:
        return (0,) if fmt.component_bits == 8 else (1,)
    return (0, 1, 2)


@dataclass
class Picture:
    """One legal picture: tensor (H, W, C raw components), its descriptor and its memory image."""

    name: str  # T_... (Table 33)
    tensor: np.ndarray
    desc: PixelDescriptor
    opts: dict = field(default_factory=dict)  # pack options (x_offset, line_stride, uv_line_stride)
    pieces: list = field(default_factory=list)  # [(address, bytes)] of the placed planes

    @property
    def fmt(self) -> PixelFormat:
        return PIXEL_FORMATS[self.name]

    @property
    def shape(self) -> tuple[int, int, int]:
        return tuple(int(v) for v in self.tensor.shape)  # type: ignore[return-value]  # a picture is (H, W, C)

    def label(self) -> str:
        d = self.desc
        cvt = (
            f"cvt_en={int(d.cvt_en)} sign={int(d.sign_override)} off={d.cvt_offset} scale={d.cvt_scale} "
            f"trunc={d.cvt_truncate}" + (f" mean={d.mean}" if d.mean_en else "")
        )
        return (
            f"{self.name} {self.tensor.dtype} HxW={d.height}x{d.width} x_offset={d.x_offset} "
            f"strides={d.line_stride0}/{d.line_stride1} -> {d.precision_name} {cvt}"
        )


def _values(
    rng: np.random.Generator, fmt: PixelFormat, dtype: str, shape: tuple[int, int, int], style: str
) -> np.ndarray:
    """Raw component values of a ``dtype`` tensor (packed 10-bit: field values; fp16: bit patterns)."""
    if fmt.packed10:
        hi = np.array([(1 << 2) if c == 3 else (1 << 10) for c in range(shape[2])])
        t = (rng.random(shape) * hi).astype(np.uint16)
        if style == "specials":
            t[..., :3][rng.random(shape[:2] + (3,)) < 0.3] = 1023
            t[..., :3][rng.random(shape[:2] + (3,)) < 0.3] = 0
        return t
    bits = np.dtype(dtype).itemsize * 8
    raw = rng.integers(0, 1 << bits, size=shape, dtype=np.uint64)
    if style == "specials":
        if fmt.fp16:
            pick = rng.random(shape) < 0.6
            raw[pick] = FP16_SPECIALS[rng.integers(0, FP16_SPECIALS.size, size=int(pick.sum()))]
        else:
            ext = np.array([0, 1, (1 << (bits - 1)) - 1, 1 << (bits - 1), (1 << bits) - 1], np.uint64)
            pick = rng.random(shape) < 0.5
            raw[pick] = ext[rng.integers(0, ext.size, size=int(pick.sum()))]
    u = raw.astype(np.uint8 if bits == 8 else np.uint16)
    return u.view(np.dtype(dtype))


def _converter(rng: np.random.Generator, fmt: PixelFormat, precision: int, mode: str) -> dict:
    """Converter registers: ``random``, ``saturate`` (clamps in both directions), ``ties`` (a shift whose
    halves occur), ``off`` (CVT_EN = 0)."""
    if fmt.fp16:
        return {}
    if mode == "off":
        return {"cvt_en": False}
    bits = fmt.component_bits
    sign = bool(rng.random() < 0.3)
    kw: dict = {"sign_override": "signed" if sign else "unsigned"}
    mid = 0 if sign else (1 << (bits - 1))
    if mode == "saturate":
        # (x - mid) * scale spans well beyond the output range on both sides
        need = {0: 1 << 8, 1: 1 << 16, 2: 1 << 17}[precision]
        scale = int(min(32767, max(2, (2 * need) >> (bits - 1))))
        kw.update(cvt_offset=int(min(32767, mid)), cvt_scale=scale, cvt_truncate=int(rng.integers(0, 2)))
    elif mode == "ties":
        kw.update(
            cvt_offset=int(rng.integers(-5, 6)),
            cvt_scale=int(rng.choice([1, 3, 5, -3])),
            cvt_truncate=int(rng.integers(1, 4)),
        )
    else:
        kw.update(
            cvt_offset=int(rng.integers(-32768, 32768)) if rng.random() < 0.5 else int(min(32767, mid)),
            cvt_scale=int(rng.integers(-32768, 32768)) if rng.random() < 0.3 else int(rng.integers(-8, 9)),
            cvt_truncate=int(rng.choice([0, 0, 1, 2, 5, 8, 15, 16, 31, 63])),
        )
    if rng.random() < 0.3:
        kw["mean"] = [int(v) for v in rng.integers(-32768, 32768, size=4)]
        if mode == "saturate":
            kw["mean"] = [kw["cvt_offset"]] * 4
    return kw


def draw(
    rng: np.random.Generator,
    name: str,
    *,
    addr_bits: int,
    h: Optional[int] = None,
    w: Optional[int] = None,
    x_offset: Union[int, str, None] = None,
    gap0: Optional[int] = None,
    gap1: Optional[int] = None,
    precision: Optional[int] = None,
    converter: str = "random",
    style: str = "random",
    base0: Optional[int] = None,
    where: str = "window",
) -> Picture:
    """A legal picture of format ``name`` (``T_...``) with random geometry and converter unless fixed, placed
    ``where`` (:func:`picture_of`)."""
    fmt = PIXEL_FORMATS[name]
    if x_offset == "min":
        xo = 0
    elif x_offset == "max":
        xo = fmt.x_offset_max
    elif x_offset is None:
        xo = int(rng.integers(0, fmt.x_offset_max + 1))
    else:
        xo = int(x_offset)
    if h is None:
        h = int(rng.choice([1, 1, 2, 3, 4, 5, 7]))
    if w is None:
        per_chunk = 32 // fmt.planes[0].bpp
        w = int(
            rng.choice(
                [
                    1,
                    int(rng.integers(2, per_chunk + 1)),
                    per_chunk - xo if per_chunk > xo else 1,
                    int(rng.integers(per_chunk, 3 * per_chunk + 1)),
                    int(rng.integers(1, 40)),
                ]
            )
        )
        w = max(1, w)
    dtype = fmt.dtypes[int(rng.integers(0, len(fmt.dtypes)))]
    t = _values(rng, fmt, dtype, (h, w, fmt.channels), style)
    bpp0 = fmt.planes[0].bpp
    g0 = int(rng.choice([0, 0, 1, 2, 5])) if gap0 is None else gap0
    ls0 = -(-((xo + w) * bpp0) // 32) * 32 + 32 * g0
    opts: dict = {"x_offset": xo, "line_stride": ls0}
    if fmt.semi_planar:
        bpp1 = fmt.planes[1].bpp
        g1 = int(rng.choice([0, 1, 3])) if gap1 is None else gap1
        opts["uv_line_stride"] = -(-(((xo * bpp1) % 32) + w * bpp1) // 32) * 32 + 32 * g1
    conv_mode = converter
    if precision is None:
        cvt_off = conv_mode == "off" or (conv_mode == "random" and rng.random() < 0.15)
        if cvt_off:
            conv_mode = "off"
        choices = legal_precisions(fmt, not cvt_off)
        precision = int(choices[int(rng.integers(0, len(choices)))])
    cvt = _converter(rng, fmt, precision, conv_mode)
    return picture_of(rng, name, t, opts, precision, cvt, addr_bits, base0, where)


PLACES = ("window", "high", "top")  # where picture_of puts a picture when no base is given


def picture_of(
    rng: np.random.Generator,
    name: str,
    t: np.ndarray,
    opts: dict,
    precision: int,
    cvt: dict,
    addr_bits: int,
    base0: Optional[int] = None,
    where: str = "window",
) -> Picture:
    """The picture of given components ``t`` (H, W, C raw values), pack options (x offset, line strides), output
    precision and converter registers (``models.descriptor`` keywords), placed at ``base0`` (random when None,
    inside the build's ``addr_bits``-bit address space): ``where`` ``window`` at 256 MB (the defaults' placement),
    ``high`` anywhere with the highest address bit set (at or above 2**63 at 64 bits), ``top`` at the highest
    base (with plane 1's largest gap, the picture ends in the last 32 bytes of the space)."""
    fmt = PIXEL_FORMATS[name]
    image = models.pack(PREFIX + name, t, **opts)
    # inside the build's address space (dlaverif.placement): at 256 MB in a 4096-atom window where it fits;
    # plane 1 after plane 0 and the 64-byte guard band the memory agent writes around it, a gap of up to 199 atoms
    # between
    len0 = len(image.data(image.names()[0]))
    fixed = len0 + 64 + len(image.data("plane1")) if fmt.semi_planar else len0
    # "high", "top": the gap cut so that the picture fits in the upper half, where its planes do without the gap
    room_bits = addr_bits - 1 if where != "window" and fixed <= placement.space(addr_bits - 1) else addr_bits
    gaps = placement.slots_that_fit(200, fixed, room_bits, 32) if fmt.semi_planar else 1
    span = fixed + 32 * (gaps - 1)
    if base0 is None and where == "window":
        base0 = placement.in_window(rng, 0x1000_0000, 4096, span, addr_bits, 32)
    elif base0 is None and where == "high":
        base0 = placement.upper_half(rng, span, addr_bits, 32)
    elif base0 is None and where == "top":
        base0 = placement.at_top(span, addr_bits, 32)
    elif base0 is None:
        raise ValueError(f"where={where!r}: one of {', '.join(PLACES)}")
    placed = {image.names()[0]: base0}
    kw = dict(opts)
    if fmt.semi_planar:
        base1 = base0 + len0 + 64 + 32 * int(rng.integers(0, gaps))
        placed["plane1"] = base1
        kw["base1"] = base1
    desc = models.descriptor(PREFIX + name, t.shape, t.dtype, base=base0, out_precision=precision, **kw, **cvt)
    assert not desc.errors(addr_bits), desc.errors(addr_bits)
    return Picture(name, t, desc, opts, image.placed(placed).memory())
