"""PixelDescriptor: what a pixel reader (NVDLA image input with the input converter) is programmed with.

Sources: seed "Pixel Format" (Table 33), "Precision Conversion" (Table 29, Equation 1), Table 35 row
"Pitch linear pixel"; clarifications ``nvdla-clarifications.md`` 2.1 (format codes), 2.2 (planes,
strides, x offset, the C model's stride bounds), 2.3 (the converter as the hardware does it), 10.
Every ``nvdla.pixel.T_*`` format exports it through ``models.descriptor(...)``.

Fields (registers):

* ``format_code``: PIXEL_FORMAT, 0..35 in the order of Table 33's rows, which is also the hardware
  enum (``D_DATAIN_FORMAT.PIXEL_FORMAT``, clarifications 2.1): :data:`models.nvdla.pixel.ENUM_ORDER`.
  ``format_name`` gives the name (``None`` for an unknown code).
* ``width``, ``height`` (pixels), ``x_offset`` (PIXEL_X_OFFSET, pixels inside the first 32-byte chunk).
* ``base0``/``line_stride0``: plane 0; ``base1``/``line_stride1``: plane 1 of the semi-planar N444
  formats (0 and ignored for single-plane formats).
* ``out_precision``: 0 int8, 1 int16, 2 fp16 (``D_MISC_CFG.PROC_PRECISION`` codes, clarifications 10;
  the order of :data:`models.nvdla.precision.OUTPUT_PRECISIONS`).
* Converter (clarifications 2.3; the hardware has ONE offset and ONE scale for every channel, and a
  per-channel offset only as the mean registers): ``cvt_en``, ``sign_override`` (False: components
  zero-extended, True: sign-extended), ``cvt_offset`` and ``cvt_scale`` (signed 16-bit),
  ``cvt_truncate`` (the shift, 0..63), ``mean_en`` (``D_MEAN_FORMAT``) and ``mean`` (RY, GU, BV, AX,
  signed 16-bit; used instead of ``cvt_offset`` when ``mean_en``). These are register-width fields:
  a value that no register can hold is refused when the descriptor is built (FormatError
  ``pixel.cvt_<field>_range``), it is not a validator rule.

:meth:`PixelDescriptor.errors` is the reference model of the pixel reader's validator; bit ``i`` =
``ERROR_RULES[i]``:

====  =================  ===========================================================================
bit   rule               broken when
====  =================  ===========================================================================
0     ``format``         ``format_code`` is not 0..35
1     ``size``           width or height is outside 1..8192 (13-bit fields, clarifications 10)
2     ``x_offset``       ``x_offset`` outside its format's Table 33 range ``0 .. 32/Bpp0 - 1``
3     ``precision``      ``out_precision`` not 0..2, or not allowed for the format by Table 29 (fp16
                         images only to fp16), or ``cvt_en`` off and the output width differs from
                         the component width (the model's choice, ``pixel.cvt_disabled_precision``)
4     ``align_base0``    ``base0`` not a multiple of 32 (Table 35)
5     ``align_stride0``  ``line_stride0`` not a multiple of 32 (Table 35)
6     ``align_base1``    semi-planar, ``base1`` not a multiple of 32
7     ``align_stride1``  semi-planar, ``line_stride1`` not a multiple of 32
8     ``stride_min0``    ``line_stride0 < (x_offset + width)*Bpp0`` (the C model's bound, 2.2)
9     ``stride_min1``    semi-planar, ``line_stride1 < ((x_offset*Bpp1) mod 32) + width*Bpp1`` (2.2)
10    ``addr_overflow``  a base is negative, or a plane's last byte read (up to the end of the
                         32-byte atom holding the last pixel) lies at or above ``2**addr_bits``
====  =================  ===========================================================================

Choices (tested in ``tests/models/test_pixel_desc.py``): the format-dependent rules 2, 3 (Table 29
part), 8, 9 and the extent of rule 10 need a known format; rules 8-10 also need legal size and x
offset. They are checked only then, so one broken field sets its own bit and no other (a negative
base is always ``addr_overflow``). Rules 8-9 are not in the reader's own list of checks; they are the C model's
checks (clarifications 2.2) that the model's ``pack`` applies too, so a legal descriptor always
describes a picture the model can pack.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Optional, Sequence, Union

import numpy as np

from .core.address import check_ranges
from .core.errors import FormatError, require
from .core.memimage import back_to_back
from .core.rules import RuleChecked
from .nvdla.alignment import ROWS
from .nvdla.pixel import (
    ENUM_ORDER,
    MAX_DIM,
    PIXEL_FORMATS,
    PixelFormat,
    PixelGeometry,
    _int16_reg as int16_register,
    _signed_override as signed_override,
    convert_pixels,
    geometry,
)
from .nvdla.precision import INVALID, OUTPUT_PRECISIONS, normalize_precision, pipeline_precision

#: Validator rules, one error bit each (bit index = position).
ERROR_RULES: tuple[str, ...] = (
    "format",  # 0
    "size",  # 1
    "x_offset",  # 2
    "precision",  # 3
    "align_base0",  # 4
    "align_stride0",  # 5
    "align_base1",  # 6
    "align_stride1",  # 7
    "stride_min0",  # 8
    "stride_min1",  # 9
    "addr_overflow",  # 10
)

#: Table 35 "Pitch linear pixel": start address and line stride alignment.
START_ALIGN = int(ROWS["pixel"].start)  # type: ignore[arg-type]  # Table 35 gives the pixel row a start
STRIDE_ALIGN = int(ROWS["pixel"].line_stride)  # type: ignore[arg-type]  # Table 35 gives the pixel row a stride
MAX_TRUNCATE = 63


def precision_code(precision: Union[str, int]) -> int:
    """OUT_PRECISION register value (0 int8, 1 int16, 2 fp16) of a precision name or code."""
    if isinstance(precision, (int, np.integer)) and not isinstance(precision, bool):
        return int(precision)
    return OUTPUT_PRECISIONS.index(normalize_precision(str(precision)))


@dataclass(frozen=True)
class PixelDescriptor(RuleChecked):
    """Registers of a pixel reader job (see the module docstring for fields and rules)."""

    ERROR_RULES: ClassVar[tuple[str, ...]] = ERROR_RULES
    RULE_PREFIX: ClassVar[str] = "pixel_desc"

    format_code: int
    width: int
    height: int
    x_offset: int
    base0: int
    line_stride0: int
    out_precision: int
    base1: int = 0
    line_stride1: int = 0
    cvt_en: bool = True
    sign_override: bool = False
    cvt_offset: int = 0
    cvt_scale: int = 1
    cvt_truncate: int = 0
    mean_en: bool = False
    mean: tuple[int, ...] = (0, 0, 0, 0)  # 4 values: __post_init__ checks

    def __post_init__(self) -> None:
        int16_register("offset", self.cvt_offset)
        int16_register("scale", self.cvt_scale)
        require(
            len(self.mean) == 4, "pixel.cvt_mean_channels", f"mean needs 4 values (RY, GU, BV, AX), got {self.mean}"
        )
        object.__setattr__(self, "mean", tuple(int(v) for v in int16_register("mean", self.mean)))
        require(
            0 <= int(self.cvt_truncate) <= MAX_TRUNCATE,
            "pixel.cvt_truncate_range",
            f"CVT_TRUNCATE {self.cvt_truncate} outside 0..{MAX_TRUNCATE}",
        )

    # ------------------------------------------------------------------ derived values
    @property
    def format(self) -> Optional[PixelFormat]:
        """The :class:`~models.nvdla.pixel.PixelFormat` of ``format_code`` (``None`` when unknown)."""
        known = 0 <= self.format_code < len(ENUM_ORDER)
        return PIXEL_FORMATS[ENUM_ORDER[self.format_code]] if known else None

    @property
    def format_name(self) -> Optional[str]:
        fmt = self.format
        return None if fmt is None else fmt.name

    @property
    def precision_name(self) -> Optional[str]:
        """``int8`` / ``int16`` / ``fp16`` of ``out_precision`` (``None`` when unknown)."""
        return OUTPUT_PRECISIONS[self.out_precision] if 0 <= self.out_precision < len(OUTPUT_PRECISIONS) else None

    @property
    def planes(self) -> int:
        fmt = self.format
        return 1 if fmt is None else len(fmt.planes)

    def _geometry(self) -> PixelGeometry:
        fmt = self.format
        if fmt is None:
            raise FormatError("pixel_desc.format", f"PIXEL_FORMAT {self.format_code} is not a Table 33 code 0..35")
        return PixelGeometry(
            fmt,
            self.height,
            self.width,
            self.x_offset,
            self.line_stride0,
            self.line_stride1 if fmt.semi_planar else None,
        )

    def ranges(self) -> dict[str, tuple[int, int]]:
        """``{surface: (base, bytes read)}`` per plane, named as ``pack`` names the surfaces (``data`` or
        ``plane0``/``plane1``); bytes read run to the end of the atom holding the last pixel (2.2)."""
        g = self._geometry()
        bases = (self.base0, self.base1)
        return {name: (bases[i], g.min_bytes(i)) for i, name in enumerate(g.surface_names())}

    def to_dict(self) -> dict[str, Any]:
        d = super().to_dict()
        d["format_name"] = self.format_name
        d["precision_name"] = self.precision_name
        return d

    # ------------------------------------------------------------------ validator model
    def _precision_ok(self, fmt: Optional[PixelFormat]) -> bool:
        out = self.precision_name
        if out is None:
            return False
        if fmt is None:
            return True
        if pipeline_precision("conv", "image_fp16" if fmt.fp16 else "image_int", out) == INVALID:
            return False
        if not self.cvt_en and not fmt.fp16:
            return (fmt.component_bits, out) in ((8, "int8"), (16, "int16"))
        return True

    def errors(self, addr_bits: int = 64) -> list[str]:
        """Every rule of :data:`ERROR_RULES` this descriptor breaks (the RTL sets all of their bits)."""
        bad: list[str] = []
        fmt = self.format
        if fmt is None:
            bad.append("format")
        size_ok = 1 <= self.width <= MAX_DIM and 1 <= self.height <= MAX_DIM
        if not size_ok:
            bad.append("size")
        x_ok = fmt is None or 0 <= self.x_offset <= fmt.x_offset_max
        if not x_ok:
            bad.append("x_offset")
        if not self._precision_ok(fmt):
            bad.append("precision")
        two = fmt is not None and fmt.semi_planar
        for rule, value, align, used in (
            ("align_base0", self.base0, START_ALIGN, True),
            ("align_stride0", self.line_stride0, STRIDE_ALIGN, True),
            ("align_base1", self.base1, START_ALIGN, two),
            ("align_stride1", self.line_stride1, STRIDE_ALIGN, two),
        ):
            if used and value % align:
                bad.append(rule)
        geometry_ok = fmt is not None and size_ok and x_ok
        if geometry_ok:
            g = self._geometry()
            bpp = [p.bpp for p in fmt.planes]  # type: ignore[union-attr]  # geometry_ok implies a known format
            if self.line_stride0 < g.plane_offset(0) + self.width * bpp[0]:
                bad.append("stride_min0")
            if two and self.line_stride1 < g.plane_offset(1) + self.width * bpp[1]:
                bad.append("stride_min1")
        bases = (self.base0, self.base1) if two else (self.base0,)
        past = geometry_ok and any(b + size > (1 << addr_bits) for b, size in self.ranges().values())
        if any(b < 0 for b in bases) or past:
            bad.append("addr_overflow")
        return bad

    # ------------------------------------------------------------------ what a reader delivers
    def convert(self, tensor: np.ndarray) -> np.ndarray:
        """The converted components the reader streams for an ``H, W, C`` tensor of raw components
        (:func:`models.nvdla.pixel.convert_pixels` with this descriptor's converter registers)."""
        self.validate()
        return convert_pixels(
            str(self.format_name),
            tensor,
            str(self.precision_name),
            cvt_en=self.cvt_en,
            sign_override="signed" if self.sign_override else "unsigned",
            offset=self.cvt_offset,
            scale=self.cvt_scale,
            truncate=self.cvt_truncate,
            mean=self.mean if self.mean_en else None,
        )


def descriptor(
    fmt: PixelFormat,
    shape: Sequence[int],
    dtype: Any,
    base: int = 0,
    x_offset: int = 0,
    line_stride: Optional[int] = None,
    uv_line_stride: Optional[int] = None,
    base1: Optional[int] = None,
    out_precision: Union[str, int, None] = None,
    cvt_en: bool = True,
    sign_override: Union[bool, str, None] = None,
    cvt_offset: int = 0,
    cvt_scale: int = 1,
    cvt_truncate: int = 0,
    mean: Optional[Sequence[int]] = None,
) -> PixelDescriptor:
    """The :class:`PixelDescriptor` of a picture of ``shape`` (H, W, C) in ``fmt``: plane 0 at ``base``,
    plane 1 at ``base1`` or else right after plane 0 (``MemoryImage.placed(base)``'s layout of the packed
    image; FormatError ``pixel.base1_single_plane`` for a one-plane format); ``out_precision``
    defaults to the format's pipeline precision (Table 33), ``sign_override`` to
    the one NVIDIA uses for the format (signed for ``T_R16_I``). Its keyword arguments after
    ``uv_line_stride`` are :data:`models.nvdla.pixel.DESCRIPTOR_PARAMS`. The result is validated."""
    g = geometry(fmt, shape, x_offset, line_stride, uv_line_stride)
    require(
        base1 is None or fmt.semi_planar,
        "pixel.base1_single_plane",
        f"{fmt.name} has one plane; base1={base1} would be ignored",
    )
    b1 = 0
    if fmt.semi_planar:
        b1 = back_to_back([g.plane_bytes(0), 0], [START_ALIGN, START_ALIGN], base)[1] if base1 is None else base1
    sign = fmt.signed_default if sign_override is None else signed_override(sign_override)
    out = precision_code(fmt.precision if out_precision is None else out_precision)
    desc = PixelDescriptor(
        format_code=fmt.enum,
        width=g.w,
        height=g.h,
        x_offset=g.x_offset,
        base0=int(base),
        line_stride0=g.line_stride,
        out_precision=out,
        base1=int(b1),
        line_stride1=int(g.uv_line_stride or 0),
        cvt_en=bool(cvt_en),
        sign_override=sign,
        cvt_offset=int(cvt_offset),
        cvt_scale=int(cvt_scale),
        cvt_truncate=int(cvt_truncate),
        mean_en=mean is not None,
        mean=tuple(int(v) for v in mean) if mean is not None else (0, 0, 0, 0),
    )
    check_ranges(desc.ranges())
    return desc.validate()
