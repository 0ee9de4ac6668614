"""NVDLA precision rules: conversion Tables 29-32, integer rounding/saturation and the fp16 rules.

Sources: seed "Precision Type" / "Precision Conversion" (Tables 29-32) and "FP16 Supporting";
clarifications sections 2.3 (rounding of the converters), 9 (fp16) and 11.7.

Choices written down here (each one is tested in ``tests/models/test_nvdla_precision.py``):

* Table 29 (convolution) is printed broken in the seed: the row "image input (fp16) -> fp16" and the row
  "int8 feature -> fp16" are missing. The text says "Floating point images can only be converted to fp16" and
  "DC mode ... do not support precision conversion", so image fp16 -> fp16 is valid (fp16 pipeline) and
  int8 feature -> fp16 is invalid.
* Table 32 (pooling) repeats the row "int8 -> int16" and omits "int8 -> fp16"; the text says PDP supports no
  conversion, so only the identity is valid.
* Image (pixel) input exists for the convolution pipeline only (clarifications 10, "Pixel input ... DC only");
  for SDP, LRN and pooling an image input is "invalid".
* "INF" entering a sub-module becomes the largest finite value of its internal format (clarifications 9):
  convolution DC/IMG 65536 (the MAC treats exponent 31 as a normal exponent), Winograd 65504, SDP the fp32
  maximum 3.4028234663852886e38, CDP and PDP-average the fp17 maximum (2 - 2**-10) * 2**31 = 4292870144.
  PDP max/min keeps INF (seed only, clarifications 12.8 unresolved).
* Conversion to fp16 is round-to-nearest-even; anything that would overflow (including an input INF)
  saturates to +-65504, so the result is never INF. NaN stays NaN (propagation; the seed leaves the output
  mantissa undefined, numpy keeps a quiet NaN). Denormal results are kept (IEEE 754).
* Integer converters round half away from zero after the right shift, then saturate (clarifications 2.3).
"""

from __future__ import annotations

import math
from typing import Union

import numpy as np

from ..core.errors import FormatError, require
from ..core.fp16 import fp16_classes

INVALID = "invalid"

LAYERS: tuple[str, ...] = ("conv", "sdp", "lrn", "pooling")
#: Input formats of the tables: feature data of one precision, or an image whose components are integers
#: (uint8/int8/int16/uint16, packed 10-bit) or fp16.
INPUT_FORMATS: tuple[str, ...] = ("image_int", "image_fp16", "int8", "int16", "fp16")
OUTPUT_PRECISIONS: tuple[str, ...] = ("int8", "int16", "fp16")

_I = INVALID

#: Table 29 - convolution: (input, output) -> (real precision in pipeline, weight precision).
TABLE_29: dict[tuple[str, str], tuple[str, str]] = {
    ("image_int", "int8"): ("int8", "int8"),
    ("image_int", "int16"): ("int16", "int16"),
    ("image_int", "fp16"): ("fp16", "fp16"),
    ("image_fp16", "int8"): (_I, _I),
    ("image_fp16", "int16"): (_I, _I),
    ("image_fp16", "fp16"): ("fp16", "fp16"),  # row missing in the seed table; from its text
    ("int8", "int8"): ("int8", "int8"),
    ("int8", "int16"): (_I, _I),
    ("int8", "fp16"): (_I, _I),  # row missing in the seed table; DC does no conversion
    ("int16", "int8"): (_I, _I),
    ("int16", "int16"): ("int16", "int16"),
    ("int16", "fp16"): (_I, _I),
    ("fp16", "int8"): (_I, _I),
    ("fp16", "int16"): (_I, _I),
    ("fp16", "fp16"): ("fp16", "fp16"),
}

