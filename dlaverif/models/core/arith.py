"""Integer arithmetic and byte conversion shared by every model (one helper per job).

All sizes are Python ``int``: exact for any magnitude, so a size can be computed and checked against
:data:`models.core.limits.MAX_SURFACE_BYTES` before anything is allocated.
"""

from __future__ import annotations

import numpy as np

from .errors import FormatError


def ceil_div(a: int, b: int) -> int:
    """``ceil(a / b)`` for integers, exact for huge values (``b`` > 0)."""
    return -(-int(a) // int(b))


def round_up(a: int, b: int) -> int:
    """``a`` rounded up to a multiple of ``b`` (``b`` > 0), exact for huge values."""
    return ceil_div(a, b) * int(b)


def as_bytes(obj: object) -> bytes:
    """The raw bytes of a buffer: ``bytes``, ``bytearray``, ``memoryview`` or ``np.ndarray``.

    An array of any dtype gives the bytes of its elements in logical C order, each element in the
    byte order its dtype declares (``>u2`` gives big-endian pairs): the array "as stored", whatever
    its memory order or strides, which is what the same values written to memory with that dtype
    would hold. A memoryview of any format and layout gives its bytes in C order. Anything else
    (lists, object arrays, str) is refused with ``FormatError`` (rule ``bytes.type``).
    """
    if isinstance(obj, bytes):
        return obj
    if isinstance(obj, (bytearray, memoryview)):
        return bytes(obj) if isinstance(obj, bytearray) else obj.tobytes(order="C")
    if isinstance(obj, np.ndarray):
        if obj.dtype.hasobject:
            raise FormatError("bytes.type", "an object array holds no raw bytes")
        return obj.tobytes(order="C")
    raise FormatError(
        "bytes.type", f"cannot read bytes from {type(obj).__name__}; give bytes, bytearray, memoryview or a numpy array"
    )


def as_uint8(obj: object) -> np.ndarray:
    """:func:`as_bytes` as a fresh, writable 1-D ``uint8`` array (the form every model indexes)."""
    return np.frombuffer(as_bytes(obj), dtype=np.uint8).copy()
