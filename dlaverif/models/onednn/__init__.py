"""oneDNN (MKL-DNN) reference models: generic format tags, blocked memory descriptors, reorders.

Spec: MKL-DNN 1.0 "Understanding Memory Formats" (``shared/seeds/002_9432e89d0574fb50.txt``).

* :mod:`.tags`: the generic tag parser (``nchw``, ``nChw8c``, ``OIhw4i16o4i``, ``aBcd8b`` ...).
* :mod:`.desc`: :class:`MemoryDesc` (dims, padded_dims, strides, inner blocks, offsets, pack/unpack).
* :mod:`.reorder`: :func:`reorder` between any two descriptors of the same dims and data type.
* :mod:`.formats`: the ``onednn.<tag>`` registry family and the BlockedCubeDescriptor export.
"""

from .desc import ONEDNN_DTYPES, MemoryDesc, onednn_dtype
from .formats import descriptor_for, memory_desc
from .reorder import reorder
from .tags import ParsedTag, parse_tag

__all__ = [
    "MemoryDesc",
    "ParsedTag",
    "parse_tag",
    "reorder",
    "memory_desc",
    "descriptor_for",
    "onednn_dtype",
    "ONEDNN_DTYPES",
]