#: Table 30 - SDP layer (offline mode): (input, output) -> real precision in pipeline.
TABLE_30: dict[tuple[str, str], str] = {
    ("int8", "int8"): "int32",
    ("int8", "int16"): "int32",
    ("int8", "fp16"): _I,
    ("int16", "int8"): "int32",
    ("int16", "int16"): "int32",
    ("int16", "fp16"): "int32",
    ("fp16", "int8"): _I,
    ("fp16", "int16"): "fp32",
    ("fp16", "fp16"): "fp32",
}

#: Table 31 - LRN layer (CDP): no conversion.
TABLE_31: dict[tuple[str, str], str] = {
    (i, o): (i if i == o else _I) for i in ("int8", "int16", "fp16") for o in OUTPUT_PRECISIONS
}

#: Table 32 - pooling layer (PDP): no conversion.
TABLE_32: dict[tuple[str, str], str] = dict(TABLE_31)

_LAYER_ALIASES = {
    "conv": "conv",
    "convolution": "conv",
    "dc": "conv",
    "img": "conv",
    "winograd": "conv",
    "cc": "conv",
    "sdp": "sdp",
    "bn": "sdp",
    "eltwise": "sdp",
    "batch_norm": "sdp",
    "lrn": "lrn",
    "cdp": "lrn",
    "pooling": "pooling",
    "pool": "pooling",
    "pdp": "pooling",
}
_PREC_ALIASES = {
    "int8": "int8",
    "s8": "int8",
    "int16": "int16",
    "s16": "int16",
    "fp16": "fp16",
    "float16": "fp16",
    "f16": "fp16",
    "half": "fp16",
}
_INPUT_ALIASES = {
    "image_int": "image_int",
    "image_integer": "image_int",
    "image_uint8": "image_int",
    "image_int8": "image_int",
    "image_int16": "image_int",
    "image_uint16": "image_int",
    "image_fp16": "image_fp16",
    "image_float16": "image_fp16",
}


def _norm_layer(layer: str) -> str:
    key = str(layer).strip().lower()
    if key not in _LAYER_ALIASES:
        raise FormatError("precision.unknown_layer", f"unknown layer {layer!r}; known: {list(LAYERS)}")
    return _LAYER_ALIASES[key]


def normalize_precision(name: str) -> str:
    """``int8`` / ``int16`` / ``fp16`` for a precision name or alias (``float16``, ``s8`` ...)."""
    key = str(name).strip().lower()
    if key not in _PREC_ALIASES:
        raise FormatError("precision.unknown", f"unknown precision {name!r}; known: {list(OUTPUT_PRECISIONS)}")
    return _PREC_ALIASES[key]


#: Pixel format name -> ``image_int`` / ``image_fp16``, filled by :mod:`models.nvdla.pixel` through
#: :func:`register_pixel_inputs` (this module imports nothing of the pixel model: no import cycle).
_PIXEL_INPUTS: dict[str, str] = {}


def register_pixel_inputs(fp16_by_name: dict[str, bool]) -> None:
    """Make pixel format names (``T_A8R8G8B8`` ...) valid input formats of :func:`pipeline_precision`."""
    _PIXEL_INPUTS.update({n: "image_fp16" if fp16 else "image_int" for n, fp16 in fp16_by_name.items()})


def _norm_input(fmt: str) -> str:
    key = str(fmt).strip()
    low = key.lower().replace(" ", "_").replace("_feature_data", "").replace("_feature", "")
    low = low.replace("feature_", "")
    if low in _INPUT_ALIASES:
        return _INPUT_ALIASES[low]
    if low in _PREC_ALIASES:
        return _PREC_ALIASES[low]
    name = key[len("nvdla.pixel.") :] if key.startswith("nvdla.pixel.") else key
    if name.startswith("T_"):
        if name not in _PIXEL_INPUTS:
            raise FormatError("precision.unknown_input", f"unknown pixel format {fmt!r}")
        return _PIXEL_INPUTS[name]
    raise FormatError(
        "precision.unknown_input",
        f"unknown input format {fmt!r}; known: {list(INPUT_FORMATS)} or a pixel format name T_*",
    )


