"""oneDNN reorder: copy a tensor from one memory descriptor's layout into another's.

Spec: MKL-DNN "Understanding Memory Formats" (seed 002): a reorder keeps the logical tensor and
changes only its physical layout; blocked destinations get zero padding ("What if channels are not
a multiple of 8"). Both descriptors must have the same dims and data type (oneDNN reorders can also
convert data types; this model does not, rule ``onednn.reorder``).

Speed: when one side is plain and the other needs no padding, the plain side is viewed with the
other side's block split (a free numpy view) and the reorder is ONE strided copy into the
destination (``nchw -> nChw16c``, ``nChw16c -> nchw``). Otherwise it goes through the logical
tensor (unpack, then pack): two copies.
"""

from __future__ import annotations

import numpy as np

from ..core.errors import FormatError
from .desc import MemoryDesc, buffer_bytes


def reorder(src_bytes: object, src_desc: MemoryDesc, dst_desc: MemoryDesc) -> np.ndarray:
    """Reorder ``src_bytes`` (laid out by ``src_desc``) into a new buffer laid out by ``dst_desc``.

    Returns the destination as a 1-D ``uint8`` array of ``dst_desc.size`` bytes; every byte that holds
    no logical element (padding, gaps) is zero.
    """
    if tuple(src_desc.dims) != tuple(dst_desc.dims):
        raise FormatError("onednn.reorder", f"reorder needs equal dims, got {src_desc.dims} and {dst_desc.dims}")
    if src_desc.dtype != dst_desc.dtype:
        raise FormatError(
            "onednn.reorder",
            f"reorder needs equal data types, got {src_desc.data_type} and "
            f"{dst_desc.data_type} (this model does not convert)",
        )
    raw = buffer_bytes(src_bytes)
    if raw.size < src_desc.size:
        raise FormatError(
            "onednn.buffer_size",
            f"source buffer of {raw.size} bytes is shorter than the "
            f"{src_desc.size} bytes of {src_desc.tag or 'the source descriptor'}",
        )
    src = raw[: src_desc.size].view(src_desc.dtype)
    dst = dst_desc.new_buffer()
    if not src_desc.inner_nblks and dst_desc.padded_dims == dst_desc.dims:
        dst_desc.physical_view(dst)[...] = src_desc.logical_view(src, split_like=dst_desc)
    elif not dst_desc.inner_nblks and src_desc.padded_dims == src_desc.dims:
        dst_desc.logical_view(dst, split_like=src_desc)[...] = src_desc.physical_view(src)
    else:
        return dst_desc.pack(src_desc.unpack(src))
    return dst.view(np.uint8)
