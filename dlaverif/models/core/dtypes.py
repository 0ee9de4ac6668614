"""Element types: names as the specs write them, mapped to numpy dtypes.

NVDLA precisions (seed "Precision Type"): int8, int16, fp16 -> numpy int8, int16, float16.
oneDNN data types (MKL-DNN ``mkldnn_data_type_t``): f32, f16, bf16 (kept as raw uint16 bits), s8, u8, s32.
MACE images: float32 / float16 (CL_FLOAT / CL_HALF_FLOAT).
"""

from __future__ import annotations

import warnings

import numpy as np

from .errors import FormatError

_ALIASES: dict[str, str] = {
    "int8": "int8",
    "s8": "int8",
    "i8": "int8",
    "uint8": "uint8",
    "u8": "uint8",
    "int16": "int16",
    "s16": "int16",
    "i16": "int16",
    "uint16": "uint16",
    "u16": "uint16",
    "bf16": "uint16",
    "bfloat16": "uint16",
    "int32": "int32",
    "s32": "int32",
    "i32": "int32",
    "uint32": "uint32",
    "u32": "uint32",
    "float16": "float16",
    "fp16": "float16",
    "f16": "float16",
    "half": "float16",
    "float32": "float32",
    "fp32": "float32",
    "f32": "float32",
    "float": "float32",
    "float64": "float64",
    "f64": "float64",
}


def resolve_dtype(dtype: object) -> np.dtype:
    """Return the numpy dtype for a name (``"fp16"``, ``"s8"``, ``"bf16"`` ...) or dtype-like object."""
    if isinstance(dtype, str):
        key = dtype.strip().lower()
        if key not in _ALIASES:
            raise FormatError("dtype.unknown", f"unknown element type {dtype!r}; known: {sorted(set(_ALIASES))}")
        return np.dtype(_ALIASES[key])
    try:
        with warnings.catch_warnings():  # a deprecated spec ("a", ...) is refused rather than warned about
            warnings.simplefilter("error")
            return np.dtype(dtype)  # type: ignore[call-overload]  # any user spec; numpy checks it at run time
    except Exception as exc:  # numpy reports malformed specs as TypeError, ValueError, SyntaxError ...
        raise FormatError("dtype.unknown", f"unknown element type {dtype!r}") from exc