def pipeline_precision(layer: str, input_format: str, output_precision: str) -> str:
    """Real precision in the pipeline for a layer (Tables 29-32), or ``"invalid"``.

    ``layer``: conv / sdp / lrn / pooling (aliases dc, cdp, pdp ...). ``input_format``: int8 / int16 / fp16
    feature data, ``image_int`` / ``image_fp16`` (or a pixel format name such as ``T_A8R8G8B8``).
    ``output_precision``: int8 / int16 / fp16.
    """
    lay = _norm_layer(layer)
    inp = _norm_input(input_format)
    out = normalize_precision(output_precision)
    if lay == "conv":
        return TABLE_29[(inp, out)][0]
    if inp.startswith("image"):
        return INVALID
    table = {"sdp": TABLE_30, "lrn": TABLE_31, "pooling": TABLE_32}[lay]
    return table[(inp, out)]


def weight_precision(input_format: str, output_precision: str) -> str:
    """Table 29, last column: the weight precision of a convolution layer, or ``"invalid"``."""
    return TABLE_29[(_norm_input(input_format), normalize_precision(output_precision))][1]


def check_conversion(layer: str, input_format: str, output_precision: str) -> str:
    """Like :func:`pipeline_precision` but raise ``FormatError('precision.invalid_conversion')`` for an
    invalid case of Tables 29-32."""
    result = pipeline_precision(layer, input_format, output_precision)
    if result == INVALID:
        table = {"conv": 29, "sdp": 30, "lrn": 31, "pooling": 32}[_norm_layer(layer)]
        raise FormatError(
            "precision.invalid_conversion",
            f"{layer}: input {input_format} -> output {output_precision} is an invalid case (seed Table {table})",
        )
    return result


# ---------------------------------------------------------------------------------------------------------
# integer rounding and saturation (clarifications 2.3; seed "FP16 Supporting", saturation sentence)

#: Output saturation values per precision (seed: "+/-65504 for FP16, 32767/-32768 for INT16, 127/-128 for INT8").
SATURATION: dict[str, tuple[float, float]] = {
    "int8": (-128, 127),
    "int16": (-32768, 32767),
    "int17": (-65536, 65535),
    "fp16": (-65504.0, 65504.0),
}

FP16_MAX = 65504.0


def round_shift(t: np.ndarray, shift: int) -> np.ndarray:
    """``round_half_away_from_zero(t / 2**shift)`` on int64 values (the converters' right shifter)."""
    t = np.asarray(t, dtype=np.int64)
    require(0 <= int(shift) <= 63, "precision.shift_range", f"shift {shift} outside 0..63")
    shift = int(shift)
    if shift == 0:
        return t.copy()
    half = np.int64(1) << np.int64(shift - 1)
    mag = (np.abs(t) + half) >> np.int64(shift)
    return np.where(t < 0, -mag, mag)


def saturate(x: np.ndarray, precision: str) -> np.ndarray:
    """Clip integers to the range of ``precision`` (int8, int16, int17) and return that numpy type
    (int64 for int17)."""
    lo, hi = SATURATION[precision]
    out = np.clip(np.asarray(x, dtype=np.int64), int(lo), int(hi))
    return out.astype({"int8": np.int8, "int16": np.int16}.get(precision, np.int64))


# ---------------------------------------------------------------------------------------------------------
# fp16 rules (clarifications 9)

#: INF replacement per sub-module (seed "Infinity" table, clarifications 9).
INF_REPLACEMENT: dict[str, float] = {
    "conv_dc": 65536.0,
    "conv_img": 65536.0,
    "conv_winograd": 65504.0,
    "sdp": float(np.finfo(np.float32).max),  # 3.4028234663852886e38, printed 3.40282e+38 in the seed
    "cdp": 4292870144.0,  # fp17 max (2 - 2**-10) * 2**31
    "pdp_average": 4292870144.0,
    "pdp_max": math.inf,  # seed: INF kept for max/min pooling (unresolved, 12.8)
    "pdp_min": math.inf,
}

