"""The one validation door of the public API: bad input raises FormatError before anything is allocated.

``models.pack``, ``unpack``, ``info`` and ``descriptor`` check every argument here before any work, so
that a bad value or type raises :class:`~models.core.errors.FormatError` naming the argument and the rule
(never ``TypeError``, ``OverflowError`` or ``MemoryError``), and that no image larger than
:data:`MAX_SURFACE_BYTES` is ever allocated.

Decisions (numpy's own argument checks are the model):

* Dimensions, integer options and ``base`` must be integers (``int`` or a numpy integer, not ``bool``):
  a float is refused even when integral, as ``np.zeros((2.0,))`` refuses it. A CLI string is parsed
  (``"0x100"`` works).
* Size limit: every surface of an image, and the logical tensor itself, is at most
  ``MAX_SURFACE_BYTES`` = 2**30 bytes (1 GiB), and no integer option exceeds it in magnitude (a stride
  or size that large makes an image beyond the limit). Sizes are computed with Python ints from
  ``info`` before ``pack``/``unpack`` allocate. 1 GiB is 16x the largest NVDLA surface the tests use
  and far above what an RTL simulation can load; it keeps a mistaken stride from exhausting the machine.
* ``base`` (descriptor start address) is an integer with ``0 <= base < 2**64`` (AXI addresses are at most
  64 bits).
* A tensor is converted once to a C-ordered array in native byte order: byte order, memory order and
  strides never change the image. Object arrays and ragged nesting are refused.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from .errors import FormatError

MAX_SURFACE_BYTES = 1 << 30
ADDRESS_LIMIT = 1 << 64


def check_name(name: object) -> str:
    """A format name must be a string."""
    if not isinstance(name, str):
        raise FormatError("format.name_type", f"format name must be a str, got {type(name).__name__} {name!r:.60}")
    return name


def as_int(value: object, what: str) -> int:
    """``value`` as a Python int: ints and numpy integers only (no bool, no float, as numpy's indices)."""
    if isinstance(value, (bool, np.bool_)):
        raise FormatError("arg.integer", f"{what} must be an integer, got bool {value!r}")
    try:
        return operator.index(value)  # type: ignore[arg-type]  # TypeError caught below
    except TypeError:
        raise FormatError(
            "arg.integer", f"{what} must be an integer, got {type(value).__name__} {value!r:.60}"
        ) from None


def check_magnitude(value: int, what: str) -> int:
    """Refuse an integer whose magnitude exceeds the size limit (no stride or size can be that large)."""
    if abs(value) > MAX_SURFACE_BYTES:
        raise FormatError(
            "size.limit",
            f"{what}={value} exceeds the size limit of {MAX_SURFACE_BYTES} bytes "
            "(models.core.validate.MAX_SURFACE_BYTES)",
        )
    return value


def check_dims(shape: object) -> tuple[int, ...]:
    """A shape is a sequence of integers (not a str, bytes or a bare int), as numpy's ``shape`` arguments."""
    if isinstance(shape, (str, bytes, bytearray)) or not isinstance(shape, (Sequence, np.ndarray)):
        raise FormatError(
            "shape.type", f"shape must be a sequence of integers, got {type(shape).__name__} {shape!r:.60}"
        )
    if isinstance(shape, np.ndarray) and shape.ndim != 1:
        raise FormatError("shape.type", f"shape must be one-dimensional, got an array of shape {shape.shape}")
    return tuple(as_int(d, f"shape[{i}]") for i, d in enumerate(shape))


def check_tensor_bytes(shape: tuple[int, ...], itemsize: int) -> None:
    """The logical tensor itself stays under the size limit (checked with Python ints)."""
    n = math.prod(shape) * itemsize
    if n > MAX_SURFACE_BYTES:
        raise FormatError(
            "size.limit", f"a tensor of shape {shape} is {n} bytes, above the size limit of {MAX_SURFACE_BYTES} bytes"
        )


def check_base(base: object) -> int:
    """A descriptor base address: an integer in ``[0, 2**64)``."""
    b = as_int(base, "base")
    if not 0 <= b < ADDRESS_LIMIT:
        raise FormatError("base.range", f"base=0x{b:x} is outside the 64-bit address space [0, 2**64)")
    return b


def as_tensor(tensor: object) -> np.ndarray:
    """A tensor argument as a numeric ndarray (refusing object arrays and ragged nesting)."""
    try:
        arr = np.asarray(tensor)
    except (ValueError, TypeError) as exc:
        raise FormatError("tensor.type", f"tensor is not a rectangular numeric array ({exc})") from None
    if arr.dtype.hasobject or arr.dtype.kind in "OUSV":
        raise FormatError("tensor.type", f"tensor must hold numbers, got dtype {arr.dtype}")
    return arr


def native(arr: np.ndarray) -> np.ndarray:
    """``arr`` C-ordered in native byte order (no copy when it already is)."""
    return np.ascontiguousarray(arr, dtype=arr.dtype.newbyteorder("="))


def owned(arr: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """What ``unpack`` hands back: a fresh, writable, C-ordered array in native byte order."""
    return np.array(arr, dtype=np.dtype(dtype).newbyteorder("="), order="C", copy=True)


def surface_sizes(info: Mapping[str, Any]) -> dict[str, int]:
    """Byte sizes of the surfaces an ``info`` dict announces (its ``surfaces`` list, else its ``bytes``).

    A data-dependent surface (compressed weights) counts with its upper bound (``max_bytes``).
    """

    def size(entry: Mapping[str, Any]) -> int | None:
        n = entry.get("bytes")
        n = entry.get("max_bytes") if n is None else n
        return None if n is None else int(n)

    listed = info.get("surfaces")
    entries = listed if isinstance(listed, (list, tuple)) and listed and isinstance(listed[0], Mapping) else [info]
    sizes = {str(e.get("name", "data")): size(e) for e in entries}
    return {k: v for k, v in sizes.items() if v is not None}


def check_sizes(fmt_name: str, sizes: Mapping[str, int]) -> None:
    """Every surface is at most :data:`MAX_SURFACE_BYTES` (before anything is allocated)."""
    for name, n in sizes.items():
        if n > MAX_SURFACE_BYTES:
            raise FormatError(
                "size.limit",
                f"{fmt_name}: surface {name} would be {n} bytes, above the size limit of "
                f"{MAX_SURFACE_BYTES} bytes (models.core.validate.MAX_SURFACE_BYTES)",
            )