ArrayLike = Union[np.ndarray, float, int, list]


def _fp16_bits(x: ArrayLike) -> np.ndarray:
    """uint16 bit patterns of an fp16 array (float16 values or uint16 raw bits)."""
    arr = np.asarray(x)
    if arr.dtype == np.float16:
        return arr.view(np.uint16)
    if arr.dtype == np.uint16:
        return arr
    raise FormatError("fp16.dtype", f"expected float16 values or uint16 fp16 bit patterns, got {arr.dtype}")


def is_nan(x: ArrayLike) -> np.ndarray:
    """NaN = exponent 31 with a non-zero mantissa (clarifications 9); float16 or uint16-bit input."""
    return fp16_classes(_fp16_bits(x))[0]


def is_inf(x: ArrayLike) -> np.ndarray:
    """INF = exponent 31 with a zero mantissa."""
    return fp16_classes(_fp16_bits(x))[1]


def is_denormal(x: ArrayLike) -> np.ndarray:
    """Exponent 0 with a non-zero mantissa."""
    b = _fp16_bits(x)
    return ((b & 0x7C00) == 0) & ((b & 0x03FF) != 0)


def count_nan(x: ArrayLike) -> int:
    """What a NaN counter register (e.g. CDMA ``D_NAN_INPUT_DATA_NUM``) reports for this data."""
    return int(np.count_nonzero(is_nan(x)))


def count_inf(x: ArrayLike) -> int:
    """What an INF counter register (e.g. CDMA ``D_INF_INPUT_DATA_NUM``) reports for this data."""
    return int(np.count_nonzero(is_inf(x)))


def flush_nan_to_zero(x: ArrayLike) -> np.ndarray:
    """``NAN_TO_ZERO``: every NaN becomes +0 (both bytes zero); everything else, denormals included, is kept.
    Returns the input's type (float16 values or uint16 bits)."""
    arr = np.asarray(x)
    b = _fp16_bits(arr)
    out = np.where(is_nan(b), np.uint16(0), b).astype(np.uint16)
    return out.view(np.float16) if arr.dtype == np.float16 else out


def replace_inf(x: ArrayLike, submodule: str) -> np.ndarray:
    """fp16 input as the sub-module sees it (seed "Infinity" table): float64 values with +-INF replaced by the
    sub-module's replacement value; NaN and finite values (denormals included) unchanged."""
    require(
        submodule in INF_REPLACEMENT,
        "fp16.unknown_submodule",
        f"unknown sub-module {submodule!r}; known: {sorted(INF_REPLACEMENT)}",
    )
    b = _fp16_bits(x)
    vals = b.view(np.float16).astype(np.float64)
    rep = INF_REPLACEMENT[submodule]
    return np.where(is_inf(b), np.copysign(rep, vals), vals)


def to_fp16(x: ArrayLike) -> np.ndarray:
    """Convert to fp16 the NVDLA way: round to nearest even, overflow (and INF) saturates to +-65504, never INF;
    NaN stays NaN; denormal results are kept (clarifications 9). Integers up to 2**53 convert exactly first."""
    arr = np.asarray(x)
    if arr.dtype == np.float16:
        src = arr
    elif arr.dtype == np.float32:
        src = arr  # numpy's float32 -> float16 cast rounds to nearest even
    else:
        src = arr.astype(np.float64)  # one rounding only: ints and float64 go straight to half
    with np.errstate(over="ignore", invalid="ignore"):
        h = src.astype(np.float16)
    inf = np.isinf(h)
    if inf.any():
        h = np.where(inf, np.copysign(np.float16(FP16_MAX), h), h).astype(np.float16)
    return h


def int_to_fp16(x: ArrayLike) -> np.ndarray:
    """int -> fp16 of the CDMA and SDP output converters: RNE, ``|x| >= 65520`` -> +-65504 (clarifications 2.3)."""
    return to_fp16(np.asarray(x, dtype=np.int64))
